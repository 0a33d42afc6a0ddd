"""Chapter 2: the window of masks and the fill rule on a real step: which masks fill, which stay
open, and why (τ, λ, d)."""
from __future__ import annotations

from functools import partial

import gradio as gr

from ... import i18n
from ...views import charts, render
from ...views.stepper import Views
from . import moments
from .ch8_tau import wrong_answer_note
from .frame import at_step, body, drawn, live_bar, slot, stepper_html, window_try
from .words import colour, elsewhere, gap, narration, none_word, plural, run_summary, term

TITLE = i18n.text(i18n.DEFAULT, "ch2.title")
KEY = "tour-2"


def title(lang: str = i18n.DEFAULT) -> str:
    return i18n.text(lang, "ch2.title")


def text(tl, step: int, moment: int | None = None, note: str = "", lang: str = i18n.DEFAULT,
         greedy: str | None = None) -> str:
    tr = i18n.Texts(lang)
    s = tl.trace.steps[step]
    chosen = [m for m in s.masks if m.selected]
    # the output is first shown here: a wrong line is said from the first step when the recorded
    # greedy text tells whose slip it is (τ's or the model's), else at the last step (chapter 8's checker)
    answer = wrong_answer_note(tl.trace, lang, greedy, step, finished=s.finished) if s.finished or greedy else ""
    if not chosen:
        # the last step says what ended the decode (words.ending); any other, that the window was full
        # the last step keeps the chapter's lesson in one line (walk 31: only the end-of-decode words)
        said = tr("ch2.rule_recap") + (gap(lang) + answer if answer else "") if s.finished else tr("ch2.full")
        return elsewhere(tl, step, said, moment, lang=lang)
    tau, lam = s.threshold, s.penalty
    open_ = [m for m in s.masks if not m.selected]

    def score(m):
        return f"H {m.entropy:.2f} + λ·d {lam:g}×{m.distance} = {m.score:.2f}"
    lam_kept = [m for m in open_ if tau is not None and m.entropy < tau <= m.score]
    example_open = charts.open_example(s)   # the chart labels it (charts.named_positions)
    why_open = ""
    if example_open is not None:
        why_open = tr("ch2.stays", pos=example_open.pos, mask_colour=colour("state-mask", lang),
                      score=score(example_open), tau=none_word(lang) if tau is None else f"{tau:g}")
        if example_open in lam_kept:
            why_open += tr("ch2.lambda_kept")
    best = min(chosen, key=lambda m: m.score)
    tau_words = (tr("ch2.tau_is", tau=tau, threshold_colour=colour("threshold", lang)) if tau is not None
                 else tr("ch2.tau_none"))
    paragraphs = ([note] if note else []) + [
        tr("ch2.p1", window=tl.trace.config["window"], mask=term("mask", tr("tour.link.masks"), lang=lang),
           commit=term("commit", tr("tour.link.commit"), lang=lang),
           entropy=term("entropy", tr("tour.link.entropy"), lang=lang)),
        tr("ch2.p2", d=term("distance", "<b>d</b>", lang=lang), lam=term("lambda", "<b>λ</b>", lang=lang),
           tau=term("tau", "<b>τ</b>", lang=lang), tau_words=tau_words, penalty=lam,
           penalty_colour=colour("penalty", lang)),
        plural("ch2.p3", len(chosen), lang, step=step, open=plural("ch2.open_masks", len(s.masks), lang),
               new_colour=colour("state-new", lang),
               pos=best.pos, score=score(best), why_open=why_open,
               verdict=tr("ch2.under_tau") if tau is not None and best.score < tau else tr("ch2.lowest")),
    ] + ([answer] if answer else [])
    return narration(paragraphs, tl, step, lang=lang)


def views(moment: int | None, note: str = "", lang: str = i18n.DEFAULT, greedy: str | None = None) -> Views:
    """greedy: the recorded trace's prompt decoded one token at a time by the same model (None live)."""
    return Views(step={"text": lambda tl, k: text(tl, k, moment, note, lang, greedy),
                       "bars": lambda tl, k: at_step(charts.entropy_bars(tl, k, lang=lang), k),
                       "canvas": lambda tl, k: at_step(render.token_canvas(tl, k, lang=lang), k)})


def view(tl, step: int, lang: str = i18n.DEFAULT, greedy: str | None = None):
    return drawn(views(step, lang=lang, greedy=greedy), tl, step)


def fallback(tl, lang: str = i18n.DEFAULT) -> tuple[int, str]:
    """A live run with no step that both fills several masks and leaves some open (a large τ
    fills every mask): its busiest step, and a note that sums the run up."""
    k = moments.busiest_step(tl.trace)
    s = tl.trace.steps[k]
    note = (i18n.text(lang, "tour.your_run", summary=run_summary(tl, lang=lang))
            + i18n.text(lang, "ch2.fallback", step=k, filled=sum(m.selected for m in s.masks),
                        masks=plural("ch2.open_masks", len(s.masks), lang)))
    return k, note


def build(ctx, data, lang: str = i18n.DEFAULT):
    tl, step = data.at("fill_rule")
    greedy = (data.greedy.get(data.picks["fill_rule"]["trace"]) or {}).get("text")
    with body(2) as (cols, words):
        with cols:
            bar = live_bar(2, lang)
            recorded = stepper_html(tl, KEY, views(step, lang=lang, greedy=greedy), step, lang=lang)
            steps = gr.HTML(recorded,
                            elem_id="tour-stepper-2", js_on_load=None)
            slot(KEY, "bars", "tour-viz-2", elem_classes=["tour-viz"])
            slot(KEY, "canvas")
        with words:
            slot(KEY, "text", "tour-text-2")
            window_try(ctx, 2, data.picks["fill_rule"]["trace"], moments.fill_rule_step, KEY,
                       partial(views, lang=lang), partial(fallback, lang=lang), steps, recorded, bar, lang)
