"""Chapter 7: entropy decides speed: the entropy -> tokens per forward plot of the suite, one
step at each extreme, and why a decode can make fewer tokens than forwards."""
from __future__ import annotations

import gradio as gr

from ... import i18n
from ...serving.context import make_config
from ...views import entropy
from . import figs
from .data import LAW_MAX_NEW
from .frame import body, live_decode, pool, try_box
from .words import colour, narration, term

TITLE = "7 · Entropy decides speed"


def class_mean(rows: list[dict], cls: str, key: str) -> float:
    vals = [r[key] for r in rows if r["class"] == cls]
    return sum(vals) / len(vals) if vals else float("nan")


def view(rows: list[dict], low, high, yours: dict | None = None):
    (ltl, lstep), (htl, hstep) = low, high
    ls, hs = ltl.trace.steps[lstep], htl.trace.steps[hstep]
    slowest = min(rows, key=lambda r: r["tokens_per_forward"])
    paras = [
        "Each point is one prompt decoded by the bundled model: across, the mean entropy of the "
        f"slots when they were filled; up, {term('tpf')}.",
        f"Counting is nearly certain (mean entropy {class_mean(rows, 'counting', 'entropy'):.2f} nats): many "
        f"masks fall under τ at once, {class_mean(rows, 'counting', 'tokens_per_forward'):.1f} tokens per "
        f"forward. Plays (prose) are not ({class_mean(rows, 'plays', 'entropy'):.2f} nats): about "
        f"{class_mean(rows, 'plays', 'tokens_per_forward'):.1f} per forward, no faster than AR.",
        f"<b>Below 1?</b> {slowest['id']} makes {slowest['tokens_per_forward']:.2f} tokens per forward: fewer "
        "tokens than forwards. A slot filled by one forward commits only in a later one: its KV must be "
        "computed with its token as input, and the forward that filled it saw a mask there. When each "
        "forward fills one slot this pipelines to about one token per forward; a far fill that waits behind "
        "an open mask, and the last fill before the stop token, cost forwards that commit nothing.",
        f"Below, left: counting step {lstep} fills {len(ls.filled)} masks at once ({colour('state-new')}). "
        f"Right: a play's step {hstep}: no mask under τ, so one slot is filled (the lowest score) and "
        f"{len(hs.masks) - len(hs.filled)} stay masks ({colour('state-mask')}). Both on the same scale.",
    ]
    if yours:
        paras.append(f"<b>Your prompt</b>: mean entropy {yours['entropy']:.2f} nats, "
                     f"{yours['tokens_per_forward']:.2f} tokens per forward (the star).")
    top = max(figs.max_score(ltl, lstep), figs.max_score(htl, hstep)) * 1.1
    small = dict(y_max=top, height=figs.SMALL)
    text = narration(paras)
    law = entropy.law_figure(rows, yours=[{**yours, "label": "your prompt"}] if yours else ())
    return (text, law, figs.score_bars(ltl, lstep, f"Counting, step {lstep}", **small),
            figs.score_bars(htl, hstep, f"A play, step {hstep}", **small))


def build(ctx, data, lang: str = i18n.DEFAULT):
    low, high = data.at("entropy_low"), data.at("entropy_high")
    text, law, bars_low, bars_high = view(data.law_rows, low, high)
    with body(7) as (views, words):
        with views:
            v_law = gr.Plot(law, show_label=False, elem_id="tour-viz-7", elem_classes=["tour-viz"])
            with gr.Row(elem_classes=["tour-pair"]):
                gr.Plot(bars_low, show_label=False, min_width=160)
                gr.Plot(bars_high, show_label=False, min_width=160)
        with words:
            v_text = gr.HTML(text, elem_id="tour-text-7")
            with try_box():
                prompt = gr.Textbox("Count by 3 from 3 to 60:", label="Try it: where does your prompt land?",
                                    lines=2, max_length=400)
                btn = gr.Button("Decode live", elem_id="tour-try-7")

    def run(prompt):
        trace = live_decode(ctx, prompt, "streaming", make_config(max_new_tokens=LAW_MAX_NEW)).trace
        yours = {"id": "yours", "class": "your prompt", "entropy": round(entropy.fill_entropy(trace), 3),
                 "tokens_per_forward": round(trace.stats()["tokens_per_forward"], 2)}
        out = view(data.law_rows, low, high, yours)
        return out[0], out[1]

    btn.click(run, [prompt], [v_text, v_law], api_name=i18n.api_name("tour_entropy", lang), **pool(ctx))
