"""Chapter 1: AR decoding and the KV cache: one row in, one token out, the cache grows by one."""
from __future__ import annotations

import gradio as gr

from ...serving.context import make_config
from ...views import render
from . import figs, moments
from .data import TOUR_PROMPTS
from .frame import at_step, body, live_decode, pool, try_box
from .words import narration, term, tok

TITLE = "1 · One token per forward: AR decoding and the KV cache"


def view(tl, step: int):
    s = tl.trace.steps[step]
    fill = s.filled[0]
    text = narration([
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
        f"position {fill.pos} with {term('entropy')} {fill.entropy:.2f} nats (0 = certain). "
        f"After {tl.num_steps} forwards it has written {len(tl.trace.token_ids)} tokens: one per forward. "
        f"WeDLM keeps this cache but writes several {term('tpf')}.",
    ], tl, step)
    return (text, at_step(render.order_view(tl, step), step), at_step(render.token_canvas(tl, step), step),
            figs.growth({"autoregressive": tl}, step))


def build(ctx, data):
    tl, step = data.at("ar")
    text, orders, canvas, growth = view(tl, step)
    with body(1) as (views, words):
        with views:
            v_orders = gr.HTML(orders, elem_id="tour-viz-1", elem_classes=["tour-viz"])
            v_canvas = gr.HTML(canvas)
            v_growth = gr.Plot(growth, show_label=False)
        with words:
            v_text = gr.HTML(text, elem_id="tour-text-1")
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
        return view(live, k)

    btn.click(run, [prompt], [v_text, v_orders, v_canvas, v_growth], api_name="tour_ar", **pool(ctx))
