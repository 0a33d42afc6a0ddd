"""Chapter 1: AR decoding and the KV cache: one row in, one token out, the cache grows by one."""
from __future__ import annotations

import gradio as gr

from ... import i18n
from ...serving.context import make_config
from ...views import palette, render
from ...views.stepper import Views
from . import figs, moments
from .data import TOUR_PROMPTS
from .frame import at_step, body, drawn, live_decode, pool, slot, stepper_html, try_box
from .words import elsewhere, narration, term, tok

TITLE = i18n.text(i18n.DEFAULT, "ch1.title")
KEY = "tour-1"


def title(lang: str = i18n.DEFAULT) -> str:
    return i18n.text(lang, "ch1.title")


def text(tl, step: int, moment: int | None = None, lang: str = i18n.DEFAULT) -> str:
    s = tl.trace.steps[step]
    if not s.filled:
        return elsewhere(tl, step, "This forward predicted nothing: the decode had ended.", moment, lang=lang)
    fill = s.filled[0]
    return narration([
        "An ordinary language model is <b>autoregressive (AR)</b>: it writes one token per "
        f"{term('forward')} (one run of the network). Each forward reads the newest token, looks back "
        "at everything before it, and predicts the next token.",
        "Attention is <b>causal</b>: a token only looks at tokens before it. So the keys and values "
        f"(KV) computed for a token never change, and the engine keeps them in a {term('kv-cache')} "
        "instead of recomputing them. Each forward adds one row to the cache. Every token also carries a "
        f"{term('position-id', 'position id')} (the small number under it): its place in the text, which is "
        "what the model's position encoding (RoPE) reads.",
        f"Here, at step {step}, the model reads {tok(tl, s.window[0])} at position {s.start}, stores its KV "
        f"(cache {s.cache_before} → {s.cache_after} tokens) and predicts {tok(tl, fill.token)} for "
        f"position {fill.pos} with {term('entropy', 'entropy')} {fill.entropy:.2f} nats (0 = certain). "
        f"After {tl.num_steps} forwards it has written {len(tl.trace.token_ids)} tokens: one per forward. "
        f"WeDLM keeps this cache but writes several {term('tpf')}.",
    ], tl, step, lang=lang)


def views(moment: int | None, lang: str = i18n.DEFAULT) -> Views:
    return Views(step={"text": lambda tl, k: text(tl, k, moment, lang),
                       "orders": lambda tl, k: at_step(render.order_view(tl, k), k),
                       "canvas": lambda tl, k: at_step(render.token_canvas(tl, k), k)},
                 whole={"growth": lambda tl: figs.growth({"autoregressive": (tl, palette.ROLE_COLOURS["decoder-ar"])},
                                                           lang=lang)})


def view(tl, step: int, lang: str = i18n.DEFAULT):
    return drawn(views(step, lang), tl, step)


def build(ctx, data, lang: str = i18n.DEFAULT):
    tl, step = data.at("ar")
    with body(1) as (cols, words):
        with cols:
            steps = gr.HTML(stepper_html(tl, KEY, views(step, lang), step, lang=lang), elem_id="tour-stepper-1", js_on_load=None)
            slot(KEY, "orders", "tour-viz-1", elem_classes=["tour-viz"])
            slot(KEY, "canvas")
            slot(KEY, "growth")
        with words:
            slot(KEY, "text", "tour-text-1")
            with try_box():
                prompt = gr.Textbox(tl.trace.prompt, label="Try it: your prompt, decoded by the AR model",
                                    lines=2, max_length=400)
                btn = gr.Button("Decode live", elem_id="tour-try-1")

    def run(prompt):
        live = live_decode(ctx, prompt, "ar", make_config(max_new_tokens=TOUR_PROMPTS["ar-counting"][2]))
        k = moments.ar_step(live.trace)
        if k is None:  # a short answer: its last forward that predicted a token
            k = next((s.index for s in reversed(live.trace.steps) if s.filled), None)
            if k is None:
                raise gr.Error("the model stopped before its first forward: try a longer prompt")
        return stepper_html(live, KEY, views(k, lang), k, lang=lang)

    btn.click(run, [prompt], [steps], api_name=i18n.api_name("tour_ar", lang), **pool(ctx))
