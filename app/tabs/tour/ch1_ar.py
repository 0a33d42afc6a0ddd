"""Chapter 1: AR decoding and the KV cache: one row in, one token out, the cache grows by one."""
from __future__ import annotations

import gradio as gr

from ... import i18n
from ...serving.context import make_config
from ...views import palette, render
from ...views.stepper import Views
from . import figs, moments
from .data import TOUR_PROMPTS
from .frame import at_step, body, drawn, live_bar, live_decode, pool, prompt_words, slot, stepper_html, try_box
from .words import ar_chart, elsewhere, gap, narration, term, tok

TITLE = i18n.text(i18n.DEFAULT, "ch1.title")
KEY = "tour-1"


def title(lang: str = i18n.DEFAULT) -> str:
    return i18n.text(lang, "ch1.title")


def text(tl, step: int, moment: int | None = None, lang: str = i18n.DEFAULT) -> str:
    tr = i18n.Texts(lang)
    s = tl.trace.steps[step]
    if not s.filled:
        return elsewhere(tl, step, "" if s.finished else tr("ch1.ended"), moment, lang=lang)
    fill = s.filled[0]
    return narration([
        tr("ch1.p1", forward=term("forward", lang=lang)),
        tr("ch1.p2", kv_cache=term("kv-cache", lang=lang),
           position_id=term("position-id", tr("tour.link.position_id"), lang=lang)),
        # the numbering rule before the first step number it explains
        tr("ch1.rule") + (" " if lang == "en" else "") + tr(
            "ch1.p3", step=step, forward_n=step + 1, last=tl.num_steps - 1, token=tok(tl, s.window[0], lang),
            start=s.start, before=s.cache_before, after=s.cache_after, predicted=tok(tl, fill.token, lang), pos=fill.pos,
            entropy=term("entropy", tr("tour.link.entropy"), lang=lang), h=fill.entropy, steps=tl.num_steps,
            tokens=len(tl.trace.token_ids), tpf=term("tpf", lang=lang)),
        tr("ch1.p4") + gap(lang) + ar_chart(tl, step + 1, lang),   # the chart below, as chapter 6 says it
    ], tl, step, lang=lang)


def views(moment: int | None, lang: str = i18n.DEFAULT) -> Views:
    return Views(step={"text": lambda tl, k: text(tl, k, moment, lang),
                       "orders": lambda tl, k: at_step(render.order_view(tl, k, lang=lang), k),
                       "canvas": lambda tl, k: at_step(render.token_canvas(tl, k, lang=lang), k)},
                 whole={"growth": lambda tl: figs.growth(
                     {i18n.text(lang, "ch1.lane"): (tl, palette.ROLE_COLOURS["decoder-ar"])}, lang=lang)})


def view(tl, step: int, lang: str = i18n.DEFAULT):
    return drawn(views(step, lang), tl, step)


def build(ctx, data, lang: str = i18n.DEFAULT):
    tl, step = data.at("ar")
    tr = i18n.Texts(lang)
    with body(1) as (cols, words):
        with cols:
            bar = live_bar(1, lang)
            recorded = stepper_html(tl, KEY, views(step, lang), step, lang=lang)
            steps = gr.HTML(recorded,
                            elem_id="tour-stepper-1", js_on_load=None)
            slot(KEY, "orders", "tour-viz-1", elem_classes=["tour-viz"])
            slot(KEY, "canvas")
            slot(KEY, "growth")
        with words:
            slot(KEY, "text", "tour-text-1")
            with try_box():
                prompt = gr.Textbox(tl.trace.prompt, label=tr("ch1.try"), info=tr("ch1.try_info"),
                                    lines=2, max_length=400)
                btn = gr.Button(tr("ch1.button"), elem_id="tour-try-1")

    def run(prompt):
        live = live_decode(ctx, prompt, "ar", make_config(max_new_tokens=TOUR_PROMPTS["ar-counting"][2]))
        k = moments.ar_step(live.trace)
        if k is None:  # a short answer: its last forward that predicted a token
            k = next((s.index for s in reversed(live.trace.steps) if s.filled), None)
            if k is None:
                raise gr.Error(tr("ch1.too_short"))
        return stepper_html(live, KEY, views(k, lang), k, lang=lang)

    event = btn.click(run, [prompt], [steps], js=bar.press_js,
                      api_name=i18n.api_name("tour_ar", lang), **pool(ctx))
    bar.offer(event, [prompt], lambda p: prompt_words(p, lang), [steps], (recorded,))
