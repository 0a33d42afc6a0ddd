"""Chapter 4: what commits (the leading filled run) and what waits behind a mask."""
from __future__ import annotations

from functools import partial
from html import escape

import gradio as gr

from ... import i18n
from ...views import render
from ...views.stepper import Views
from . import moments
from .ch8_tau import wrong_answer_note
from .frame import at_step, body, drawn, live_bar, slot, stepper_html, window_try
from .words import colour, elsewhere, final_words, gap, narration, run_summary, span, term

TITLE = i18n.text(i18n.DEFAULT, "ch4.title")
KEY = "tour-4"


def title(lang: str = i18n.DEFAULT) -> str:
    return i18n.text(lang, "ch4.title")


def following(tl, step: int) -> int:
    return min(step + 1, tl.num_steps - 1)


def text(tl, step: int, moment: int | None = None, note: str = "", lang: str = i18n.DEFAULT,
         greedy: str | None = None) -> str:
    tr = i18n.Texts(lang)
    s = tl.trace.steps[step]
    n = len(s.committed)
    waiting = s.filled_behind_mask
    nxt = following(tl, step)
    top_below = tr("ch4.top_below", step=step, next=nxt) if nxt != step else tr("ch4.top_last", step=step)
    delay = tr("ch4.delay")
    # the last step shows the output complete: a wrong answer is said there (chapter 8's checker)
    answer = wrong_answer_note(tl.trace, lang, greedy, finished=True) if s.finished else ""
    if not (n and waiting):
        why = tr("ch4.all_lead") if n else tr("ch4.none")
        if answer:
            why += gap(lang) + answer
        delay += _delay_here(tl, step, lang)   # where no slot waits, no strip shows the delay: said in words
        return elsewhere(tl, step, (note + gap(lang) if note else "") + why + gap(lang) + delay + gap(lang)
                         + top_below, moment, lang=lang)
    later = moments.commit_step_of(tl.trace, waiting[0])
    when = tr("ch4.later", later=later) if later is not None else tr("ch4.never")
    return narration(([note] if note else []) + [
        tr("ch4.p1", final=final_words(lang)),
        tr("ch4.p2", step=step, span=span(list(range(s.start, s.start + n)), lang=lang),
           commit=term("commit", tr("tour.link.commit"), lang=lang), committed_colour=colour("state-committing", lang),
           before=s.cache_before, after=s.cache_after, waiting=span(waiting, lang=lang),
           filled_colour=colour("state-filled", lang), first_mask=s.first_mask_pos, when=when,
           kv_waits=tr("tour.kv_waits")),   # the recap's words for a waiting slot's KV
        delay,
        life(tl, waiting[0], step, lang),   # the delay, drawn: filled at one step, committed at a later one
        top_below,
    ] + ([answer] if answer else []), tl, step, lang=lang)


LIFE_MASKS_SHOWN = 2   # a long wait as a mask: its first and last step, "⋯" between


def life(tl, pos: int, step: int, lang: str = i18n.DEFAULT) -> str:
    """One slot's whole life in one row (walk 31 asked for mask → filled → waiting → committed in
    one picture): what each step's forward does to position `pos`, from the step its window first
    holds it to the step that commits it, then the cache; the shown step's cell marked."""
    tr = i18n.Texts(lang)
    steps = tl.trace.steps
    entered = next(s.index for s in steps if s.start <= pos < s.start + len(s.window))
    filled = tl.positions[pos].fill_step
    committed = moments.commit_step_of(tl.trace, pos)
    last = committed if committed is not None else len(steps) - 1
    token = render.token_label(tl, tl.positions[pos].token)

    def cell(k: int, kind: str, label: str, word: str) -> str:
        now = ' class="life-cell now" aria-current="step"' if k == step else ' class="life-cell"'
        return (f'<div{now}><span class="life-step">{tr("ch4.life.step", k=k)}</span>'
                f'<span class="slot st-{kind}"><span class="tokt">{label}</span></span>'
                f'<span class="life-word">{word}</span></div>')

    masks = list(range(entered, filled))
    if len(masks) > LIFE_MASKS_SHOWN and step not in masks[1:-1]:
        masks = [masks[0], None, masks[-1]]
    cells = [cell(k, "mask", "[M]", tr("ch4.life.mask")) if k is not None else '<div class="life-gap">⋯</div>'
             for k in masks]
    cells.append(cell(filled, "new", token, tr("ch4.life.fills")))
    cells += [cell(k, "filled", token, tr("ch4.life.waits")) for k in range(filled + 1, last + (committed is None))]
    if committed is not None:
        cells.append(cell(committed, "committing", token, tr("ch4.life.commits")))
        cells.append(f'<div class="life-cell"><span class="life-step">{tr("ch4.life.after")}</span>'
                     f'<span class="slot st-committed"><span class="tokt">{token}</span></span>'
                     f'<span class="life-word">{tr("ch4.life.cached")}</span></div>')
    title = tr("ch4.life.title", pos=pos)
    return (f'<div class="life" role="group" aria-label="{escape(title)}">'
            f'<div class="life-row"><div class="life-title">{title}</div>{"".join(cells)}</div></div>')


def _delay_here(tl, step: int, lang: str) -> str:
    """The step that filled this step's first committing slot (it commits a forward later)."""
    s = tl.trace.steps[step]
    if not s.committed:
        return ""
    filled = next((j for j in range(step) for f in tl.trace.steps[j].filled if f.pos == s.start), None)
    if filled is None:  # the prefill's token: filled before any step
        return ""
    return i18n.text(lang, "ch4.delay_here", pos=s.start, filled=filled, step=step)


def views(moment: int | None, note: str = "", lang: str = i18n.DEFAULT, greedy: str | None = None) -> Views:
    return Views(step={"text": lambda tl, k: text(tl, k, moment, note, lang, greedy),
                       "now": lambda tl, k: at_step(render.order_view(tl, k, lang=lang), k),
                       "next": lambda tl, k: at_step(render.order_view(tl, following(tl, k), lang=lang),
                                                     following(tl, k), secondary=True),
                       "canvas": lambda tl, k: at_step(render.token_canvas(tl, k, lang=lang), k)})


def view(tl, step: int, lang: str = i18n.DEFAULT, greedy: str | None = None):
    return drawn(views(step, lang=lang, greedy=greedy), tl, step)


def fallback(tl, lang: str = i18n.DEFAULT) -> tuple[int, str]:
    k = next((s.index for s in tl.trace.steps if s.committed), 0)
    return k, (i18n.text(lang, "tour.your_run", summary=run_summary(tl, lang=lang))
               + i18n.text(lang, "ch4.fallback", step=k))


def build(ctx, data, lang: str = i18n.DEFAULT):
    tl, step = data.at("commit")
    greedy = (data.greedy.get(data.picks["commit"]["trace"]) or {}).get("text")
    with body(4) as (cols, words):
        with cols:
            bar = live_bar(4, lang)
            recorded = stepper_html(tl, KEY, views(step, lang=lang, greedy=greedy), step, lang=lang)
            steps = gr.HTML(recorded,
                            elem_id="tour-stepper-4", js_on_load=None)
            slot(KEY, "now", "tour-viz-4", elem_classes=["tour-viz"])
            slot(KEY, "next")
            slot(KEY, "canvas")
        with words:
            slot(KEY, "text", "tour-text-4")
            window_try(ctx, 4, data.picks["commit"]["trace"], moments.commit_step, KEY,
                       partial(views, lang=lang), partial(fallback, lang=lang), steps, recorded, bar, lang)
