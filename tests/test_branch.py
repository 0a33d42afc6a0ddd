import dataclasses

import pytest

from wedlm import DecodeConfig, ValidationError, decode
from wedlm.branch import branch, first_divergence, state_after

CFG = DecodeConfig(window=8, threshold=3.0, max_new_tokens=40)


@pytest.fixture(scope="module")
def trace(tiny_lm):
    return decode(tiny_lm, "Count from 1 to 20:", "streaming", CFG)


def test_branch_with_same_knobs_reproduces_the_decode(tiny_lm, trace):
    for step in (0, 3, len(trace.steps) // 2):
        again = branch(tiny_lm, trace, step, CFG)
        assert again.token_ids == trace.token_ids
        assert first_divergence(again, trace) is None
        assert again.result.forwards == trace.result.forwards


def test_branch_with_other_threshold_diverges_after_the_branch_point(tiny_lm, trace):
    step = 2
    other = branch(tiny_lm, trace, step, dataclasses.replace(CFG, threshold=None))
    div = first_divergence(other, trace)
    assert div is not None and div > step
    assert [s.index for s in other.steps] == list(range(len(other.steps)))
    assert all(len(s.filled) <= 1 for s in other.steps[step + 1:])  # tau = none: one per step
    # the branch equals a fresh decode that is handed the same state
    assert other.steps[: step + 1] == trace.steps[: step + 1]


def test_force_and_veto(tiny_lm, trace):
    step = next(s.index for s in trace.steps if s.filled and s.masks and not s.finished
                and any(not m.selected for m in s.masks))
    s = trace.steps[step]
    open_mask = next(m.pos for m in s.masks if not m.selected)
    forced = branch(tiny_lm, trace, step, CFG, force=(open_mask, 5))
    state = state_after(forced, step)
    next_step = forced.steps[step + 1]
    assert next_step.window[open_mask - next_step.start] == 5  # the forced token is in the window
    vetoed_pos = s.filled[0].pos
    vetoed = branch(tiny_lm, trace, step, CFG, veto=vetoed_pos)
    nxt = vetoed.steps[step + 1]
    assert nxt.window[vetoed_pos - nxt.start] is None
    with pytest.raises(ValidationError):
        branch(tiny_lm, trace, step, CFG, veto=open_mask)  # not filled at that step
    with pytest.raises(ValidationError):
        branch(tiny_lm, trace, len(trace.steps) + 3, CFG)
    assert state.committed == [t for r in forced.steps[: step + 1] for t in r.committed]


def test_branch_past_the_budget_is_refused(tiny_lm, trace):
    with pytest.raises(ValidationError, match="max_new_tokens must be larger"):
        branch(tiny_lm, trace, len(trace.steps) - 2, dataclasses.replace(CFG, max_new_tokens=1))
