"""wedlm.analysis: teacher-forced streaming decoding and the entropy lens, against real decodes."""
import pytest

from wedlm import DecodeConfig, ValidationError, decode, load_model
from wedlm.analysis import (MAX_TEXT_CHARS, MAX_TEXT_TOKENS, check_text, forced_decoder, frontier_pairs,
                            grouping_from_decode, lens, lens_at, mask_table, next_token_entropies,
                            position_entropies, regroup)
from wedlm.decoders import StreamingDecoder

MATH = "Question: Ben has 3 boxes of 4 eggs. How many eggs?\nAnswer:"


@pytest.fixture(scope="module")
def bundled():
    return load_model(device="cpu")


def commit_groups(trace) -> list[list[int]]:
    """Output indices committed by each forward of a real decode (forwards that commit nothing
    are left out)."""
    groups, k = [], 0
    for s in trace.steps:
        if s.committed:
            groups.append(list(range(k, k + len(s.committed))))
            k += len(s.committed)
    return groups


def test_forced_decoder_given_the_greedy_output_replays_the_streaming_decode(bundled):
    """Teacher-forced on the model's own greedy output, every fill is the token greedy chose:
    the same steps, so the forced TPF is the real one (the ceiling tool's oracle)."""
    cfg = DecodeConfig(max_new_tokens=40)
    stream = decode(bundled, MATH, "streaming", cfg)
    # the window keeps W slots to the end (as the official engine), so greedy also filled slots
    # past the end that never commit: the reference is every token greedy filled, by position
    # (a slot it never filled gets a stop token: a replay that filled it would differ below)
    fills = {f.pos: f.token for s in stream.steps for f in s.filled}
    start = len(stream.prompt_ids)
    assert max(fills) >= start + len(stream.token_ids)  # slots past the end were filled
    reference = [fills.get(p, bundled.stop_ids[0]) for p in range(start, max(fills) + 1)]
    assert reference[:len(stream.token_ids)] == stream.token_ids
    forced = forced_decoder(bundled, cfg, stream.prompt_ids, reference)
    steps = list(forced.steps(stream.prompt_ids))
    assert forced.result.token_ids == stream.token_ids
    assert [[(f.pos, f.token) for f in s.filled] for s in steps] == \
        [[(f.pos, f.token) for f in s.filled] for s in stream.steps]
    # a different reference changes the tokens but never which slots the first step fills
    other = forced_decoder(bundled, cfg, stream.prompt_ids, [7] * 40)
    first = next(iter(other.steps(stream.prompt_ids)))
    assert [f.pos for f in first.filled] == [f.pos for f in stream.steps[0].filled]
    assert {f.token for f in first.filled} == {7}
    # the hook is public: the same through the constructor, and candidates stay the model's
    again = StreamingDecoder(bundled, cfg, token_chooser=lambda logits, positions: [7] * len(positions))
    step0 = next(iter(again.steps(stream.prompt_ids)))
    assert [f.candidates for f in step0.filled] == [f.candidates for f in first.filled]


@pytest.mark.parametrize("prompt,max_new", [("Count from 3 to 30:", 64), (MATH, 32)])
def test_lens_groups_equal_the_real_streaming_decode_on_the_greedy_output(bundled, prompt, max_new):
    """The window keeps W slots to the end, so the real decode also filled slots past its output
    (never committed); given those tokens (`beyond`) the lens replays it exactly."""
    cfg = DecodeConfig(max_new_tokens=max_new)
    stream = decode(bundled, prompt, "streaming", cfg)
    stop = stream.token_ids[-1] in bundled.stop_ids
    fills = {f.pos: f.token for s in stream.steps for f in s.filled}
    end = len(stream.prompt_ids) + len(stream.token_ids)
    beyond = [fills.get(p, bundled.stop_ids[0]) for p in range(end, max(fills) + 1)]
    result = lens(bundled, stream.prompt_ids, stream.output_ids(), cfg, stop=stop, beyond=beyond)
    assert result.token_ids == stream.token_ids
    assert result.grouping.groups() == commit_groups(stream)
    assert result.grouping.forwards == stream.result.forwards
    assert result.grouping.tokens_per_forward == pytest.approx(stream.stats()["tokens_per_forward"])
    fills = {f.pos - len(stream.prompt_ids): f.entropy for s in stream.steps for f in s.filled}
    assert result.grouping.fill_entropy == pytest.approx([fills[k] for k in range(len(result.token_ids))], abs=1e-4)


def test_regroup_from_the_table_equals_a_forced_decode_wherever_it_claims_exactness(bundled):
    """The table re-plays the decode without the model; where it says it is exact, it is (every
    grouping equals a real forced decode's); where a step fills behind an open mask it refuses."""
    prompt_ids = bundled.encode("Count from 3 to 30:")
    text = bundled.tokenizer.encode(" 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14", add_special_tokens=False)
    base = lens(bundled, prompt_ids, text, DecodeConfig())
    exact = 0
    for tau in (0.05, 0.4, 2.5, None):
        for penalty in (0.02, 0.3):
            fast = regroup(base.table, base.window, tau, penalty, base.past_end)
            slow = lens_at(bundled, replace_grouping_none(base), tau, penalty).grouping
            assert slow.source == "rerun"
            if fast is None:
                continue
            exact += 1
            assert fast.groups() == slow.groups() and fast.forwards == slow.forwards
            assert fast.fill_step == slow.fill_step
            assert fast.fill_entropy == pytest.approx(slow.fill_entropy, abs=1e-4)
    assert exact >= 4


def test_regroup_refuses_a_fill_behind_an_open_mask():
    """Slot 1 under τ but slot 0 not: the next masks would see slot 1's token, which the
    table never recorded, so re-grouping is not exact."""
    table = [[1.0, 0.1, 1.0], [0.1, 0.1, 1.0], [0.1, 1.0, 1.0]]
    assert regroup(table, 3, 0.5, 0.0) is None
    assert regroup(table, 3, None, 0.0) is None        # the argmin fallback is slot 1 too
    ok = regroup(table, 3, 1.5, 0.0)                   # all three slots at once
    assert ok.groups() == [[0, 1, 2]] and ok.forwards == 2 and ok.source == "table"
    two = regroup([[0.1, 0.1, 1.0], [9.0, 9.0], [0.2]], 3, 0.5, 0.0)
    assert two.groups() == [[0, 1], [2]] and two.fill_step == [0, 0, 1] and two.forwards == 3


def replace_grouping_none(base):
    """The same lens with an empty table, so lens_at must re-run the decode."""
    from dataclasses import replace
    return replace(base, table=[[float("inf")] + [0.0] * (base.window - 1)] * len(base.table))


def test_mask_table_and_head_match_the_decoders_at_the_first_position(bundled):
    """Row 0 of the table is step 0's masks (a window of W masks after the prompt); the head's
    first entropy is the AR decoder's prefill entropy."""
    prompt = "Count from 3 to 17:"
    cfg = DecodeConfig(max_new_tokens=16)
    prompt_ids = bundled.encode(prompt)
    step0 = decode(bundled, prompt, "streaming", cfg).steps[0].masks
    row0 = mask_table(bundled, prompt_ids, [5, 6], cfg.window)[0]
    assert row0 == pytest.approx([m.entropy for m in step0], abs=1e-4)
    head, first, second = position_entropies(bundled, prompt_ids, [5, 6], cfg.window)[0]
    assert (first, second) == pytest.approx((row0[0], row0[1]))
    assert head == pytest.approx(decode(bundled, prompt, "ar", cfg).result.prefill_filled[0].entropy, abs=1e-4)
    assert next_token_entropies(bundled, prompt_ids, [5, 6])[0] == pytest.approx(head)


def test_entropy_gap_pairs_the_frontier_mask_with_the_next_token_head_at_the_same_position(bundled):
    prompt = "Count from 3 to 17:"
    cfg = DecodeConfig(max_new_tokens=64)
    pairs, tpf = frontier_pairs(bundled, prompt, cfg)
    stream = decode(bundled, prompt, "streaming", cfg)
    assert tpf == stream.stats()["tokens_per_forward"] and 0 < len(pairs) <= len(stream.steps)
    first_mask = next(m for m in stream.steps[0].masks if m.distance == 0)
    ar_first = decode(bundled, prompt, "ar", cfg).result.prefill_filled[0]
    assert pairs[0][0] == pytest.approx(first_mask.entropy, abs=1e-5)
    assert pairs[0][1] == pytest.approx(ar_first.entropy, abs=1e-4)
    assert all(mask < 0.4 and head < 0.4 for mask, head in pairs)  # counting: both heads are sure


def test_lens_bounds_its_input_before_doing_work(tiny_lm):
    with pytest.raises(ValidationError, match="characters"):
        check_text("hi", "x" * (MAX_TEXT_CHARS + 1))
    with pytest.raises(ValidationError, match="empty"):
        check_text("hi", "   ")
    with pytest.raises(ValidationError, match="prompt is empty"):
        check_text("", "text")
    ids = tiny_lm.encode("hi")
    with pytest.raises(ValidationError, match="tokens"):
        lens(tiny_lm, ids, [5] * (MAX_TEXT_TOKENS + 1), DecodeConfig())
    with pytest.raises(ValidationError, match="stop token"):
        lens(tiny_lm, ids, [5, tiny_lm.stop_ids[0], 6], DecodeConfig())


def test_grouping_counts_every_forced_token_once(tiny_lm):
    ids = tiny_lm.encode("hello")
    result = lens(tiny_lm, ids, [11, 12, 13, 14, 15], DecodeConfig(threshold=None), stop=False)
    groups = result.grouping.groups()
    assert sum(groups, []) == list(range(5))
    # no τ: one slot per step, so no two tokens fill together; slots past the text's end (the
    # window keeps W slots to the end) may take steps of their own, so at least 5 + 1 forwards
    assert len(set(result.grouping.fill_step)) == 5
    assert result.grouping.forwards >= 6
    d = result.to_dict()
    assert len(d["head_entropy"]) == len(d["frontier_entropy"]) == len(d["fill_step"]) == 5
    assert d["tokens_per_forward"] == pytest.approx(5 / d["forwards"])
    assert grouping_from_decode([], len(ids), 0, DecodeConfig()).forwards == 0
