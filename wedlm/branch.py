"""Branching: re-run a recorded decode from any step with other knobs, optionally forcing or
vetoing one slot, and compare the two trajectories."""
from __future__ import annotations

import copy
import time

from .config import DecodeConfig, ValidationError
from .decoders import make_decoder
from .decoders.core import Resume, WindowDecoder
from .decoders.records import DecodeResult
from .loading import LoadedModel
from .trace import Trace, add_token_texts


def state_after(trace: Trace, step: int) -> Resume:
    """The decoder state at the end of `step`: committed tokens and the window after the fill."""
    if not 0 <= step < len(trace.steps):
        raise ValidationError(f"step must be from 0 to {len(trace.steps) - 1}, got {step}")
    s = trace.steps[step]
    if s.finished:
        raise ValidationError(f"step {step} ended the decode: branch from an earlier step")
    committed = [t for rec in trace.steps[: step + 1] for t in rec.committed]
    start = s.start + len(s.committed)
    window = list(s.window[len(s.committed):])
    for f in s.filled:
        window[f.pos - start] = f.token
    return Resume(committed=committed, window=window, forwards=step + 1, filled=len(s.filled))


def branch(lm: LoadedModel, trace: Trace, step: int, config: DecodeConfig,
           force: tuple[int, int] | None = None, veto: int | None = None,
           time_limit_s: float | None = None) -> Trace:
    """Continue `trace` after `step` with `config`. force=(position, token id) fills a mask slot
    of the window with that token; veto=position re-masks a slot filled at that step. The new
    trace shares steps 0..step with the old one (greedy decodes are deterministic, so equal
    knobs reproduce the old trajectory exactly). time_limit_s: a wall-clock budget, as in
    decode (stop reason "time_limit")."""
    if trace.decoder not in ("streaming", "block", "reference"):
        raise ValidationError("branching needs a window decoder (streaming, block or reference)")
    state = state_after(trace, step)
    start = len(trace.prompt_ids) + len(state.committed)
    if veto is not None:
        filled_now = {f.pos for f in trace.steps[step].filled}
        if veto not in filled_now:
            raise ValidationError(f"position {veto} was not filled at step {step}")
        state.window[veto - start] = None
    if force is not None:
        pos, token = force
        if not 0 <= pos - start < len(state.window) or state.window[pos - start] is not None:
            raise ValidationError(f"position {pos} is not a mask slot of the window after step {step}")
        if not 0 <= token < lm.model.config.vocab_size:
            raise ValidationError(f"token id {token} is outside the vocabulary")
        state.window[pos - start] = int(token)
    decoder = make_decoder(trace.decoder, lm, config)
    assert isinstance(decoder, WindowDecoder)
    deadline = None if time_limit_s is None else time.perf_counter() + time_limit_s
    steps, new_steps, out_of_time = decoder.steps(trace.prompt_ids, resume=state), [], False
    try:
        for record in steps:
            new_steps.append(record)
            if deadline is not None and time.perf_counter() > deadline:
                out_of_time = True
                break
    finally:
        steps.close()
    if out_of_time and decoder.result.stop_reason == "stopped":
        decoder.result.stop_reason = "time_limit"
    shared = copy.deepcopy(trace.steps[: step + 1])
    new = decoder.result
    old = trace.result
    rows_before = sum(s.rows for s in shared)
    result = DecodeResult(
        prompt_ids=list(trace.prompt_ids), token_ids=new.token_ids, stop_reason=new.stop_reason,
        forwards=new.forwards, rows_processed=rows_before + new.rows_processed,
        rows_cached=len(state.committed) + new.rows_cached,
        prefill_s=old.prefill_s if old else 0.0,
        decode_s=sum(s.seconds for s in shared) + new.decode_s)
    out = Trace(prompt=trace.prompt, model=lm.name, decoder=trace.decoder, config=config.to_dict(),
                prompt_ids=list(trace.prompt_ids), mask_token_id=trace.mask_token_id,
                stop_ids=list(trace.stop_ids), steps=shared + new_steps, result=result,
                tokens=dict(trace.tokens))
    add_token_texts(out, lm)
    out.text = lm.decode(out.output_ids())
    return out


def first_divergence(a: Trace, b: Trace) -> int | None:
    """Index of the first step whose fills or commits differ; None when the two are the same."""
    for sa, sb in zip(a.steps, b.steps):
        if ([(f.pos, f.token) for f in sa.filled] != [(f.pos, f.token) for f in sb.filled]
                or sa.committed != sb.committed):
            return sa.index
    if len(a.steps) != len(b.steps):
        return min(len(a.steps), len(b.steps))
    return None
