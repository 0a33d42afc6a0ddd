"""Figures the tour draws itself (the Decode tab's own figures are in app/views/figures.py):
the fill rule's score bars with one colour per meaning, the prefix growth with its legend outside
the plot (no overlap on a phone), and the τ sweep's speed against greedy's text and right answers."""
from __future__ import annotations

from html import escape

from ... import i18n
from ...views import charts, entropy, figures, palette
from ...views.timeline import Timeline

SMALL = 330   # height of a chart that sits beside another
BAR_WIDTH = 0.7   # a score bar's width, a share of its slot (as charts.entropy_bars draws it)
NAMED_FILLS = 3   # a score chart labels each filled slot while there are at most this many
# the digits of slot labels under a score chart, at most: 6 two-digit labels, 4 three-digit ones (at 1440
# px three charts sit side by side, ~190 px each: 6 labels of 3 digits ran together, "116118120")
SLOT_DIGITS = 12


def slot_ticks(s) -> list[str]:
    """The slots a score chart labels: every few (at most about SLOT_DIGITS digits), and always every filled one
    while they are few (NAMED_FILLS) and the front slot beside no such fill, the slots its words name
    (walk 26: code's filled slot 113 sat unlabelled between 110 and 114); a label beside another, or a
    regular one too near a named one, is left out, so none run together."""
    pos = [m.pos for m in s.masks]
    if not pos:
        return []
    every = -(-len(pos) * len(str(max(pos))) // SLOT_DIGITS)
    filled = {k for k, m in enumerate(s.masks) if m.selected}
    named = filled if len(filled) <= NAMED_FILLS else set()   # counting fills all 16: every few then
    # the front slot too, unless a named fill is its neighbour (code's 110 and 113, neighbours among the
    # masks, ran together at 1920): the words name the front, the chart's first bar
    named |= {0} if 1 not in named else set()
    named = {k for k in named if k - 1 not in named}   # of neighbouring fills, the first
    regular = {k for k in range(0, len(pos), every) if all(abs(k - n) >= every for n in named)}
    return [str(pos[k]) for k in sorted(named | regular)]


def score_bars(tl: Timeline, step: int, title: str | None = None, y_max: float | None = None,
               height: int = 340, lang: str = i18n.DEFAULT):
    """Step `step`'s open masks drawn as chapter 2 draws them (charts.entropy_bars), in Plotly for
    chapter 7's pair: each bar is its whole score H + λ·d in its slot's colour (filled or stays a
    mask), λ·d a narrower slate strip inside its top, a ✓ over every filled slot (a fill whose
    score is ~0 still shows), τ a red dashed line, "front N" over the first bar when it is a mask
    the axis does not label. A bar is drawn at its true height."""
    tr = i18n.Texts(lang)
    s = tl.trace.steps[step]
    x = [str(m.pos) for m in s.masks]

    def tip(m) -> str:
        d = m.score - m.entropy
        return tr("views.bars.tip", pos=m.pos, h=f"{m.entropy:.2f}") + (
            f" + λ·d {d:.2f} = {m.score:.2f}" if d > 0 else "")

    data = []
    for selected, role, name in ((True, "state-new", tr("views.bars.key_filled")),
                                 (False, "state-mask", tr("views.bars.key_mask"))):
        ms = [m for m in s.masks if m.selected == selected]
        data.append(dict(type="bar", x=[str(m.pos) for m in ms], y=[m.score for m in ms], name=name,
                         width=BAR_WIDTH, marker=dict(color=palette.ROLE_COLOURS[role],
                                                      line=dict(color="#374151", width=0.5)),
                         customdata=[m.pos for m in ms], hovertext=[tip(m) for m in ms], hoverinfo="text"))
    penalised = [m for m in s.masks if m.score > m.entropy]
    data.append(dict(type="bar", x=[str(m.pos) for m in penalised], y=[m.score - m.entropy for m in penalised],
                     base=[m.entropy for m in penalised], width=BAR_WIDTH * charts.PENALTY_STRIP,
                     name=tr("tour.fig.penalty_key"), marker=dict(color=palette.ROLE_COLOURS["penalty"]),
                     customdata=[m.pos for m in penalised], hovertext=[tip(m) for m in penalised],
                     hoverinfo="text"))
    fills = [m for m in s.masks if m.selected]
    if fills:  # the ✓ of chapter 2's bars: a fill's bar can be ~0 high (counting)
        data.append(dict(type="scatter", x=[str(m.pos) for m in fills], y=[m.score for m in fills],
                         mode="text", text=["✓"] * len(fills), textposition="top center", showlegend=False,
                         textfont=dict(color=palette.STATE_EDGES["new"]), name=tr("views.bars.key_filled"),
                         customdata=[m.pos for m in fills], cliponaxis=False, hoverinfo="skip"))
    if s.threshold is not None and x:
        data.append(dict(type="scatter", x=[x[0], x[-1]], y=[s.threshold, s.threshold], mode="lines",
                         name=f"τ = {s.threshold:g}",
                         line=dict(color=palette.ROLE_COLOURS["threshold"], dash="dash")))
    ticks = slot_ticks(s)
    front = s.masks[0] if s.masks else None
    notes = [] if front is None or front.selected or str(front.pos) in ticks else [dict(
        # x: the first category by its index (a category "110" is read as index 110)
        x=0, y=front.score, xref="x", yref="y", yanchor="bottom", xanchor="left", xshift=-6, yshift=2,
        # the figure's own font size: a smaller one is what presenting scales every font up to read
        showarrow=False, name="front", text=tr("tour.fig.front", pos=front.pos))]
    yaxis = dict(title=dict(text=tr("tour.fig.score_axis")))
    if y_max is not None:
        yaxis["range"] = [0, y_max]
    fig = figures.make_figure(data, title or tr("tour.fig.score_title", step=step), height, lang=lang,
                              barmode="overlay", xaxis=dict(title=dict(text=tr("tour.fig.slot_axis")), type="category",
                                                            categoryorder="array", categoryarray=x,
                                                            # level, every few: turned up, code's 3-digit slots lay on the axis title
                                                            tickangle=0, tickmode="array",
                                                            tickvals=ticks, ticktext=ticks),
                              yaxis=yaxis, legend=dict(orientation="h", y=-0.28, yanchor="top", x=0), annotations=notes,
                              margin=dict(l=50, r=10, t=40, b=100))  # legend under the axis: never on the title
    fig.layout.meta = {"step": step}
    return fig


def max_score(tl: Timeline, step: int) -> float:
    s = tl.trace.steps[step]
    return max([m.score for m in s.masks] + [s.threshold or 0.0])


def growth(lines: dict[str, tuple[Timeline, str]], current: int | None = None, height: int = 230,
           lang: str = i18n.DEFAULT, steps: int | None = None, shown: dict[str, int] | None = None) -> str:
    """Committed tokens after each forward, one line per decode in its own colour (HTML legend
    under the chart: it never overlaps the axes) over the AR pace in beads, and a marker per step of the
    first decode, or one per step of `steps` (a page that steps the longer of two decodes)
    (app/static/stepper.js shows the current one; `current`: drawn as shown). shown: a race at a
    tick: each line only up to the forwards its lane has shown (views.lanes.lane_forwards, as the
    Race tab's chart); the axes still span the whole run."""
    tr = i18n.Texts(lang)
    first = next(iter(lines.values()))[0]
    n = max([1] + [len(tl.committed_after) for tl, _ in lines.values()])
    top = max([n] + [max(tl.committed_after or [1]) for tl, _ in lines.values()])
    W, L, R, T, B = charts.WIDTH, charts.LEFT, charts.RIGHT, charts.TOP, charts.BOTTOM
    plot_w, plot_h = W - L - R, height - T - B
    x = lambda f: L + plot_w * f / n  # noqa: E731
    y = lambda v: T + plot_h * (1 - v / top)  # noqa: E731
    body = [charts._y_axis(top, height, tr("tour.fig.committed_axis"))]
    # the pace under the lines: an AR line runs on it, and drawn over it the beads hid the line (walk 19)
    body.append(charts.pace_line(x(0), y(0), x(min(n, top)), y(min(n, top))))
    for name, (tl, colour) in lines.items():
        upto = tl.committed_after[:shown[name]] if shown and name in shown else tl.committed_after
        pts = " ".join(f"{x(k + 1):.1f},{y(v):.1f}" for k, v in enumerate(upto))
        body.append(f'<polyline points="{x(0):.1f},{y(0):.1f} {pts}" class="growth" stroke="{colour}"/>')
    for k in range(steps or len(first.committed_after)):
        now = " now" if k == current else ""
        # the label names the step AND its forward (the x axis counts forwards: step k sits at k + 1),
        # right of the line in the chart's left half, left of it in the right half (it stays inside)
        at = x(k + 1)
        side = (f'x="{at + 4:.1f}" text-anchor="start"' if at < L + plot_w / 2
                else f'x="{at - 4:.1f}" text-anchor="end"')
        body.append(f'<g class="at-step{now}" data-at-step="{k}"><line x1="{at:.1f}" x2="{at:.1f}" '
                    f'y1="{T}" y2="{T + plot_h}" class="marker" stroke="{palette.THRESHOLD_COLOUR}"/>'
                    f'<text {side} y="{T + 12}" class="tick" '
                    f'fill="{palette.THRESHOLD_COLOUR}">{tr("views.growth.marker", step=k, forward=k + 1)}</text></g>')
    body += charts.forward_ticks(n, x, T + plot_h)
    body.append(f'<text x="{L + plot_w / 2:.0f}" y="{height - 6}" class="axis" text-anchor="middle">'
                f'{tr("tour.fig.forwards_axis")}</text>')
    keys = "".join(f'<span class="key line" style="background:{colour}"></span>{escape(name)} '
                   for name, (_, colour) in lines.items())
    legend = (f'<div class="chartlegend">{keys}<span class="key line pace-key"></span>{tr("tour.fig.pace")} '
              f'<span class="key line marker-key"></span>{tr("tour.fig.this_step")}</div>')
    title = f'<div class="charttitle">{tr("tour.fig.growth_title")}</div>'
    svg = (f'<svg class="chart" viewBox="0 0 {W} {height}" width="100%" role="img" '
           f'aria-label="{tr("tour.fig.growth_title")}" preserveAspectRatio="xMidYMid meet">'
           f'{"".join(body)}</svg>')
    return title + svg + legend


TAU_LABELS = 6   # at most this many τ labels: at 1024 px the sweep's 0.1 … 0.4 labels ran together
RIGHT_LABELS = 4   # at most this many steps between the right answers' labels (7 questions: 0, 2, 4, 7)
RIGHT_MINOR = 15   # at most this many minor ticks on that axis: one per question up to 15, else a round step


# a labelled tick as long as the minor ones beside it, or longer: Plotly sets a label off the axis
# by its own tick's length only, so minor ticks under unticked labels ran through them ("0" read "θ")
MAJOR_TICKLEN = 6


def right_ticks(total: int) -> list[int]:
    """The right answers' axis labels: 0 and every round step up to the number of questions, which is
    labelled too (0, 2, 4, 6 left "of 7" with no 7), a step too near it dropped (6 and 7 ran together at 1024x768)."""
    step = int(charts.round_step(total, RIGHT_LABELS, 1))
    return [v for v in range(0, total, step) if total - v >= 0.75 * step] + [total]


def right_minor(total: int) -> int:
    """The questions axis' minor tick step: every count while that is a few (a bar at 6 of 7 must be
    read), a round step when there are many (30 grid lines in the band's 90 px are a grey blur)."""
    step = int(charts.round_step(total, RIGHT_LABELS, 1))   # right_ticks' label step: a minor tick under each label
    return next((m for m in (1, 2, 5, 10, 20, 50, 100) if step % m == 0 and total / m <= RIGHT_MINOR), step)


def count_runs(rows: list[dict], differs: bool) -> list[dict]:
    """The sweep's τ in runs of equal counts ((right, differs) or (right, None)), in τ order: [{first,
    last, counts}], a τ alone a run of one."""
    runs: list[dict] = []
    for r in sorted(rows, key=lambda r: r["threshold"]):
        counts = (r["right"], r.get("differs") if differs else None)
        if runs and runs[-1]["counts"] == counts:
            runs[-1]["last"] = r["threshold"]
        else:
            runs.append({"first": r["threshold"], "last": r["threshold"], "counts": counts})
    return runs


RUN_COLOUR = "#374151"   # chapter 8's bracket over a run of τ with equal counts, and its legend entry
# chapter 8's two panels (paper heights): the right answers' band below, speed above, the counts' row between
TAU_BAND, TAU_SPEED = (0.0, 0.36), (0.48, 1.0)


def tau_figure(rows: list[dict], yours: dict | None = None, lang: str = i18n.DEFAULT, tour_tau: float | None = None):
    """Two panels on one τ axis: tokens per forward (the streaming decoder's colour, a line, top,
    left axis) and right answers (bars in palette role "right", whose word chapter 8 says:
    palette.colour_word("right"); a small chart below with its own axis `yaxis2` on the right, 0 … the number
    of questions): a bar never lines up with the speed axis' numbers. Walk 25 found no numbers on the
    bars and no mark at the τ the other chapters use: the counts are written over the bars, once for
    each run of τ with equal counts (count_runs), in the bars' colours, and
    `tour_tau` (chapters 2–7's τ, ch7_entropy.chapter_tau) is a dashed line in the threshold's colour, named."""
    tr = i18n.Texts(lang)
    # τ on a linear axis: the sweep's grid is not evenly spaced (0.1 … 1, 1.5, 2), and a live τ
    # between two of its values lands between them
    x = [r["threshold"] for r in rows]
    total = max([r["total"] for r in rows] or [1])
    right_title = tr("tour.fig.right_of", total=total)
    # beside the right answers, when the record has them: the outputs whose text differs from the
    # model's own greedy text (chapter 10's rejected colour: a text the verified check would not keep)
    changed = [r["differs"] for r in rows] if rows and all("differs" in r for r in rows) else None
    width = 0.04 if changed else 0.07
    data = [dict(type="bar", x=x, y=[r["right"] for r in rows], name=right_title, yaxis="y2",
                 marker=dict(color=palette.ROLE_COLOURS["right"]), width=width,  # solid: the colour the words name
                 offset=-width if changed else None,
                 hovertemplate=tr("tour.fig.hover_right", x="%{x}", y="%{y}") + "<extra></extra>")]
    if changed:
        data.append(dict(type="bar", x=x, y=changed, name=tr("tour.fig.differs_of", total=total), yaxis="y2",
                         marker=dict(color=palette.ROLE_COLOURS["verify-rejected"]), width=width, offset=0,
                         hovertemplate=tr("tour.fig.hover_differs", x="%{x}", y="%{y}") + "<extra></extra>"))
    data.append(dict(type="scatter", x=x, y=[r["tokens_per_forward"] for r in rows], mode="lines+markers",
                     name=tr("tour.fig.tpf"),
                     line=dict(color=palette.ROLE_COLOURS["decoder-streaming"], width=3),
                     marker=dict(size=8),
                     hovertemplate=tr("tour.fig.hover_tpf", x="%{x}", y="%{y:.2f}") + "<extra></extra>"))
    axis_title = tr("tour.fig.questions_of", total=total) if changed else right_title
    if yours:
        data.append(dict(type="scatter", x=[yours["threshold"]], y=[yours["tokens_per_forward"]],
                         mode="markers+text", name=tr("tour.fig.your_run"),
                         text=[tr("tour.fig.your_right", right=yours["right"], total=yours["total"])],
                         textposition="top center", marker=dict(size=16, symbol="star", color="#111827")))
    lo = min(x + [0.0]) - 0.1
    hi = max(x + [yours["threshold"] if yours else 0.0, tour_tau or 0.0]) + 0.1
    step = charts.round_step(hi - lo, TAU_LABELS, 0.1)
    # the counts over the bars, right answers above texts unlike greedy's, in the bars' colours: once for
    # each run of τ with the same counts, a bracket across its bars, the counts at its left end (one label
    # a τ ran together where τ is 0.1 apart on a phone: "27272727"; centred, they sat on the tour's τ line)
    notes, shapes = [], []
    for run in count_runs(rows, bool(changed)):
        alone = run["last"] == run["first"]
        notes.append(dict(x=run["first"] if alone else run["first"] - width, y=total + 0.5, xref="x", yref="y2",
                          yanchor="bottom", xanchor="center" if alone else "left",
                          showarrow=False, font=dict(size=11), align="center", name="count",
                          text="<br>".join(f'<span style="color:{palette.ROLE_COLOURS[role]}">{n}</span>'
                                           for role, n in zip(("right", "verify-rejected"), run["counts"])
                                           if n is not None)))
        if run["last"] > run["first"]:
            x0, x1, top, foot = run["first"] - width, run["last"] + width, total + 0.5, total - 0.04 * total
            shapes.append(dict(type="path", xref="x", yref="y2", name="run", line=dict(color=RUN_COLOUR, width=2),
                               path=f"M {x0},{foot} L {x0},{top} L {x1},{top} L {x1},{foot}",
                               x0=x0, x1=x1, y0=top, y1=top))
    if any(s["name"] == "run" for s in shapes):
        # the bracket said on the chart, as a legend entry in its line (walk 28: counts printed once over
        # τ 0.1–0.6 went unexplained); before your run's star, which stays the last trace
        data.insert(len(data) - bool(yours), dict(type="scatter", x=[None], y=[None], mode="lines",
                                                  name=tr("tour.fig.run_key"), line=dict(color=RUN_COLOUR, width=2),
                                                  hoverinfo="skip"))
    if tour_tau is not None:
        # through both panels, not the counts' row between them (it hid the counts at its τ)
        shapes += [dict(type="line", xref="x", yref="paper", x0=tour_tau, x1=tour_tau, y0=y0, y1=y1,
                        line=dict(color=palette.ROLE_COLOURS["threshold"], dash="dash", width=2))
                   for y0, y1 in (TAU_BAND, TAU_SPEED)]
        notes.append(dict(x=tour_tau, y=1, xref="x", yref="paper", xanchor="left", yanchor="top", xshift=4,
                          showarrow=False, bgcolor="rgba(255,255,255,0.85)", name="tour-tau",
                          font=dict(size=13, color=palette.ROLE_COLOURS["threshold"]),
                          text=tr("tour.fig.tour_tau", tau=f"{tour_tau:g}")))
    return figures.make_figure(
        data, tr("tour.fig.tau_title"), 440, lang=lang, annotations=notes, shapes=shapes,
        # labels every `step` (a linear scale reads as one); a minor tick marks each τ of the sweep
        xaxis=dict(title=dict(text=tr("tour.fig.tau_axis")), type="linear", anchor="y2", tickmode="linear",
                   tick0=0, dtick=step, tickangle=0, tickfont=dict(size=11), range=[lo, hi],
                   ticks="outside", ticklen=MAJOR_TICKLEN,
                   minor=dict(tickmode="array", tickvals=x, ticks="outside", ticklen=4)),
        yaxis=dict(title=dict(text=tr("tour.fig.tpf")), domain=list(TAU_SPEED), rangemode="tozero"),
        # a short band of its own, a tick and a grid line at every count while there are few (a bar at 6
        # of 7 could not be read off 0 and 7 alone; right_minor), a label at a round step and at the total (right_ticks: 0 … 7 each
        # labelled ran together in the band's 90 px at 1024x768); its title on the right (on the left, under the
        # speed's, the two ran into each other)
        yaxis2=dict(title=dict(text=axis_title), domain=list(TAU_BAND), range=[0, total + 0.5],
                    tickmode="array", tickvals=right_ticks(total), ticks="outside", ticklen=MAJOR_TICKLEN,
                    minor=dict(tickmode="linear", tick0=0, dtick=right_minor(total), ticks="outside", ticklen=4,
                               showgrid=True,
                               gridcolor="#f1f5f9"),
                    anchor="x", side="right", gridcolor="#e5e7eb", automargin=True),
        legend=dict(orientation="h", y=-0.25, yanchor="top", x=0), margin=dict(l=60, r=20, t=40, b=100))


def commit_table(decodes: list[tuple[str, Timeline]], lang: str = i18n.DEFAULT) -> str:
    """Chapter 7's table: for each recorded decode (its name, its timeline), how many forwards
    committed 0, 1, 2, 3 or more tokens (app/views/entropy.commit_buckets, read from the step
    records), each count with a bar of its share of that decode's forwards; a forward that
    committed nothing in the mask's colour, one that committed in the committed colour."""
    tr = i18n.Texts(lang)
    head = "".join(f'<th scope="col">{tr("ch7.table_idle") if b == "0" else b}</th>' for b in entropy.COMMIT_BUCKETS)
    rows = []
    for name, tl in decodes:
        st, counts = tl.trace.stats(), entropy.commit_buckets(tl.trace)
        n = max(sum(counts.values()), 1)
        cells = []
        for b in entropy.COMMIT_BUCKETS:
            state = "mask" if b == "0" else "committed"
            cells.append(f'<td data-state="{state}" data-commits="{b}" data-forwards="{counts[b]}">'
                         f'<span class="track"><i style="width:{100 * counts[b] / n:.0f}%;'
                         f'background:{palette.STATE_COLOURS[state]}"></i></span><b>{counts[b]}</b></td>')
        tpf = f'{round(st["tokens_per_forward"], 2):.2f}'   # as its point on chapter 7's chart (entropy.trace_point)
        label = tr("ch7.table_row", tokens=st["generated_tokens"], forwards=st["forwards"], tpf=tpf)
        # a narrow cell breaks the sum only after "÷" or before "=" ("60 tokens ÷ | 5 forwards | = 12.00")
        label = label.replace(" ", "\u00a0").replace("÷\u00a0", "÷ ").replace("\u00a0=", " =")
        rows.append(f'<tr data-decode="{escape(name)}" data-tokens="{st["generated_tokens"]}" '
                    f'data-forwards="{st["forwards"]}" data-tpf="{tpf}">'
                    # <wbr>: the sum may start a line (after "(def truncate_number)" no break was allowed
                    # before "40", and the sum ran into the next cell at 1024 px)
                    f'<th scope="row">{escape(name)}<wbr><small>{label}</small></th>'
                    f'{"".join(cells)}</tr>')
    return (f'<div class="charttitle">{tr("ch7.table_title")}</div>'
            f'<table class="commit-table"><thead><tr><th scope="col">{tr("ch7.table_corner")}</th>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>')
