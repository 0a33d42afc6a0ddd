"""WeDLM dual-stream masking (docs/design.md#training-dual-stream-masking) and the plain next-token objective.

Input of length 2L: [x0 (clean memory stream) ‖ xt (masked prediction stream)], both at logical
positions 0..L-1. xt is cut into blocks; each block masks a fraction γ~U(0,1) of its non-prompt
tokens. Attention (True = allowed): x0 is causal; an xt block sees the clean x0 of all earlier
blocks and itself under intra-block topological reordering (observed tokens before masks). The
reordering is expressed in the mask itself: a causal mask over the reordered block is exactly
`reorder.visibility` of the block in logical order, the same rule the reference decoder uses.
Samples are packed several to a row; inside a block a slot sees only its own sample, as if each
sample were its own sequence (the official fine-tuning feeds one sample per sequence).
"""
from __future__ import annotations

import torch
import torch.nn.functional as F


def block_visibility(is_mask: torch.Tensor) -> torch.Tensor:
    """is_mask (..., b) bool -> (..., b, b) bool: slot i sees slot j when j's rank in the
    reordered block (observed ascending, then masks ascending) is at most i's."""
    b = is_mask.shape[-1]
    key = is_mask.long() * b + torch.arange(b, device=is_mask.device)
    rank = key.argsort(dim=-1).argsort(dim=-1)             # (..., b) physical rank of each slot
    return rank.unsqueeze(-1) >= rank.unsqueeze(-2)         # [i, j] = rank[j] <= rank[i]


def training_mask(is_mask: torch.Tensor, block_size: int, sample: torch.Tensor | None = None) -> torch.Tensor:
    """is_mask (B, L) bool -> attention mask (B, 1, 2L, 2L) bool (True = allowed).

    `sample` (B, L) numbers the packed sample of each token: inside an xt block a slot then sees
    only slots of its own sample. Otherwise the masks at the end of an answer see the next
    sample's prompt (never masked) and learn that the answer ends where it begins, a cue
    decoding never has (a model trained that way counted past B)."""
    batch, length = is_mask.shape
    allowed = torch.zeros(batch, 2 * length, 2 * length, dtype=torch.bool, device=is_mask.device)
    allowed[:, :length, :length] = torch.ones(length, length, dtype=torch.bool,
                                              device=is_mask.device).tril()
    for start in range(0, length, block_size):
        end = min(start + block_size, length)
        rows = slice(length + start, length + end)
        allowed[:, rows, :start] = True                                   # clean earlier blocks
        visible = block_visibility(is_mask[:, start:end])
        if sample is not None:
            block = sample[:, start:end]
            visible = visible & (block.unsqueeze(-1) == block.unsqueeze(-2))
        allowed[:, rows, length + start:length + end] = visible
    return allowed[:, None]


def sample_masks(maskable: torch.Tensor, block_size: int,
                 generator: torch.Generator | None = None,
                 label_only: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """Per block γ~U(0,1); mask round(γ·n) (at least 1) of its n maskable tokens, chosen at
    random. Returns (is_mask (B, L) bool, weight (B, L) float = 1/γ_eff at masked slots).

    `label_only` (B, L) bool marks tokens that are always masked, with weight 1: the
    end-of-text run after an answer, so that it teaches the slots past the end without ever
    being seen, as in decoding, where an end-of-text past the frontier is never observed.
    Measured (docs/training.md): the masks then learn "nothing visible to my right, so the end" and
    decoding stops early, so the recipe leaves it off."""
    if label_only is not None:
        maskable = maskable & ~label_only
    batch, length = maskable.shape
    is_mask = torch.zeros_like(maskable)
    weight = torch.zeros(batch, length)
    for start in range(0, length, block_size):
        end = min(start + block_size, length)
        block = maskable[:, start:end]
        n = block.sum(-1)                                                  # (B,)
        gamma = torch.rand(batch, generator=generator)
        k = torch.clamp((gamma * n).round(), min=1).minimum(n)             # masked per block
        scores = torch.rand(block.shape, generator=generator).masked_fill(~block, 2.0)
        ranks = scores.argsort(-1).argsort(-1)                             # random order, maskable first
        chosen = (ranks < k.unsqueeze(-1)) & block
        is_mask[:, start:end] = chosen
        weight[:, start:end] = chosen.float() * (n / k.clamp(min=1)).unsqueeze(-1)
    if label_only is not None:
        is_mask = is_mask | label_only
        weight = weight.masked_fill(label_only, 1.0)
    return is_mask, weight


def dual_stream_inputs(tokens: torch.Tensor, maskable: torch.Tensor, mask_token_id: int,
                       block_size: int, generator: torch.Generator | None = None,
                       sample: torch.Tensor | None = None,
                       label_only: torch.Tensor | None = None) -> dict:
    """tokens, maskable (B, L) -> model inputs of length 2L and the masked-loss targets."""
    is_mask, weight = sample_masks(maskable, block_size, generator, label_only)
    xt = tokens.masked_fill(is_mask, mask_token_id)
    positions = torch.arange(tokens.shape[1]).expand_as(tokens)
    return {
        "input_ids": torch.cat([tokens, xt], dim=1),                       # (B, 2L)
        "position_ids": torch.cat([positions, positions], dim=1),          # (B, 2L) shared
        "attention_mask": training_mask(is_mask, block_size, sample),      # (B, 1, 2L, 2L)
        "is_mask": is_mask, "weight": weight,
    }


def wedlm_loss(model, tokens: torch.Tensor, maskable: torch.Tensor, mask_token_id: int,
               block_size: int, generator: torch.Generator | None = None,
               sample: torch.Tensor | None = None, label_only: torch.Tensor | None = None) -> dict:
    """0.5 * (1/γ-weighted masked CE on xt, no shift) + 0.5 * (next-token CE on x0)."""
    inputs = dual_stream_inputs(tokens, maskable, mask_token_id, block_size, generator, sample,
                                label_only)
    length = tokens.shape[1]
    logits = model(input_ids=inputs["input_ids"], position_ids=inputs["position_ids"],
                   attention_mask=inputs["attention_mask"], use_cache=False).logits.float()
    is_mask, weight = inputs["is_mask"], inputs["weight"]
    xt_logits = logits[:, length:][is_mask]                                # (M, V) own slot
    ce = F.cross_entropy(xt_logits, tokens[is_mask], reduction="none")
    masked = (ce * weight[is_mask]).sum() / is_mask.sum().clamp(min=1)
    ar = F.cross_entropy(logits[:, : length - 1].reshape(-1, logits.shape[-1]),
                         tokens[:, 1:].reshape(-1))
    return {"loss": 0.5 * (masked + ar), "masked": masked.detach(), "ar": ar.detach(),
            "masked_ce": ce.mean().detach()}


def ar_loss(model, tokens: torch.Tensor) -> dict:
    logits = model(input_ids=tokens, use_cache=False).logits.float()
    ar = F.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]), tokens[:, 1:].reshape(-1))
    return {"loss": ar, "ar": ar.detach()}
