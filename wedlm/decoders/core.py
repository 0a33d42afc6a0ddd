"""The shared decoding core: the WeDLM window loop (docs/design.md#the-step-loop) over a pluggable forward.

`WindowDecoder.steps` is Algorithm 1 read top to bottom. Streaming, reference and block
decoding differ only in how the window forward is computed (cached or not) and in how many
leading filled slots may be committed at a step.
"""
from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Callable, Iterator

import torch

from ..config import DecodeConfig, ValidationError
from ..device import device_clock
from ..loading import LoadedModel
from ..reorder import leading_filled, physical_order
from ..selection import choose_tokens, entropy, select_slots, top_candidates
from .adaptive import adaptive_width, initial_width
from .records import DecodeResult, FilledSlot, MaskSlot, StepRecord


def slot_record(logits: torch.Tensor, pos: int, token: int, k: int) -> FilledSlot:
    """The record of `token` put at `pos` from these logits (1, V): its entropy and top-k
    candidates from one log-softmax (the entropy is `selection.entropy`'s expression, so the
    same value; the candidates' probabilities are its exp)."""
    logp = torch.log_softmax(logits[0].to(torch.promote_types(logits.dtype, torch.float32)), dim=-1)
    probs = logp.exp()
    ent = -(probs * logp).sum()
    top, ids = torch.topk(probs, min(k, probs.size(-1)))
    return FilledSlot(pos=pos, token=token, entropy=ent.item(),
                      candidates=[[i, round(q, 6)] for i, q in zip(ids.tolist(), top.tolist())])


# Picks the token of each slot being filled: (logits (m, V), their logical positions) -> m ids.
TokenChooser = Callable[[torch.Tensor, list[int]], list[int]]


class Decoder(ABC):
    """Runs one decode. Iterate `steps(prompt_ids)`; afterwards `result` holds the outcome.

    `token_chooser` replaces the sampler (which slots are filled stays the decoder's choice):
    teacher forcing (wedlm.analysis) plugs in here. None: sample per the config."""

    name = "base"

    def __init__(self, lm: LoadedModel, config: DecodeConfig | None = None,
                 token_chooser: TokenChooser | None = None):
        self.lm = lm
        self.config = config or DecodeConfig()
        self.token_chooser = token_chooser
        self.result: DecodeResult | None = None
        self.generator = torch.Generator(device=lm.device)

    @abstractmethod
    def steps(self, prompt_ids: list[int]) -> Iterator[StepRecord]:
        """Yield one record per forward after prefill; set `self.result` when done."""

    def run(self, prompt_ids: list[int]) -> DecodeResult:
        for _ in self.steps(prompt_ids):
            pass
        return self.result

    # -- helpers shared by all decoders -------------------------------------------------------
    def _budget(self, prompt_ids: list[int]) -> int:
        """Tokens this decode may generate: max_new_tokens, cut to the model's context."""
        if not prompt_ids:
            raise ValidationError("prompt is empty")
        room = self.lm.max_context - len(prompt_ids)
        if room < 1:
            raise ValidationError(f"prompt is {len(prompt_ids)} tokens; the model's context "
                                  f"is {self.lm.max_context} tokens")
        return min(self.config.max_new_tokens, room)

    def _choose(self, logits: torch.Tensor, positions: list[int],
                entropies: list[float]) -> list[FilledSlot]:
        """Pick a token for each row of logits (m, V) and record its top candidates."""
        cfg = self.config
        if self.token_chooser is None:
            tokens = choose_tokens(logits, cfg.temperature, cfg.top_k, cfg.top_p, self.generator).tolist()
        else:
            tokens = [int(t) for t in self.token_chooser(logits, positions)]
        probs, ids = top_candidates(logits, cfg.top_candidates)
        probs, ids = probs.tolist(), ids.tolist()
        return [FilledSlot(pos=p, token=t, entropy=h,
                           candidates=[[i, round(q, 6)] for i, q in zip(ids_k, probs_k)])
                for p, t, h, ids_k, probs_k in zip(positions, tokens, entropies, ids, probs)]

    def _accept(self, generated: list[int], tokens: list[int], budget: int) -> tuple[int, str | None]:
        """Append committed tokens in logical order, checking stop and budget at each one.
        Returns (how many were kept, stop reason or None)."""
        for k, tok in enumerate(tokens):
            generated.append(tok)
            if tok in self.lm.stop_ids:
                return k + 1, "stop_token"
            if len(generated) >= budget:
                return k + 1, "max_new_tokens"
        return len(tokens), None


@dataclass
class Resume:
    """A branch point: the state after some step of a recorded decode."""
    committed: list[int]   # output tokens committed so far (their KV is rebuilt by prefill)
    window: list           # the window after that step, logical order (None = MASK)
    forwards: int          # forwards already done, so step indices continue
    filled: int = 0        # slots filled at that step (the adaptive window sizes the next from it)


def resize(window: list, size: int, room: int) -> list:
    """The window grown with masks to `size` slots (at most `room`), or shrunk by dropping
    trailing masks only: filled slots are final."""
    size = min(size, room)
    if len(window) <= size:
        return window + [None] * (size - len(window))
    keep = max(size, max((i + 1 for i, t in enumerate(window) if t is not None), default=0))
    return window[:keep]


class WindowForward(ABC):
    """How a window forward is computed: over a KV cache (streaming) or from scratch."""

    @abstractmethod
    def prefill(self, prompt_ids: list[int]) -> None: ...

    @abstractmethod
    def forward(self, window: list, order: list[int], start: int,
                leading: int = 0) -> tuple[torch.Tensor, int]:
        """Logits (leading + m, V) and rows processed: first the shifted (next-token) logits of
        the first `leading` window slots (the leading filled run, physically first; the verified
        decoder, beyond the paper, checks its drafts with them; streaming asks for none), then
        the logits of the m mask slots in ascending logical order."""

    def last_logits(self) -> torch.Tensor:
        """Next-token logits (1, V) of the last prefilled token (the verified decoder's first
        token, as AR decoding takes it)."""
        raise NotImplementedError

    @abstractmethod
    def commit(self, tokens: list[int]) -> None:
        """Keep the KV of these leading tokens of the last forward; drop the rest."""

    @abstractmethod
    def cache_length(self) -> int: ...


class WindowDecoder(Decoder):
    """WeDLM's window loop. Subclasses pick the forward and the commit rule."""

    @abstractmethod
    def make_forward(self) -> WindowForward: ...

    adapts_window = True  # block decoding keeps its block size whatever the config says

    def window_size(self) -> int:
        return self.config.window

    def commit_count(self, window: list) -> int:
        """Streaming: every leading filled slot commits at once."""
        return leading_filled(window)

    def steps(self, prompt_ids: list[int], resume: Resume | None = None) -> Iterator[StepRecord]:
        """Decode from the prompt, or from a recorded state (`resume`: a branch point)."""
        cfg = self.config
        budget = self._budget(prompt_ids)
        # Like the official engine, the window keeps its W slots to the end: only the model's
        # context bounds it (the engine's KV room). max_new_tokens is checked at commit only,
        # so a decode may fill slots past its end; they are never committed.
        end = self.lm.max_context
        self.generator.manual_seed(cfg.seed)
        fwd = self.make_forward()
        generated: list[int] = list(resume.committed) if resume else []
        if len(generated) >= budget:
            raise ValidationError(f"the branch point already has {len(generated)} tokens: "
                                  f"max_new_tokens must be larger")
        rows_processed = rows_cached = 0
        forwards = resume.forwards if resume else 0
        stop_reason = "stopped"  # if the caller stops iterating early

        t0 = time.perf_counter()
        with torch.inference_mode():
            fwd.prefill(list(prompt_ids) + generated)  # a branch's committed tokens: same KV (tested)
        prefill_s = device_clock(self.lm.device) - t0
        start = len(prompt_ids) + len(generated)  # logical position of window[0] == cache length
        adaptive = cfg.adaptive_window and self.adapts_window
        width = initial_width(cfg) if adaptive else self.window_size()  # uncommitted slots kept
        if resume:
            window = list(resume.window)[: max(0, end - start)]
            if adaptive:  # the width the recorded step chose for the next one
                width = adaptive_width(cfg, len(resume.window), resume.filled)
        else:
            window = [None] * min(width, end - start)
        decode_s = 0.0
        try:
            while True:
                t_step = time.perf_counter()
                # 1. refill: n slots will commit, so W uncommitted slots remain (never past the context)
                n = self.commit_count(window)
                window = resize(window, n + width, end - start)
                if adaptive:  # what the window really holds (filled slots are never dropped)
                    width = len(window) - n
                # 2. reorder: filled first, then masks, each ascending; RoPE sees logical ids
                order = physical_order(window)
                cache_before = fwd.cache_length()
                # 3. one causal forward over the cached prefix
                t_forward = time.perf_counter()
                with torch.inference_mode():
                    mask_logits, rows = fwd.forward(window, order, start)
                forward_s = device_clock(self.lm.device) - t_forward
                # 4. commit the leading filled run; stop tokens and budget checked here only
                kept, reason = self._accept(generated, window[:n], budget)
                fwd.commit(window[:kept])
                forwards += 1
                rows_processed += rows
                rows_cached += kept
                fed_window = list(window)
                start += n
                window = window[n:]
                masks, filled = [], []
                if reason is None:
                    # 5. score the open masks (logits at the same slot, no shift) and fill
                    mask_idx = [i for i, tok in enumerate(window) if tok is None]
                    masks, filled = self._fill(window, mask_idx, mask_logits, start)
                    if adaptive:  # beyond the paper: see decoders/adaptive.py
                        width = adaptive_width(cfg, width, len(filled))
                step_s = time.perf_counter() - t_step
                decode_s += step_s
                record = StepRecord(
                    index=forwards - 1, start=start - n, window=fed_window, order=order,
                    position_ids=[start - n + i for i in order], committed=[int(t) for t in fed_window[:kept]],
                    masks=masks, filled=filled, threshold=cfg.threshold, penalty=cfg.penalty,
                    cache_before=cache_before, cache_after=fwd.cache_length(), rows=rows,
                    seconds=step_s, finished=reason is not None, stop_reason=reason,
                    forward_seconds=forward_s)
                if reason is not None:
                    stop_reason = reason
                yield record
                if reason is not None:
                    break
        finally:
            self.result = DecodeResult(
                prompt_ids=list(prompt_ids), token_ids=generated, stop_reason=stop_reason,
                forwards=forwards, rows_processed=rows_processed, rows_cached=rows_cached,
                prefill_s=prefill_s, decode_s=decode_s)

    def _fill(self, window: list, mask_idx: list[int], logits: torch.Tensor, start: int):
        """Select mask slots by entropy + penalty * distance and fill them (window in place)."""
        if not mask_idx:
            return [], []
        cfg = self.config
        ent = entropy(logits).tolist()
        distances = [i - mask_idx[0] for i in mask_idx]
        scores, chosen = select_slots(ent, distances, cfg.threshold, cfg.penalty)
        filled = self._choose(logits[chosen], [start + mask_idx[k] for k in chosen],
                              [ent[k] for k in chosen])
        for k, slot in zip(chosen, filled):
            window[mask_idx[k]] = slot.token
        chosen_set = set(chosen)
        masks = [MaskSlot(pos=start + i, entropy=h, distance=d, score=s, selected=k in chosen_set)
                 for k, (i, h, d, s) in enumerate(zip(mask_idx, ent, distances, scores))]
        return masks, filled
