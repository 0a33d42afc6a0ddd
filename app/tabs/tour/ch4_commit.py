"""Chapter 4: what commits (the leading filled run) and what waits behind a mask."""
from __future__ import annotations

from functools import partial

import gradio as gr

from ... import i18n
from ...views import render
from ...views.stepper import Views
from . import moments
from .frame import at_step, body, drawn, slot, stepper_html, window_try
from .words import colour, elsewhere, narration, run_summary, span, term

TITLE = i18n.text(i18n.DEFAULT, "ch4.title")
KEY = "tour-4"


def title(lang: str = i18n.DEFAULT) -> str:
    return i18n.text(lang, "ch4.title")


def following(tl, step: int) -> int:
    return min(step + 1, tl.num_steps - 1)


def text(tl, step: int, moment: int | None = None, note: str = "", lang: str = i18n.DEFAULT) -> str:
    s = tl.trace.steps[step]
    n = len(s.committed)
    waiting = [s.start + i for i in moments.waits_behind_mask(s)]
    nxt = following(tl, step)
    if not (n and waiting):
        why = ("Every filled slot of this step's input is in the leading run: nothing waits behind a mask."
               if n else "Nothing commits at this step: the first slot of its input is still a mask.")
        return elsewhere(tl, step, (note + " " if note else "") + f"{why} Top: the input of step {step}. "
                         f"Below: step {nxt}, the next forward.", moment, lang=lang)
    first_mask = s.start + n + next(i for i, t in enumerate(s.window[n:]) if t is None)
    later = moments.commit_step_of(tl.trace, waiting[0])
    when = (f"They commit at step {later}, once every slot before them is filled."
            if later is not None else "They never commit in this decode.")
    return narration(([note] if note else []) + [
        "A token's KV can be kept only if it was computed exactly as an AR pass would: seeing the "
        "prefix and the tokens before it, nothing else. That is true of the <b>leading filled run</b> "
        "(the filled slots before the first mask): they are first in physical order, as in logical order.",
        f"So at step {step} positions {span(list(range(s.start, s.start + n)))} {term('commit', 'commit')} "
        f"({colour('state-committed')}): their KV stays in the cache, {s.cache_before} → {s.cache_after} "
        f"tokens. Positions {span(waiting)} are filled too ({colour('state-filled')}), but wait behind the mask "
        f"at {first_mask}: their KV is dropped and recomputed next forward. {when}",
        f"Top: the input of step {step}. Below: step {nxt}, the next forward.",
    ], tl, step, lang=lang)


def views(moment: int | None, note: str = "", lang: str = i18n.DEFAULT) -> Views:
    return Views(step={"text": lambda tl, k: text(tl, k, moment, note, lang),
                       "now": lambda tl, k: at_step(render.order_view(tl, k), k),
                       "next": lambda tl, k: at_step(render.order_view(tl, following(tl, k)), following(tl, k),
                                                     secondary=True),
                       "canvas": lambda tl, k: at_step(render.token_canvas(tl, k), k)})


def view(tl, step: int, lang: str = i18n.DEFAULT):
    return drawn(views(step, lang=lang), tl, step)


def fallback(tl, lang: str = i18n.DEFAULT) -> tuple[int, str]:
    k = next((s.index for s in tl.trace.steps if s.committed), 0)
    return k, (f"<b>Your run.</b> {run_summary(tl, lang=lang)} No step of it left a filled slot waiting behind a mask: "
               f"every filled slot committed at once. Shown: step {k}, the first that commits.")


def build(ctx, data, lang: str = i18n.DEFAULT):
    tl, step = data.at("commit")
    with body(4) as (cols, words):
        with cols:
            steps = gr.HTML(stepper_html(tl, KEY, views(step, lang=lang), step, lang=lang), elem_id="tour-stepper-4", js_on_load=None)
            slot(KEY, "now", "tour-viz-4", elem_classes=["tour-viz"])
            slot(KEY, "next")
            slot(KEY, "canvas")
        with words:
            slot(KEY, "text", "tour-text-4")
            window_try(ctx, 4, data.picks["commit"]["trace"], moments.commit_step, KEY,
                       partial(views, lang=lang), partial(fallback, lang=lang), steps, lang)
