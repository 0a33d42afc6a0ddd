"""Topological reordering (docs/design.md#reordering): filled slots first, masks after, logical positions kept.

A window is a list of slots in logical order; a slot holds a token id or ``None`` for MASK.
These functions are pure (no torch) so the decoders, the reference oracle and the UI share them.
"""
from __future__ import annotations

from typing import Sequence


def physical_order(window: Sequence[int | None]) -> list[int]:
    """Window indices in physical order: filled slots ascending, then mask slots ascending."""
    filled = [i for i, tok in enumerate(window) if tok is not None]
    masks = [i for i, tok in enumerate(window) if tok is None]
    return filled + masks


def leading_filled(window: Sequence[int | None]) -> int:
    """Length of the contiguous filled run starting at slot 0 (the tokens ready to commit)."""
    n = 0
    for tok in window:
        if tok is None:
            break
        n += 1
    return n


def visibility(window: Sequence[int | None]) -> list[list[bool]]:
    """Which window slots each window slot attends to, both indexed in logical order.

    ``vis[i][j]`` is True when slot i sees slot j. Under a causal mask in physical order a slot
    sees every slot physically at or before it, so: filled slots see earlier filled slots;
    masks see every filled slot (even logically later ones) and earlier masks. Every slot also
    sees the whole committed prefix, which is not part of this matrix.
    """
    order = physical_order(window)
    rank = {slot: r for r, slot in enumerate(order)}
    size = len(window)
    return [[rank[j] <= rank[i] for j in range(size)] for i in range(size)]


def physical_mask(size: int) -> list[list[bool]]:
    """The mask the model really runs in physical order: the plain causal triangle."""
    return [[j <= i for j in range(size)] for i in range(size)]
