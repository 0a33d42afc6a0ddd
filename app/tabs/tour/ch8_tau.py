"""Chapter 8: what τ trades: the arithmetic questions of the suite decoded at every τ of the
sweep (recorded by tools/record_tour.py): tokens per forward against right answers, and the
answers a high τ gets wrong."""
from __future__ import annotations

from html import escape

import gradio as gr

from wedlm.suite import read_prompts
from wedlm.training.corpus import final_answer

from ... import i18n
from ...serving import gpu
from ...serving.context import make_config
from . import figs
from .data import TAU_CLASS, TAU_MAX_NEW
from .frame import body, pool, try_box
from .words import colour, narration, term

TITLE = "8 · What τ trades: speed or right answers"


def questions() -> list[dict]:
    return [p for p in read_prompts() if p["class"] == TAU_CLASS and "answer" in p]


def answer_row(threshold: float, outputs: list[dict]) -> dict:
    """One τ of the sweep from its decodes' outputs: mean tokens per forward, right answers."""
    return {"threshold": threshold, "total": len(outputs), "right": sum(o["right"] for o in outputs),
            "tokens_per_forward": round(sum(o["tokens_per_forward"] for o in outputs) / max(len(outputs), 1), 2),
            "outputs": outputs}


def answer_all(lm, prompts: list[dict], config, time_limit_s: float | None = None) -> list[dict]:
    """Decode each question at `config` (inside the GPU call; tools/record_tour.py runs it too)."""
    import time

    from wedlm import decode
    deadline = None if time_limit_s is None else time.perf_counter() + time_limit_s
    out = []
    for p in prompts:
        left = None if deadline is None else max(0.0, deadline - time.perf_counter())
        trace = decode(lm, p["prompt"], "streaming", config, time_limit_s=left)
        got = final_answer(trace.text)
        out.append({"id": p["id"], "question": p["prompt"].removeprefix("Question: ").split("\n")[0],
                    "answer": str(p["answer"]), "got": got, "right": got == str(p["answer"]),
                    "tokens_per_forward": round(trace.stats()["tokens_per_forward"], 2)})
    return out


def wrong_answers_html(row: dict) -> str:
    wrong = [o for o in row["outputs"] if not o["right"]]
    if not wrong:
        return f'<div class="tour-wrong"><b>τ = {row["threshold"]:g}</b>: every answer right.</div>'
    items = "".join(f"<li>{escape(o['question'])} → <b>{escape(o['got'] or 'no answer')}</b> "
                    f"(right: {escape(o['answer'])})</li>" for o in wrong)
    return f'<div class="tour-wrong"><b>Wrong at τ = {row["threshold"]:g}</b><ul>{items}</ul></div>'


def view(sweep: dict, yours: dict | None = None):
    rows = sweep["rows"]
    total = rows[0]["total"] if rows else 0
    safe = [r for r in rows if r["right"] == r["total"]]
    fastest_safe = max(safe, key=lambda r: r["tokens_per_forward"]) if safe else None
    worst = min(rows, key=lambda r: (r["right"], -r["threshold"])) if rows else None
    low = rows[0] if rows else None
    paras = [
        f"{term('tau', 'τ')} is the knob a user turns: a mask fills when its score is under τ. A larger τ "
        "fills more masks per forward, so it is faster, but it also accepts tokens the model is less sure of.",
        f"Here the bundled model answers the suite's {total} arithmetic questions at each τ. The "
        f"{colour('decoder-streaming')} line is speed ({term('tpf')}); the {colour('right')} bars count "
        "right answers (the final number after ####).",
    ]
    if low and worst:
        safe_words = (f" Up to τ = {fastest_safe['threshold']:g} every answer stays right, at "
                      f"{fastest_safe['tokens_per_forward']:.2f} per forward." if fastest_safe else "")
        paras.append(
            f"At τ = {low['threshold']:g}: {low['tokens_per_forward']:.2f} tokens per forward, "
            f"{low['right']} of {total} right.{safe_words} At τ = {worst['threshold']:g}: "
            f"{worst['tokens_per_forward']:.2f} per forward but only {worst['right']} of {total} right: a digit "
            "filled while the model was unsure is committed and never revisited.")
    if yours:
        paras.append(f"<b>Your run</b> at τ = {yours['threshold']:g}: {yours['right']} of {yours['total']} "
                     f"right, {yours['tokens_per_forward']:.2f} tokens per forward (the star).")
    shown = yours or worst
    return narration(paras), figs.tau_figure(rows, yours), wrong_answers_html(shown) if shown else ""


def build(ctx, data, lang: str = i18n.DEFAULT):
    text, fig, wrong = view(data.tau_sweep)
    with body(8) as (views, words):
        with views:
            v_fig = gr.Plot(fig, show_label=False, elem_id="tour-viz-8", elem_classes=["tour-viz"])
            v_wrong = gr.HTML(wrong, elem_id="tour-wrong")
        with words:
            v_text = gr.HTML(text, elem_id="tour-text-8")
            with try_box():
                from .. import knobs
                tau = knobs.number("threshold", value=2.0, elem_id="tour8-tau",
                                   label="Try it: answer the questions live at this τ")
                btn = gr.Button("Answer live", elem_id="tour-try-8")

    def run(t):
        config = make_config(threshold=t, max_new_tokens=TAU_MAX_NEW)
        prompts = questions()
        work = gpu.Work.of(config.max_new_tokens, config.window, ["streaming"] * len(prompts), ctx.limits)
        outputs = gpu.run_on_gpu(answer_all, ctx.models.wedlm, prompts, config, work.time_limit_s, work=work)
        return view(data.tau_sweep, answer_row(config.threshold, outputs))

    btn.click(run, [tau], [v_text, v_fig, v_wrong], api_name=i18n.api_name("tour_tau", lang), **pool(ctx))
