"""The per-step narration (app/views/narration.py) against the step records it narrates: the recorded
traces of the bundled model and fresh decodes of the tiny test model."""
from pathlib import Path

import pytest

from app.views import render
from app.views.narration import narrate, positions_text, token_text
from app.views.timeline import Timeline
from wedlm import DecodeConfig, Trace, decode

TRACES = sorted((Path(__file__).parent.parent / "assets" / "traces").glob("*.json"))


def test_positions_text_compresses_runs():
    assert positions_text([59, 56, 57, 58, 62]) == "56–59, 62"
    assert positions_text([7]) == "7"


@pytest.mark.parametrize("path", TRACES, ids=lambda p: p.stem)
def test_every_recorded_step_names_its_fills_and_commits(path):
    trace = Trace.load(path)
    for s in trace.steps:
        text = " ".join(narrate(trace, s.index))
        if trace.decoder == "ar":
            assert f"position {s.filled[0].pos}" in text and token_text(trace, s.filled[0].token) in text
            continue
        if s.verify is not None:  # verified's own words: test_verified_narration_*
            continue
        if s.committed:
            committed_at = positions_text(list(range(s.start, s.start + len(s.committed))))
            assert (f"run {committed_at} " in text  # the whole run commits, or the decode ends inside it:
                    or f"only its first {len(s.committed)} ({committed_at}:" in text)
            assert f"({s.cache_before} → {s.cache_after} tokens)" in text
        else:
            assert "Nothing commits" in text and f"stays at {s.cache_before} tokens" in text
        chosen = [m.pos for m in s.masks if m.selected]
        if chosen:
            assert positions_text(chosen) in text
            if s.threshold is not None and all(m.score >= s.threshold for m in s.masks if m.selected):
                assert "the fallback" in text
        still_open = [m.pos for m in s.masks if not m.selected]
        if still_open:
            assert f"at {positions_text(still_open)} stayed open" in text
        if any(t in trace.stop_ids for t in s.committed):
            assert "stop token" in text and "the decode ends" in text


def test_a_stall_says_what_waits(tiny_lm):
    """A far slot filled while the first slot is still a mask: nothing commits, and it waits."""
    trace = decode(tiny_lm, "Count from 1 to 9:", "streaming",
                   DecodeConfig(window=8, threshold=None, penalty=0.0, max_new_tokens=16))
    stalls = [s for s in trace.steps if not s.committed and any(t is not None for t in s.window)]
    assert stalls, "the random model never filled a far slot first"
    for s in stalls:
        text = " ".join(narrate(trace, s.index))
        first_mask = s.start + next(i for i, t in enumerate(s.window) if t is None)
        assert f"position {first_mask} is still a mask" in text and "behind it" in text


def test_tau_none_budget_block_wait_and_ar(tiny_lm):
    none = decode(tiny_lm, "ROMEO:", "streaming", DecodeConfig(threshold=None, max_new_tokens=5))
    assert "τ = none" in narrate(none, 0)[-2] + narrate(none, 0)[-1]
    if none.result.stop_reason == "max_new_tokens":
        assert "budget of 5 new tokens" in " ".join(narrate(none, len(none.steps) - 1))
    block = decode(tiny_lm, "Count from 1 to 9:", "block",
                   DecodeConfig(threshold=3.0, block_size=4, max_new_tokens=8))
    waits = [s for s in block.steps if not s.committed and any(t is None for t in s.window)]
    assert waits and all("block decoding waits" in " ".join(narrate(block, s.index)) for s in waits)
    ar = decode(tiny_lm, "Count from 1 to 9:", "ar", DecodeConfig(max_new_tokens=4))
    first = " ".join(narrate(ar, 0))
    assert "next-token head predicts" in first and f"{ar.steps[0].filled[0].entropy:.2f} nats" in first


def test_narration_html_escapes_token_text(tiny_lm):
    trace = decode(tiny_lm, "Count from 1 to 9:", "streaming", DecodeConfig(window=8, threshold=3.0, max_new_tokens=8))
    for tok in list(trace.tokens):
        trace.tokens[tok] = "<img src=x onerror=alert(1)>"
    html = render.narration_html(Timeline(trace), len(trace.steps) - 1)
    assert "<img" not in html and "&lt;img" in html


VERIFIED = Path(__file__).parent.parent / "assets" / "traces" / "8-arithmetic-verified.json"


def verified_sentences_hold(trace: Trace) -> int:
    """Every step of a verified trace is narrated in verified's words, from its own record:
    the drafts checked, how many agreed, the rejected slot and the AR token that replaced it.
    Returns how many steps had a rejection."""
    rejections = 0
    for s in trace.steps:
        v = s.verify
        text = " ".join(narrate(trace, s.index))
        assert "The leading filled run" not in text and "τ" not in text  # never streaming's words
        assert "exactly greedy AR" in text
        if v.checked:
            first = s.start + 1
            assert f"at {positions_text(list(range(first, first + len(v.checked))))} " in text
            assert f"left to right: {v.accepted or 'none'} agreed (✓)" in text
        else:
            assert "no drafts after it to check" in text
        if v.replaced:
            rejections += 1
            draft = v.checked[v.rejected_pos - s.start - 1]
            assert (f"The draft {token_text(trace, draft)} at position {v.rejected_pos} was rejected (✗): "
                    f"the model's own next token there is {token_text(trace, v.ar_token)}, which replaces it") in text
            if v.dropped:
                assert f"({positions_text(v.dropped)}) " in text and "dropped unchecked" in text
        elif v.checked:
            assert f"the model's next token {token_text(trace, v.ar_token)} after them, at position {v.ar_pos}, comes for free" in text
        assert f"({s.cache_before} → {s.cache_after} tokens in the KV cache)" in text
    return rejections


def test_verified_narration_names_the_check_from_the_recorded_trace():
    trace = Trace.load(VERIFIED)
    assert trace.decoder == "verified"
    assert verified_sentences_hold(trace) >= 1, "the recorded verified example has no rejection"


def test_verified_narration_of_a_fresh_decode(tiny_lm):
    """A random tiny model drafts badly: its verified decode rejects, and every step says so."""
    trace = decode(tiny_lm, "Count from 1 to 9:", "verified", DecodeConfig(window=8, max_new_tokens=24))
    assert verified_sentences_hold(trace) >= 1


def test_a_sentence_marks_a_tokens_whitespace_as_the_token_views_do():
    """A space is · and a newline ↵ in the sentences as in the views (and their legend's key)."""
    from html import unescape
    trace = Trace.load(TRACES[0])
    tl = Timeline(trace)
    spaced = [t for t in trace.token_ids if " " in trace.tokens.get(t, "") or "\n" in trace.tokens.get(t, "")]
    assert spaced
    for t in spaced:
        assert token_text(trace, t) == "'" + unescape(render.token_label(tl, t)) + "'"


@pytest.mark.parametrize("path", TRACES, ids=lambda p: p.stem)
def test_filled_means_one_thing_and_moved_only_what_sits_behind_a_mask(path):
    """A newcomer read "16 filled slots moved in front of 16 masks" on a step where nothing moves
    (every filled slot already sits before the masks), and "12 filled" in the step line for the
    masks this forward filled: the input's slots are "already-filled", the step line's "newly
    filled", and "moved" is said only of filled slots that sit behind a mask, and how many."""
    trace = Trace.load(path)
    timeline = Timeline(trace)
    if trace.decoder == "ar":
        return
    for s in trace.steps:
        for lang, moved in (("en", "moved"), ("zh", "移到")):
            fed = narrate(trace, s.index, lang)[0]
            behind = s.filled_behind_mask
            if behind:
                said = (f"({len(behind)} moved in front)" if lang == "en" else f"（其中 {len(behind)} 个被移到前面）")
                assert said in fed, (s.index, fed)
            else:
                assert moved not in fed and ("order unchanged" if lang == "en" else "顺序不变") in fed, (s.index, fed)
        filled_input = sum(t is not None for t in s.window)
        assert f": {filled_input} already-filled slot" in narrate(trace, s.index)[0]
        if not (s.finished and not s.filled) and any(t is None for t in s.window):
            assert " newly filled" in render.step_summary(timeline, s.index)


@pytest.mark.parametrize("path", TRACES, ids=lambda p: p.stem)
def test_a_steps_masks_read_are_filled_taken_or_left(path):
    """Chapter 10's step line read "15 masks read, 0 newly filled + the AR token, 14 left": the
    account it is told from adds up: read = filled (by the fill rule) + taken (by the verified AR
    token) + left (still [M]), each counted from the record on its own."""
    from app.views.narration import mask_account, masks_left
    trace = Trace.load(path)
    for s in trace.steps:
        acc = mask_account(s)
        masks = [s.start + i for i, t in enumerate(s.window) if t is None]
        filled = {f.pos for f in s.filled}
        ar = s.verify.ar_pos if s.verify is not None else None
        assert acc.read == len(masks), s.index
        assert acc.taken == (ar in masks), s.index
        assert acc.filled == len([p for p in masks if p in filled and p != ar]), s.index
        assert acc.left == masks_left(s) == len([p for p in masks if p not in filled]), s.index
        assert acc.read == acc.filled + acc.taken + acc.left, (s.index, acc)
        # every token the forward wrote is in the account, AR's one prediction (at no mask) too
        assert acc.written == acc.filled + acc.taken + acc.beyond == len(s.filled), (s.index, acc)
        assert acc.beyond == len([p for p in filled if p not in masks]), s.index


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_ar_step_line_counts_its_prediction_from_the_account(lang):
    """AR reads no mask: its step line said "{n} token predicted" from len(s.filled), a count of its
    own beside the account every other line reads. The account counts AR's one token itself (written)
    and the line says that number."""
    from app.views.narration import mask_account
    path = next(p for p in TRACES if Trace.load(p).decoder == "ar")
    timeline = Timeline(Trace.load(path))
    for s in timeline.trace.steps:
        acc = mask_account(s)
        assert acc.read == acc.filled == acc.taken == acc.left == 0 and acc.written == len(s.filled) == 1, s.index
        said = render.step_summary(timeline, s.index, lang)
        expected = f": {acc.written} token predicted," if lang == "en" else f"：预测 {acc.written} 个词元，"
        assert expected in said, (s.index, said)


def test_a_score_never_prints_as_tau_unless_it_is_tau():
    """Walk 30 read "H 0.10 + λ·d 0.30 = 0.40" against τ = 0.4 as a mask under τ: a score that rounds to
    τ's print gets a digit more (up to 4), and its parts the same digits, so they still add up."""
    from types import SimpleNamespace

    from app.views.narration import score_parts
    near = SimpleNamespace(entropy=0.1012, score=0.4003)
    said = score_parts(near, 0.4)
    assert said["score"] == "0.4003" and said["h"] == "0.1012" and said["d"] == "0.2991"
    assert score_parts(SimpleNamespace(entropy=0.1, score=0.52), 0.4) == {"h": "0.10", "d": "0.42", "score": "0.52"}
    assert score_parts(near)["score"] == "0.40"   # no τ to tell apart from
    # on every recorded decode: a mask's printed score reads as τ only where it is τ
    for path in sorted((Path(__file__).parent.parent / "assets" / "traces").glob("*.json")):
        for s in Trace.load(path).steps:
            for m in s.masks if s.threshold is not None else []:
                shown = score_parts(m, s.threshold)["score"]
                assert shown != f"{s.threshold:.{len(shown) - 2}f}" or abs(m.score - s.threshold) < 5e-5, (path.name, m)
