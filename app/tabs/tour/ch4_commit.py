"""Chapter 4: what commits (the leading filled run) and what waits behind a mask."""
from __future__ import annotations

import gradio as gr

from ...views import render
from . import moments
from .frame import at_step, body, window_try
from .words import colour, narration, run_summary, span, term

TITLE = "4 · What commits, and what waits"


def view(tl, step: int):
    s = tl.trace.steps[step]
    n = len(s.committed)
    waiting = [s.start + i for i in moments.waits_behind_mask(s)]
    first_mask = s.start + n + next(i for i, t in enumerate(s.window[n:]) if t is None)
    later = moments.commit_step_of(tl.trace, waiting[0]) if waiting else None
    when = (f"They commit at step {later}, once every slot before them is filled."
            if later is not None else "They never commit in this decode.")
    nxt = min(step + 1, tl.num_steps - 1)
    text = narration([
        "A token's KV can be kept only if it was computed exactly as an AR pass would: seeing the "
        "prefix and the tokens before it, nothing else. That is true of the <b>leading filled run</b> "
        "(the filled slots before the first mask): they are first in physical order, as in logical order.",
        f"So at step {step} positions {span(list(range(s.start, s.start + n)))} {term('commit', 'commit')} "
        f"({colour('state-committed')}): their KV stays in the cache, {s.cache_before} → {s.cache_after} "
        f"tokens. Positions {span(waiting) if waiting else '–'} are filled too ({colour('state-filled')}), but "
        f"wait behind the mask at {first_mask}: their KV is dropped and recomputed next forward. {when}",
        f"Top: the input of step {step}. Below: step {nxt}, the next forward.",
    ], tl, step)
    return (text, at_step(render.order_view(tl, step), step), at_step(render.order_view(tl, nxt), nxt, secondary=True),
            at_step(render.token_canvas(tl, step), step))


def fallback(tl):
    """No live step committed a run while another filled slot waited: show the first step that
    commits anything."""
    k = next((s.index for s in tl.trace.steps if s.committed), 0)
    nxt = min(k + 1, tl.num_steps - 1)
    text = narration([f"<b>Your run.</b> {run_summary(tl)}",
                      f"No step of it left a filled slot waiting behind a mask: every filled slot committed "
                      f"at once. Top: the input of step {k}, the first that commits. Below: step {nxt}."], tl, k)
    return (text, at_step(render.order_view(tl, k), k), at_step(render.order_view(tl, nxt), nxt, secondary=True),
            at_step(render.token_canvas(tl, k), k))


def build(ctx, data):
    tl, step = data.at("commit")
    text, now, nxt, canvas = view(tl, step)
    with body(4) as (views, words):
        with views:
            v_now = gr.HTML(now, elem_id="tour-viz-4", elem_classes=["tour-viz"])
            v_next = gr.HTML(nxt)
            v_canvas = gr.HTML(canvas)
        with words:
            v_text = gr.HTML(text, elem_id="tour-text-4")
            window_try(ctx, 4, data.picks["commit"]["trace"], moments.commit_step, view, fallback,
                       [v_text, v_now, v_next, v_canvas])
