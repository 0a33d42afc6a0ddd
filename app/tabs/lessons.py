"""The How-it-works tab: lessons, the reorder playground and the training mask."""
from __future__ import annotations

import functools

import gradio as gr

from .. import i18n
from ..views import figures, lessons
from ..serving.context import Context


def show_playground(size, filled, lang: str = i18n.DEFAULT):
    size = int(size)
    chosen = [int(i) for i in filled or [] if int(i) < size]
    html, physical, logical = lessons.playground(size, chosen, lang=lang)
    return (gr.CheckboxGroup(choices=[str(i) for i in range(size)], value=[str(i) for i in chosen]),
            html, physical, logical)


def show_training_mask(length, block, pattern, lang: str = i18n.DEFAULT):
    length = int(length)
    bits = ([c for c in (pattern or "") if c in "01"] + ["0"] * length)[:length]
    return figures.training_mask_figure([b == "1" for b in bits], int(block), lang=lang)


def build(ctx: Context, demo: gr.Blocks, lang: str = i18n.DEFAULT) -> None:
    tr = i18n.Texts(lang)
    playground = functools.partial(show_playground, lang=lang)
    training_mask = functools.partial(show_training_mask, lang=lang)
    gr.Markdown(lessons.lesson("causal", lang))
    gr.Markdown(lessons.lesson("reorder", lang))
    with gr.Row():
        size = gr.Slider(2, 16, value=8, step=1, label=tr("lessons.window_size"), elem_id="pg-size")
        filled = gr.CheckboxGroup([str(i) for i in range(8)], value=["0", "1", "3", "6"],
                                  label=tr("lessons.filled"), elem_id="pg-filled")
    orders = gr.HTML(elem_id="pg-orders")
    with gr.Row():
        phys = gr.HTML(elem_id="pg-mask-physical")
        logi = gr.HTML(elem_id="pg-mask-logical")
    gr.Markdown(lessons.lesson("streaming", lang))
    gr.Markdown(lessons.lesson("training", lang))
    with gr.Row():
        length = gr.Slider(4, 32, value=12, step=1, label=tr("lessons.length"))
        block = gr.Slider(2, 16, value=4, step=1, label=tr("lessons.block"))
        pattern = gr.Textbox(value="010011100110", label=tr("lessons.pattern"), elem_id="tm-pattern",
                             max_length=32)
    mask_plot = gr.Plot(elem_id="training-mask", label=tr("lessons.training_mask"))

    pg_inputs, pg_outputs = [size, filled], [filled, orders, phys, logi]
    size.release(playground, pg_inputs, pg_outputs, api_name=False)
    filled.input(playground, pg_inputs, pg_outputs, api_name=i18n.api_name("playground", lang))
    tm_inputs = [length, block, pattern]
    for comp in (length, block):
        comp.release(training_mask, tm_inputs, [mask_plot], api_name=False)
    pattern.submit(training_mask, tm_inputs, [mask_plot], api_name=i18n.api_name("training_mask", lang))
    demo.load(playground, pg_inputs, pg_outputs, api_name=False)
    demo.load(training_mask, tm_inputs, [mask_plot], api_name=False)
