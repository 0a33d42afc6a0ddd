"""Where in a trace each tour chapter should land: pure rules over step records.

tools/record_tour.py applies them to the bundled model's decodes (the picks are stored in
assets/tour/tour.json), and the tour's "try it" applies the same rule to a live re-decode, so a
step index is never chosen by hand. Each finder returns a step index, or None when the trace
never has that moment.
"""
from __future__ import annotations

from wedlm import Trace
from wedlm.decoders.records import StepRecord

FAR = 3          # a "far" slot: at least this many slots after the first open mask
FLAT_FORWARDS = 3  # a stall: this many forwards after the far fill commit nothing
AR_CACHED_OUTPUT = 4  # chapter 1 lands where the cache already holds this many output tokens


def fell_back(s: StepRecord) -> bool:
    """No mask scored under τ: the single lowest score was filled (or τ is none)."""
    return bool(s.masks) and (s.threshold is None or not any(m.score < s.threshold for m in s.masks))


def ar_step(trace: Trace) -> int | None:
    """Chapter 1: the first forward whose cache already holds a few output tokens."""
    prompt_len = len(trace.prompt_ids)
    return next((s.index for s in trace.steps
                 if s.cache_before - prompt_len >= AR_CACHED_OUTPUT and s.filled), None)


def fill_rule_step(trace: Trace) -> int | None:
    """Chapter 2: a step that fills several masks under τ and leaves some open; best where λ·d
    decided a slot (its entropy alone is under τ, its score is not)."""
    def shows_rule(s):
        chosen = sum(m.selected for m in s.masks)
        return s.threshold is not None and chosen >= 2 and chosen < len(s.masks) and not fell_back(s)
    candidates = [s for s in trace.steps if shows_rule(s)]
    lam_decided = [s for s in candidates
                   if any(not m.selected and m.entropy < s.threshold <= m.score for m in s.masks)]
    pick = (lam_decided or candidates or [None])[0]
    return None if pick is None else pick.index


def reorder_step(trace: Trace) -> int | None:
    """Chapter 3: the first step whose input has a filled slot logically after a mask, so
    physical order differs from logical order."""
    return next((s.index for s in trace.steps if s.filled_behind_mask), None)


def commit_step(trace: Trace) -> int | None:
    """Chapter 4: the first step that commits a leading run while another filled slot waits
    behind a mask."""
    return next((s.index for s in trace.steps if s.committed and s.filled_behind_mask), None)


def stall_step(trace: Trace) -> int | None:
    """Chapter 5: the first step that fills a far slot while the first open mask stays open,
    followed by forwards that commit nothing (the prefix growth is flat)."""
    steps = trace.steps
    for s in steps[1:]:  # step 0 has no step before it to branch from
        if not s.masks or s.masks[0].selected:
            continue
        if not any(m.selected and m.distance >= FAR for m in s.masks):
            continue
        after = steps[s.index + 1: s.index + 1 + FLAT_FORWARDS]
        if len(after) == FLAT_FORWARDS and not any(a.committed for a in after):
            return s.index
    return None


def flat_run(trace: Trace, step: int) -> int:
    """Forwards after `step` that commit nothing (how long the stall lasts)."""
    n = 0
    for s in trace.steps[step + 1:]:
        if s.committed:
            break
        n += 1
    return n


def flat_span(trace: Trace, step: int) -> tuple[int, int]:
    """The first and last step of the run of forwards that commit nothing around `step` (where the
    growth line is flat): back from `step` to the first such forward, on through flat_run's. When
    `step` itself commits, the run starts at the next step."""
    last = step + flat_run(trace, step)
    if trace.steps[step].committed:
        return step + 1, last
    first = step
    while first > 0 and not trace.steps[first - 1].committed:
        first -= 1
    return first, last


def commit_step_of(trace: Trace, pos: int) -> int | None:
    """The step whose forward committed logical position `pos`."""
    for s in trace.steps:
        if s.start <= pos < s.start + len(s.committed):
            return s.index
    return None


def busiest_step(trace: Trace) -> int | None:
    """Chapter 7, low entropy: the step that fills the most masks at once."""
    if not trace.steps:
        return None
    return max(trace.steps, key=lambda s: (len(s.filled), -s.index)).index


def fallback_step(trace: Trace) -> int | None:
    """Chapter 7, high entropy: the first step where no mask is under τ (argmin fallback)
    and several masks stay open."""
    return next((s.index for s in trace.steps if fell_back(s) and len(s.masks) >= 4), None)


def verified_rejection_step(trace: Trace) -> int | None:
    """Chapter 10 (BEYOND THE PAPER: the verified decoder): a step whose check rejected a draft.
    Best one where some drafts agreed first and the decode goes on; then one where some agreed;
    then any rejection."""
    # a rejection past the decode's end (a draft after its stop token) changes nothing a reader sees
    end = max((s.start + len(s.committed) for s in trace.steps), default=0)
    rejected = [s for s in trace.steps if s.verify is not None and s.verify.rejected_pos is not None
                and s.verify.rejected_pos < end]
    agreed = [s for s in rejected if s.verify.accepted >= 1]
    pick = ([s for s in agreed if not s.finished] or agreed or rejected or [None])[0]
    return None if pick is None else pick.index
