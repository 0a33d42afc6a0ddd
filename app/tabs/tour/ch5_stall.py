"""Chapter 5: a stall (a far fill, the first mask open, flat growth) beside a branch with a
larger λ; one stepper moves both decodes, the growth marker and the words together."""
from __future__ import annotations

from html import escape

import gradio as gr

from wedlm import DecodeConfig
from wedlm.branch import branch

from ... import i18n
from ...serving import gpu
from ...serving.errors import worded
from ...views import palette, render
from ...views.narration import positions_text, score_parts
from ...views.stepper import Views
from ...views.timeline import Timeline
from . import figs, moments
from .frame import at_step, body, drawn, live_bar, pool, slot, stepper_html, try_box
from .words import colour, elsewhere, ending, gap, narration, plural, term

TITLE = i18n.text(i18n.DEFAULT, "ch5.title")
KEY = "tour-5"


def title(lang: str = i18n.DEFAULT) -> str:
    return i18n.text(lang, "ch5.title")


def stalls(s) -> bool:
    """The first open mask stays open while a far slot fills."""
    return bool(s.masks) and not s.masks[0].selected and any(
        m.selected and m.distance >= moments.FAR for m in s.masks)


def steps(tl: Timeline, other: Timeline) -> int:
    """The chapter steps through the longer decode; the shorter holds its final state."""
    return max(tl.num_steps, other.num_steps)


def fork(tl: Timeline, other: Timeline, moment: int | None) -> int:
    """The step the branch continues from: the one before the chapter's moment (its "try it"
    branches there too); without a moment, the last step both decodes share."""
    if moment is not None:
        return moment - 1
    same = lambda a, b: ([(f.pos, f.token) for f in a.filled], a.committed) == (  # noqa: E731
        [(f.pos, f.token) for f in b.filled], b.committed)
    shared = 0
    while shared < min(tl.num_steps, other.num_steps) and same(tl.trace.steps[shared], other.trace.steps[shared]):
        shared += 1
    return shared - 1


def held(timeline: Timeline, step: int) -> int:
    """The step a decode shows at the chapter's `step`: its last once it has ended."""
    return min(step, timeline.num_steps - 1)


def ended(timeline: Timeline, step: int, colour_word: str, penalty: float, lang: str = i18n.DEFAULT) -> str:
    """Which decode has ended by `step` (and how), or "" while it runs."""
    last = timeline.num_steps - 1
    if step < last:
        return ""
    st = timeline.trace.stats()
    return i18n.text(lang, "ch5.ended", colour=colour_word, penalty=penalty, last=last,
                     tokens=st["generated_tokens"], forwards=st["forwards"],
                     held="" if step == last else i18n.text(lang, "ch5.held", step=step))


def facts_head(step: int, last: int, colour_word: str, penalty: float, lang: str = i18n.DEFAULT) -> str:
    """The facts box's heading: the chapter's step, the range of the decode the box counts
    (0–last, that decode's own steps, not the slider's), and which decode it is."""
    return i18n.text(lang, "ch5.facts", step=step, last=last, colour=colour_word, penalty=penalty)


def text(tl, step: int, other: Timeline, other_penalty: float, moment: int | None = None,
         lang: str = i18n.DEFAULT) -> str:
    tr = i18n.Texts(lang)
    lam = tl.trace.config["penalty"]
    streaming, branched = colour("decoder-streaming", lang), colour("branch", lang)
    head = facts_head(step, tl.num_steps - 1, streaming, lam, lang)   # the box counts the first decode while it runs
    kb = held(other, step)
    a_end, b_end = ended(tl, step, streaming, lam, lang), ended(other, step, branched, other_penalty, lang)
    b_now = b_end or tr("ch5.running", colour=branched, penalty=other_penalty, step=kb, last=other.num_steps - 1)
    if step >= tl.num_steps:
        # past the first decode's end: the words (and the facts box) follow the branch, running or ending
        said = gap(lang).join(p for p in (a_end, b_now, ending(other, kb, lang) if step == kb else "") if p)
        return narration([tr("tour.elsewhere", step=step) + said], other, kb, lang=lang,
                         head=facts_head(step, other.num_steps - 1, branched, other_penalty, lang))
    s = tl.trace.steps[step]
    if a_end:   # the first decode's last step (elsewhere says what ended it): which one runs on
        return elsewhere(tl, step, gap(lang).join([a_end, b_now]), moment, lang=lang, head=head)
    if not stalls(s):
        if s.masks and not s.masks[0].selected:   # the front waits, though no far slot fills
            said = tr("ch5.front_waits", streaming_colour=streaming, penalty=lam, pos=s.masks[0].pos,
                      filled=positions_text([m.pos for m in s.masks if m.selected], lang),
                      branch_colour=branched, other=other_penalty)
        else:
            said = tr("ch5.no_stall", streaming_colour=streaming, penalty=lam, branch_colour=branched,
                      other=other_penalty)
        return elsewhere(tl, step, gap(lang).join(p for p in (said, b_end) if p), moment, lang=lang, head=head)
    first = s.masks[0]
    far = next(m for m in s.masks if m.selected and m.distance >= moments.FAR)
    flat_first, flat_last = moments.flat_span(tl.trace, step)
    was = moments.commit_step_of(tl.trace, first.pos)
    now = moments.commit_step_of(other.trace, first.pos)
    a, b = tl.trace.stats(), other.trace.stats()
    changed = tr("ch5.same_text") if other.trace.token_ids == tl.trace.token_ids else tr("ch5.other_text")
    far_said = score_parts(far, s.threshold)   # a digit more where its score would print as τ
    return narration([
        tr("ch5.p1", step=step, pos=first.pos, h=first.entropy,
           rule=tr("ch5.fell_back" if moments.fell_back(s) else "ch5.under_tau", tau=s.threshold), far=far.pos,
           d=far.distance, far_h=far_said["h"], far_penalty=far_said["d"], far_score=far_said["score"]),
        plural("ch5.p2", flat_last - flat_first + 1, lang, first=flat_first, last=flat_last,
               f_first=flat_first + 1, f_last=flat_last + 1,   # the chart counts forwards: step k is forward k + 1
               streaming_colour=streaming, penalty=lam, pos=first.pos,
               was=was if was is not None else "–",
               committed=tr("ch5.committed_first", positions=positions_text(
                   list(range(s.start, s.start + len(s.committed))), lang)) if s.committed else ""),
        tr("ch5.p3", lam=term("lambda", "<b>λ</b>", lang=lang), prev=fork(tl, other, moment), other=other_penalty,
           branch_colour=branched, pos=first.pos, now=now if now is not None else "–",
           b_tokens=b["generated_tokens"], b_forwards=b["forwards"], b_tpf=b["tokens_per_forward"],
           a_tokens=a["generated_tokens"], a_forwards=a["forwards"], a_tpf=a["tokens_per_forward"],
           changed=changed, step=step),
        tr("ch5.endings", other=other_penalty, penalty=lam, a_why=why_ended(tl, lang), b_why=why_ended(other, lang))
        + (tr("ch5.under_one") if max(a["tokens_per_forward"], b["tokens_per_forward"]) < 1 else ""),
    ], tl, step, lang=lang, head=head)


def why_ended(tl, lang: str = i18n.DEFAULT) -> str:
    """What ended a decode, beside its count: a stop token, or the token budget."""
    if tl.trace.stats().get("stop_reason") == "stop_token":
        return i18n.text(lang, "ch5.why_stop")
    return i18n.text(lang, "ch5.why_budget", budget=tl.trace.config["max_new_tokens"])


def views(other: Timeline, other_penalty: float, moment: int | None, lang: str = i18n.DEFAULT) -> Views:
    tr = i18n.Texts(lang)

    def lines(tl):
        return {f"λ = {tl.trace.config['penalty']:g}": (tl, palette.ROLE_COLOURS["decoder-streaming"]),
                tr("ch5.branch_line", penalty=other_penalty): (other, palette.ROLE_COLOURS["branch"])}

    def panel(timeline, penalty, k, **kw):
        shown = held(timeline, k)   # a decode that has ended holds its final state
        head = tr("ch5.panel", penalty=penalty, step=shown) + (tr("ch5.panel_ended") if k >= timeline.num_steps - 1
                                                               else "")
        head = f'<div class="panelhead">{head}</div>'   # (presenting sizes it with the picture's small text)
        # a tapped token's story names its decode (walk 22: both panels outline a tapped position, and
        # neither caption said which decode it told): app/static/highlight.js reads data-story-name
        name = escape(f"λ = {penalty:g}")
        return at_step(f'<div data-story-name="{name}">{head}{render.token_canvas(timeline, shown, lang=lang)}</div>',
                       k, **kw)

    def summary(tl, k):
        """The stepper's sentence: both decodes, each at the step it shows; a decode the slider has
        passed the end of says it has ended (one slider runs both: the shorter one stops first); a line
        each (walk 20: run together they read as one crammed sentence; .stepper-summary keeps the break)."""
        return "\n".join(f"λ = {t.trace.config['penalty'] if t is tl else other_penalty:g}: "
                              + (tr("ch5.summary_ended", last=t.num_steps - 1) if k > t.num_steps - 1 else "")
                              + render.step_summary(t, held(t, k), lang) for t in (tl, other))
    return Views(step={"text": lambda tl, k: text(tl, k, other, other_penalty, moment, lang),
                       "left": lambda tl, k: panel(tl, tl.trace.config["penalty"], k),
                       "right": lambda tl, k: panel(other, other_penalty, k, secondary=True)},
                 whole={"growth": lambda tl: figs.growth(lines(tl), lang=lang, steps=steps(tl, other))},
                 steps=lambda tl: steps(tl, other), summary=summary)


def view(tl, step: int, other: Timeline, other_penalty: float, lang: str = i18n.DEFAULT):
    return drawn(views(other, other_penalty, step, lang), tl, step)


def build(ctx, data, lang: str = i18n.DEFAULT):
    tl, step = data.at("stall")
    pick = data.picks["stall"]
    other = data.timelines[pick["branch"]]
    tr = i18n.Texts(lang)
    with body(5) as (cols, words):
        with cols:
            bar = live_bar(5, lang)
            recorded = stepper_html(tl, KEY, views(other, pick["penalty"], step, lang), step, lang=lang)
            steps = gr.HTML(recorded,
                            elem_id="tour-stepper-5", js_on_load=None)
            slot(KEY, "growth", "tour-viz-5", elem_classes=["tour-viz"])
            with gr.Row(elem_classes=["tour-pair"]):
                slot(KEY, "left")
                slot(KEY, "right")
        with words:
            slot(KEY, "text", "tour-text-5")
            with try_box():
                gr.Markdown(tr("ch5.try", step=step - 1))
                from .. import knobs
                penalty = knobs.number("penalty", value=pick["penalty"], elem_id="tour5-penalty", lang=lang)
                btn = gr.Button(tr("ch5.button"), elem_id="tour-try-5")

    def run(lam):
        with worded():
            config = DecodeConfig.from_dict({**tl.trace.config, "penalty": float(lam)})
        work = gpu.Work.of(config.max_new_tokens, config.window, ["streaming"], ctx.limits)
        new = Timeline(gpu.run_on_gpu(branch, ctx.models.wedlm, tl.trace, step - 1, config,
                                      time_limit_s=work.time_limit_s, work=work))
        return stepper_html(tl, KEY, views(new, float(lam), step, lang), step, lang=lang)

    event = btn.click(run, [penalty], [steps], js=bar.press_js,
                      api_name=i18n.api_name("tour_branch", lang), **pool(ctx))
    # the live branch replaces the recorded one; the first decode beside it stays the recording
    bar.offer(event, [penalty], lambda lam: f"λ = {float(lam):g}", [steps], (recorded,), whole=False,
              said="tour.live.branch")
