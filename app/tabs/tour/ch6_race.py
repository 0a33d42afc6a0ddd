"""Chapter 6: the race against AR, forward by forward: both lanes and their growth at one tick,
and a live race that plays out forward by forward."""
from __future__ import annotations

import time

import gradio as gr

from ... import i18n
from ...serving import gpu
from ...serving.context import make_config
from ...views import lanes as race, palette
from ...views.timeline import Timeline
from . import figs
from .data import TOUR_PROMPTS
from .frame import ar_and_streaming, body, pool, try_box
from .words import colour, narration, term

TITLE = i18n.text(i18n.DEFAULT, "ch6.title")
PLAY_TICK_S = 0.15   # a live race replays one forward per this many seconds


def title(lang: str = i18n.DEFAULT) -> str:
    return i18n.text(lang, "ch6.title")


def view(timelines: dict[str, Timeline], tick: int, playing: bool = False, lang: str = i18n.DEFAULT):
    tr = i18n.Texts(lang)
    tick = max(1, min(int(tick), max(len(t.trace.steps) for t in timelines.values())))
    html, _ = race.race_frame(timelines, tick, False, 0.0, paused=not playing, lang=lang)
    wd, ar = timelines["streaming"], timelines["ar"]
    n_wd, n_ar = race.tokens_after(wd, tick), race.tokens_after(ar, tick)
    st_wd, st_ar = wd.trace.stats(), ar.trace.stats()
    wall = (st_wd["tokens_per_s"] / st_ar["tokens_per_s"]) if st_ar.get("tokens_per_s") else 0.0
    text = narration([
        tr("ch6.p1", ar_colour=colour("decoder-ar", lang=lang), wd_colour=colour("decoder-streaming", lang=lang)),
        tr("ch6.p2", tick=tick, step=tick - 1, n_ar=n_ar, n_wd=n_wd, tpf_wd=st_wd["tokens_per_forward"],
           tpf=term("tpf", lang=lang), tpf_ar=st_ar["tokens_per_forward"]),
        tr("ch6.p3", wall=wall, rows=st_wd["rows_processed"] / max(st_wd["forwards"], 1),
           block=term("block", lang=lang)),
    ], lang=lang)
    text = text.replace('class="tour-text"', f'class="tour-text" data-step="{tick - 1}"', 1)
    lanes = f'<div class="tour-step" data-step="{tick - 1}">{html}</div>'
    growth = figs.growth({race.lane_title(k, lang): (v, palette.decoder_colour(k)) for k, v in timelines.items()},
                         tick - 1, lang=lang)
    return text, lanes, growth


def build(ctx, data, lang: str = i18n.DEFAULT):
    tr = i18n.Texts(lang)
    pick = data.picks["race"]
    timelines = {"ar": data.timelines[pick["ar"]], "streaming": data.timelines[pick["streaming"]]}
    text, lanes, growth = view(timelines, pick["tick"], lang=lang)
    longest = max(len(t.trace.steps) for t in timelines.values())
    state = gr.State(timelines)
    with body(6) as (views, words):
        with views:
            v_lanes = gr.HTML(lanes, elem_id="tour-viz-6", elem_classes=["tour-viz"])
            tick = gr.Slider(1, longest, value=pick["tick"], step=1, label=tr("ch6.tick"),
                             elem_id="tour6-tick")
            v_growth = gr.HTML(growth)
        with words:
            v_text = gr.HTML(text, elem_id="tour-text-6")
            with try_box():
                gr.Markdown(tr("ch6.try"))
                from .. import knobs
                tau, no_tau = knobs.tau(elem_id="tour6-tau", lang=lang)
                btn = gr.Button(tr("ch6.button"), elem_id="tour-try-6")

    tick.release(lambda t, k: view(t, k, lang=lang), [state, tick], [v_text, v_lanes, v_growth], api_name=False,
                 show_progress="hidden", queue=False)

    def run(t, nt):
        prompt, _, max_new = TOUR_PROMPTS[pick["streaming"]]
        config = make_config(threshold=t, no_threshold=nt, max_new_tokens=max_new)
        work = gpu.Work.of(config.max_new_tokens, config.window, ["ar", "streaming"], ctx.limits)
        traces = gpu.run_on_gpu(ar_and_streaming, ctx.models.wedlm, ctx.models.ar, prompt, config,
                                work.time_limit_s, work=work)
        return {name: Timeline(t) for name, t in traces.items()}

    def play(live):
        """The finished race replayed one forward per tick (no forwards run: outside the pool)."""
        top = max(x.num_steps for x in live.values())
        for k in range(1, top + 1):
            yield [gr.Slider(1, top, value=k, step=1)] + list(view(live, k, playing=k < top, lang=lang))
            if k < top:
                time.sleep(PLAY_TICK_S)

    btn.click(run, [tau, no_tau], [state], api_name=i18n.api_name("tour_race", lang), show_progress="minimal", **pool(ctx)).then(
        play, [state], [tick, v_text, v_lanes, v_growth], api_name=False, show_progress="hidden")
