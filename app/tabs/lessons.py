"""The How-it-works tab: lessons, the reorder playground and the training mask."""
from __future__ import annotations

import gradio as gr

from .. import i18n
from ..views import figures, lessons
from ..serving.context import Context


def show_playground(size, filled):
    size = int(size)
    chosen = [int(i) for i in filled or [] if int(i) < size]
    html, physical, logical = lessons.playground(size, chosen)
    return (gr.CheckboxGroup(choices=[str(i) for i in range(size)], value=[str(i) for i in chosen]),
            html, physical, logical)


def show_training_mask(length, block, pattern):
    length = int(length)
    bits = ([c for c in (pattern or "") if c in "01"] + ["0"] * length)[:length]
    return figures.training_mask_figure([b == "1" for b in bits], int(block))


def build(ctx: Context, demo: gr.Blocks, lang: str = i18n.DEFAULT) -> None:
    gr.Markdown(lessons.CAUSAL)
    gr.Markdown(lessons.REORDER)
    with gr.Row():
        size = gr.Slider(2, 16, value=8, step=1, label="Window size", elem_id="pg-size")
        filled = gr.CheckboxGroup([str(i) for i in range(8)], value=["0", "1", "3", "6"],
                                  label="Filled slots (window index)", elem_id="pg-filled")
    orders = gr.HTML(elem_id="pg-orders")
    with gr.Row():
        phys = gr.HTML(elem_id="pg-mask-physical")
        logi = gr.HTML(elem_id="pg-mask-logical")
    gr.Markdown(lessons.STREAMING)
    gr.Markdown(lessons.TRAINING)
    with gr.Row():
        length = gr.Slider(4, 32, value=12, step=1, label="Sequence length L")
        block = gr.Slider(2, 16, value=4, step=1, label="Block size")
        pattern = gr.Textbox(value="010011100110", label="Mask pattern (1 = masked in xt)", elem_id="tm-pattern",
                             max_length=32)
    mask_plot = gr.Plot(elem_id="training-mask", label="Training mask")

    pg_inputs, pg_outputs = [size, filled], [filled, orders, phys, logi]
    size.release(show_playground, pg_inputs, pg_outputs, api_name=False)
    filled.input(show_playground, pg_inputs, pg_outputs, api_name=i18n.api_name("playground", lang))
    tm_inputs = [length, block, pattern]
    for comp in (length, block):
        comp.release(show_training_mask, tm_inputs, [mask_plot], api_name=False)
    pattern.submit(show_training_mask, tm_inputs, [mask_plot], api_name=i18n.api_name("training_mask", lang))
    demo.load(show_playground, pg_inputs, pg_outputs, api_name=False)
    demo.load(show_training_mask, tm_inputs, [mask_plot], api_name=False)
