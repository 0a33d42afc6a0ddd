"""Chapter 2: the window of masks and the fill rule on a real step: which masks fill, which stay
open, and why (τ, λ, d)."""
from __future__ import annotations

from functools import partial

import gradio as gr

from ... import i18n
from ...views import charts, render
from ...views.stepper import Views
from . import moments
from .frame import at_step, body, drawn, slot, stepper_html, window_try
from .words import colour, elsewhere, narration, run_summary, term

TITLE = i18n.text(i18n.DEFAULT, "ch2.title")
KEY = "tour-2"


def title(lang: str = i18n.DEFAULT) -> str:
    return i18n.text(lang, "ch2.title")


def text(tl, step: int, moment: int | None = None, note: str = "", lang: str = i18n.DEFAULT) -> str:
    s = tl.trace.steps[step]
    chosen = [m for m in s.masks if m.selected]
    if not chosen:
        return elsewhere(tl, step, "No mask was scored at this step: the decode had ended or every slot "
                         "was filled.", moment, lang=lang)
    tau, lam = s.threshold, s.penalty
    open_ = [m for m in s.masks if not m.selected]

    def score(m):
        return f"H {m.entropy:.2f} + λ·d {lam:g}×{m.distance} = {m.score:.2f}"
    lam_kept = [m for m in open_ if tau is not None and m.entropy < tau <= m.score]
    example_open = (lam_kept or open_ or [None])[0]
    why_open = ""
    if example_open is not None:
        why_open = (f" Position {example_open.pos} stays a mask ({colour('state-mask')} bar): "
                    f"{score(example_open)} is not under τ {'none' if tau is None else f'{tau:g}'}.")
        if example_open in lam_kept:
            why_open += " Its entropy alone was under τ: the distance penalty kept it open."
    best = min(chosen, key=lambda m: m.score)
    tau_words = (f"Here τ = {tau:g} (the {colour('threshold')} dashed line)" if tau is not None
                 else "Here τ = none: exactly one mask fills per forward")
    paragraphs = ([note] if note else []) + [
        f"WeDLM appends a <b>window</b> of W = {tl.trace.config['window']} {term('mask', 'mask')} slots after "
        "the text and runs one forward over all of them. Every mask predicts its own token, with an "
        f"{term('entropy', 'entropy')} H (in nats; 0 = certain, higher = unsure).",
        f"<b>The fill rule.</b> Let {term('distance', '<b>d</b>')} = how many slots after the first open "
        "mask a slot is (the first open mask has d = 0). Score = H + "
        f"{term('lambda', '<b>λ</b>')}·d. Fill every mask whose score is under {term('tau', '<b>τ</b>')}; "
        f"if none is, fill the single lowest. {tau_words}, λ = {lam:g} (the {colour('penalty')} part on "
        "top of each bar).",
        f"On this step, step {step}, {len(chosen)} of {len(s.masks)} open masks fill ({colour('state-new')} "
        f"bars, ✓), e.g. position {best.pos}: {score(best)}"
        + (" &lt; τ." if tau is not None and best.score < tau else ", the lowest score.") + why_open,
    ]
    return narration(paragraphs, tl, step, lang=lang)


def views(moment: int | None, note: str = "", lang: str = i18n.DEFAULT) -> Views:
    return Views(step={"text": lambda tl, k: text(tl, k, moment, note, lang),
                       "bars": lambda tl, k: at_step(charts.entropy_bars(tl, k), k),
                       "canvas": lambda tl, k: at_step(render.token_canvas(tl, k), k)})


def view(tl, step: int, lang: str = i18n.DEFAULT):
    return drawn(views(step, lang=lang), tl, step)


def fallback(tl, lang: str = i18n.DEFAULT) -> tuple[int, str]:
    """A live run with no step that both fills several masks and leaves some open (a large τ
    fills every mask): its busiest step, and a note that sums the run up."""
    k = moments.busiest_step(tl.trace)
    s = tl.trace.steps[k]
    note = (f"<b>Your run.</b> {run_summary(tl, lang=lang)} No step of it both filled several masks and left some open "
            f"(the moment this chapter explains), so here is its busiest step, step {k}: "
            f"{sum(m.selected for m in s.masks)} of {len(s.masks)} masks filled at once.")
    return k, note


def build(ctx, data, lang: str = i18n.DEFAULT):
    tl, step = data.at("fill_rule")
    with body(2) as (cols, words):
        with cols:
            steps = gr.HTML(stepper_html(tl, KEY, views(step, lang=lang), step, lang=lang), elem_id="tour-stepper-2", js_on_load=None)
            slot(KEY, "bars", "tour-viz-2", elem_classes=["tour-viz"])
            slot(KEY, "canvas")
        with words:
            slot(KEY, "text", "tour-text-2")
            window_try(ctx, 2, data.picks["fill_rule"]["trace"], moments.fill_rule_step, KEY,
                       partial(views, lang=lang), partial(fallback, lang=lang), steps, lang)
