"""Chapter 10 (BEYOND THE PAPER): verified decoding, on a recorded step whose check rejected a
draft: the same forward's next-token rows check the drafts, so the text is exactly greedy AR."""
from __future__ import annotations

from html import escape

import gradio as gr

from ... import i18n
from ...views import narration as plain_narration
from ...views import render
from ...views.stepper import Views
from . import moments
from .frame import at_step, body, drawn, slot, stepper_html, window_try
from .words import colour, elsewhere, narration, run_summary, span, term, tok

TITLE = "10 · Lossless: the same forward checks the drafts"
KEY = "tour-10"
BEYOND = ("<b>Beyond the paper:</b> the explorer's own addition; the paper's <i>streaming</i> stays the "
          "default.")


def text(tl, step: int, moment: int | None = None, note: str = "") -> str:
    s = tl.trace.steps[step]
    v = s.verify
    if v is None or v.rejected_pos is None:
        what = " ".join(escape(t) for t in plain_narration.narrate(tl.trace, step))
        return elsewhere(tl, step, (note + " " if note else "") + f"No draft was rejected at this step. {what}",
                         moment)
    first = s.start + 1
    checked = list(range(first, first + len(v.checked)))
    accepted = list(range(first, first + v.accepted))
    draft = v.checked[v.rejected_pos - first]
    agreed = (f"the {v.accepted} at {span(accepted)} agreed ✓ ({colour('verify-accepted')})"
              if v.accepted else "none agreed")
    dropped = f"; the {len(v.dropped)} after it ({span(v.dropped)}) are dropped" if v.dropped else ""
    stop = next((s.start + i for i, t in enumerate(s.committed) if t in tl.trace.stop_ids), None)
    kept = list(range(s.start, s.start + len(s.committed)))
    ends = f"; the stop token at {stop} ends the decode" if stop is not None else ""
    return narration(([note] if note else []) + [
        BEYOND,
        f"The fill rule can write a wrong {term('draft')}. {term('verified', 'Verified decoding')} checks "
        f"each one with no extra forward: every row of a {term('forward', 'forward pass')} also predicts the "
        f"next token (AR), so each draft in the leading filled run is checked against the row before it.",
        f"At step {step} the window starts at {s.start} with {tok(tl, s.window[0])}, the AR token of the "
        f"previous forward. Of the {len(v.checked)} drafts at {span(checked)}, {agreed}. The draft "
        f"{tok(tl, draft)} at {v.rejected_pos} was rejected ✗ ({colour('verify-rejected')}): the model "
        f"predicts {tok(tl, v.ar_token)} there, the AR token ({colour('verify-ar')}), which replaces it"
        f"{dropped}. Positions {span(kept)} {term('commit', 'commit')}: the {term('kv-cache')} grows "
        f"{s.cache_before} → {s.cache_after}{ends}.",
        f"Every committed token is the model's own next-token choice: the text is exactly greedy AR "
        f"(lossless), yet this forward committed {len(s.committed)} tokens where AR commits 1. Top: the "
        f"input of step {step}, drafts marked ✓ / ✗; below: the output after it.",
    ], tl, step)


def views(moment: int | None, note: str = "") -> Views:
    return Views(step={"text": lambda tl, k: text(tl, k, moment, note),
                       "now": lambda tl, k: at_step(render.order_view(tl, k), k),
                       "canvas": lambda tl, k: at_step(render.token_canvas(tl, k), k)})


def view(tl, step: int):
    return drawn(views(step), tl, step)


def fallback(tl) -> tuple[int, str]:
    k = tl.num_steps - 1
    return k, (f"<b>Your run.</b> {run_summary(tl)} Its checks never rejected a draft: every draft agreed "
               f"with the model's own next-token prediction. Shown: step {k}, the last.")


def build(ctx, data, lang: str = i18n.DEFAULT):
    tl, step = data.at("verified")
    with body(10) as (cols, words):
        with cols:
            steps = gr.HTML(stepper_html(tl, KEY, views(step), step), elem_id="tour-stepper-10", js_on_load=None)
            slot(KEY, "now", "tour-viz-10", elem_classes=["tour-viz"])
            slot(KEY, "canvas")
        with words:
            slot(KEY, "text", "tour-text-10")
            window_try(ctx, 10, data.picks["verified"]["trace"], moments.verified_rejection_step, KEY, views,
                       fallback, steps)
