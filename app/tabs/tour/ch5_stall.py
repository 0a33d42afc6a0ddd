"""Chapter 5: a stall (a far fill, the first mask open, flat growth) beside a branch with a
larger λ, every view at the same step."""
from __future__ import annotations

import gradio as gr

from wedlm import DecodeConfig
from wedlm.branch import branch

from ...serving import gpu
from ...serving.errors import worded
from ...views import palette, render
from ...views.timeline import Timeline
from . import figs, moments
from .frame import at_step, body, pool, try_box
from .words import colour, narration, term

TITLE = "5 · A stall, and what λ does about it"


def view(tl, step: int, other: Timeline | None, other_penalty: float | None):
    s = tl.trace.steps[step]
    first = s.masks[0]
    far = next(m for m in s.masks if m.selected and m.distance >= moments.FAR)
    flat = moments.flat_run(tl.trace, step)
    was = moments.commit_step_of(tl.trace, first.pos)
    lam = tl.trace.config["penalty"]
    paragraphs = [
        f"At step {step} the first open mask (position {first.pos}) has entropy {first.entropy:.2f} "
        "nats: the model cannot tell what comes next. "
        + ("No mask scores under τ, so the rule fills the single lowest score: "
           if moments.fell_back(s) else "The rule fills what scores under τ: ")
        + f"a far slot, position {far.pos} (d = {far.distance}, H {far.entropy:.2f} + λ·d "
        f"{far.score - far.entropy:.2f} = {far.score:.2f}).",
        f"The first mask stays open, so nothing can commit: after step {step} the {colour('decoder-streaming')} "
        f"line (λ = {lam:g}) stays flat for {flat} more forward{'s' if flat != 1 else ''}. Position "
        f"{first.pos} commits only at step {was if was is not None else '–'}.",
    ]
    if other is not None:
        now = moments.commit_step_of(other.trace, first.pos)
        a, b = tl.trace.stats(), other.trace.stats()
        changed = "the same text" if other.trace.token_ids == tl.trace.token_ids else "a different text"
        paragraphs.append(
            f"{term('lambda', '<b>λ</b>')} charges λ per slot of distance, pulling the choice toward the front. "
            f"Branched from step {step - 1} with λ = {other_penalty:g} (the {colour('branch')} line): position "
            f"{first.pos} commits at step {now if now is not None else '–'}; {b['generated_tokens']} tokens in "
            f"{b['forwards']} forwards ({b['tokens_per_forward']:.2f} per forward) against "
            f"{a['generated_tokens']} in {a['forwards']} ({a['tokens_per_forward']:.2f}), {changed}. Below, "
            f"both decodes at step {step}.")
    text = narration(paragraphs, tl, step)
    mine = f"λ = {lam:g}"
    lines, colours = {mine: tl}, {mine: palette.ROLE_COLOURS["decoder-streaming"]}
    if other is not None:
        theirs = f"λ = {other_penalty:g} (branch)"
        lines[theirs], colours[theirs] = other, palette.ROLE_COLOURS["branch"]
    left = at_step(f"<b>λ = {lam:g}</b>, step {step}" + render.token_canvas(tl, step), step)
    right = "<b>branch</b>: press “Branch live”"
    if other is not None:
        k = min(step, other.num_steps - 1)
        right = at_step(f"<b>λ = {other_penalty:g}</b>, step {k}" + render.token_canvas(other, k), k, secondary=True)
    return text, figs.growth(lines, step, colours), left, right


def build(ctx, data):
    tl, step = data.at("stall")
    pick = data.picks["stall"]
    other = data.timelines[pick["branch"]]
    text, growth, left, right = view(tl, step, other, pick["penalty"])
    with body(5) as (views, words):
        with views:
            v_growth = gr.Plot(growth, show_label=False, elem_id="tour-viz-5", elem_classes=["tour-viz"])
            with gr.Row():
                v_left = gr.HTML(left)
                v_right = gr.HTML(right)
        with words:
            v_text = gr.HTML(text, elem_id="tour-text-5")
            with try_box():
                gr.Markdown(f"**Try it:** branch from step {step - 1} with another λ (live).")
                from .. import knobs
                penalty = knobs.number("penalty", value=pick["penalty"], elem_id="tour5-penalty")
                btn = gr.Button("Branch live", elem_id="tour-try-5")

    def run(lam):
        with worded():
            config = DecodeConfig.from_dict({**tl.trace.config, "penalty": float(lam)})
        work = gpu.Work.of(config.max_new_tokens, config.window, ["streaming"], ctx.limits)
        new = Timeline(gpu.run_on_gpu(branch, ctx.models.wedlm, tl.trace, step - 1, config, work=work))
        return view(tl, step, new, float(lam))

    btn.click(run, [penalty], [v_text, v_growth, v_left, v_right], api_name="tour_branch", **pool(ctx))
