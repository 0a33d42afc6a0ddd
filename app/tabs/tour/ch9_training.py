"""Chapter 9: training with the dual-stream mask, drawn by the project's training code."""
from __future__ import annotations

import gradio as gr

from wedlm.config import DEFAULTS

from ... import i18n
from ...views import figures
from .frame import body, live_bar, try_box
from .words import colour, narration, term

TITLE = i18n.text(i18n.DEFAULT, "ch9.title")
TRAINING_BLOCK = 8    # block size of the training mask


def title(lang: str = i18n.DEFAULT) -> str:
    return i18n.text(lang, "ch9.title")


def blocks_reorder(pattern: list[bool], block: int) -> bool:
    """Whether some block has a mask before an observed token: reordering then visibly moves a token."""
    for b in range(0, len(pattern), block):
        part = pattern[b:b + block]
        if any(m and not later for i, m in enumerate(part) for later in part[i + 1:]):
            return True
    return False


def example_step(tl, first: int, block: int = TRAINING_BLOCK) -> int:
    """The step whose input window is the example pattern: the first from `first` on (then from
    the start) whose window, cut into blocks, has a mask before an observed token; else `first`."""
    order = list(range(first, tl.num_steps)) + list(range(first))
    return next((k for k in order if blocks_reorder([t is None for t in tl.trace.steps[k].window], block)), first)


def chosen_bits(text) -> str:
    """A typed mask pattern (untrusted) as the chapter reads it: its 0s and 1s, at most 32."""
    return "".join(c for c in str(text or "") if c in "01")[:32]


def view(pattern: list[bool], block: int, source: str, lang: str = i18n.DEFAULT):
    tr = i18n.Texts(lang)
    text = narration([
        tr("ch9.p1"),
        tr("ch9.p2", block=block, window=DEFAULTS["window"], block_decoding=term("block", lang=lang)),   # the decode window beside the training block
        tr("ch9.p3", masked=sum(pattern), slots=len(pattern), source=source, attend_colour=colour("attend", lang=lang)),
    ], lang=lang)
    return text, figures.training_mask_figure(pattern, block, lang=lang,
                                                     every=figures.label_spacing(len(pattern)))


def build(ctx, data, lang: str = i18n.DEFAULT):
    tr = i18n.Texts(lang)
    tl, first = data.at("reorder")
    step = example_step(tl, first)
    window = tl.trace.steps[step].window
    pattern = [t is None for t in window]
    text, fig = view(pattern, TRAINING_BLOCK, tr("ch9.source_ch3", step=step, slots=len(window)), lang=lang)
    with body(9) as (views, words):
        with views:
            bar = live_bar(9, lang)
            v_fig = gr.Plot(fig, show_label=False, elem_id="tour-viz-9", elem_classes=["tour-viz"])
        with words:
            v_text = gr.HTML(text, elem_id="tour-text-9")
            with try_box():
                bits = gr.Textbox("".join("1" if m else "0" for m in pattern), max_length=32, label=tr("ch9.try"))
                block = gr.Slider(2, 16, value=TRAINING_BLOCK, step=1, label=tr("ch9.block"))
                btn = gr.Button(tr("ch9.button"), elem_id="tour-try-9")

    def run(text_bits, b):
        chosen = [c == "1" for c in chosen_bits(text_bits)]
        if len(chosen) < 2:
            raise gr.Error(tr("ch9.too_short"))
        return view(chosen, int(b), tr("ch9.source_yours"), lang=lang)

    event = btn.click(run, [bits, block], [v_text, v_fig], js=bar.press_js,
                      api_name=i18n.api_name("tour_training_mask", lang))
    bar.offer(event, [bits, block], lambda t, b: tr("tour.live.mask", bits=chosen_bits(t), block=int(b)),
              [v_text, v_fig], (text, fig), said="tour.live.pattern")
