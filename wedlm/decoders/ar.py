"""Autoregressive baseline: next-token decoding (shifted logits) with a KV cache."""
from __future__ import annotations

import time
from typing import Iterator

import torch
from transformers import DynamicCache

from ..device import device_clock
from ..selection import entropy
from .core import Decoder
from .records import DecodeResult, StepRecord


class ARDecoder(Decoder):
    name = "ar"

    def steps(self, prompt_ids: list[int]) -> Iterator[StepRecord]:
        lm, cfg = self.lm, self.config
        budget = self._budget(prompt_ids)
        self.generator.manual_seed(cfg.seed)
        self.cache = DynamicCache(config=lm.model.config)
        generated: list[int] = []
        forwards = 0
        decode_s = 0.0
        stop_reason = "stopped"

        def next_slot(logits: torch.Tensor, pos: int):
            """Choose the token at `pos` from the previous row's logits (1, V)."""
            ent = entropy(logits).tolist()
            return self._choose(logits, [pos], ent)[0]

        t0 = time.perf_counter()
        with torch.inference_mode():
            ids = torch.tensor([prompt_ids], device=lm.device)                    # (1, P)
            out = lm.model(input_ids=ids, past_key_values=self.cache, use_cache=True,
                           logits_to_keep=1)
            first = next_slot(out.logits[0, -1:], len(prompt_ids))
        prefill_s = device_clock(lm.device) - t0
        prefill_filled = [first]
        pending = first
        kept, reason = self._accept(generated, [first.token], budget)
        try:
            while reason is None:
                t_step = time.perf_counter()
                pos = len(prompt_ids) + len(generated) - 1   # the token fed now
                cache_before = self.cache.get_seq_length()
                with torch.inference_mode():
                    out = lm.model(input_ids=torch.tensor([[pending.token]], device=lm.device),
                                   position_ids=torch.tensor([[pos]], device=lm.device),
                                   past_key_values=self.cache, use_cache=True)
                    forward_s = device_clock(lm.device) - t_step
                    filled = next_slot(out.logits[0, -1:], pos + 1)
                forwards += 1
                _, reason = self._accept(generated, [filled.token], budget)
                step_s = time.perf_counter() - t_step
                decode_s += step_s
                record = StepRecord(
                    index=forwards - 1, start=pos, window=[pending.token], order=[0],
                    position_ids=[pos], committed=[pending.token], masks=[], filled=[filled],
                    threshold=None, penalty=0.0, cache_before=cache_before,
                    cache_after=self.cache.get_seq_length(), rows=1, seconds=step_s,
                    finished=reason is not None, stop_reason=reason, forward_seconds=forward_s)
                pending = filled
                yield record
            stop_reason = reason
        finally:
            self.result = DecodeResult(
                prompt_ids=list(prompt_ids), token_ids=generated, stop_reason=stop_reason,
                forwards=forwards, rows_processed=forwards, rows_cached=forwards,
                prefill_s=prefill_s, decode_s=decode_s, prefill_filled=prefill_filled)
