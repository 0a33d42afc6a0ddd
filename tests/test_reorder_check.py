"""Chapter 3 shows, not only says, that reordering changes nothing a token computes: the tour's
record holds the same decode run again by the reference decoder (logical order, no cache, an
explicit mask), and the chapter quotes that comparison only where it was made."""
from __future__ import annotations

import re
from dataclasses import replace

from app.tabs.tour import ch3_reordering
from app.tabs.tour.data import load_tour
from tools.record_tour import reorder_check
from wedlm import DecodeConfig, decode


def plain(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def test_the_check_compares_the_decode_with_the_reference_decoder(tiny_lm):
    trace = decode(tiny_lm, "Count: 1 2 3", "streaming", DecodeConfig(max_new_tokens=12, threshold=0.9))
    check = reorder_check(tiny_lm, trace)
    assert check["same_tokens"] and check["tokens"] == len(trace.result.token_ids) == 12
    assert check["forwards"] == len(trace.steps)
    # every slot that got an entropy at every forward was compared: the masks scored and the fills
    assert check["slots"] == sum(len({m.pos for m in s.masks} | {f.pos for f in s.filled}) for s in trace.steps)
    assert 0 <= check["max_entropy_diff"] < 1e-3
    # with the chapter's step, the check keeps that step's first mask's two entropies side by side
    step = next(k for k, s in enumerate(trace.steps) if s.first_mask_pos is not None)
    at = reorder_check(tiny_lm, trace, step)["at_step"]
    first = trace.steps[step].first_mask_pos
    assert at["step"] == step and at["pos"] == first
    assert at["entropy"] == next(m.entropy for m in trace.steps[step].masks if m.pos == first)
    assert abs(at["entropy"] - at["reference"]) <= check["max_entropy_diff"]
    # a decode the reference does not reproduce (another prompt's tokens) is not called the same
    other = decode(tiny_lm, "Count: 9 8 7", "streaming", DecodeConfig(max_new_tokens=12, threshold=0.9))
    forged = replace(trace, result=replace(trace.result, token_ids=other.result.token_ids[::-1]))
    failed = reorder_check(tiny_lm, forged)
    assert not failed["same_tokens"] and failed["slots"] == 0 and failed["max_entropy_diff"] is None
    assert ch3_reordering.checked(failed) == ""


def test_chapter_3_quotes_the_recorded_check_and_a_live_run_does_not():
    data = load_tour()
    tl, step = data.at("reorder")
    check = data.picks["reorder"]["check"]
    assert check["decoder"] == "reference" and check["same_tokens"]
    assert check["tokens"] == len(tl.trace.result.token_ids) and check["forwards"] == len(tl.trace.steps)
    assert check["max_entropy_diff"] < 1e-4
    for lang in ("en", "zh"):
        words = plain(ch3_reordering.text(tl, step, step, lang=lang, check=check))
        diff = f"{check['max_entropy_diff']:.7f}".rstrip("0")
        for number in (str(check["tokens"]), str(check["forwards"]), str(check["slots"]), diff):
            assert number in words, (lang, number)
        assert "reference" in words or "参考解码器" in words
        # the words a newcomer met unexplained link to their glossary entries
        html = ch3_reordering.checked(check, lang)
        assert 'data-term="reference"' in html and 'data-term="float-rounding"' in html, lang
        # one pair of numbers to compare, the moment's first mask in both orders: the worked example's
        # end table shows them (the words dropped their 7-place copy to fit presenting at 1024)
        at = check["at_step"]
        assert at["step"] == step and at["pos"] == tl.trace.steps[step].first_mask_pos
        end = plain(ch3_reordering.example_end(data.picks["reorder"]["attention"], tl, step, lang))
        assert end.count(f"{at['entropy']:.4f}") == 2 and f"{at['reference']:.4f}" == f"{at['entropy']:.4f}", lang
        live = plain(ch3_reordering.text(tl, step, step, lang=lang))  # a live run: nothing was checked
        assert diff not in live and "Checked on this decode" not in live and "验证过" not in live


def test_chapter_3_shows_why_on_its_first_mask_the_same_positions_in_both_grids():
    """The 'why' paragraph names the rows before the first mask in physical order, and the logical
    grid's row for that mask marks exactly those positions (data-sees, columns in logical order)."""
    from app.views import render
    from wedlm.decoders.records import position_runs

    data = load_tour()
    tl, step = data.at("reorder")
    s = tl.trace.steps[step]
    physical, logical = ch3_reordering.seen_rows(s)
    assert physical == logical and any(p > s.first_mask_pos for p in physical)
    grid = render.mask_grid(tl, step, logical=True)
    sees = re.search(rf'data-pos="{s.first_mask_pos}" data-sees="([012]+)"', grid).group(1)
    marked = [s.start + j for j, v in enumerate(sees) if v != "0" and s.start + j != s.first_mask_pos]
    assert marked == physical
    example = data.picks["reorder"]["attention"]   # the worked example, whose step this is: its Σ table is drawn
    assert example["step"] == step
    words = plain(ch3_reordering.text(tl, step, step, example=example))
    seen = ", ".join(f"{a}–{b}" if a != b else str(a) for a, b in position_runs(physical))
    assert f"mask at {s.first_mask_pos}" in words and seen in words and f"0–{s.start - 1}" in words
    # the last step closes the argument a newcomer can check: a weighted sum, the same in any order,
    # added up by hand in the Σ table (the worked example under the grids: test_attention_example.py)
    assert "weighted sum" in words and "same in any order" in words and "Σ table" in words
    # in three numbered steps, a list outside any paragraph (a <p> cannot hold an <ol>)
    html = ch3_reordering.text(tl, step, step)
    assert html.count("<li>") == 3 and not re.search(r"<p>(?:(?!</p>).)*<ol", html)
    # a step whose physical order were wrong (the mask fed first) is never explained as the same
    wrong = replace(s, order=[s.first_mask_pos - s.start] + [j for j in s.order if j != s.first_mask_pos - s.start])
    assert ch3_reordering.seen_rows(wrong)[0] != logical and ch3_reordering.why(wrong) == ""


def test_chapter_3_says_its_idea_at_every_step_not_only_at_its_moment():
    """A walker stepped to steps where nothing is reordered and read only "the orders are the same
    here": every step says what the chapter is about and where its moment is."""
    data = load_tour()
    tl, moment = data.at("reorder")
    plain_steps = [k for k, s in enumerate(tl.trace.steps) if not s.filled_behind_mask]
    assert plain_steps
    for lang, idea in (("en", "WeDLM feeds them in front of it"), ("zh", "挪到这个掩码前面")):
        for k in plain_steps:
            words = plain(ch3_reordering.text(tl, k, moment, lang=lang))
            assert idea in words and str(moment) in words, (lang, k)
