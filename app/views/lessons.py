"""How it works: short lessons and the interactive reorder playground."""
from __future__ import annotations

from html import escape

from wedlm.reorder import leading_filled, physical_order

from .. import i18n
from . import render

CAUSAL = """### 1. Causal attention and the KV cache
An autoregressive model attends **causally**: token *i* sees tokens 0…*i*. So the keys and values
(KV) of a token never change once computed, and an engine keeps them in a **KV cache**: each new
step only computes the new rows. Bidirectional diffusion models let every token see every other
one, so any change anywhere changes every KV: nothing can be cached. WeDLM keeps causal attention
so it keeps the cache."""

REORDER = """### 2. Topological reordering
RoPE sees only the **position ids** we pass, not where a token sits in the tensor. So WeDLM
physically moves every filled (observed) token in front of every mask, keeping each token's
logical position id. Under the plain causal mask, each mask now sees **all** filled tokens of the
window, even those logically to its right, and the masks before it. Filled tokens see only the
prefix and earlier filled tokens: when the leading filled run is contiguous in logical order, its
KV is exactly what an AR pass would have made, so it can be **committed** to the cache. Try it
below: toggle which slots are filled."""

STREAMING = """### 3. Streaming vs block decoding
**Block decoding** fills a block of B masks and waits until the whole block is filled before
committing it and starting the next one: the slots that are already sure wait for the unsure
ones (a pipeline bubble), and filled tokens are recomputed at every step. **Streaming decoding**
commits the leading filled run at every step and refills the window with as many new masks, so
W slots are always in flight. Compare them in the Race tab."""

TRAINING = """### 4. Dual-stream training
Training feeds `[clean copy x0 ‖ masked copy xt]`, both at logical positions 0…L−1. xt is cut
into blocks; each block masks a random fraction γ of its non-prompt tokens and (in effect) moves
its observed tokens in front of its masks. x0 is plainly causal; an xt block sees the clean x0 of
all earlier blocks and itself in reordered causal order. The loss is the cross-entropy at masked
slots (a mask predicts its own token, no shift), weighted 1/γ, averaged with the next-token loss
on x0. The mask below is built by the project's training code."""


LESSONS = {"causal": CAUSAL, "reorder": REORDER, "streaming": STREAMING, "training": TRAINING}


def lesson(name: str, lang: str = i18n.DEFAULT) -> str:
    """A lesson's Markdown ("causal", "reorder", "streaming", "training") in `lang`."""
    return LESSONS[name]


def playground(window_size: int, filled: list[int], start: int = 100, lang: str = i18n.DEFAULT) -> tuple[str, str, str]:
    """The window with `filled` slots (indices) filled: both orders with the commit, and the
    attention mask in both orders, drawn by the same code as the Decode tab's views."""
    window = [("T" if i in filled else None) for i in range(window_size)]
    order = physical_order(window)
    commit = leading_filled(window)
    labels = ["[M]" if t is None else f"t{i}" for i, t in enumerate(window)]
    kinds = render.slot_kinds(window, commit)
    html = (f'<div class="orders">{render.order_rows(window, order, start, labels, kinds, lang=lang)}'
            f'<div class="note">Position ids in physical order: {escape(str([start + i for i in order]))}. '
            f'{commit} leading filled slot(s) commit: their KV is kept (green). Other filled slots are '
            f'recomputed next step; masks are predicted at their own slot.</div></div>')
    return (html, render.grid_html(window, order, start, start, labels, kinds, logical=False, lang=lang),
            render.grid_html(window, order, start, start, labels, kinds, logical=True, lang=lang))
