"""Lossless WeDLM: the same forward drafts and verifies (BEYOND THE PAPER; `streaming` is the
official algorithm and stays the default). docs/design.md#verified-decoding-beyond-the-paper.

WeDLM's training keeps the ordinary next-token loss, so in the streaming forward each row of the
leading filled run (physically first, in logical order, right after the cached prefix: it sees
exactly its true left context) carries the exact AR prediction of the next token in its shifted
logits. The official engine discards them; this decoder keeps them. Each step:

1. the window is slot 0 (the AR token found by the previous forward, or by prefill: exact), the
   drafts after it, and m masks (m from the window policy, 0 ... W; decoders/window_policy.py);
   a drafted stop token ends it (`before_stop`: nothing after it can commit);
2. one causal forward, reordered exactly as in `streaming`;
3. verify: draft j is checked against the AR prediction of the row before it (greedy: equal to
   its argmax; sampling: the speculative rule, accept with min(1, p/q) else resample from
   (p - q)+). Slot 0 and the agreeing drafts commit (their KV is exact); the AR token of the
   first disagreeing slot replaces it, or, when all agree, the AR prediction after the run is
   appended for free. Drafts after a rejected slot are dropped (their logits saw a wrong token);
4. the masks are filled by the fill rule (τ, λ) exactly as in `streaming`, except the first
   mask's slot, which the AR token takes.

So the text is greedy AR decoding of the same weights (sampling: the AR distribution) whatever
τ, λ, W or the window policy: speed comes only from drafts that agree, and every forward yields
at least the AR token. `reference-verified` runs the same steps without a cache: the oracle.
"""
from __future__ import annotations

import time
from typing import Iterator

import torch

from ..config import ValidationError
from ..loading import LoadedModel
from ..reorder import leading_filled, physical_order
from ..selection import filter_top_k, filter_top_p
from .core import Resume, WindowDecoder, WindowForward, slot_record
from .records import DecodeResult, FilledSlot, StepRecord, Verification
from .reference import RecomputeForward
from .streaming import CachedForward
from .window_policy import CostCurve, WindowPolicy, before_stop, make_policy, shape_window


def sampling_probs(logits: torch.Tensor, temperature: float, top_k: int, top_p: float) -> torch.Tensor:
    """The distribution a token is sampled from (top-k -> top-p -> /T), per row: (m, V)."""
    logits = logits.to(torch.promote_types(logits.dtype, torch.float32))
    return torch.softmax(filter_top_p(filter_top_k(logits, top_k), top_p) / temperature, dim=-1)


def speculative_accept(draft: int, p: torch.Tensor, q: torch.Tensor,
                       generator: torch.Generator | None) -> tuple[bool, int]:
    """The speculative sampling rule for one draft sampled from q, target p (both (V,)):
    accept with probability min(1, p/q); else sample from the residual (p - q)+ normalised.
    Returns (accepted, the token kept). The kept token is distributed exactly as p."""
    ratio = (p[draft] / q[draft]).item() if q[draft] > 0 else 0.0
    u = torch.rand(1, generator=generator, device=p.device).item()
    if u < min(1.0, ratio):
        return True, draft
    residual = (p - q).clamp(min=0)
    total = residual.sum()
    if total <= 0:  # p == q up to rounding: p itself
        residual, total = p, p.sum()
    return False, int(torch.multinomial(residual / total, 1, generator=generator).item())


def verification_summary(verify: Verification) -> str:
    """One plain sentence on what a verified step found (for narration and the CLI)."""
    n = len(verify.checked)
    if n == 0:
        how = "no drafts to check"
    elif verify.rejected_pos is None:
        how = f"all {n} draft{'s' if n > 1 else ''} agreed with the model's next-token prediction"
    else:
        how = (f"{verify.accepted} of {n} draft{'s' if n > 1 else ''} agreed; the draft at "
               f"position {verify.rejected_pos} did not")
    ar = ("replaced it" if verify.replaced else "was appended after them for free") if n else "was found"
    dropped = f"; {len(verify.dropped)} later draft(s) dropped" if verify.dropped else ""
    return f"{how}, so the model's next token {ar} at position {verify.ar_pos}{dropped}."


class VerifiedDecoder(WindowDecoder):
    """Beyond the paper: WeDLM drafts, the same forward's next-token rows verify (lossless)."""

    name = "verified"
    adapts_window = False  # the window policy sizes it

    def __init__(self, lm: LoadedModel, config=None, token_chooser=None, policy: str = "cost",
                 cost: CostCurve | None = None):
        if token_chooser is not None:
            raise ValidationError("the verified decoder takes no token chooser: its text is AR decoding")
        super().__init__(lm, config)
        self.policy_name, self.cost = policy, cost
        self.policy: WindowPolicy = make_policy(policy, self.config.window, lm, cost)
        self._draft_q: dict[int, torch.Tensor] = {}  # sampling: each draft's distribution, by position

    def make_forward(self) -> WindowForward:
        self.forward_impl = CachedForward(self.lm)
        return self.forward_impl

    # -- token choice ---------------------------------------------------------------------------
    @property
    def greedy(self) -> bool:
        return self.config.temperature == 0

    def _probs(self, logits: torch.Tensor) -> torch.Tensor:
        cfg = self.config
        return sampling_probs(logits, cfg.temperature, cfg.top_k, cfg.top_p)

    def _slot(self, logits: torch.Tensor, pos: int, token: int) -> FilledSlot:
        """A filled slot record for `token` chosen at `pos` from these logits (1, V)."""
        return slot_record(logits, pos, int(token), self.config.top_candidates)

    def _ar_slot(self, logits: torch.Tensor, pos: int, greedy_token: int | None = None) -> FilledSlot:
        """The AR token at `pos` from the previous row's logits (1, V) (greedy: its argmax,
        passed in when the caller already has it)."""
        if self.greedy:
            token = int(logits[0].argmax()) if greedy_token is None else greedy_token
        else:
            token = int(torch.multinomial(self._probs(logits)[0], 1, generator=self.generator))
        return self._slot(logits, pos, token)

    def _choose(self, logits: torch.Tensor, positions: list[int], entropies: list[float]) -> list[FilledSlot]:
        """Drafts of the fill rule: as streaming (argmax, or sampled), keeping each draft's q."""
        if self.greedy:
            return super()._choose(logits, positions, entropies)
        probs = self._probs(logits)
        tokens = torch.multinomial(probs, 1, generator=self.generator).squeeze(-1).tolist()
        for pos, q in zip(positions, probs):
            self._draft_q[pos] = q
        return [self._slot(logits[k:k + 1], pos, tok) for k, (pos, tok) in enumerate(zip(positions, tokens))]

    def _verify(self, window: list, lead: torch.Tensor, start: int) -> tuple[int, FilledSlot]:
        """Check the drafts window[1:n] against the AR rows lead (n, V). Returns (accepted, the
        AR token: for the first rejected slot, or after the run when all agree)."""
        n = lead.size(0)
        if self.greedy:  # one argmax over the run, compared in Python (no per-row tensor ops)
            best = lead.argmax(dim=-1).tolist()
            for j in range(1, n):
                if window[j] != best[j - 1]:
                    return j - 1, self._slot(lead[j - 1:j], start + j, best[j - 1])
            return n - 1, self._ar_slot(lead[n - 1:n], start + n, best[n - 1])
        for j in range(1, n):
            target, draft, pos = lead[j - 1:j], window[j], start + j
            ok, ar = speculative_accept(draft, self._probs(target)[0], self._draft_q[pos], self.generator)
            if not ok:
                return j - 1, self._slot(target, pos, ar)
        return n - 1, self._ar_slot(lead[n - 1:n], start + n)

    # -- the loop -------------------------------------------------------------------------------
    def steps(self, prompt_ids: list[int], resume: Resume | None = None) -> Iterator[StepRecord]:
        if resume is not None:
            raise ValidationError("branching is for streaming, block and reference decodes")
        cfg = self.config
        budget = self._budget(prompt_ids)
        end = self.lm.max_context
        self.generator.manual_seed(cfg.seed)
        self._draft_q = {}
        fwd = self.make_forward()
        generated: list[int] = []
        rows_processed = rows_cached = forwards = 0
        stop_reason = "stopped"
        decode_s = 0.0

        t0 = time.perf_counter()
        with torch.inference_mode():
            fwd.prefill(list(prompt_ids))
            first = self._ar_slot(fwd.last_logits(), len(prompt_ids))  # as AR decoding starts
        prefill_s = time.perf_counter() - t0
        _, reason = self._accept(generated, [first.token], budget)
        start = len(prompt_ids)          # logical position of window[0] == cache length
        window: list = [first.token]     # slot 0: the AR token, exact
        offered = 0                      # draft slots the last forward filled or left open
        try:
            while reason is None:
                t_step = time.perf_counter()
                # 1. the policy's mask count (0: a one-row forward, an AR step)
                # Slots past the budget could never commit: the window ends there (slot 0 is
                # already in the text).
                room = min(end - start, 1 + budget - len(generated))
                masks = self.policy.masks(window, room)
                probe = self.policy.probing
                window = before_stop(shape_window(window, masks, room), self.lm.stop_ids)
                n = leading_filled(window)  # >= 1: slot 0 plus the drafts to check
                order = physical_order(window)
                cache_before = fwd.cache_length()
                # 2. one causal forward; the leading run's shifted logits come back first
                t_forward = time.perf_counter()
                with torch.inference_mode():
                    logits, rows = fwd.forward(window, order, start, leading=n)
                    forward_s = time.perf_counter() - t_forward
                    lead, mask_logits = logits[:n], logits[n:]
                    # 3. verify the drafts; commit slot 0 and the agreeing ones (text: + the AR token)
                    accepted, ar = self._verify(window, lead, start)
                checked = [int(t) for t in window[1:n]]
                rejected = accepted < len(checked)
                kept, reason = self._accept(generated, checked[:accepted] + [ar.token], budget)
                kv_kept = 1 + min(kept, accepted)
                fwd.commit(window[:kv_kept])
                forwards += 1
                rows_processed += rows
                rows_cached += kv_kept
                self.policy.observe(offered, accepted)
                fed_window = list(window)
                rest = window[1 + accepted:]
                dropped = [ar.pos + 1 + i for i, t in enumerate(rest[1:]) if t is not None] if rejected else []
                new_start = start + 1 + accepted
                masks_rec, filled = [], []
                if reason is None:
                    filled = [ar]
                    if rejected:  # later drafts and masks saw the wrong draft: drop them
                        window = [ar.token]
                    else:
                        # 4. the first mask's slot got the AR token; fill the others as streaming does
                        window = [ar.token] + rest[1:]
                        mask_idx = [i for i, t in enumerate(window) if t is None]
                        masks_rec, drafts = self._fill(window, mask_idx, mask_logits[1:], new_start)
                        filled += drafts
                    self._draft_q = {} if rejected else {p: q for p, q in self._draft_q.items() if p > ar.pos}
                elif kept > accepted:  # the AR token ended the decode: it is in the text
                    filled = [ar]
                offered = len(masks_rec)
                step_s = time.perf_counter() - t_step
                decode_s += step_s
                record = StepRecord(
                    index=forwards - 1, start=start, window=fed_window, order=order,
                    position_ids=[start + i for i in order], committed=[int(t) for t in fed_window[:kv_kept]],
                    masks=masks_rec, filled=filled, threshold=cfg.threshold, penalty=cfg.penalty,
                    cache_before=cache_before, cache_after=fwd.cache_length(), rows=rows,
                    seconds=step_s, finished=reason is not None, stop_reason=reason,
                    forward_seconds=forward_s,
                    verify=Verification(checked=checked, accepted=accepted,
                                        rejected_pos=start + 1 + accepted if rejected else None,
                                        ar_pos=ar.pos, ar_token=ar.token, dropped=dropped,
                                        masks=sum(t is None for t in fed_window), probe=probe))
                start = new_start
                yield record
            stop_reason = reason
        finally:
            self.result = DecodeResult(
                prompt_ids=list(prompt_ids), token_ids=generated, stop_reason=stop_reason,
                forwards=forwards, rows_processed=rows_processed, rows_cached=rows_cached,
                prefill_s=prefill_s, decode_s=decode_s, prefill_filled=[first])


class ReferenceVerifiedDecoder(VerifiedDecoder):
    """The verified decoder without a cache (logical order, explicit mask): its oracle."""

    name = "reference-verified"

    def make_forward(self) -> WindowForward:
        self.forward_impl = RecomputeForward(self.lm)
        return self.forward_impl
