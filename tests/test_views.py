"""The explorer's views as plain functions of a trace (no browser)."""
from pathlib import Path

import pytest

from app.views import figures, render
from app.views.timeline import Timeline
from wedlm import DecodeConfig, decode
from wedlm.reorder import visibility


@pytest.fixture(scope="module")
def timeline(tiny_lm):
    trace = decode(tiny_lm, "Count from 1 to 20:", "streaming",
                   DecodeConfig(window=8, threshold=3.0, max_new_tokens=30))
    return Timeline(trace)


def test_timeline_states_follow_fill_and_commit(timeline):
    trace = timeline.trace
    for s in trace.steps:
        for f in s.filled:
            assert timeline.state_at(f.pos, s.index) == "new"
            if s.index > 0:
                assert timeline.state_at(f.pos, s.index - 1) == "mask"
        for k, _ in enumerate(s.committed):
            assert timeline.state_at(s.start + k, s.index) == "committed"
    assert timeline.committed_after[-1] == len(trace.token_ids)


def test_figures_have_heights_and_data(timeline):
    k = 0
    for fig in (figures.entropy_bars(timeline, k), figures.entropy_heatmap(timeline),
                figures.prefix_growth({"streaming": timeline}, k)):
        assert fig.layout.height and fig.layout.height >= 300
        assert len(fig.data) >= 1


def test_growth_lines_that_coincide_stay_apart_by_dash_and_marker(timeline):
    """Walk 9: on the Race tab the verified line hid the streaming line (both counted alike)."""
    fig = figures.prefix_growth({"a": timeline, "b": timeline, "c": timeline})
    lines = [d for d in fig.data if d.name in ("a", "b", "c")]
    assert len({d.line.dash for d in lines}) == 3 and len({d.marker.symbol for d in lines}) == 3
    assert "dot" not in {d.line.dash for d in lines}   # dotted is the AR pace's


def test_html_views_escape_everything(tiny_lm):
    evil = '<img src=x onerror=alert(1)>"\'&'
    trace = decode(tiny_lm, evil, "streaming", DecodeConfig(max_new_tokens=6))
    trace.tokens[trace.token_ids[0]] = "<script>bad()</script>"  # as a hostile trace file could
    tl = Timeline(trace)
    for html in (render.token_canvas(tl, 0), render.order_view(tl, len(trace.steps) - 1),
                 render.step_table(tl, 0), render.badge(tl, 0)):
        assert "<img" not in html and "<script>" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in render.token_canvas(tl, 0)


def test_special_tokens_are_drawn_as_names(tiny_lm):
    trace = decode(tiny_lm, "ROMEO:", "streaming", DecodeConfig(max_new_tokens=4))
    tl = Timeline(trace)
    eos = trace.stop_ids[0]
    assert render.token_label(tl, eos) == "&lt;EOS&gt;"
    assert render.token_label(tl, None) == "[M]"


def test_race_lanes_advance_one_forward_per_tick(tiny_lm):
    from app.views import lanes as race
    cfg = DecodeConfig(window=8, threshold=3.0, block_size=8, max_new_tokens=20)
    lanes = {name: Timeline(decode(tiny_lm, "Count from 1 to 20:", name, cfg))
             for name in ("ar", "streaming", "block")}
    ar = lanes["ar"]
    assert race.tokens_after(ar, 0) == 1 and race.tokens_after(ar, 3) == 4  # prefill gives one
    stream = lanes["streaming"]
    for k in range(1, len(stream.trace.steps) + 1):
        assert race.tokens_after(stream, k) == sum(len(s.committed) for s in stream.trace.steps[:k])
    html, finished = race.race_frame(lanes, 0, wall_clock=False, seconds_per_tick=1.0)
    assert html.count('class="lane ') == 3 and not finished
    longest = max(len(t.trace.steps) for t in lanes.values())
    _, finished = race.race_frame(lanes, longest, wall_clock=False, seconds_per_tick=1.0)
    assert finished
    # wall clock: forwards done grow with time and reach the end when the decode's time is up
    assert race.forwards_by(stream, 0.0) == 0
    assert race.forwards_by(stream, race.total_seconds(stream) + 1) == len(stream.trace.steps)


def test_entropy_suite_rows_and_law_figure(tiny_lm):
    from app.views import entropy
    prompts = [{"id": "c", "class": "counting", "prompt": "Count from 1 to 9:"},
               {"id": "p", "class": "plays", "prompt": "ROMEO:"}]
    rows = entropy.run_suite(tiny_lm, tiny_lm, DecodeConfig(threshold=3.0, max_new_tokens=12), prompts)
    assert [r["id"] for r in rows] == ["c", "p"]
    for r in rows:
        trace = decode(tiny_lm, next(p["prompt"] for p in prompts if p["id"] == r["id"]), "streaming",
                       DecodeConfig(threshold=3.0, max_new_tokens=12))
        assert r["tokens_per_forward"] == round(trace.stats()["tokens_per_forward"], 2)
        assert r["entropy"] == round(entropy.fill_entropy(trace), 3) > 0
    fig = entropy.law_figure(rows)
    assert fig.layout.height and sum(len(t.x) for t in fig.data) == 2


def test_mask_grids_match_the_reordering_rule(timeline):
    import re
    step = next(s for s in timeline.trace.steps if any(t is None for t in s.window)
                and any(t is not None for t in s.window))
    n = len(step.window)
    vis = visibility(step.window)
    for logical, expected in ((False, [[j <= i for j in range(n)] for i in range(n)]), (True, vis)):
        html = render.mask_grid(timeline, step.index, logical)
        rows = re.findall(r'<g class="gr" data-pos="\d+" data-sees="([012]+)">', html)
        assert len(rows) == n
        cells = [["off" if v == "0" else "on later" if v == "2" else "on" for v in row] for row in rows]
        got = [[c.startswith("on") for c in row] for row in cells]
        assert got == [[bool(v) for v in row] for row in expected]
        if logical:  # orange exactly where a mask sees a filled token to its right
            later = [[c == "on later" for c in row] for row in cells]
            assert later == [[step.window[i] is None and bool(vis[i][j]) and j > i for j in range(n)]
                             for i in range(n)]
            assert any(any(row) for row in later)


@pytest.mark.parametrize("source", ["recorded", "fresh"])
def test_verified_marks_sit_on_exactly_the_checked_drafts(tiny_lm, source):
    """Beyond the paper: in the window view each draft the check decided is marked ✓ (agreed) or
    ✗ (the first that did not), in both orders, and nothing else is; the AR token it found is
    marked where it went. The token canvas marks the accepted drafts it shows and the AR token."""
    import re
    from pathlib import Path

    from app.views import palette
    from wedlm import Trace
    if source == "recorded":
        trace = Trace.load(Path(__file__).parent.parent / "assets" / "traces" / "8-arithmetic-verified.json")
    else:
        trace = decode(tiny_lm, "Count from 1 to 9:", "verified", DecodeConfig(window=8, max_new_tokens=24))
    tl = Timeline(trace)
    rejections = 0
    for s in trace.steps:
        v = s.verify
        first = s.start + 1
        want = {first + j: "accepted" for j in range(v.accepted)}
        if v.replaced:
            want[v.rejected_pos] = "rejected"
            rejections += 1
        orders = render.order_view(tl, s.index)
        slots = re.findall(r'class="slot [^"]*" data-verify="(\w+)" data-pos="(\d+)"', orders)
        window = [(k, int(p)) for k, p in slots if k != "ar"]
        assert sorted(window) == sorted([(k, p) for p, k in want.items()] * 2), s.index  # logical + physical
        assert [int(p) for k, p in slots if k == "ar"] == [v.ar_pos]
        marks = re.findall(r'class="vmark vm-(\w+)"[^>]*>([^<]+)<', orders)
        assert sorted(marks) == sorted([(k, palette.VERIFY_MARKS[k]) for k, _ in slots])  # not colour alone
        canvas = render.token_canvas(tl, s.index, tips=False)
        marked = {int(p): k for p, k in re.findall(r'data-pos="(\d+)" tabindex="0">[^<]*<span class="vmark vm-(\w+)"',
                                                     canvas)}
        shown = {p for p in tl.visible_positions(s.index) if tl.state_at(p, s.index) not in ("mask", "dropped")}
        expected = {p: k for p, k in want.items() if k == "accepted" and p in shown}
        if v.ar_pos in shown:
            expected[v.ar_pos] = "ar"
        assert marked == expected, s.index
    assert rejections >= 1
    streaming = Timeline(decode(tiny_lm, "Count from 1 to 9:", "streaming", DecodeConfig(window=8, max_new_tokens=8)))
    assert "vmark" not in render.order_view(streaming, 0) + render.token_canvas(streaming, 0)


def test_the_order_view_says_why_a_forward_carries_more_rows_than_w():
    """A newcomer read 'the window keeps W slots' and then '23 rows': every streaming step's note
    splits its rows into the slots committing now and the W the window keeps."""
    import re

    from wedlm import Trace
    from wedlm.reorder import leading_filled
    traces = sorted((Path(__file__).parent.parent / "assets" / "traces").glob("*-streaming.json"))
    ends_inside_run = 0
    for path in traces:
        tl = Timeline(Trace.load(path))
        w = tl.trace.config["window"]
        for k, s in enumerate(tl.trace.steps):
            note = re.sub(r"<[^>]+>", " ", render.order_view(tl, k))
            if not leading_filled(s.window):   # a mask in front: the whole window, nothing commits
                assert f"Rows in this forward: {s.rows}, the window (W = {w} slots" in note and s.rows == w, (path.name, k)
                continue
            n, commit, kept = map(int, re.search(
                r"Rows in this forward: (\d+) = (\d+) in the leading filled run \+ (\d+) kept", note).groups())
            # the window keeps W on every step, the last too (a walker read "30 kept (W = 16)")
            assert n == s.rows == commit + kept and kept == w and f"W = {w}" in note, (path.name, k)
            assert commit == leading_filled(s.window) >= len(s.committed)
            ends = f"{len(s.committed)} of its {commit} commit" in note
            assert ends == (len(s.committed) < commit), (path.name, k)
            ends_inside_run += ends
    assert ends_inside_run >= 1  # a decode that stops inside its leading run says so


def test_an_ar_decode_names_no_masks():
    """Chapter 1 (AR) said '0 masks in the window' and its key listed 'mask' and 'mask this forward
    fills' in a chapter with no masks; a WeDLM decode keeps both."""
    from wedlm import Trace
    traces = Path(__file__).parent.parent / "assets" / "traces"
    ar = Timeline(Trace.load(traces / "2-counting-ar.json"))
    for k in range(ar.num_steps):
        view, summary = render.order_view(ar, k), render.step_summary(ar, k)
        assert "st-mask" not in view and "mask" not in summary, k
        assert "committing (its KV enters the cache now)" in view and "token predicted" in summary
    streaming = Timeline(Trace.load(traces / "1-counting-streaming.json"))
    assert "st-mask fills legend" in render.order_view(streaming, 0)
    assert "masks read" in render.step_summary(streaming, 0)


# the Entropy explorer's τ sweep of one arithmetic question, as a walker saw it (the bundled model)
SEEN_SWEEP = [{"threshold": t, "tokens_per_forward": tpf, "output_changed": ch}
              for t, tpf, ch in (("none", 0.99, False), (0.1, 2.45, False), (0.3, 8.88, False), (0.6, 8.88, False),
                                 (0.8, 7.1, True), (1.0, 8.88, True), (1.5, 10.14, False), (2.0, 11.83, True))]


def test_sweep_note_says_why_one_prompt_is_not_step_by_step():
    """Tokens per forward fell as τ rose (8.88 -> 7.1) and a changed output came back: the note
    under the sweep quotes both from the rows and says why; a sweep that moves step by step gets none."""
    from app import i18n
    from app.views import entropy
    from tests.i18n_check import english_left
    note = entropy.sweep_note(SEEN_SWEEP)
    assert "fell from 8.88 at τ = 0.6 to 7.1 at τ = 0.8" in note
    assert "changed at τ = 0.8 but is τ = none's again at τ = 1.5" in note
    assert "one path" in note and "across many prompts" in note
    smooth = [dict(r, tokens_per_forward=k + 1.0, output_changed=False) for k, r in enumerate(SEEN_SWEEP)]
    assert entropy.sweep_note(smooth) == "" and entropy.sweep_dips(smooth) == []
    zh = entropy.sweep_note(SEEN_SWEEP, lang="zh")
    assert "8.88" in zh and "7.1" in zh and english_left(zh) == []
    assert i18n.text("zh", "views.sweep.and") in zh


def test_sweep_trend_is_the_recorded_questions_own_numbers():
    """Beside the one prompt, the recorded sweep over several questions: per τ its mean tokens per
    forward and right answers, read from the record; 'never falls' only where that is true."""
    from app.tabs.tour.data import load_tau_sweep
    from app.views import entropy
    from tests.i18n_check import english_left
    recorded = load_tau_sweep()
    rows = recorded["rows"]
    html = entropy.trend_html(recorded)
    for r in rows:
        assert f'<td>{r["threshold"]}</td><td>{r["tokens_per_forward"]:.2f}</td><td>{r["right"]}/{r["total"]}</td>' in html
    tpf = [r["tokens_per_forward"] for r in rows]
    assert ("never falls" in html) == all(b >= a for a, b in zip(tpf, tpf[1:]))
    falling = {**recorded, "rows": [dict(r, tokens_per_forward=10 - k) for k, r in enumerate(rows)]}
    assert "never falls" not in entropy.trend_html(falling) and entropy.trend_html(None) == ""
    assert english_left(entropy.trend_html(recorded, lang="zh")) == []


def test_words_a_newcomer_met_unexplained_are_plain_or_explained():
    """'teacher-forced' and 'frontier mask' are said in plain words; 'float32' and 'nats' carry what
    they mean where the explorer's tabs show them (a hover title: no glossary outside the tour);
    the tour links them to its glossary (tests/test_tour.py)."""
    import re
    from types import SimpleNamespace

    from app import i18n, ui
    from app.tabs.entropy import suite_source
    from app.views import lens, palette
    for key, message in i18n.catalog().items():
        for lang in i18n.LANGS:
            for word in ("teacher-forced", "teacher forced", "frontier mask", "教师强制", "最前沿"):
                assert word not in message[lang].lower(), (key, lang, word)
    for lang, word in (("en", "nats"), ("zh", "奈特")):
        nats = i18n.text(lang, "views.nats_title")
        assert "0.69" in nats and word in nats
        for legend in (palette.entropy_legend_html(lang), lens.legend_html(lang)):
            assert re.search(rf'<abbr class="nats" title="[^"]*0\.69[^"]*">{word}</abbr>', legend), legend
        columns = suite_source(None, lang)   # the Entropy tab's first "nats": said in words where used
        first = columns.index(word)
        assert "0.69" in columns[first:first + 120], columns
    lm = SimpleNamespace(name="wedlm-tiny", device=SimpleNamespace(type="cpu"), dtype="torch.float32",
                         attn_implementation="sdpa")
    ctx = SimpleNamespace(models=SimpleNamespace(wedlm_lm=lm, ar_lm=None),
                          limits=SimpleNamespace(max_new_tokens=256, max_window=32, decode_seconds=60, concurrency=2))
    for lang in i18n.LANGS:
        line = ui.server_line(ctx, lang)
        assert re.search(r'<abbr title="[^"]*32[^"]*">float32</abbr>', line), line


def test_a_long_training_mask_is_labelled_every_few_positions_and_says_which_are_masked():
    """A 48-row grid (L = 24) cannot label every row readably: every 4th position of each stream,
    and its title says so and lists xt's masked positions (the unlabelled rows' [M])."""
    pattern = [i in (8, 16, 17, 18, 20) for i in range(24)]
    assert figures.label_spacing(24) == 4 and figures.label_spacing(4) == 1 and figures.label_spacing(32) == 8
    fig = figures.training_mask_figure(pattern, 8, every=figures.label_spacing(24))
    assert list(fig.layout.yaxis.tickvals) == [f"x0:{i}" for i in range(0, 24, 4)] + \
        ["xt:0", "xt:4", "xt:8[M]", "xt:12", "xt:16[M]", "xt:20[M]"]
    assert fig.layout.xaxis.tickvals == fig.layout.yaxis.tickvals
    assert "labelled every 4 positions" in fig.layout.title.text and "masked in xt: 8, 16–18, 20" in fig.layout.title.text
    assert figures.training_mask_figure(pattern, 8).layout.yaxis.tickvals is None   # short grids: every row
    # a title's aside on a line of its own (Plotly never wraps one: it ran off a phone's chart)
    assert figures.aside_below("Mean entropy (low is not fast)") == "Mean entropy<br>(low is not fast)"
    assert figures.aside_below("平均熵（熵低不一定快）") == "平均熵<br>（熵低不一定快）"
    assert figures.aside_below("No aside") == "No aside"


def test_the_ar_pace_is_drawn_under_the_decodes_lines_and_wider_than_them(tiny_lm):
    """An AR decode's line runs exactly on the one-token-per-forward pace. A dotted pace under the
    line was hidden (the tour's chapter 1); beads over the line hid the line (walk 19, chapter 6).
    Both growth charts draw the pace's beads first (under every line) and wider than a line's
    stroke, so both show; the Race tab's Plotly chart draws its pace first too, keyed last. The
    Decode tab's chart numbers its x axis and keys its line and the pace."""
    import re
    from pathlib import Path
    from app import i18n
    from app.tabs.tour import figs
    from app.views import charts
    ar = Timeline(decode(tiny_lm, "Count from 1 to 9:", "ar", DecodeConfig(max_new_tokens=12)))
    for svg in (charts.prefix_growth(ar), figs.growth({"AR": (ar, "#6b7280")})):
        kinds = re.findall(r'<polyline [^>]*class="(growth|pace|pace-core)"', svg)
        assert kinds[:2] == ["pace", "pace-core"] and "growth" in kinds[2:], kinds
        assert len(re.findall(r'class="tick xtick"', svg)) >= 3
    css = (Path(__file__).parents[1] / "app" / "static" / "style.css").read_text(encoding="utf-8")
    width = lambda rule: float(re.search(rule + r" \{[^}]*stroke-width: ([\d.]+)", css).group(1))  # noqa: E731
    assert width(r"svg\.chart \.pace") > 2 * width(r"svg\.chart \.growth")
    race = figures.prefix_growth({"AR": ar})
    assert race.data[0].line.dash == "dot" and race.data[0].legendrank > 1000   # under the lines, keyed last
    own = charts.prefix_growth(ar)
    assert 'class="key line pace-key"' in own and i18n.text("en", "views.fig.pace") in own


def test_a_tokens_story_names_the_stop_token_eos_as_every_view_does():
    """Walk 9 met '<|endoftext|>' in a token's top candidates where every view says <EOS>."""
    from app.views import render
    from app.views.timeline import Timeline
    from wedlm.paths import TRACES_DIR
    from wedlm.trace import Trace
    tl = Timeline(Trace.load(TRACES_DIR / "1-counting-streaming.json"))
    stop = next(iter(tl.trace.stop_ids))
    pos = next(p.pos for p in tl.positions.values() if p.token is not None
               and any(int(t) == stop for t, _ in p.candidates))
    tip = render._tooltip(tl, pos)
    assert "<EOS>" in tip and tl.trace.tokens.get(stop, "<|endoftext|>") not in tip


def test_a_dropped_tokens_strike_leaves_its_glyphs_readable():
    """The line-through of a dropped "·=" ran through the middle dot and read "-=": the strike is a
    thin diagonal in a translucent colour (no horizontal line-through), so the glyphs under it show."""
    import re as _re
    css = (Path(__file__).parent.parent / "app" / "static" / "style.css").read_text()
    rule = _re.search(r"(?m)^\.st-dropped \{([^}]*)\}", css).group(1)
    assert "line-through" not in rule and "linear-gradient(to top right" in rule
    colour = _re.search(r"rgba\(([^)]*)\)", rule)
    assert colour and 0 < float(colour.group(1).split(",")[3]) < 1


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_growth_charts_step_marker_names_its_forward_too(timeline, lang):
    """Newcomers re-checked every example: "step k = forward k + 1" made them add one where a
    chart's marker said "this step" on an axis of forwards. Every step's marker on the Decode tab's
    chart, and the dashed line of the Plotly charts (Race tab, branch), says "step k (forward k + 1)"
    itself, at x = forward k + 1."""
    import re
    from app import i18n
    from app.views import charts
    svg = charts.prefix_growth(timeline, lang=lang)
    groups = re.findall(r'<g class="at-step" data-at-step="(\d+)"><line x1="([\d.]+)".*?<text [^>]*>([^<]*)</text></g>', svg)
    assert len(groups) == len(timeline.trace.steps)
    for k, _, label in groups:
        assert label == i18n.text(lang, "views.growth.marker", step=int(k), forward=int(k) + 1), label
        assert re.search(rf"\b{int(k) + 1}\b", label) and re.search(rf"\b{k}\b", label)
    for k in (0, len(timeline.trace.steps) - 1):
        fig = figures.prefix_growth({"streaming": timeline}, k, lang=lang)
        (note,) = fig.layout.annotations
        assert note.x == fig.layout.shapes[0].x0 == k + 1
        assert note.text == i18n.text(lang, "views.growth.marker", step=k, forward=k + 1)
        line = fig.data[1]   # (after the pace, drawn first) its hover names each point's step beside its forward
        assert list(line.customdata) == [x - 1 for x in line.x] and "%{customdata}" in line.hovertemplate


def test_only_chapter_1_explains_that_step_k_is_forward_k_plus_1():
    """The rule is said once (chapter 1); every other place names a step's forward beside it, so
    no second explanation (the tour chart's axis said it again) asks the reader to convert."""
    from app import i18n
    for lang, rule in (("en", "k + 1"), ("zh", "k + 1")):
        saying = [key for key, texts in i18n.catalog().items() if rule in texts.get(lang, "")]
        assert saying == ["ch1.rule"], (lang, saying)


def test_every_steps_bars_scan_the_trace_for_their_scale_once(timeline, monkeypatch):
    """bars_top scans every mask of every step; run for every step's chart it made drawing a long
    decode O(steps² × masks) (seconds of Python for a 512-token decode). Drawing every step's views
    scans once per timeline, and every step's chart still has the one y range it gives."""
    import re

    from app.views import charts, stepper
    calls = []
    scan = charts.bars_top
    monkeypatch.setattr(charts, "bars_top", lambda trace: calls.append(trace) or scan(trace))
    fresh = Timeline(timeline.trace)   # the module's timeline may have scanned already
    assert fresh.num_steps >= 3
    bars = stepper.draw(fresh)["views"]["bars"]
    assert len(calls) == 1 and calls[0] is fresh.trace
    axes = {tuple(re.findall(r'class="tick" text-anchor="end">([\d.]+)</text>', svg)) for svg in bars if "<svg" in svg}
    assert len(axes) == 1, axes
    top = scan(fresh.trace)
    assert float(next(iter(axes))[-1]) <= top < float(next(iter(axes))[-1]) * 2 + 1   # the scale is bars_top's


def test_every_token_display_spells_a_token_with_the_one_visible_space_function(monkeypatch):
    """The strips showed '·x' while the tap card and chapter 3's Σ table showed ' x' (Python's repr):
    the strips, the tap card (the position's story) and the Σ table all spell a token with
    glyphs.visible, so one spelling everywhere: swapping that function swaps every display."""
    import re
    from html import escape

    from app.tabs.tour import ch3_reordering
    from app.tabs.tour.data import load_tour
    from app.views import glyphs
    assert glyphs.visible(" x\n\t") == "·x↵→" and glyphs.visible("a\rb") == "a\\rb"
    data = load_tour()
    tl, step = data.at("reorder")
    ex = data.picks["reorder"]["attention"]
    spaced = [r["text"] for r in ex["rows"] if " " in r["text"]]
    assert spaced   # the case seen: a token that starts with a space
    real = glyphs.visible
    monkeypatch.setattr(glyphs, "visible", lambda text: "«" + real(text) + "»")
    table = ch3_reordering.example_view(ex, tl, step)
    cells = re.findall(r'<td translate="no">(.*?)</td>', table)
    # the table's rows, then the example's end: the mask's top token after the last layer, in each order
    texts = [r["text"] for r in ex["rows"]] + [ex["final"][o]["text"] for o in ("physical", "logical")]
    assert cells == [escape("«" + real(t) + "»") for t in texts], cells
    tips = render.position_tips(tl)
    p = next(p for pos, p in sorted(tl.positions.items()) if p.token is not None and " " in tl.trace.tokens.get(p.token, "")
             and p.token not in tl.trace.stop_ids)
    assert f"'«{real(tl.trace.tokens[p.token])}»'" in tips[p.pos], tips[p.pos]   # the tap card
    assert render.token_label(tl, p.token) == escape("«" + real(tl.trace.tokens[p.token]) + "»")   # the strips


def test_a_tapped_positions_story_says_its_entropy_is_the_one_it_was_filled_at():
    """Walk 19 tapped the mask at 65 at step 3 and read "entropy 0.32 nats" beside the chart's 0.39 for
    that step: the story is the whole decode's, the same at every step, and its entropy the one the
    slot had at the step that filled it. The words say so, beside that step."""
    from app.tabs.tour.data import load_tour
    tl = load_tour().timelines["table"]
    for pos, p in tl.positions.items():
        if p.token is None or p.entropy is None or p.fill_step < 0:
            continue
        tip = render._tooltip(tl, pos)
        assert tip.startswith(f"position {pos}, over the whole decode: ")
        assert f"filled at step {p.fill_step} at entropy {p.entropy:.2f} nats" in tip
        fill = next(f for f in tl.trace.steps[p.fill_step].filled if f.pos == pos)
        assert f"{fill.entropy:.2f}" == f"{p.entropy:.2f}"   # the filling step's own entropy


def test_the_reordering_button_is_offered_only_where_a_slot_moves():
    """"Watch the reordering" animates the logical row into the physical one: offered at a step whose
    physical order differs from the text's, never where the rows are the same (chapter 10's verified
    rows, a window of masks only; walk 28 pressed it there and nothing moved)."""
    from wedlm import Trace
    seen = set()
    for name in ("3-table-streaming.json", "7-plays-streaming.json", "8-arithmetic-verified.json"):
        tl = Timeline(Trace.load(Path(__file__).parent.parent / "assets" / "traces" / name))
        for s in tl.trace.steps:
            moves = list(s.order) != sorted(s.order)
            assert ('class="reorder-play"' in render.order_view(tl, s.index)) == moves, (name, s.index)
            seen.add((name.endswith("verified.json"), moves))
    assert {(False, True), (False, False), (True, False)} <= seen, seen


def test_the_score_bars_leave_a_gap_where_filled_positions_are_skipped():
    """The bar chart draws open masks only: where it skips filled positions (110, then 113) a "⋯"
    sits between the two bars, which stand further apart than neighbours do (walk 30 read 110 and
    113 side by side as neighbours); neighbouring positions get no mark."""
    import re

    from app.views import charts
    from wedlm import Trace
    seen = 0
    for name in ("3-table-streaming.json", "7-plays-streaming.json"):
        tl = Timeline(Trace.load(Path(__file__).parent.parent / "assets" / "traces" / name))
        for s in tl.trace.steps:
            if not s.masks:
                continue
            svg = charts.entropy_bars(tl, s.index)
            xs = {int(p): float(x) for p, x in re.findall(r'<g data-pos="(\d+)"><title>[^<]*</title><rect class="bar'
                                                        r'(?: chosen)?" x="([\d.]+)"', svg)}
            pos = [m.pos for m in s.masks]
            assert sorted(xs) == sorted(pos), (name, s.index)
            skips = [b for a, b in zip(pos, pos[1:]) if b != a + 1]
            assert svg.count('class="gap-mark"') == len(skips), (name, s.index)
            steps = [xs[b] - xs[a] for a, b in zip(pos, pos[1:])]
            if skips:
                seen += 1
                close = min(d for (a, b), d in zip(zip(pos, pos[1:]), steps) if b == a + 1) if len(skips) < len(steps) else None
                far = min(d for (a, b), d in zip(zip(pos, pos[1:]), steps) if b != a + 1)
                assert close is None or far > close * 1.4, (name, s.index, close, far)
    assert seen, "no recorded step skips a position: the test saw no gap"
