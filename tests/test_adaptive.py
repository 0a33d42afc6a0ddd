"""The adaptive window (beyond the paper, opt-in): same rules as Algorithm 1, only W moves."""
import dataclasses

import pytest

from wedlm import DecodeConfig, ValidationError, decode
from wedlm.branch import branch, first_divergence
from wedlm.decoders.adaptive import adaptive_width
from wedlm.reorder import leading_filled, physical_order

from test_decoders import PROMPTS, selections


def open_slots(step):
    """Uncommitted slots the step kept: its window minus the run it committed."""
    return len(step.window) - leading_filled(step.window)


def test_policy_grows_with_fills_and_shrinks_by_at_most_half():
    cfg = DecodeConfig(window=16, min_window=2, adaptive_window=True)
    assert adaptive_width(cfg, 16, 1) == 8      # one fill: halve, not collapse
    assert adaptive_width(cfg, 8, 1) == 4
    assert adaptive_width(cfg, 2, 1) == 2       # never below min_window
    assert adaptive_width(cfg, 4, 4) == 8       # every slot filled: double
    assert adaptive_width(cfg, 8, 13) == 16     # never above window


def test_adaptive_streaming_matches_reference_token_for_token(tiny_models):
    cfg = DecodeConfig(window=12, min_window=2, threshold=3.0, penalty=0.02, max_new_tokens=32,
                       adaptive_window=True)
    widths = set()
    for lm in tiny_models:
        for prompt in PROMPTS:
            stream = decode(lm, prompt, "streaming", cfg)
            ref = decode(lm, prompt, "reference", cfg)
            assert stream.token_ids == ref.token_ids
            assert selections(stream) == selections(ref)
            steps = stream.steps
            assert open_slots(steps[0]) == 12  # the first step sees the whole window
            for prev, s in zip(steps, steps[1:]):
                # the policy sized this step from the last one's fills; filled slots stay
                want = adaptive_width(cfg, open_slots(prev), len(prev.filled))
                assert open_slots(s) == max(want, 1 + max((i for i, t in enumerate(s.window)
                                                           if t is not None), default=-1)
                                            - leading_filled(s.window))
                assert s.order == physical_order(s.window)
                widths.add(open_slots(s))
    assert min(widths) < 12 and max(widths) == 12  # it really shrank and grew back


def test_fixed_window_is_unchanged_by_min_window(tiny_lm):
    a = decode(tiny_lm, PROMPTS[0], "streaming", DecodeConfig(window=8, threshold=3.0, max_new_tokens=24))
    b = decode(tiny_lm, PROMPTS[0], "streaming",
               DecodeConfig(window=8, threshold=3.0, max_new_tokens=24, min_window=5))
    assert selections(a) == selections(b)


def test_block_decoding_ignores_the_adaptive_window(tiny_lm):
    cfg = DecodeConfig(block_size=4, threshold=3.0, max_new_tokens=16)
    a = decode(tiny_lm, PROMPTS[0], "block", cfg)
    b = decode(tiny_lm, PROMPTS[0], "block", dataclasses.replace(cfg, adaptive_window=True))
    assert selections(a) == selections(b)


def test_branch_of_an_adaptive_decode_reproduces_it(tiny_lm):
    cfg = DecodeConfig(window=8, threshold=3.0, max_new_tokens=32, adaptive_window=True)
    trace = decode(tiny_lm, "Count from 1 to 20:", "streaming", cfg)
    for step in (0, 2, len(trace.steps) // 2):
        again = branch(tiny_lm, trace, step, cfg)
        assert first_divergence(again, trace) is None and again.token_ids == trace.token_ids


def test_adaptive_window_knobs_are_validated():
    with pytest.raises(ValidationError, match="min_window"):
        DecodeConfig(window=4, min_window=6, adaptive_window=True)
    with pytest.raises(ValidationError, match="adaptive_window"):
        DecodeConfig(adaptive_window="yes")
    with pytest.raises(ValidationError, match="min_window"):
        DecodeConfig(min_window=0)
    assert DecodeConfig.from_dict({"adaptive_window": True, "min_window": 3}).min_window == 3
