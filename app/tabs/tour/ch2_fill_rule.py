"""Chapter 2: the window of masks and the fill rule on a real step: which masks fill, which stay
open, and why (τ, λ, d)."""
from __future__ import annotations

import gradio as gr

from ...views import render
from . import figs, moments
from .frame import at_step, body, window_try
from .words import colour, narration, run_summary, term

TITLE = "2 · The window of masks and the fill rule (τ, λ, d)"


def view(tl, step: int, note: str = ""):
    s = tl.trace.steps[step]
    tau, lam = s.threshold, s.penalty
    open_ = [m for m in s.masks if not m.selected]
    chosen = [m for m in s.masks if m.selected]

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
        f"{term('entropy')} H (in nats; 0 = certain, higher = unsure).",
        f"<b>The fill rule.</b> Let {term('distance', '<b>d</b>')} = how many slots after the first open "
        "mask a slot is (the first open mask has d = 0). Score = H + "
        f"{term('lambda', '<b>λ</b>')}·d. Fill every mask whose score is under {term('tau', '<b>τ</b>')}; "
        f"if none is, fill the single lowest. {tau_words}, λ = {lam:g} (the {colour('penalty')} part on "
        "top of each bar).",
        f"On this step, step {step}, {len(chosen)} of {len(s.masks)} open masks fill ({colour('state-new')} "
        f"bars), e.g. position {best.pos}: {score(best)}"
        + (" &lt; τ." if tau is not None and best.score < tau else ", the lowest score.") + why_open,
    ]
    text = narration(paragraphs, tl, step)
    return text, figs.score_bars(tl, step), at_step(render.token_canvas(tl, step), step)


def fallback(tl):
    """A live run with no step that both fills several masks and leaves some open (a large τ
    fills every mask): say so, sum the run up, and show its busiest step."""
    k = moments.busiest_step(tl.trace)
    s = tl.trace.steps[k]
    note = (f"<b>Your run.</b> {run_summary(tl)} No step of it both filled several masks and left some open "
            f"(the moment this chapter explains), so here is its busiest step, step {k}: "
            f"{sum(m.selected for m in s.masks)} of {len(s.masks)} masks filled at once.")
    return view(tl, k, note)


def build(ctx, data):
    tl, step = data.at("fill_rule")
    text, bars, canvas = view(tl, step)
    with body(2) as (views, words):
        with views:
            v_bars = gr.Plot(bars, show_label=False, elem_id="tour-viz-2", elem_classes=["tour-viz"])
            v_canvas = gr.HTML(canvas)
        with words:
            v_text = gr.HTML(text, elem_id="tour-text-2")
            window_try(ctx, 2, data.picks["fill_rule"]["trace"], moments.fill_rule_step, view, fallback,
                       [v_text, v_bars, v_canvas])
