"""Chapter 10 (BEYOND THE PAPER): verified decoding, on a recorded step whose check rejected a
draft: the same forward's next-token rows check the drafts, so the text is exactly greedy AR."""
from __future__ import annotations

from functools import lru_cache, partial
from html import escape

import gradio as gr

from wedlm.config import DEFAULT_THRESHOLD

from ... import i18n
from ...views import narration as plain_narration
from ...views import render
from ...views.stepper import Views
from . import moments
from .ch8_tau import wrong_products
from .data import load_tau_sweep
from .frame import at_step, body, drawn, live_bar, slot, stepper_html, window_try
from .words import colour, elsewhere, gap, model_text, narration, plural, run_summary, span, term, tok

TITLE = i18n.text(i18n.DEFAULT, "ch10.title")
KEY = "tour-10"


def title(lang: str = i18n.DEFAULT) -> str:
    return i18n.text(lang, "ch10.title")


def text(tl, step: int, moment: int | None = None, note: str = "", lang: str = i18n.DEFAULT,
         live: bool = False) -> str:
    """live: `tl` is a live run (the note on how a live run differs from the recording is moot)."""
    tr = i18n.Texts(lang)
    s = tl.trace.steps[step]
    v = s.verify
    none = none_filled(s, lang)
    if v is None or v.rejected_pos is None:
        what = " ".join(escape(t) for t in plain_narration.narrate(tl.trace, step, lang=lang))
        return elsewhere(tl, step, (note + " " if note else "") + tr("ch10.not_rejected", what=what)
                         + (gap(lang) + none if none else ""), moment,
                         lang=lang, more=window_words(tl, step, lang))
    first = s.start + 1
    # the drafts the check decided: the ones the view marks ✓ / ✗ (verify_marks), not the record's
    # whole `checked` run, whose drafts after the rejected one are dropped unchecked
    marks = render.verify_marks(tl, step)
    checked = sorted(p for p, k in marks.items() if k in ("accepted", "rejected"))
    accepted = sorted(p for p, k in marks.items() if k == "accepted")
    draft = v.checked[v.rejected_pos - first]
    agreed = (plural("ch10.agreed", len(accepted), lang, span=span(accepted, lang=lang),
                     colour=colour("verify-accepted", lang, outline="solid")) if accepted else tr("ch10.none_agreed"))
    dropped = plural("ch10.dropped", len(v.dropped), lang, span=span(v.dropped, lang=lang)) if v.dropped else ""
    stop = next((s.start + i for i, t in enumerate(s.committed) if t in tl.trace.stop_ids), None)
    kept = list(range(s.start, s.start + len(s.committed)))
    ends = tr("ch10.ends", pos=stop) if stop is not None else ""
    return narration(([note] if note else []) + [
        beyond(lang=lang),
        tr("ch10.p1", draft=term("draft", lang=lang), verified=term("verified", tr("ch10.verified_word"), lang=lang),
           forward=term("forward", tr("ch10.forward_word"), lang=lang)),
        tr("ch10.p2", step=step, start=s.start, first=tok(tl, s.window[0], lang), checked_n=len(checked), drafts=plural("ch10.drafts", len(checked), lang),
           checked=span(checked, lang=lang), agreed=agreed, draft=tok(tl, draft, lang), rejected=v.rejected_pos,
           rejected_colour=colour("verify-rejected", lang, outline="solid"), ar=tok(tl, v.ar_token, lang),
           ar_colour=colour("verify-ar", lang, outline="dashed"), dropped=dropped, kept=span(kept, lang=lang),
           positions=tr("ch10.positions_one" if len(kept) == 1 else "ch10.positions_many"),
           commit=term("commit", tr("ch10.commit_word_one" if len(kept) == 1 else "ch10.commit_word"), lang=lang),
           kv=term("kv-cache", lang=lang),
           before=s.cache_before, after=s.cache_after, ends=ends) + tr("ch10.rule") + (gap(lang) + none if none else ""),
        # one paragraph: what the text is (chapter 10 is at presenting mode's narration limit at 1024)
        tr("ch10.p3" if len(s.committed) > 1 else "ch10.p3_one", n=len(s.committed), step=step,
           greedy=term("greedy", tr("ch10.greedy_word"), lang=lang)) + gap(lang) + whole_run(tl, lang),
    ] + [p for p in [window_words(tl, step, lang, short=True)] if p],
        tl, step, lang=lang)


def not_lossless(rows: list[dict]) -> dict | None:
    """Chapter 8's evidence that WeDLM's streaming decoder is not lossless: the sweep's row at the
    default τ (the one the tour's decodes use) when some of its texts differ from the greedy text,
    else the row with the most such texts; None if no row differs or the record did not compare."""
    compared = [r for r in rows if r.get("differs")]
    if not compared:
        return None
    default = next((r for r in compared if r["threshold"] == DEFAULT_THRESHOLD), None)
    return default or max(compared, key=lambda r: (r["differs"], -r["threshold"]))


@lru_cache(maxsize=1)
def _recorded_sweep_rows() -> tuple:
    return tuple((load_tau_sweep() or {}).get("rows", []))


def beyond(rows: list[dict] | None = None, lang: str = i18n.DEFAULT) -> str:
    """'Beyond the paper', with lossless's evidence from chapter 8's recording: texts that differ from
    the model's greedy text (lossless is that text, not right answers)."""
    row = not_lossless(list(_recorded_sweep_rows()) if rows is None else rows)
    if row is None:
        return i18n.text(lang, "ch10.beyond_plain")
    return i18n.text(lang, "ch10.beyond", tau=row["threshold"], n=row["differs"], total=row["total"])


def none_filled(s, lang: str = i18n.DEFAULT) -> str:
    """A verified forward that read masks and filled none (the step line's "0 newly filled"): said
    plainly, since the recap and chapter 2 say a streaming forward always fills at least one. Its
    counts are the step line's (narration.mask_account): read, and, when the AR token took a mask's
    slot, taken and left, so the words never say "all stay masks" where the line says one was taken."""
    acc = plain_narration.mask_account(s)
    if s.verify is None or not acc.read or acc.filled:
        return ""
    taken = i18n.text(lang, "ch10.none_filled_taken", taken=acc.taken, left=acc.left) if acc.taken else ""
    return i18n.text(lang, "ch10.none_filled", read=acc.read, taken=taken)


def window_words(tl, step: int, lang: str = i18n.DEFAULT, short: bool = False) -> str:
    """Why a window is smaller than W (the policy sizes it, BEYOND THE PAPER): how many of the
    decode's forwards carry fewer than W masks, the fewest and most, and this step's rows; ""
    if every window carried W. short: the chapter's own step (its narration must fit a projector)."""
    w = tl.trace.config.get("window")
    masks = [s.verify.masks for s in tl.trace.steps if s.verify is not None]
    fewer = [m for m in masks if m < w] if w else []
    if not fewer:
        return ""
    s = tl.trace.steps[step]
    # the step's rows as a sum (1 + drafts + masks + drafts among them), as the order view's caption says it
    parts = plain_narration.verified_rows_parts(s, lang)
    return i18n.text(lang, "ch10.window_short" if short else "ch10.window", w=w, small=len(fewer),
                     forwards=len(masks), lo=min(fewer), hi=max(fewer), parts=parts, rows=s.rows, step=step,
                     masks=sum(t is None for t in s.window))


def whole_run(tl, lang: str = i18n.DEFAULT) -> str:
    """What the whole decode wrote and how many drafts it accepted, from the record: lossless
    means AR's text, not a right answer; and a decode whose drafts all failed ran as AR."""
    tr = i18n.Texts(lang)
    steps = [s for s in tl.trace.steps if s.verify is not None]
    accepted = sum(s.verify.accepted for s in steps)
    lines = (tl.trace.text or "").strip().splitlines()
    wrong = wrong_products(tl.trace.text or "")
    if wrong:   # a times table: its first wrong line says "not a right answer" better than its last line
        w = wrong[0]
        wrote = tr("ch10.wrote_wrong", text=model_text(w.line), a=w.a, b=w.b, right=w.right)
    else:
        wrote = tr("ch10.wrote", text=model_text(lines[-1] if lines else ""))  # the answer line
    if accepted:
        drafts = tr("ch10.run_accepted", n=accepted, forwards=len(steps))
    else:
        drafts = tr("ch10.run_none_accepted", forwards=len(steps))
    return wrote + " " + drafts if lang == "en" else wrote + drafts


def views(moment: int | None, note: str = "", lang: str = i18n.DEFAULT, live: bool = False) -> Views:
    return Views(step={"text": lambda tl, k: text(tl, k, moment, note, lang=lang, live=live),
                       "now": lambda tl, k: at_step(render.order_view(tl, k, lang=lang), k),
                       "canvas": lambda tl, k: at_step(render.token_canvas(tl, k, lang=lang), k)})


def view(tl, step: int, lang: str = i18n.DEFAULT):
    return drawn(views(step, lang=lang), tl, step)


def fallback(tl, lang: str = i18n.DEFAULT) -> tuple[int, str]:
    k = tl.num_steps - 1
    return k, i18n.text(lang, "ch10.fallback", summary=run_summary(tl, lang=lang), step=k)


def build(ctx, data, lang: str = i18n.DEFAULT):
    tl, step = data.at("verified")
    with body(10) as (cols, words):
        with cols:
            bar = live_bar(10, lang)
            recorded = stepper_html(tl, KEY, views(step, lang=lang), step, lang=lang)
            steps = gr.HTML(recorded, elem_id="tour-stepper-10",
                            js_on_load=None)
            slot(KEY, "now", "tour-viz-10", elem_classes=["tour-viz"])
            slot(KEY, "canvas")
        with words:
            slot(KEY, "text", "tour-text-10")
            window_try(ctx, 10, data.picks["verified"]["trace"], moments.verified_rejection_step, KEY,
                       partial(views, lang=lang, live=True), partial(fallback, lang=lang), steps, recorded, bar, lang)
