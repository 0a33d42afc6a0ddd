"""The Decode tab's charts as SVG drawn on the server: the open masks' scores at one step, and
two whole-trace charts (committed-prefix growth, entropy over steps) whose "this step" marker
the page moves (elements with data-at-step="k" show while step k is shown; app/static/stepper.js).

SVG rather than Plotly: every step's chart is drawn once with the trace and shown at once by
the page, with no toolbar over its title. Titles are HTML above the chart. Marks carry data-pos
so tapping a position highlights it here as in every other view (app/static/highlight.js)."""
from __future__ import annotations

import math
from html import escape

from .. import i18n
from . import lanes, palette
from .timeline import Timeline

WIDTH = 420          # viewBox units; the chart scales to its box
LEFT, RIGHT, TOP, BOTTOM = 44, 8, 10, 40
AR_BARS = 40         # the AR bars show the last this many predictions
HEADROOM = 1.2       # the bar chart's top value over its decode's tallest bar (room for its ✓)
CHECK_LIFT = 4       # a ✓ stands at least this far above the axis (a ~0 bar's ✓ clears its label on a phone)
PENALTY_STRIP = 0.3  # the λ·d strip's width, a share of its bar's: a filled bar that is nearly all λ·d still reads as its
# state's colour (walk 29 read counting's 0.4-wide strips as grey "stays a mask" bars)
GAP_SLOTS = 0.5      # the room, in bar slots, where the open masks skip filled positions
TAU_TAG = 16         # the bar chart's margin right of its plot, where the τ line's "τ" tag is (viewBox units)
# the position labels under the bars: the largest size a stylesheet draws them at (a phone's, style.css),
# a digit's width in em (with room to spare) and the gap kept between two labels, in viewBox units
TICK_FONT_MAX, DIGIT_EM, TICK_GAP = 18, 0.55, 3
TICK_FONT_PAGE = 13   # their size wider than a phone (style.css: svg.chart .tick)


# a phone draws the position labels at TICK_FONT_MAX and scales the chart to ~0.72: labels that only
# just miss each other (a 3-unit gap: 2 px) read as one run of digits ("6566 67 68"); where two
# neighbours would have less than this gap, one is marked "alt" and a phone hides it (style.css; label_plan)
ROOMY_GAP = 10


def label_plan(labels: list[str], slot: float, first: list[int] = ()) -> dict[int, str]:
    """Which of evenly spaced slots `slot` units apart get their label: {slot index: "" (labelled
    everywhere) or "alt" (hidden on a phone)}, no two touching at the page's size, nor nearer than
    ROOMY_GAP at a phone's (TICK_FONT_MAX).
    The slots in `first` (the words' positions: the first open mask, the slots the narration names,
    the filled ones) are taken first, then the others left to right, each only where it keeps
    TICK_GAP from every label taken (ROOMY_GAP on a phone): the thinning drops the others, never
    a slot the words name (a phone showed 58, 60 … 72 while the words spoke of 65 and 73)."""
    order = list(dict.fromkeys([k for k in first if 0 <= k < len(labels)] + list(range(len(labels)))))

    def pick(candidates, size, gap):
        taken = []
        for k in candidates:
            if all(abs(k - j) * slot >= (len(labels[k]) + len(labels[j])) / 2 * DIGIT_EM * size + gap for j in taken):
                taken.append(k)
        return taken
    page = pick(order, TICK_FONT_PAGE, TICK_GAP)
    phone = set(pick([k for k in order if k in page], TICK_FONT_MAX, ROOMY_GAP))
    return {k: "" if k in phone else "alt" for k in page}


# open_example and named_positions word chapter 2's choice, but live here, in the views: the Decode tab
# draws the same bar chart as chapter 2 (entropy_bars labels named_positions by default; tests/test_tour.py
# checks the two charts are one), and the views never import the tour (app/tabs)
def open_example(step):
    """The open mask chapter 2's words explain at a step: the first whose entropy alone is under τ but
    whose score (with λ·d) is not (the distance penalty kept it open), else the first open one."""
    tau = step.threshold
    open_ = [m for m in step.masks if not m.selected]
    lam_kept = [m for m in open_ if tau is not None and m.entropy < tau <= m.score]
    return (lam_kept or open_ or [None])[0]


def named_positions(step) -> list[int]:
    """The positions a step's words name, the first labelled under its bars: the first open mask, the
    filled slot with the lowest score (chapter 2's example), the open mask it explains, then every filled slot."""
    chosen = [m for m in step.masks if m.selected]
    best = [min(chosen, key=lambda m: m.score).pos] if chosen else []
    example = open_example(step)
    return list(dict.fromkeys([m.pos for m in step.masks[:1]] + best + ([example.pos] if example else [])
                              + [m.pos for m in chosen]))


def _frame(height: int, body: str, label: str) -> str:
    return (f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" width="100%" role="img" '
            f'aria-label="{escape(label)}" preserveAspectRatio="xMidYMid meet">{body}</svg>')


def _y_axis(top_value: float, height: int, unit: str, right: float = WIDTH - RIGHT) -> str:
    """Gridlines (to x = right) and labels at round values from 0 to top_value."""
    plot_h = height - TOP - BOTTOM
    raw = top_value / 4
    step = next(s for s in (0.25, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 1e9) if s >= raw)
    out, v = [], 0.0
    while v <= top_value + 1e-9:
        y = TOP + plot_h * (1 - v / top_value)
        out.append(f'<line x1="{LEFT}" x2="{right:.1f}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>'
                   f'<text x="{LEFT - 4}" y="{y + 4:.1f}" class="tick" text-anchor="end">{v:g}</text>')
        v += step
    out.append(f'<text x="10" y="{TOP + plot_h / 2:.0f}" class="axis" transform="rotate(-90 10 '
               f'{TOP + plot_h / 2:.0f})" text-anchor="middle">{escape(unit)}</text>')
    return "".join(out)


def bars_top(trace) -> float:
    """The bar chart's top value for every step of a decode: its largest bar (H + λ·d; AR: entropy)
    or τ, with HEADROOM. One scale for the whole decode: a scale of each step's own (0–2, then
    0–1, then 0–0.75) moved the τ line from step to step and invited comparing heights across them."""
    if trace.decoder == "ar":
        values = [f.entropy for s in trace.steps for f in s.filled]
    else:
        values = [max(m.entropy, m.score) for s in trace.steps for m in s.masks]
        values += [s.threshold for s in trace.steps if s.threshold is not None]
    return max(values + [0.5]) * HEADROOM


def timeline_bars_top(timeline: Timeline) -> float:
    """bars_top of the timeline's trace, scanned once per trace and kept on the timeline: every
    step's chart reads it (scanning at every step cost O(steps² × masks): seconds for a long decode)."""
    if "bars_top" not in timeline.memo:
        timeline.memo["bars_top"] = bars_top(timeline.trace)
    return timeline.memo["bars_top"]


def entropy_bars_title(timeline: Timeline, step: int, lang: str = i18n.DEFAULT) -> str:
    """What the bars of `step` show; says why there are none when there are none."""
    trace = timeline.trace
    tr = i18n.Texts(lang)
    if trace.decoder == "ar":
        return tr("views.bars.title_ar", step=step)
    s = trace.steps[step]
    if s.masks:
        return tr("views.bars.title_masks", step=step)
    if s.finished:
        why = tr("views.bars.why_stop") if s.stop_reason == "stop_token" else tr("views.bars.why_budget")
        return tr("views.bars.title_ended", step=step, why=why)
    return tr("views.bars.title_full", step=step)


def entropy_bars(timeline: Timeline, step: int, height: int = 240, lang: str = i18n.DEFAULT,
                 named: list[int] | None = None) -> str:
    """The open masks' scores at `step` (entropy H stacked with λ·d) against the τ line; AR: the
    next-token head's entropy of the last AR_BARS forwards up to `step`. One y range for every
    step of the decode (bars_top, scanned once per timeline). named: the positions the page's words name, labelled first
    under the bars (default: named_positions)."""
    trace = timeline.trace
    if trace.decoder == "ar":
        bars = [(f.pos, f.entropy, 0.0, s.index == step)
                for s in trace.steps[max(0, step + 1 - AR_BARS): step + 1] for f in s.filled]
        tau = None
    else:
        s = trace.steps[step]
        bars = [(m.pos, m.entropy, max(0.0, m.score - m.entropy), m.selected) for m in s.masks]
        tau = s.threshold
        named = named_positions(s) if named is None else named
    tr = i18n.Texts(lang)
    title = f'<div class="charttitle">{escape(entropy_bars_title(timeline, step, lang))}</div>'
    if not bars:   # a box the chart's size: stepping to the end leaves no hole in the page beside the growth chart
        return title + f'<p class="note chart-empty bars-empty">{tr("views.bars.none")}</p>'
    # the decode's tallest bar and τ, with headroom for a ✓ and the τ label: nothing touches the plot's top
    top = timeline_bars_top(timeline)
    # the τ line ends in a "τ" tag right of the plot, where no bar is (inside it, a live τ = 1's
    # "τ = 1" ran across the tall bar at 73); its value is in the key under the chart
    plot_w, plot_h = WIDTH - LEFT - RIGHT - (TAU_TAG if tau is not None else 0), height - TOP - BOTTOM
    # where open masks skip positions (filled ones are not bars), a half slot of room and a "⋯" on
    # the axis: 110 and 113 side by side read as neighbours (walk 30)
    breaks = [k for k in range(1, len(bars)) if bars[k][0] != bars[k - 1][0] + 1]
    slot = plot_w / (len(bars) + GAP_SLOTS * len(breaks))
    shift = [GAP_SLOTS * sum(1 for b in breaks if b <= k) for k in range(len(bars))]
    bar_w = max(2.0, slot * 0.7)
    y = lambda v: TOP + plot_h * (1 - v / top)  # noqa: E731
    filled_colour, filled_edge = palette.STATE_COLOURS["new"], palette.STATE_EDGES["new"]
    marks = []
    index = {pos: k for k, (pos, *_) in enumerate(bars)}
    labelled = label_plan([str(pos) for pos, *_ in bars], slot,
                          [index[p] for p in (named or []) if p in index])
    for k, (pos, h, d, chosen) in enumerate(bars):
        x = LEFT + slot * (k + shift[k]) + (slot - bar_w) / 2
        colour = filled_colour if chosen else palette.STATE_COLOURS["mask"]
        pattern = ' class="bar chosen"' if chosen else ' class="bar"'
        tip = tr("views.bars.tip", pos=pos, h=f"{h:.2f}") + (f" + λ·d {d:.2f} = {h + d:.2f}" if d else "")
        # The whole bar (H + λ·d) is in the slot's colour, so a filled slot reads orange even where
        # λ·d is most of its score (a walker saw "slate bars" where the words said orange); λ·d is
        # the slate strip inside the bar's top. Every bar is its true height: a filled slot whose
        # score is ~0 (counting) shows as its ✓ (a bar drawn taller than its score read as 0.1 nats beside
        # the 0.00 its tip and the words say: walk 19; a filled-colour mark under the axis read as a
        # negative score: walk 25)
        h_top = y(h + d)
        strip_w = bar_w * PENALTY_STRIP
        marks.append(f'<g data-pos="{pos}"><title>{tip}</title>'
                     + f'<rect{pattern} x="{x:.1f}" y="{h_top:.1f}" width="{bar_w:.1f}" height="{y(0) - h_top:.1f}" '
                       f'fill="{colour}"/>'
                     + (f'<rect class="bar penalty" x="{x + (bar_w - strip_w) / 2:.1f}" y="{y(h + d):.1f}" '
                        f'width="{strip_w:.1f}" height="{y(h) - y(h + d):.1f}" fill="{palette.PENALTY_COLOUR}"/>'
                        if d > 0 else "")
                     + (f'<text x="{x + bar_w / 2:.1f}" y="{min(h_top, y(0) - CHECK_LIFT) - 3:.1f}" class="mark" '
                        f'text-anchor="middle" fill="{filled_edge}">✓</text>' if chosen else "")
                     + (f'<text x="{x + bar_w / 2:.1f}" y="{height - BOTTOM + 18}" '
                        f'class="tick{" " + labelled[k] if labelled[k] else ""}" '
                        f'text-anchor="middle">{pos}</text>' if k in labelled else "")
                     + "</g>")
    for k in breaks:   # centred in the half slot between the two bars, just under the axis
        skipped = bars[k][0] - bars[k - 1][0] - 1
        marks.append(f'<text x="{LEFT + slot * (k + shift[k] - GAP_SLOTS / 2):.1f}" y="{y(0) + 6:.1f}" '
                     f'class="gap-mark" text-anchor="middle"><title>{tr("views.bars.gap." + ("one" if skipped == 1 else "many"), n=skipped)}</title>⋯</text>')
    tau_line = ""
    if tau is not None:
        end = LEFT + plot_w
        tau_line = (f'<line x1="{LEFT}" x2="{end:.1f}" y1="{y(tau):.1f}" y2="{y(tau):.1f}" class="tau" '
                    f'stroke="{palette.THRESHOLD_COLOUR}"/><text x="{end + 3:.1f}" y="{y(tau) + 0.35 * TICK_FONT_MAX:.1f}" '
                    f'class="tick tau-tag" text-anchor="start" fill="{palette.THRESHOLD_COLOUR}">τ</text>')
    xlabel = tr("views.predicted_position") if trace.decoder == "ar" else tr("views.bars.xlabel")
    body = (_y_axis(top, height, tr("views.nats"), LEFT + plot_w) + "".join(marks) + tau_line
            + f'<text x="{LEFT + plot_w / 2:.0f}" y="{height - 6}" class="axis" text-anchor="middle">{xlabel}</text>')
    legend = (f'<div class="chartlegend"><span class="key" style="background:var(--state-new)"></span>'
              f'{tr("views.bars.key_filled")} <span class="key" style="background:var(--state-mask)"></span>'
              f'{tr("views.bars.key_mask")} '
              + (f'<span class="key" style="background:{palette.PENALTY_COLOUR}"></span>{tr("views.bars.key_penalty")} '
                 f'<span class="key tau-key"></span>{"τ" if tau is None else f"τ = {tau:g}"}' if trace.decoder != "ar" else "") + '</div>')
    return title + _frame(height, body, entropy_bars_title(timeline, step, lang)) + legend


FORWARD_LABELS = 8   # at most this many forward-count labels under a growth chart


def round_step(span: float, most: int, smallest: float = 1) -> float:
    """An axis' label step: the smallest of smallest × 1, 2, 5, 10, 20, 50, … that puts at most
    `most` steps on `span` (the growth charts' forwards: 1, 2, 5, 10, …; the τ sweep's: 0.1, 0.2, 0.5, …)."""
    scale = smallest
    while True:
        for m in (1, 2, 5):
            if span / (m * scale) <= most:
                return round(m * scale, 10)
        scale *= 10


def forward_ticks(n: int, x, base: float) -> list[str]:
    """The x axis's labels: forward counts at a round spacing (at most ~FORWARD_LABELS); a step's
    marker names its forward beside its step. x: a forward count's x; base: the axis's y."""
    spacing = int(round_step(n, FORWARD_LABELS))
    # 0 starts at its tick, clear of the y axis's 0 beside it (centred, the two touched on a phone)
    return [f'<line x1="{x(f):.1f}" x2="{x(f):.1f}" y1="{base:.1f}" y2="{base + 4:.1f}" class="grid"/>'
            f'<text x="{x(f):.1f}" y="{base + 15:.1f}" class="tick xtick" '
            f'text-anchor="{"start" if f == 0 else "middle"}">{f}</text>'
            for f in range(0, n + 1, spacing)]


def marker_side(at: float, middle: float) -> str:
    """A marker label's x and anchor: right of its line in the chart's left half, left of it in the
    right half, so it stays inside the chart."""
    return f'x="{at + 4:.1f}" text-anchor="start"' if at < middle else f'x="{at - 4:.1f}" text-anchor="end"'


def pace_line(x0: float, y0: float, x1: float, y1: float) -> str:
    """The AR pace (one token per forward) as hollow beads, drawn under the decodes' lines: an AR
    line runs exactly on it (a dotted pace under the line was hidden; beads over the line hid
    the line: walk 19). The line over the beads leaves both seen: the beads are wider than it."""
    points = f"{x0:.1f},{y0:.1f} {x1:.1f},{y1:.1f}"
    return f'<polyline points="{points}" class="pace"/><polyline points="{points}" class="pace-core"/>'


def prefix_growth(timeline: Timeline, height: int = 240, lang: str = i18n.DEFAULT) -> str:
    """Committed tokens against forward passes over the AR pace (one per forward) in beads, and one
    marker per step (shown while that step is)."""
    y_values = timeline.committed_after
    n = max(1, len(y_values))
    top = max(y_values + [n, 1])
    plot_w, plot_h = WIDTH - LEFT - RIGHT, height - TOP - BOTTOM
    x = lambda f: LEFT + plot_w * f / n  # noqa: E731
    y = lambda v: TOP + plot_h * (1 - v / top)  # noqa: E731
    colour = palette.decoder_colour(timeline.trace.decoder)
    line = " ".join(f"{x(k + 1):.1f},{y(v):.1f}" for k, v in enumerate(y_values))
    tr = i18n.Texts(lang)
    # each marker names its step AND its forward (the x axis counts forwards: step k sits at k + 1),
    # right of the line in the chart's left half, left of it in the right half (it stays inside)
    markers = "".join(f'<g class="at-step" data-at-step="{k}"><line x1="{x(k + 1):.1f}" x2="{x(k + 1):.1f}" '
                      f'y1="{TOP}" y2="{TOP + plot_h}" class="marker" stroke="{palette.THRESHOLD_COLOUR}"/>'
                      f'<circle cx="{x(k + 1):.1f}" cy="{y(v):.1f}" r="4" fill="{palette.THRESHOLD_COLOUR}"/>'
                      f'<text {marker_side(x(k + 1), LEFT + plot_w / 2)} y="{TOP + 12}" class="tick" '
                      f'fill="{palette.THRESHOLD_COLOUR}">{tr("views.growth.marker", step=k, forward=k + 1)}</text></g>'
                      for k, v in enumerate(y_values))
    body = (_y_axis(top, height, tr("views.committed_tokens"))
            + pace_line(x(0), y(0), x(min(n, top)), y(min(n, top)))
            + f'<polyline points="{x(0):.1f},{y(0):.1f} {line}" class="growth" stroke="{colour}"/>' + markers
            + "".join(forward_ticks(n, x, TOP + plot_h))
            + f'<text x="{LEFT + plot_w / 2:.0f}" y="{height - 6}" class="axis" text-anchor="middle">'
              f'{tr("views.growth.xlabel", n=n)}</text>')
    title = f'<div class="charttitle">{tr("views.growth.title")}</div>'
    # a key under it, as the bars have: the line's decoder and the pace's beads (the chart is then as
    # tall as the bars beside it, with no blank below it)
    legend = (f'<div class="chartlegend"><span class="key line" style="background:{colour}"></span>'
              f'{escape(lanes.lane_title(timeline.trace.decoder, lang))} '
              f'<span class="key line pace-key"></span>{tr("views.fig.pace")}</div>')
    return title + _frame(height, body, tr("views.growth.label")) + legend


def entropy_heatmap(timeline: Timeline, height: int = 260, lang: str = i18n.DEFAULT) -> str:
    """The entropy of every open mask at every step on the fixed scale, a row per step (AR: a
    column per predicted position); the shown step's row is outlined."""
    trace = timeline.trace
    if trace.decoder == "ar":
        cells = [(s.index, f.pos, f.entropy) for s in trace.steps for f in s.filled]
        rows = 1
    else:
        cells = [(s.index, m.pos, m.entropy) for s in trace.steps for m in s.masks]
        rows = max(1, len(trace.steps))
    positions = sorted({p for _, p, _ in cells})
    tr = i18n.Texts(lang)
    title = (f'<div class="charttitle">{tr("views.heat.title", max=f"{palette.ENTROPY_MAX:g}")}</div>'
             if trace.decoder != "ar" else f'<div class="charttitle">{tr("views.heat.title_ar")}</div>')
    if not positions:
        return title + f'<p class="note chart-empty">{tr("views.heat.none")}</p>'
    col = {p: i for i, p in enumerate(positions)}
    plot_w, plot_h = WIDTH - LEFT - RIGHT, height - TOP - BOTTOM
    cw, rh = plot_w / len(positions), plot_h / rows
    row_of = (lambda k: 0) if trace.decoder == "ar" else (lambda k: k)  # noqa: E731
    rects = "".join(f'<rect x="{LEFT + cw * col[p]:.1f}" y="{TOP + rh * row_of(k):.1f}" width="{cw + 0.3:.1f}" '
                    f'height="{rh + 0.3:.1f}" fill="{palette.entropy_colour(h)}"/>' for k, p, h in cells)
    columns = "".join(f'<rect class="poscol" data-pos="{p}" x="{LEFT + cw * i:.1f}" y="{TOP}" '
                      f'width="{cw:.1f}" height="{plot_h}"><title>{tr("views.position", pos=p)}</title></rect>'
                      for i, p in enumerate(positions))
    if trace.decoder == "ar":
        where = {k: [col[p] for kk, p, _ in cells if kk == k] for k in range(len(trace.steps))}
        markers = "".join(f'<rect class="at-step marker" data-at-step="{k}" x="{LEFT + cw * c[0]:.1f}" y="{TOP}" '
                          f'width="{cw:.1f}" height="{plot_h}"/>' for k, c in where.items() if c)
    else:
        markers = "".join(f'<rect class="at-step marker" data-at-step="{k}" x="{LEFT}" y="{TOP + rh * k:.1f}" '
                          f'width="{plot_w}" height="{max(rh, 1.5):.1f}"/>' for k in range(rows))
    ticks = "".join(f'<text x="{LEFT + cw * (i + 0.5):.1f}" y="{height - BOTTOM + 14}" class="tick" '
                    f'text-anchor="middle">{p}</text>'
                    for i, p in enumerate(positions) if i % max(1, len(positions) // 12) == 0)
    ylabel = tr("views.next_token") if trace.decoder == "ar" else tr("views.heat.ylabel", last=rows - 1)
    body = (rects + columns + markers + ticks
            + f'<text x="10" y="{TOP + plot_h / 2:.0f}" class="axis" transform="rotate(-90 10 {TOP + plot_h / 2:.0f})" '
              f'text-anchor="middle">{escape(ylabel)}</text>'
            + f'<text x="{LEFT + plot_w / 2:.0f}" y="{height - 6}" class="axis" text-anchor="middle">{tr("views.logical_position")}</text>')
    return title + _frame(height, body, tr("views.heat.label")) + palette.entropy_legend_html(lang)
