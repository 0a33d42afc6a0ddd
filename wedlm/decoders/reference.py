"""The reference decoder: no KV cache, an explicit attention mask in logical order.

Each step recomputes prompt + committed + window laid out in logical order, and gives every
window token exactly the visibility that topological reordering gives it under a causal mask
(docs/design.md#reordering): the whole prefix, earlier filled tokens, and (for masks) every filled token plus
earlier masks. It must reproduce the streaming decoder token for token: the correctness oracle.
"""
from __future__ import annotations

import torch

from ..device import explicit_mask_attention
from ..loading import LoadedModel
from ..reorder import visibility
from .core import WindowDecoder, WindowForward


def logical_attention_mask(prefix_len: int, window: list, dtype: torch.dtype,
                           device) -> torch.Tensor:
    """Additive mask (1, 1, L, L) over prefix + window in logical order (0 = seen, -inf = not),
    built where the model runs (an L x L mask is large at long contexts)."""
    size = prefix_len + len(window)
    allowed = torch.ones(size, size, dtype=torch.bool, device=device).tril()  # the prefix is causal
    allowed[prefix_len:, :prefix_len] = True                                  # the window sees it all
    allowed[prefix_len:, prefix_len:] = torch.tensor(visibility(window), dtype=torch.bool, device=device)
    mask = torch.zeros(size, size, dtype=dtype, device=device)
    mask.masked_fill_(~allowed, torch.finfo(dtype).min)
    return mask[None, None]


class RecomputeForward(WindowForward):
    def __init__(self, lm: LoadedModel):
        self.lm = lm
        self.prefix: list[int] = []

    def prefill(self, prompt_ids: list[int]) -> None:
        self.prefix = list(prompt_ids)  # nothing to cache: every step recomputes

    def last_logits(self) -> torch.Tensor:
        """The prompt's next-token logits, recomputed (plain causal, no cache)."""
        ids = torch.tensor([self.prefix], device=self.lm.device)
        return self.lm.model(input_ids=ids, use_cache=False, logits_to_keep=1).logits[0, -1:]

    def forward(self, window: list, order: list[int], start: int,
                leading: int = 0) -> tuple[torch.Tensor, int]:
        lm = self.lm
        tokens = self.prefix + [lm.mask_token_id if t is None else t for t in window]
        size = len(tokens)
        mask = logical_attention_mask(len(self.prefix), window, lm.model.dtype, lm.device)
        ids = torch.tensor([tokens], device=lm.device)                    # (1, L) logical order
        positions = torch.arange(size, device=lm.device)[None]            # (1, L)
        explicit_mask_attention(lm.attn_implementation)  # flash-attn: SDPA for this masked call
        rows = [len(self.prefix) + i for i, t in enumerate(window) if t is None]
        # the leading filled run first (verified decoder): in logical order it sees exactly its
        # left context. Only these rows go through the LM head (the full-vocabulary logits of
        # every row would be L x V floats per step).
        rows = [len(self.prefix) + i for i in range(leading)] + rows
        logits = lm.model(input_ids=ids, position_ids=positions, attention_mask=mask,
                          use_cache=False,
                          logits_to_keep=torch.tensor(rows, device=lm.device)).logits[0]  # (leading + m, V)
        return logits, size

    def commit(self, tokens: list[int]) -> None:
        self.prefix.extend(int(t) for t in tokens)

    def cache_length(self) -> int:
        return len(self.prefix)  # the committed prefix (recomputed, not cached)


class ReferenceDecoder(WindowDecoder):
    name = "reference"

    def make_forward(self) -> WindowForward:
        return RecomputeForward(self.lm)
