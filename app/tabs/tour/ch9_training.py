"""Chapter 9: training with the dual-stream mask, drawn by the project's training code."""
from __future__ import annotations

import gradio as gr

from ... import i18n
from ...views import figures
from .frame import body, try_box
from .words import colour, narration

TITLE = "9 · Training: the dual-stream mask"
TRAINING_BLOCK = 8    # block size of the training mask


def view(pattern: list[bool], block: int, source: str):
    masked = sum(pattern)
    text = narration([
        "How does a model learn to fill masks it can see past? WeDLM is trained from an AR model "
        "with <b>two copies</b> of each text side by side: a clean copy <b>x0</b> (memory) and a "
        "masked copy <b>xt</b> (prediction), both at the same positions.",
        f"xt is cut into blocks of {block}; in each block some tokens are masked, and inside the "
        "block the observed tokens sit in front of the masks, exactly like the reordered window. "
        "x0 is plainly causal; an xt block sees the clean x0 of all earlier blocks and itself in "
        "reordered causal order. Each mask is trained to predict its own token.",
        f"The mask pattern here ({masked} of {len(pattern)} masked) is {source}. The grid is built by "
        f"the project's training code: {colour('attend')} = row sees column.",
    ])
    return text, figures.training_mask_figure(pattern, block)


def build(ctx, data, lang: str = i18n.DEFAULT):
    tl, step = data.at("reorder")
    window = tl.trace.steps[step].window
    pattern = [t is None for t in window]
    text, fig = view(pattern, TRAINING_BLOCK, f"the input window of chapter 3's step ({len(window)} slots, 1 = mask)")
    with body(9) as (views, words):
        with views:
            v_fig = gr.Plot(fig, show_label=False, elem_id="tour-viz-9", elem_classes=["tour-viz"])
        with words:
            v_text = gr.HTML(text, elem_id="tour-text-9")
            with try_box():
                bits = gr.Textbox("".join("1" if m else "0" for m in pattern), max_length=32,
                                  label="Try it: a mask pattern (1 = masked in xt), up to 32 slots")
                block = gr.Slider(2, 16, value=TRAINING_BLOCK, step=1, label="Block size")
                btn = gr.Button("Draw the mask", elem_id="tour-try-9")

    def run(text_bits, b):
        chosen = [c == "1" for c in (text_bits or "") if c in "01"][:32]
        if len(chosen) < 2:
            raise gr.Error("type at least two 0/1 characters")
        return view(chosen, int(b), "yours")

    btn.click(run, [bits, block], [v_text, v_fig], api_name=i18n.api_name("tour_training_mask", lang))
