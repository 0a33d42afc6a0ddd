"""At a decode's last step the narration ("What happened") and the order view's caption tell ONE
account of the leading filled run: the same run, the same committed count, the same dropped count,
all read from the StepRecord (narration.run_account), in English and in Chinese."""
import json
import re
from pathlib import Path

import pytest

from app.views import narration, render
from app.views.timeline import Timeline
from wedlm import Trace
from wedlm.reorder import leading_filled

ROOT = Path(__file__).resolve().parent.parent


def _last_steps():
    traces = [(p.name, Trace.load(p)) for p in sorted((ROOT / "assets" / "traces").glob("*.json"))]
    tour = json.loads((ROOT / "assets" / "tour" / "tour.json").read_text(encoding="utf-8"))
    traces += [(f"tour:{k}", Trace.from_dict(v)) for k, v in tour["traces"].items()]
    # the budget cutting a run: the counting trace's last step, as if max_new_tokens had ended it
    # after 5 of its run's 11 slots (the recorded decodes all end at a stop token)
    budget = Trace.load(ROOT / "assets" / "traces" / "1-counting-streaming.json")
    s = budget.steps[-1]
    s.committed, s.stop_reason, s.cache_after = s.window[:5], "max_new_tokens", s.start + 5
    traces.append(("budget-cut", budget))
    return [(name, t) for name, t in traces if t.decoder in ("streaming", "reference", "block")]


LAST = _last_steps()


def _caption(trace, step, lang):
    html = render.order_view(Timeline(trace), step, lang)
    return re.search(r'<div class="note">(.*?)</div>', html).group(1)


def test_some_recorded_decode_ends_inside_its_run():
    # else the test below would only see runs that commit whole
    assert any(narration.run_account(t.steps[-1]).dropped for _, t in LAST)


@pytest.mark.parametrize("name,trace", LAST, ids=[n for n, _ in LAST])
def test_last_step_narration_and_caption_agree(name, trace):
    s = trace.steps[-1]
    acc = narration.run_account(s)
    assert acc.run == leading_filled(s.window) and acc.committed == len(s.committed)
    assert s.window[:acc.committed] == s.committed  # what commits is the run's head
    en = " ".join(narration.narrate(trace, len(trace.steps) - 1, "en"))
    cap = _caption(trace, len(trace.steps) - 1, "en")
    rows = re.search(r"= (\d+) in the leading filled run", cap)
    if rows:  # streaming/reference with a window: the caption counts the run's rows
        assert int(rows.group(1)) == acc.run
    if not acc.dropped:
        assert f"{narration.positions_text(acc.committed_positions)} (" in en
        assert "dropped" not in en and "dropped" not in cap
        return
    said = re.search(r"leading filled run is (\S+) \((\d+) slots\).*?only its first (\d+) \((\S+):", en)
    run, n, kept, kept_at = said.groups()
    gone = re.search(r"[Tt]he (\d+) filled slots? (?:after it in that run|of the run past the budget) \((\S+)\)", en)
    shown = re.search(r"inside that run \((\S+)\): (\d+) of its (\d+) commit, the (\d+) after them \((\S+)\)", cap)
    assert (run, int(n), int(kept), int(gone.group(1)), gone.group(2)) == (
        shown.group(1), int(shown.group(3)), int(shown.group(2)), int(shown.group(4)), shown.group(5))
    assert (run, int(n), int(kept), kept_at, int(gone.group(1))) == (
        narration.positions_text(acc.run_positions), acc.run, acc.committed,
        narration.positions_text(acc.committed_positions), acc.dropped)
    zh = "".join(narration.narrate(trace, len(trace.steps) - 1, "zh"))
    cap_zh = _caption(trace, len(trace.steps) - 1, "zh")
    for text in (zh, cap_zh):  # the same run and the same cut, in Chinese
        assert narration.positions_text(acc.run_positions, "zh") in text
        assert f"{acc.dropped} 个" in text and narration.positions_text(acc.dropped_positions, "zh") in text
    assert f"前 {acc.committed} 个" in zh and f"只有 {acc.committed} 个提交" in cap_zh


def test_the_slots_behind_the_first_mask_are_the_filled_ones_after_it():
    """StepRecord.filled_behind_mask: one source for the tour's chapters 3, 4, 11 and run_account."""
    s = Trace.load(ROOT / "assets" / "traces" / "1-counting-streaming.json").steps[0]
    s.start, s.window = 10, [5, 6, None, 7, None, 8]
    assert (s.first_mask_pos, s.filled_behind_mask) == (12, [13, 15])
    assert narration.run_account(s).behind == [13, 15]
    s.window = [5, 6, 7]
    assert (s.first_mask_pos, s.filled_behind_mask) == (None, [])
    s.window = [None, 5]
    assert (s.first_mask_pos, s.filled_behind_mask) == (10, [11])


ALL_STEPS = [(name, t, k) for name, t in LAST[:-1] for k in range(len(t.steps))]


def test_the_input_title_names_a_leading_run_only_where_one_leads():
    # walk 23: chapters 3 and 4 at step 6 titled "(the leading filled run and the window)" over a
    # note saying no filled run leads; both now follow the step's own window
    seen = set()
    for name, trace, k in ALL_STEPS:
        html = render.order_view(Timeline(trace), k, "en")
        title = re.search(r'class="viewtitle">([^<]*)', html).group(1)
        leads = leading_filled(trace.steps[k].window) > 0
        seen.add(leads)
        assert ("the leading filled run and the window" in title) == leads, (name, k, title)
        assert ("no filled run leads" in title) == (not leads), (name, k, title)
    assert seen == {True, False}   # both kinds of step are met


def test_the_cache_rows_chips_carry_their_text_positions():
    # a tapped token is outlined in the KV cache row too: each chip's data-pos is its place in the text
    for name, trace, k in ALL_STEPS:
        tl = Timeline(trace)
        html = render.order_view(tl, k, "en")
        row = re.search(r'KV cache: \d+ → \d+ tokens</span><div class="slots">(.*?)</div></div>', html).group(1)
        chips = re.findall(r'<div class="kv( st-committing)?" data-pos="(\d+)">(.*?)</div>', row)
        ids = trace.prompt_ids + [t for s in trace.steps[:k + 1] for t in s.committed]
        assert chips, (name, k)
        for _, pos, label in chips:
            assert label == render.token_label(tl, ids[int(pos)]), (name, k, pos)
        assert [int(p) for _, p, _ in chips] == list(range(int(chips[0][1]), int(chips[0][1]) + len(chips)))


def _every_recorded_trace():
    traces = [(p.name, Trace.load(p)) for p in sorted((ROOT / "assets" / "traces").glob("*.json"))]
    tour = json.loads((ROOT / "assets" / "tour" / "tour.json").read_text(encoding="utf-8"))
    return traces + [(f"tour:{k}", Trace.from_dict(v)) for k, v in tour["traces"].items()]


def test_a_steps_output_shows_every_fill_that_step_made_and_keeps():
    """Walk 24: chapter 10's step 19 said "This forward filled 1: '90' at 89" while its output showed
    a mask at 89: the timeline kept one fill per slot, and step 20 filled 89 again (the AR token that
    replaced the rejected draft). Every fill a step makes that the next forward still holds is drawn
    in that step's output, its own token; the story tells a fill taken back."""
    seen_refill = False
    for name, trace in _every_recorded_trace():
        tl = Timeline(trace)
        for s, nxt in zip(trace.steps, trace.steps[1:] + [None]):
            html = render.token_canvas(tl, s.index)
            held = None if nxt is None else {nxt.start + i for i, t in enumerate(nxt.window) if t is not None}
            for f in s.filled:
                if held is not None and f.pos >= nxt.start and f.pos not in held:
                    continue   # dropped unchecked as the window shrank: the narration says it shows a mask
                cell = re.search(rf'<span class="tok st-(\w+)[^"]*"[^>]*data-pos="{f.pos}"[^>]*>(.*?)(<span|</span>)', html)
                assert cell and cell.group(1) != "mask", (name, s.index, f.pos)
                assert cell.group(2) == render.token_label(tl, f.token), (name, s.index, f.pos, cell.group(2))
            for f in s.filled:
                p = tl.positions[f.pos]
                if p.fill_step is not None and p.fill_step > s.index and p.token != f.token:
                    seen_refill = True   # filled again later: its story names this fill too
                    assert render.position_tips(tl)[f.pos].count(f"filled at step {s.index}, taken back at step") == 1
    assert seen_refill   # the case walk 24 met is in the records
