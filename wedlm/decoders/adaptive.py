"""The adaptive window: BEYOND THE PAPER, opt-in (`DecodeConfig(adaptive_window=True)`).

Why: on a GPU a W-row window forward costs about what a 1-row forward does, so the official
engine keeps W slots at every step. A CPU is compute-bound: every row costs time, and masks that
a step will not fill are paid for for nothing. So the window is sized from what the last step
filled: it grows toward `window` while steps fill many slots, and shrinks toward `min_window`
while they fill one. Only the number of mask slots changes; reordering, the commit rule and the
selection rule are exactly those of Algorithm 1 (the reference decoder runs the same policy and
matches streaming token for token). The paper's engine does not do this.
"""
from __future__ import annotations

from ..config import DecodeConfig


def initial_width(cfg: DecodeConfig) -> int:
    """The first step sees the whole window: it tells how predictable the text is."""
    return cfg.window


def adaptive_width(cfg: DecodeConfig, width: int, filled: int) -> int:
    """Uncommitted slots for the next step: room for twice what this step filled, never
    shrinking by more than half at once (one hard step in a run of easy ones costs little)."""
    return max(cfg.min_window, min(cfg.window, max(2 * filled, width // 2)))
