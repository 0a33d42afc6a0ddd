"""The Race tab: AR, WeDLM streaming, block decoding and WeDLM verified (lossless, beyond the
paper) on one prompt, side by side."""
from __future__ import annotations

import time
from dataclasses import replace

import gradio as gr

from wedlm import decode, decode_steps

from .. import i18n
from ..views import figures, lanes as race
from ..serving import gpu
from . import knobs
from ..serving.context import Context, make_config
from ..views.timeline import Timeline

RACE_TICKS = 40  # wall-clock mode: the slowest lane finishes in about this many ticks
AR_CHOICES = [("AR parent model", "parent"), ("the same WeDLM model (next-token head)", "same")]
SPEEDS = {"slow (2 ticks/s)": 0.5, "normal (4 ticks/s)": 0.25, "fast (10 ticks/s)": 0.1}
WARMUP_TOKENS = 2  # an untimed decode this long before each timed lane: every lane runs warm
HEARTBEAT_S = 0.5  # a running race answers this often (where a cancel can stop it)


def race_outputs(timelines: dict, tick: int, wall_clock: bool) -> list:
    """Race state, tick, lanes HTML, growth chart (up to the current forward), timer."""
    spt = max(race.total_seconds(t) for t in timelines.values()) / RACE_TICKS
    html, finished = race.race_frame(timelines, tick, wall_clock, spt)
    longest = max(len(t.trace.steps) for t in timelines.values())
    current = None if finished else min(tick, longest) - 1
    chart = figures.prefix_growth({race.LANE_TITLES[k]: v for k, v in timelines.items()}, current)
    return [timelines, tick, html, chart, gr.Timer(active=not finished)]


def race_traces(lm, ar_lm, prompt: str, config, time_limit_s: float) -> dict:
    """The four lanes' traces (race_steps, to its end)."""
    for traces in race_steps(lm, ar_lm, prompt, config, time_limit_s):
        pass
    return traces


def race_steps(lm, ar_lm, prompt: str, config, time_limit_s: float):
    """The four lanes' traces, one forward at a time: None after every forward, then the
    traces (plain data: this runs inside the GPU call; closing it, a cancel or a closed tab,
    stops the race at its next forward). The lanes share one time budget, so the race as a
    whole stays inside its GPU lease. Each lane is timed warm: one short untimed decode with
    the same model and decoder first (the first forwards of a decoder pay for allocation and
    kernel selection)."""
    deadline = time.perf_counter() + time_limit_s
    traces = {}
    for name, model in (("ar", ar_lm), ("streaming", lm), ("block", lm), ("verified", lm)):
        decode(model, prompt, name, replace(config, max_new_tokens=WARMUP_TOKENS))
        for trace in decode_steps(model, prompt, name, config,
                                  time_limit_s=max(0.0, deadline - time.perf_counter())):
            yield None
        traces[name] = trace  # the last one yielded: finished, its result set
    yield traces


def build(ctx: Context, demo: gr.Blocks, default_prompt: str, lang: str = i18n.DEFAULT) -> None:
    models, ar_name = ctx.models, ctx.ar_model_name

    def run_race(prompt, window, threshold, no_threshold, penalty, block_size, max_new_tokens,
                 ar_choice, mode):
        config = make_config(window, threshold, no_threshold, penalty, max_new_tokens=max_new_tokens,
                             block_size=block_size)
        ar_model = models.ar if ar_choice == "parent" and ar_name else models.wedlm
        work = gpu.Work.of(config.max_new_tokens, max(config.window, config.block_size),
                           race.LANES, ctx.limits)
        # A generator, so that a cancel or a closed tab stops the race: Gradio stops asking
        # for the next value, and a plain function would race on after its slot was freed.
        traces = None
        for traces in gpu.stream_on_gpu(race_steps, models.wedlm, ar_model, prompt, config,
                                        work.time_limit_s, work=work, every_s=HEARTBEAT_S):
            if traces is None:
                yield [gr.skip()] * 5
        timelines = {name: Timeline(trace) for name, trace in traces.items()}
        yield race_outputs(timelines, 0, mode == "wall clock")

    def race_tick(timelines, tick, mode):
        if not timelines:
            return [None, 0, "", None, gr.Timer(active=False)]
        return race_outputs(timelines, int(tick) + 1, mode == "wall clock")

    def set_speed(speed):
        return gr.Timer(value=SPEEDS.get(speed, 0.25))

    gr.Markdown("The same prompt decoded by **AR**, **WeDLM streaming**, **block decoding** and "
                "**WeDLM verified**, replayed side by side: one forward pass per tick (AR commits one "
                "token per forward, WeDLM several), or on the wall clock each decode really took. "
                "**Tokens per forward** = output tokens ÷ forward passes (AR: 1). *Verified* goes "
                "**beyond the paper**: the same forward checks WeDLM's drafts against the model's own "
                "next-token prediction, so its text is exactly greedy AR decoding of the WeDLM model "
                "(not of the AR lane's parent model); `streaming` is the paper's algorithm.")
    with gr.Row(equal_height=False):
        prompt = gr.Textbox(label="Prompt", lines=2, value=default_prompt, elem_id="race-prompt", scale=3,
                            max_length=ctx.prompt_chars(),
                            min_width=300)
        with gr.Column(scale=2, min_width=300):
            ar_choice = gr.Radio(AR_CHOICES, value="parent" if ar_name else "same",
                                 label="AR lane model", interactive=bool(ar_name))
            with gr.Row():
                mode = gr.Radio(["one forward per tick", "wall clock"], value="one forward per tick",
                                label="Replay", min_width=140)
                speed = gr.Radio(list(SPEEDS), value="normal (4 ticks/s)", label="Replay speed",
                                 elem_id="race-speed", min_width=140)
    with gr.Row():
        window = knobs.slider("window", info=None)
        max_new = knobs.slider("max_new_tokens", info=None, elem_id="race-max-new")
        with gr.Column(min_width=140):
            tau, no_tau = knobs.tau(info=None)
        penalty = knobs.number("penalty", info=None, min_width=120)
    with gr.Accordion("Advanced: block size", open=False):
        block = knobs.slider("block_size")
    race_btn = gr.Button("Race", variant="primary", elem_id="race-run")
    lanes = gr.HTML(elem_id="race-lanes")
    chart = gr.Plot(elem_id="race-chart", label="Committed tokens against forwards")
    state = gr.State(None)
    tick_n = gr.State(0)
    timer = gr.Timer(SPEEDS["normal (4 ticks/s)"], active=False)
    outs = [state, tick_n, lanes, chart, timer]
    race_btn.click(run_race, [prompt, window, tau, no_tau, penalty, block, max_new, ar_choice, mode], outs,
                   api_name=i18n.api_name("race", lang), **gpu.forward_event(ctx.limits))
    timer.tick(race_tick, [state, tick_n, mode], outs, api_name=False, show_progress="hidden")
    speed.change(set_speed, [speed], [timer], api_name=False)
