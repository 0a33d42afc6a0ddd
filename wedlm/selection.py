"""Which mask slots to fill, and with which tokens (docs/design.md#selection; step 5 of the loop).

Entropy is taken from the raw logits (before temperature, top-k and top-p), as the official
engine does. Selection: score = entropy + penalty * distance-from-first-mask; fill every slot
whose score is below the threshold, or the single argmin when none is (or no threshold is set).
"""
from __future__ import annotations

import torch


def _at_least_fp32(logits: torch.Tensor) -> torch.Tensor:
    return logits.to(torch.promote_types(logits.dtype, torch.float32))


def entropy(logits: torch.Tensor) -> torch.Tensor:
    """Entropy in nats of softmax(logits) per row. logits: (m, V) -> (m,), at least fp32."""
    logp = torch.log_softmax(_at_least_fp32(logits), dim=-1)
    return -(logp.exp() * logp).sum(dim=-1)


def under_threshold(scores: list[float], threshold: float | None) -> list[int]:
    """The slots whose score is under the threshold (none without one): those the rule fills
    together. The explorer counts them too (app/views/entropy.under_tau), by this same test."""
    return [] if threshold is None else [k for k, s in enumerate(scores) if s < threshold]


def select_slots(
    entropies: list[float],
    distances: list[int],
    threshold: float | None,
    penalty: float,
) -> tuple[list[float], list[int]]:
    """Return (scores, chosen) where chosen indexes the mask slots to fill, ascending."""
    scores = [h + penalty * d for h, d in zip(entropies, distances)]
    chosen = under_threshold(scores, threshold)
    if chosen:
        return scores, chosen
    best = min(range(len(scores)), key=scores.__getitem__)  # first minimum, like torch.argmin
    return scores, [best]


def filter_top_k(logits: torch.Tensor, top_k: int) -> torch.Tensor:
    if top_k <= 0 or top_k >= logits.size(-1):
        return logits
    kth = torch.topk(logits, top_k, dim=-1).values[..., -1:]
    return logits.masked_fill(logits < kth, float("-inf"))


def filter_top_p(logits: torch.Tensor, top_p: float) -> torch.Tensor:
    """Keep the smallest set of tokens whose probability mass reaches top_p (at least one)."""
    if top_p >= 1.0:
        return logits
    sorted_logits, sorted_idx = torch.sort(logits, descending=True, dim=-1)
    cumulative = torch.cumsum(torch.softmax(sorted_logits, dim=-1), dim=-1)
    remove = cumulative > top_p
    remove[..., 1:] = remove[..., :-1].clone()  # keep the token that crosses top_p
    remove[..., 0] = False
    remove = remove.scatter(-1, sorted_idx, remove)
    return logits.masked_fill(remove, float("-inf"))


def choose_tokens(
    logits: torch.Tensor,
    temperature: float,
    top_k: int,
    top_p: float,
    generator: torch.Generator | None,
) -> torch.Tensor:
    """One token per row: argmax at temperature 0, else top-k -> top-p -> /T -> sample."""
    if temperature == 0:
        return logits.argmax(dim=-1)
    filtered = filter_top_p(filter_top_k(_at_least_fp32(logits), top_k), top_p)
    probs = torch.softmax(filtered / temperature, dim=-1)
    return torch.multinomial(probs, num_samples=1, generator=generator).squeeze(-1)


def top_candidates(logits: torch.Tensor, k: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Top-k (probabilities, token ids) of softmax(raw logits) per row: (m, k) each."""
    probs = torch.softmax(_at_least_fp32(logits), dim=-1)
    k = min(k, probs.size(-1))
    return torch.topk(probs, k, dim=-1)
