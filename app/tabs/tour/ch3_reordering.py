"""Chapter 3: topological reordering, on a step where filled slots sit behind a mask."""
from __future__ import annotations

from functools import partial

import gradio as gr

from ... import i18n
from ...views import render
from ...views.stepper import Views
from . import moments
from .frame import at_step, body, drawn, slot, stepper_html, window_try
from .words import colour, elsewhere, narration, run_summary, some, term

TITLE = i18n.text(i18n.DEFAULT, "ch3.title")
KEY = "tour-3"


def title(lang: str = i18n.DEFAULT) -> str:
    return i18n.text(lang, "ch3.title")


def text(tl, step: int, moment: int | None = None, note: str = "", lang: str = i18n.DEFAULT) -> str:
    s = tl.trace.steps[step]
    waiting = [s.start + i for i in moments.waits_behind_mask(s)]
    if not waiting:
        return elsewhere(tl, step, (note + " " if note else "") + "No filled slot sits behind a mask in "
                         "this step's input, so physical and logical order are the same here.", moment, lang=lang)
    first_mask = s.start + next(i for i, t in enumerate(s.window) if t is None)
    return narration(([note] if note else []) + [
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
    ], tl, step, lang=lang)


def views(moment: int | None, note: str = "", lang: str = i18n.DEFAULT) -> Views:
    return Views(step={"text": lambda tl, k: text(tl, k, moment, note, lang),
                       "orders": lambda tl, k: at_step(render.order_view(tl, k), k),
                       "physical": lambda tl, k: at_step(render.mask_grid(tl, k, logical=False), k),
                       "logical": lambda tl, k: at_step(render.mask_grid(tl, k, logical=True), k)})


def view(tl, step: int, lang: str = i18n.DEFAULT):
    return drawn(views(step, lang=lang), tl, step)


def fallback(tl, lang: str = i18n.DEFAULT) -> tuple[int, str]:
    return 0, (f"<b>Your run.</b> {run_summary(tl, lang=lang)} No step of it filled a slot behind an open mask, so "
               "physical and logical order never differ.")


def build(ctx, data, lang: str = i18n.DEFAULT):
    tl, step = data.at("reorder")
    with body(3) as (cols, words):
        with cols:
            steps = gr.HTML(stepper_html(tl, KEY, views(step, lang=lang), step, lang=lang), elem_id="tour-stepper-3", js_on_load=None)
            slot(KEY, "orders", "tour-viz-3", elem_classes=["tour-viz"])
            with gr.Row(elem_classes=["tour-grids"]):
                slot(KEY, "physical", elem_classes=["tour-grid"])
                slot(KEY, "logical", elem_classes=["tour-grid"])
        with words:
            slot(KEY, "text", "tour-text-3")
            window_try(ctx, 3, data.picks["reorder"]["trace"], moments.reorder_step, KEY,
                       partial(views, lang=lang), partial(fallback, lang=lang), steps, lang)
