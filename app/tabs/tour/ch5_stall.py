"""Chapter 5: a stall (a far fill, the first mask open, flat growth) beside a branch with a
larger λ; one stepper moves both decodes, the growth marker and the words together."""
from __future__ import annotations

import gradio as gr

from wedlm import DecodeConfig
from wedlm.branch import branch

from ... import i18n
from ...serving import gpu
from ...serving.errors import worded
from ...views import palette, render
from ...views.stepper import Views
from ...views.timeline import Timeline
from . import figs, moments
from .frame import at_step, body, drawn, pool, slot, stepper_html, try_box
from .words import colour, elsewhere, narration, term

TITLE = i18n.text(i18n.DEFAULT, "ch5.title")
KEY = "tour-5"


def title(lang: str = i18n.DEFAULT) -> str:
    return i18n.text(lang, "ch5.title")


def stalls(s) -> bool:
    """The first open mask stays open while a far slot fills."""
    return bool(s.masks) and not s.masks[0].selected and any(
        m.selected and m.distance >= moments.FAR for m in s.masks)


def text(tl, step: int, other: Timeline, other_penalty: float, moment: int | None = None,
         lang: str = i18n.DEFAULT) -> str:
    s = tl.trace.steps[step]
    lam = tl.trace.config["penalty"]
    if not stalls(s):
        return elsewhere(tl, step, f"The {colour('decoder-streaming')} decode (λ = {lam:g}) does not stall "
                         f"here; the {colour('branch')} branch (λ = {other_penalty:g}) is shown at the same "
                         "step beside it.", moment, lang=lang)
    first = s.masks[0]
    far = next(m for m in s.masks if m.selected and m.distance >= moments.FAR)
    flat = moments.flat_run(tl.trace, step)
    was = moments.commit_step_of(tl.trace, first.pos)
    now = moments.commit_step_of(other.trace, first.pos)
    a, b = tl.trace.stats(), other.trace.stats()
    changed = "the same text" if other.trace.token_ids == tl.trace.token_ids else "a different text"
    return narration([
        f"At step {step} the first open mask (position {first.pos}) has entropy {first.entropy:.2f} "
        "nats: the model cannot tell what comes next. "
        + ("No mask scores under τ, so the rule fills the single lowest score: "
           if moments.fell_back(s) else "The rule fills what scores under τ: ")
        + f"a far slot, position {far.pos} (d = {far.distance}, H {far.entropy:.2f} + λ·d "
        f"{far.score - far.entropy:.2f} = {far.score:.2f}).",
        f"The first mask stays open, so nothing can commit: after step {step} the {colour('decoder-streaming')} "
        f"line (λ = {lam:g}) stays flat for {flat} more forward{'s' if flat != 1 else ''}. Position "
        f"{first.pos} commits only at step {was if was is not None else '–'}.",
        f"{term('lambda', '<b>λ</b>')} charges λ per slot of distance, pulling the choice toward the front. "
        f"Branched from step {step - 1} with λ = {other_penalty:g} (the {colour('branch')} line): position "
        f"{first.pos} commits at step {now if now is not None else '–'}; {b['generated_tokens']} tokens in "
        f"{b['forwards']} forwards ({b['tokens_per_forward']:.2f} per forward) against "
        f"{a['generated_tokens']} in {a['forwards']} ({a['tokens_per_forward']:.2f}), {changed}. Below, "
        f"both decodes at step {step}.",
    ], tl, step, lang=lang)


def views(other: Timeline, other_penalty: float, moment: int | None, lang: str = i18n.DEFAULT) -> Views:
    def lines(tl):
        return {f"λ = {tl.trace.config['penalty']:g}": (tl, palette.ROLE_COLOURS["decoder-streaming"]),
                f"λ = {other_penalty:g} (branch)": (other, palette.ROLE_COLOURS["branch"])}

    def theirs(tl, k):
        j = min(k, other.num_steps - 1)
        return at_step(f"<b>λ = {other_penalty:g}</b>, step {j}" + render.token_canvas(other, j), j, secondary=True)
    return Views(step={"text": lambda tl, k: text(tl, k, other, other_penalty, moment, lang),
                       "left": lambda tl, k: at_step(f"<b>λ = {tl.trace.config['penalty']:g}</b>, step {k}"
                                                     + render.token_canvas(tl, k), k),
                       "right": theirs},
                 whole={"growth": lambda tl: figs.growth(lines(tl), lang=lang)})


def view(tl, step: int, other: Timeline, other_penalty: float, lang: str = i18n.DEFAULT):
    return drawn(views(other, other_penalty, step, lang), tl, step)


def build(ctx, data, lang: str = i18n.DEFAULT):
    tl, step = data.at("stall")
    pick = data.picks["stall"]
    other = data.timelines[pick["branch"]]
    with body(5) as (cols, words):
        with cols:
            steps = gr.HTML(stepper_html(tl, KEY, views(other, pick["penalty"], step, lang), step, lang=lang),
                            elem_id="tour-stepper-5", js_on_load=None)
            slot(KEY, "growth", "tour-viz-5", elem_classes=["tour-viz"])
            with gr.Row(elem_classes=["tour-pair"]):
                slot(KEY, "left")
                slot(KEY, "right")
        with words:
            slot(KEY, "text", "tour-text-5")
            with try_box():
                gr.Markdown(f"**Try it:** branch from step {step - 1} with another λ (live).")
                from .. import knobs
                penalty = knobs.number("penalty", value=pick["penalty"], elem_id="tour5-penalty")
                btn = gr.Button("Branch live", elem_id="tour-try-5")

    def run(lam):
        with worded():
            config = DecodeConfig.from_dict({**tl.trace.config, "penalty": float(lam)})
        work = gpu.Work.of(config.max_new_tokens, config.window, ["streaming"], ctx.limits)
        new = Timeline(gpu.run_on_gpu(branch, ctx.models.wedlm, tl.trace, step - 1, config,
                                      time_limit_s=work.time_limit_s, work=work))
        return stepper_html(tl, KEY, views(new, float(lam), step, lang), step, lang=lang)

    btn.click(run, [penalty], [steps], api_name=i18n.api_name("tour_branch", lang), **pool(ctx))
