"""The guided tour: eleven chapters (the tenth beyond the paper, the eleventh a recap), each one focused view of a recorded step beside a few
sentences, with Back / Next, a glossary, projector mode, and one "try it" control that re-runs live.

One module per chapter (ch1_ar.py … ch11_recap.py: its TITLE, a pure `view` of a trace and a
step, and `build`), beside the shared pieces: data.py (assets/tour/tour.json, recorded by
`python -m tools.record_tour` with the rules in moments.py), words.py (sentences, colour words,
glossary links), glossary.py, figs.py (the tour's own figures), frame.py (layout, the step
every view reports, live decodes) and present.py (links and projector mode).
"""
from __future__ import annotations

import gradio as gr

from ... import i18n
from ...serving.context import Context
from . import (ch1_ar, ch2_fill_rule, ch3_reordering, ch4_commit, ch5_stall, ch6_race, ch7_entropy,
               ch8_tau, ch9_training, ch10_verified, ch11_recap, present)
from .data import TOUR_FILE, TOUR_PROMPTS, TourData, load_tour  # noqa: F401 (the tour's public names)
from .glossary import glossary_html
from ... import links

CHAPTERS = (ch1_ar, ch2_fill_rule, ch3_reordering, ch4_commit, ch5_stall, ch6_race, ch7_entropy,
            ch8_tau, ch9_training, ch10_verified, ch11_recap)
TITLES = [c.TITLE for c in CHAPTERS]


def titles(lang: str = i18n.DEFAULT) -> list[str]:
    """The chapters' titles in `lang` (TITLES is the English); a chapter without `title(lang)`
    keeps its TITLE."""
    return [c.title(lang) if hasattr(c, "title") else c.TITLE for c in CHAPTERS]


def link_chapter(value) -> int:
    """A chapter number from the page link (untrusted): 1..len(CHAPTERS), else 1."""
    return present.link_chapter(value, len(CHAPTERS))


def foot_nav(n: int, last: int, tr) -> tuple:
    """Back / Next at the foot of chapter n (a phone's chapter is a few screens tall and the nav is
    at its top); none where it would not move (Back on the first, Next on the last). Presenting
    hides them (style.css): the keys move there, and the chapter must fit one screen."""
    with gr.Row(elem_classes=["tour-foot"]):
        back = (gr.Button(tr("tour.foot_back"), size="sm", elem_id=f"tour-foot-back-{n}", scale=0, min_width=80)
                if n > 1 else None)
        nxt = (gr.Button(tr("tour.foot_next"), size="sm", variant="primary", elem_id=f"tour-foot-next-{n}",
                         scale=0, min_width=80) if n < last else None)
    return back, nxt


def build(ctx: Context, demo: gr.Blocks, lang: str = i18n.DEFAULT) -> None:
    data = load_tour()
    tr = i18n.Texts(lang)
    last = len(CHAPTERS)
    chapter = gr.Number(1, visible=False, elem_id="tour-chapter")
    link_step = gr.Number(None, visible=False, precision=0)  # a link's step (?chapter=3&step=2; app/links.py)
    with gr.Row(elem_id="tour-nav", equal_height=True):
        # disabled where it would not move (Back on the first chapter, Next on the last); go() keeps it so
        back = gr.Button(tr("tour.back"), size="sm", elem_id="tour-back", scale=0, min_width=80, interactive=False)
        pick = gr.Dropdown([(t, i + 1) for i, t in enumerate(titles(lang))], value=1, label=tr("tour.pick_label"),
                           show_label=False, container=False, elem_id="tour-pick", scale=4, min_width=200)
        nxt = gr.Button(tr("tour.next"), size="sm", variant="primary", elem_id="tour-next", scale=0, min_width=80)
        gloss = gr.Button(tr("tour.glossary"), size="sm", elem_id="tour-glossary-btn", scale=0, min_width=80)
        present_btn = gr.Button(present.present_label(lang), size="sm", elem_id="tour-present-btn", scale=0,
                                min_width=100)
    # Home / End keys: buttons the keyboard presses (hidden by CSS, so they are in the page)
    first_btn = gr.Button(tr("tour.first"), elem_id="tour-first", elem_classes=["tour-hidden"])
    last_btn = gr.Button(tr("tour.last"), elem_id="tour-last", elem_classes=["tour-hidden"])
    gr.HTML(glossary_html(lang) + present.badge(lang) + present.keys_strip(lang), elem_id="tour-overlays")
    columns, foot = [], []
    for n, module in enumerate(CHAPTERS, 1):
        with gr.Column(visible=n == 1, elem_id=f"chapter-{n}", elem_classes=["tour-chapter"]) as col:
            module.build(ctx, data, lang)
            foot.append(foot_nav(n, last, tr))
        columns.append(col)

    def go(n):
        n = link_chapter(n)
        return ([n, n] + [gr.Column(visible=i == n) for i in range(1, last + 1)]
                + [gr.Button(interactive=n > 1), gr.Button(interactive=n < last)])

    def open_link(n, request: gr.Request = None):
        """Page load: open the linked chapter; chapter 1 is already open (redrawing it would
        only make the first view flicker). The link's step, checked (app/links.py), goes to the
        page, whose stepper shows it (clamped to the chapter's steps)."""
        n = link_chapter(n)
        step = links.read(links.query(request), ctx.limits, 0, chapters=last).step
        return (go(n) if n != 1 else [gr.skip()] * (4 + last)) + [step]

    outs = [chapter, pick] + columns + [back, nxt]
    fast = dict(show_progress="hidden", queue=False, api_name=False)
    moves = ((back, lambda n: go(link_chapter(n) - 1 or 1)), (nxt, lambda n: go(min(last, link_chapter(n) + 1))),
             (first_btn, lambda n: go(1)), (last_btn, lambda n: go(last)))
    for button, move in moves:
        button.click(move, [chapter], outs, **fast).then(None, [chapter], None, js=present.WRITE_LINK_JS)
    for foot_back, foot_next in foot:   # the same moves; then the new chapter's top (the nav) in view
        for button, move in ((foot_back, moves[0][1]), (foot_next, moves[1][1])):
            if button is not None:
                button.click(move, [chapter], outs, **fast).then(None, [chapter], None, js=present.FOOT_MOVE_JS)
    pick.input(go, [pick], outs, **fast).then(None, [chapter], None, js=present.WRITE_LINK_JS)
    present_btn.click(None, None, None, js=present.TOGGLE_JS)
    gloss.click(None, None, None, js="() => window.wedlmPresent && window.wedlmPresent.glossary()")
    demo.load(open_link, [chapter], outs + [link_step], js=present.READ_LINK_JS, **fast).then(
        None, [chapter, link_step], None, js=present.SHOW_STEP_JS).then(None, None, None, js=present.FIT_JS)
