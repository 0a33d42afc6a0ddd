"""Chapter 3: topological reordering, on a step where filled slots sit behind a mask."""
from __future__ import annotations

import gradio as gr

from ...views import render
from . import moments
from .frame import at_step, body, window_try
from .words import colour, narration, run_summary, some, term

TITLE = "3 · Topological reordering: filled tokens move in front of masks"


def view(tl, step: int):
    s = tl.trace.steps[step]
    waiting = [s.start + i for i in moments.waits_behind_mask(s)]
    first_mask = s.start + next(i for i, t in enumerate(s.window) if t is None)
    text = narration([
        f"Masks are not filled left to right, so a window can hold a filled token <i>after</i> a mask. "
        f"In the input of step {step}, the mask at {first_mask} has filled tokens after it, at "
        f"{some(waiting)}.",
        "The mask needs to see them (they are its right-hand context), yet attention must stay causal to "
        f"keep the {term('kv-cache')}. WeDLM's trick: physically move every filled token in front of every "
        f"mask, keeping each token's {term('position-id', 'position id')} (the number under it). Compare "
        "the two rows below.",
        "The forward runs a plain causal triangle in <b>physical</b> order (first grid): a row sees a "
        f"column where {colour('attend')}. Read in <b>logical</b> order (second grid), the same mask lets "
        f"each mask see the filled tokens logically after it: the {colour('attend-later')} cells.",
    ], tl, step)
    return (text, at_step(render.order_view(tl, step), step),
            at_step(render.mask_grid(tl, step, logical=False), step),
            at_step(render.mask_grid(tl, step, logical=True), step))


def fallback(tl):
    """No step of a live run had a filled slot behind a mask: both orders are the same."""
    k = 0
    text = narration([f"<b>Your run.</b> {run_summary(tl)}",
                      "No step of it filled a slot behind an open mask, so physical and logical order "
                      f"never differ: step {k} below has its rows in the same order."], tl, k)
    return (text, at_step(render.order_view(tl, k), k), at_step(render.mask_grid(tl, k, logical=False), k),
            at_step(render.mask_grid(tl, k, logical=True), k))


def build(ctx, data):
    tl, step = data.at("reorder")
    text, orders, phys, logi = view(tl, step)
    with body(3) as (views, words):
        with views:
            v_orders = gr.HTML(orders, elem_id="tour-viz-3", elem_classes=["tour-viz"])
            with gr.Row(elem_classes=["tour-grids"]):
                v_phys = gr.HTML(phys, elem_classes=["tour-grid"])
                v_logi = gr.HTML(logi, elem_classes=["tour-grid"])
        with words:
            v_text = gr.HTML(text, elem_id="tour-text-3")
            window_try(ctx, 3, data.picks["reorder"]["trace"], moments.reorder_step, view, fallback,
                       [v_text, v_orders, v_phys, v_logi])
