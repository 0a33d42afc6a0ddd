"""The Race tab's replay: its chart never runs ahead of its lanes (each line only as far as its lane
has got, on one forward per tick and on the wall clock), and every lane's word is what is true."""
import pytest

from app.tabs import race as race_tab
from app.tabs.tour import load_tour
from app.views import lanes


@pytest.fixture(scope="module")
def timelines():
    data = load_tour()
    pick = data.picks["race"]
    return {"ar": data.timelines[pick["ar"]], "streaming": data.timelines[pick["streaming"]]}


@pytest.mark.parametrize("wall_clock", [False, True])
def test_the_chart_draws_each_line_only_as_far_as_its_lane(timelines, wall_clock):
    spt = max(lanes.total_seconds(t) for t in timelines.values()) / race_tab.RACE_TICKS
    longest = max(t.num_steps for t in timelines.values())
    for tick in (1, 5, 20, 10_000):
        _, _, html, chart, _ = race_tab.race_outputs(timelines, tick, wall_clock)
        shown = lanes.lane_forwards(timelines, tick, wall_clock, spt)
        lines = {trace.name: trace for trace in chart.data if trace.name in [lanes.lane_title(k) for k in timelines]}
        for name, tl in timelines.items():
            line = lines[lanes.lane_title(name)]
            assert len(line.x) == shown[name], (tick, name)   # the chart is where the lane is
            assert f"{shown[name]} forward{'' if shown[name] == 1 else 's'} ·" in html
            done = shown[name] >= tl.num_steps
            head = html.split(f'<div class="lane {name}">', 1)[1].split("</div>", 1)[0]
            assert ("finished" in head) == done and ("decoding…" in head) == (not done), (tick, name, head)
            assert "paused" not in head   # the Race tab never holds a frame: it plays to the end
        assert chart.layout.xaxis.range[1] >= longest   # the axes span the whole run from the first tick


def test_the_cost_note_quotes_the_lanes_own_tokens_per_forward():
    """The note under the race said 'Streaming makes 13.38×' beside a streaming lane showing 13.50:
    it divided by AR's count with the prefill's token in. It now quotes the lanes' own count."""
    from wedlm import Trace
    from wedlm.paths import TRACES_DIR

    from app.views.timeline import Timeline
    st = Timeline(Trace.load(TRACES_DIR / "1-counting-streaming.json"))
    ar = Timeline(Trace.load(TRACES_DIR / "2-counting-ar.json"))
    note = lanes.cost_note({"ar": ar, "streaming": st})
    assert f"{lanes.tokens_per_forward(ar):.2f}" == "1.00"
    assert f"tokens-per-forward ratio ({lanes.tokens_per_forward(st):.2f}×)" in note, note
    # the speedup it explains is the one the streaming lane shows (it said "at most 6.19×" beside 6.60×)
    frame, _ = lanes.race_frame({"ar": ar, "streaming": st}, 10_000, False, 1.0)
    shown = frame.split('<div class="lane streaming">', 1)[1].split("× AR tokens/s", 1)[0].rsplit(" ", 1)[1]
    assert f"wall-clock speedup ({shown}×)" in note and f"the measured {shown}×" in note, (shown, note)


def test_the_cost_notes_ratios_are_the_ratios_of_the_figures_it_shows():
    """A walker read "18.8 ms" and "10.1 ms" beside "1.87×" (the ratio of the unrounded means, not
    of the figures shown): every ratio in the note is the shown figures divided, rounded once, in
    both languages; and it says the cost is per forward, not the wall-clock speedup."""
    import re

    from wedlm import Trace
    from wedlm.paths import TRACES_DIR

    from app.views.timeline import Timeline
    st = Timeline(Trace.load(TRACES_DIR / "1-counting-streaming.json"))
    ar = Timeline(Trace.load(TRACES_DIR / "2-counting-ar.json"))
    for lang, ms in (("en", "ms"), ("zh", "毫秒")):
        note = lanes.cost_note({"ar": ar, "streaming": st}, lang)
        st_ms, ar_ms = (float(x) for x in re.findall(rf"(\d+\.\d) ?{ms}", note)[:2])
        shown_st, shown_ar, cost = re.search(r"([\d.]+) ÷ ([\d.]+) ≈ ([\d.]+)×", note).groups()
        assert (float(shown_st), float(shown_ar)) == (st_ms, ar_ms), note
        assert cost == f"{st_ms / ar_ms:.2f}", note
        tpf, cost_again, forwards_only = re.search(r"([\d.]+) ÷ ([\d.]+) ≈ ([\d.]+)×", note.split("≈", 1)[1]).groups()
        assert cost_again == cost and forwards_only == f"{float(tpf) / float(cost):.2f}", note
    assert "a cost per forward, not the wall-clock speedup" in lanes.cost_note({"ar": ar, "streaming": st})


def test_the_lanes_take_turns_one_forward_each(monkeypatch, tiny_lm):
    """Run one after another, a busy minute on the machine landed on one lane (a walker saw block
    decoding 9.55× AR beside streaming's 3.63×): the lanes take turns, so load falls on all alike."""
    from dataclasses import replace

    from wedlm import DecodeConfig

    real, order = race_tab.decode_steps, []

    def logged(model, prompt, name, config, **kwargs):
        for trace in real(model, prompt, name, config, **kwargs):
            order.append(name)
            yield trace
    monkeypatch.setattr(race_tab, "decode_steps", logged)
    config = replace(DecodeConfig(), window=4, max_new_tokens=6)
    traces = race_tab.race_traces(tiny_lm, tiny_lm, "Count:", config, 60.0)
    assert list(traces) == ["ar", "streaming", "block", "verified"]
    assert order[:4] == ["ar", "streaming", "block", "verified"]   # each lane's first forward, in turn
    assert all(traces[name].result is not None for name in traces)


@pytest.mark.parametrize("wall_clock", [False, True])
def test_the_chart_title_names_the_dashed_line_only_while_it_is_drawn(timelines, wall_clock):
    """The title said 'dashed line: this step' after the race had finished, with no dashed line drawn."""
    for tick in (1, 5, 10_000):
        _, _, _, chart, _ = race_tab.race_outputs(timelines, tick, wall_clock)
        dashed = any(s.line.dash == "dash" for s in chart.layout.shapes or ())
        assert ("dashed line" in chart.layout.title.text) == dashed, (tick, wall_clock, chart.layout.title.text)
        if tick == 10_000 or wall_clock:
            assert not dashed
        else:
            assert dashed
        zh = race_tab.race_outputs(timelines, tick, wall_clock, lang="zh")[3]
        assert ("虚线" in zh.layout.title.text) == dashed


def test_every_lane_says_how_its_first_token_is_counted(timelines):
    """AR and verified get their first token from the prefill (left out of tokens per forward);
    streaming and block make every token in a forward. Each lane's note says which, and its
    tokens per forward is its tokens made by forwards over its forwards, the chart's count."""
    from wedlm import Trace
    from wedlm.paths import TRACES_DIR

    from app.views.timeline import Timeline
    four = dict(timelines)
    four["verified"] = Timeline(Trace.load(TRACES_DIR / "8-arithmetic-verified.json"))
    for tick in (1, 3, 10_000):
        html, _ = lanes.race_frame(four, tick, False, 1.0)
        for name, tl in four.items():
            head = html.split(f'<div class="lane {name}">', 1)[1].split("</div>", 1)[0]
            forwards = min(tick, tl.num_steps)
            n = lanes.tokens_after(tl, forwards)
            prefill = lanes.prefill_tokens(tl)
            if n:
                # and why: AR's prefill (verified's too) predicts the first token, streaming's only caches;
                # with no word of verified decoding (chapter 6 shows the AR lane before chapter 10)
                expected = (f"({prefill} of them from the prefill, not counted per forward: this prefill predicts the "
                            "first token as it caches the prompt)"
                            if prefill
                            else "(the prefill wrote none of them: here it only caches the prompt, and the first "
                            "forward over the masks fills the first slots; all are counted per forward)")
                assert expected in head, (name, tick, head)
                assert name == "verified" or "verified" not in head.lower(), (name, tick, head)
            assert prefill == (1 if name in ("ar", "verified") else 0)
            made = tl.committed_after[forwards - 1] if name != "verified" else n - prefill
            assert f"{made / forwards:.2f} tokens per forward" in head, (name, tick, head)


def test_a_lane_after_one_forward_says_forward_not_forwards():
    """Walk 9 read "1 forwards" on chapter 6's first step."""
    from app.views.lanes import lane_html
    from app.views.timeline import Timeline
    from wedlm.paths import TRACES_DIR
    from wedlm.trace import Trace
    tl = Timeline(Trace.load(TRACES_DIR / "1-counting-streaming.json"))
    assert "· 1 forward ·" in lane_html(tl, 1, None) and "1 forwards" not in lane_html(tl, 1, None)
    assert "· 2 forwards ·" in lane_html(tl, 2, None)


def test_a_chapter_reference_that_quotes_a_title_quotes_the_real_one():
    """Chapter 6's lane said "the tour's chapter 10, verified decoding", but chapter 10 is titled
    "Beyond the paper: the greedy text, right or wrong" (the lane no longer names it: a guard for any
    text that quotes one). Every catalog text that quotes a chapter's title after its number quotes
    the title its heading has."""
    import re
    from app import i18n
    titles = {}
    for key, texts in i18n.catalog().items():
        m = re.fullmatch(r"ch(\d+)\.title", key)
        if m:
            for lang in ("en", "zh"):
                titles[(lang, m.group(1))] = texts[lang].split(" · ", 1)[1]
    quoted = {"en": r"chapter (\{chapter\}|\d+) \(“([^”]+)”\)", "zh": r"第 (\{chapter\}|\d+) 章（“([^”]+)”）"}
    said = {lang: [t[lang] for t in i18n.catalog().values() if lang in t] for lang in quoted}
    for lang, pattern in quoted.items():
        for t in said[lang]:
            for n, title in re.findall(pattern, t):
                if n == "{chapter}":
                    continue
                assert titles[(lang, n)] == title, (lang, n, title)
