"""WeDLM streaming parallel decoding: the window forward runs over a real prefix KV cache."""
from __future__ import annotations

import torch
from transformers import DynamicCache

from ..device import window_forward_kwargs
from ..loading import LoadedModel
from .core import WindowDecoder, WindowForward


class CachedForward(WindowForward):
    """Window forwards over a DynamicCache holding exactly the committed prefix."""

    def __init__(self, lm: LoadedModel):
        self.lm = lm
        self.cache: DynamicCache | None = None
        self.last_rows = 0

    def prefill(self, prompt_ids: list[int]) -> None:
        self.cache = DynamicCache(config=self.lm.model.config)
        ids = torch.tensor([prompt_ids], device=self.lm.device)  # (1, P)
        # The prompt's last logits are not used by WeDLM (the verified decoder reads them):
        # keep one row to save the LM head.
        out = self.lm.model(input_ids=ids, past_key_values=self.cache, use_cache=True, logits_to_keep=1)
        self.prefill_logits = out.logits[0, -1:]                                    # (1, V)

    def last_logits(self) -> torch.Tensor:
        return self.prefill_logits

    def forward(self, window: list, order: list[int], start: int,
                leading: int = 0) -> tuple[torch.Tensor, int]:
        mask_id = self.lm.mask_token_id
        tokens = [mask_id if window[i] is None else window[i] for i in order]
        rows = len(tokens)
        num_masks = sum(1 for t in window if t is None)
        ids = torch.tensor([tokens], device=self.lm.device)                       # (1, q)
        positions = torch.tensor([[start + i for i in order]], device=self.lm.device)  # (1, q)
        # Masks sit physically last, so the last num_masks rows are all the logits we need;
        # the leading run (verified decoder) sits physically first.
        keep = max(num_masks, 1)
        if leading and leading + num_masks < rows:  # both ends: the rows in between are not needed
            keep = torch.tensor(list(range(leading)) + list(range(rows - num_masks, rows)),
                                device=self.lm.device)
        elif leading:
            keep = rows
        out = self.lm.model(input_ids=ids, position_ids=positions, past_key_values=self.cache,
                            use_cache=True, logits_to_keep=keep,
                            **window_forward_kwargs(self.lm.attn_implementation, start, rows,
                                                    self.lm.device))
        self.last_rows = rows
        logits = out.logits[0]                                                    # (kept, V)
        if leading:
            return logits, rows
        return (logits[-num_masks:] if num_masks else logits[:0]), rows

    def commit(self, tokens: list[int]) -> None:
        drop = self.last_rows - len(tokens)
        if drop > 0:  # crop(-0) would empty the cache
            self.cache.crop(-drop)
        self.last_rows = 0

    def cache_length(self) -> int:
        return self.cache.get_seq_length() if self.cache is not None else 0


class StreamingDecoder(WindowDecoder):
    name = "streaming"

    def make_forward(self) -> WindowForward:
        self.forward_impl = CachedForward(self.lm)
        return self.forward_impl
