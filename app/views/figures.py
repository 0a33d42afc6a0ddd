"""Plotly figures: plain functions of a trace (through its Timeline) and a step index.

Figures are built from plain dicts and handed to Plotly unvalidated: validation cost ~50 ms a
figure, which made stepping through a trace slow. The dicts below are the whole spec.
"""
from __future__ import annotations

import plotly.graph_objects as go

from .. import i18n
from . import palette
from .timeline import Timeline

AXIS = dict(gridcolor="#e5e7eb", zerolinecolor="#d1d5db", automargin=True)
# Fonts that draw Chinese, in the order a visitor's system may have them (Plotly draws text in SVG
# with the browser's fonts; Debian/Ubuntu: fonts-noto-cjk, Windows: YaHei, macOS: PingFang).
FONT_FAMILY = {"zh": "Noto Sans CJK SC, Microsoft YaHei, PingFang SC, sans-serif"}


def make_figure(data: list[dict], title: str, height: int, *, lang: str = i18n.DEFAULT, **layout) -> go.Figure:
    """A figure with the explorer's look and an explicit height (never zero); in `lang`'s fonts."""
    font = dict(size=12, family=FONT_FAMILY[lang]) if lang in FONT_FAMILY else dict(size=12)
    base = dict(title=dict(text=title, font=dict(size=14)), height=height, font=font,
                margin=dict(l=50, r=20, t=40, b=40), plot_bgcolor="white", paper_bgcolor="white",
                xaxis=dict(AXIS), yaxis=dict(AXIS))
    for key, value in layout.items():
        base[key] = {**base[key], **value} if isinstance(value, dict) and key in base else value
    return go.Figure({"data": data, "layout": base}, _validate=False)


def aside_below(title: str) -> str:
    """A title's closing aside "… (…)" on a line of its own: Plotly never wraps a title, and on a
    390 px phone a one-line "Mean entropy and tokens per forward (low is not always fast)" ran off
    the chart (give the figure ~64 px of top margin)."""
    for opening in (" (", "（"):
        head, found, tail = title.rpartition(opening)
        if found and head:
            return f"{head}<br>{opening.strip()}{tail}"
    return title


def label_spacing(length: int, most: int = 6) -> int:
    """Every how many positions a long mask's rows are labelled: at most `most` labels a stream
    (a 48-row grid drawn 600 px high has 12 px a row: a label on each would be unreadable)."""
    return next(k for k in (1, 2, 4, 8, 16, 32, 64) if length <= most * k or k == 64)


def runs(positions: list[int]) -> str:
    """8, 16, 17, 18 -> "8, 16–18"."""
    parts, start = [], None
    for i, p in enumerate(positions):
        start = p if start is None else start
        if i + 1 == len(positions) or positions[i + 1] != p + 1:
            parts.append(str(p) if p == start else f"{start}–{p}")
            start = None
    return ", ".join(parts)


def training_mask_figure(is_mask: list[bool], block_size: int, lang: str = i18n.DEFAULT,
                         every: int = 1) -> go.Figure:
    """The dual-stream training mask (2L × 2L), built by the training code itself. every > 1:
    rows and columns labelled at every `every`-th position of each stream, and the title says so
    and lists the masked positions (the labels in between would say which)."""
    import torch
    from wedlm.training.objective import training_mask
    allowed = training_mask(torch.tensor([is_mask]), block_size)[0, 0].int().tolist()
    length = len(is_mask)
    names = [f"x0:{i}" for i in range(length)] + [f"xt:{i}{'[M]' if is_mask[i] else ''}" for i in range(length)]
    heat = dict(type="heatmap", z=allowed, x=names, y=names, colorscale=[[0, palette.NO_ATTEND_COLOUR], [1, palette.ATTEND_COLOUR]],
                showscale=False, xgap=1, ygap=1, hovertemplate=i18n.text(lang, "views.fig.mask_hover"))
    title = i18n.text(lang, "views.fig.mask_title", length=length, block=block_size)
    axes = dict(xaxis=dict(tickangle=-60), yaxis=dict(autorange="reversed"))
    if every > 1:
        shown = [n for i, n in enumerate(names) if (i % length) % every == 0]
        masked = runs([i for i, m in enumerate(is_mask) if m]) or "–"
        title += "<br>" + i18n.text(lang, "views.fig.mask_every", every=every, masked=masked)
        for axis in axes.values():
            axis.update(tickmode="array", tickvals=shown, ticktext=shown)
        axes["margin"] = dict(t=70)
    return make_figure([heat], title, 560, lang=lang, **axes)


def entropy_bars(timeline: Timeline, step: int, lang: str = i18n.DEFAULT) -> go.Figure:
    """The open masks' scores at `step` (entropy + λ·d) against τ; AR: the next-token head's
    entropy at every step so far (it fills one slot per forward whatever the entropy)."""
    if timeline.trace.decoder == "ar":
        return _ar_entropy_bars(timeline, step, lang)
    s = timeline.trace.steps[step]
    tr = i18n.Texts(lang)
    data = []
    if s.masks:
        x = [str(m.pos) for m in s.masks]
        colours = [palette.STATE_COLOURS["new"] if m.selected else palette.STATE_COLOURS["mask"] for m in s.masks]
        data.append(dict(type="bar", x=x, y=[m.entropy for m in s.masks], name=tr("views.fig.entropy_h"),
                         marker=dict(color=colours, line=dict(color="#374151", width=0.5)),
                         customdata=[m.pos for m in s.masks],
                         hovertemplate=tr("views.fig.h_hover")))
        data.append(dict(type="bar", x=x, y=[m.score - m.entropy for m in s.masks], name=tr("views.penalty_name"),
                         marker=dict(color=palette.PENALTY_COLOUR), customdata=[m.pos for m in s.masks],
                         hovertemplate=tr("views.fig.penalty_hover")))
        if s.threshold is not None:
            data.append(dict(type="scatter", x=[x[0], x[-1]], y=[s.threshold, s.threshold], mode="lines",
                             name=f"τ = {s.threshold:g}", line=dict(color=palette.THRESHOLD_COLOUR, dash="dash")))
    title = tr("views.bars.title_masks", step=step) if s.masks else tr("views.fig.no_masks", step=step)
    return make_figure(data, title, 320, lang=lang, barmode="stack",
                       xaxis=dict(title=dict(text=tr("views.fig.mask_slot")), type="category"),
                       yaxis=dict(title=dict(text=tr("views.nats"))), legend=dict(orientation="h", y=-0.35))


def _ar_entropy_bars(timeline: Timeline, step: int, lang: str = i18n.DEFAULT) -> go.Figure:
    tr = i18n.Texts(lang)
    steps = timeline.trace.steps[: step + 1]
    fills = [(s.index, f) for s in steps for f in s.filled]
    colours = [palette.STATE_COLOURS["new"] if k == step else palette.STATE_COLOURS["committed"] for k, _ in fills]
    bar = dict(type="bar", x=[str(f.pos) for _, f in fills], y=[f.entropy for _, f in fills],
               name=tr("views.fig.next_entropy"), marker=dict(color=colours), customdata=[f.pos for _, f in fills],
               hovertemplate=tr("views.fig.h_hover"))
    return make_figure([bar], tr("views.fig.ar_title", step=step), 320, lang=lang,
                       xaxis=dict(title=dict(text=tr("views.predicted_position")), type="category"),
                       yaxis=dict(title=dict(text=tr("views.nats"))))


def entropy_heatmap(timeline: Timeline, lang: str = i18n.DEFAULT) -> go.Figure:
    """Entropy of every open mask at every step on the fixed scale (0 to palette.ENTROPY_MAX
    nats); AR: one row, the next-token head's entropy at each position it predicted."""
    steps = timeline.trace.steps
    tr = i18n.Texts(lang)
    scale = dict(colorscale=palette.ENTROPY_SCALE, zmin=0, zmax=palette.ENTROPY_MAX,
                 colorbar=dict(title=dict(text=tr("views.fig.entropy_nats")), thickness=12))
    if timeline.trace.decoder == "ar":
        fills = [f for s in steps for f in s.filled]
        heat = dict(type="heatmap", z=[[f.entropy for f in fills]], x=[f.pos for f in fills],
                    y=[tr("views.next_token")], hovertemplate=tr("views.fig.hz_hover"), **scale)
        return make_figure([heat], tr("views.fig.heat_ar_title"), 300, lang=lang,
                           xaxis=dict(title=dict(text=tr("views.logical_position"))))
    positions = sorted({m.pos for s in steps for m in s.masks})
    col = {p: i for i, p in enumerate(positions)}
    z = [[None] * len(positions) for _ in steps]
    for s in steps:
        for m in s.masks:
            z[s.index][col[m.pos]] = m.entropy
    heat = dict(type="heatmap", z=z, x=positions, y=list(range(len(steps))),
                hovertemplate=tr("views.fig.step_hover"), **scale)
    return make_figure([heat], tr("views.fig.heat_title", max=f"{palette.ENTROPY_MAX:g}"),
                       360, lang=lang, xaxis=dict(title=dict(text=tr("views.logical_position"))),
                       yaxis=dict(title=dict(text=tr("views.table.step")), autorange="reversed"))


def prefix_growth(timelines: dict[str, Timeline], current: int | None = None,
                  colours: dict[str, str] | None = None, shown: dict[str, int] | None = None,
                  lang: str = i18n.DEFAULT) -> go.Figure:
    """Committed output tokens against forward passes, one line per decode, each in its
    decoder's colour (or `colours[name]`); a dashed marker at forward `current + 1`. shown: a
    race in progress: each line only up to the forwards its lane has shown (the axes already
    span the whole run, so the chart never runs ahead of the lanes nor rescales)."""
    tr = i18n.Texts(lang)
    data, longest, top = [], 1, 1
    # each line its own dash and marker: two decoders that commit alike (the Race tab's streaming and
    # verified on counting) drew one line over the other; dotted stays the AR pace's
    dashes, symbols = ("solid", "dash", "dashdot", "longdash"), ("circle", "square", "diamond", "triangle-up")
    for k, (name, tl) in enumerate(timelines.items()):
        y = list(tl.committed_after)
        longest, top = max(longest, len(y)), max([top] + y)
        if shown is not None:
            y = y[:max(0, shown.get(name, len(y)))]
        colour = (colours or {}).get(name) or palette.decoder_colour(tl.trace.decoder, k)
        # x: forwards; customdata: each point's step (k at forward k + 1), so the hover names both
        data.append(dict(type="scatter", x=list(range(1, len(y) + 1)), y=y, mode="lines+markers", name=name,
                         customdata=list(range(len(y))),
                         line=dict(color=colour, dash=dashes[k % len(dashes)]),
                         marker=dict(color=colour, size=6, symbol=symbols[k % len(symbols)]),
                         hovertemplate=tr("views.fig.growth_hover") + "<extra>" + name + "</extra>"))
    # the pace first, so under the lines (an AR line runs on it: dots over it hid it), last in the legend
    data.insert(0, dict(type="scatter", x=[0, longest], y=[0, longest], mode="lines", legendrank=2000,
                        name=tr("views.fig.pace"), line=dict(dash="dot", color="#9ca3af")))
    shapes, notes = [], []
    if current is not None:
        shapes.append(dict(type="line", x0=current + 1, x1=current + 1, y0=0, y1=1, yref="paper",
                           line=dict(color=palette.THRESHOLD_COLOUR, dash="dash")))
        # the line's step AND its forward (the x axis counts forwards: step k sits at k + 1)
        notes.append(dict(x=current + 1, y=1, yref="paper", showarrow=False, yanchor="bottom",
                          xanchor="left" if current + 1 <= longest / 2 else "right",
                          text=tr("views.growth.marker", step=current, forward=current + 1),
                          font=dict(color=palette.THRESHOLD_COLOUR, size=11)))
    fixed = dict(range=[0, longest + 0.5]) if shown is not None else {}
    # the title names the dashed line only while one is drawn (a finished race, a wall-clock replay: none)
    title = tr("views.fig.growth_title" if shapes else "views.fig.growth_title_plain")
    return make_figure(data, title, 340, lang=lang, shapes=shapes, annotations=notes,
                       xaxis=dict(title=dict(text=tr("views.fig.growth_x")), **fixed),
                       yaxis=dict(title=dict(text=tr("views.committed_tokens")),
                                  **({"range": [0, max(top, longest) * 1.05]} if shown is not None else {})),
                       legend=dict(orientation="h", y=-0.3))
