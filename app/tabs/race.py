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
from ..serving.errors import in_language
from . import knobs
from ..serving.context import Context, make_config
from ..views.timeline import Timeline

RACE_TICKS = 40  # wall-clock mode: the slowest lane finishes in about this many ticks
AR_CHOICES = [("AR parent model", "parent"), ("the same WeDLM model (next-token head)", "same")]
SPEEDS = {"slow (2 ticks/s)": 0.5, "normal (4 ticks/s)": 0.25, "fast (10 ticks/s)": 0.1}
NORMAL_SPEED = "normal (4 ticks/s)"
SPEED_IDS = dict(zip(SPEEDS, ("slow", "normal", "fast")))  # catalog ids race.speed.<id>
MODES = {"one forward per tick": "forward", "wall clock": "wall"}  # the replay modes' catalog ids
WARMUP_TOKENS = 2  # an untimed decode this long before each timed lane: every lane runs warm
HEARTBEAT_S = 0.5  # a running race answers this often (where a cancel can stop it)


def race_outputs(timelines: dict, tick: int, wall_clock: bool, lang: str = i18n.DEFAULT) -> list:
    """Race state, tick, lanes HTML, growth chart (up to the current forward), timer."""
    spt = max(race.total_seconds(t) for t in timelines.values()) / RACE_TICKS
    html, finished = race.race_frame(timelines, tick, wall_clock, spt, lang=lang)
    longest = max(len(t.trace.steps) for t in timelines.values())
    # each line as far as its lane has got (the lanes and the chart read one count); the marker
    # is the tick's forward, which only means one thing when every lane moves a forward per tick
    current = None if finished or wall_clock else min(tick, longest) - 1
    shown = race.lane_forwards(timelines, tick, wall_clock, spt)
    chart = figures.prefix_growth({race.lane_title(k, lang): v for k, v in timelines.items()}, current,
                                  shown={race.lane_title(k, lang): n for k, n in shown.items()}, lang=lang)
    return [timelines, tick, html, chart, gr.Timer(active=not finished)]


def race_traces(lm, ar_lm, prompt: str, config, time_limit_s: float) -> dict:
    """The four lanes' traces (race_steps, to its end)."""
    for traces in race_steps(lm, ar_lm, prompt, config, time_limit_s):
        pass
    return traces


def race_steps(lm, ar_lm, prompt: str, config, time_limit_s: float):
    """The four lanes' traces, one forward at a time: None after every forward, then the
    traces (plain data: this runs inside the GPU call; closing it, a cancel or a closed tab,
    stops the race at its next forward). The lanes take turns, one forward each, so a machine
    busy with other work slows every lane alike (run one after another, a busy minute landed on
    one lane: a walker saw block decoding 9.55× AR beside streaming's 3.63×). They share one
    time budget, so the race as a whole stays inside its GPU lease. Each lane is timed warm: one
    short untimed decode with the same model and decoder first (the first forwards of a decoder
    pay for allocation and kernel selection)."""
    deadline = time.perf_counter() + time_limit_s
    lanes = (("ar", ar_lm), ("streaming", lm), ("block", lm), ("verified", lm))
    for name, model in lanes:
        decode(model, prompt, name, replace(config, max_new_tokens=WARMUP_TOKENS))
    left = max(0.0, deadline - time.perf_counter())
    running = {name: decode_steps(model, prompt, name, config, time_limit_s=left) for name, model in lanes}
    traces = {}
    while running:
        for name in list(running):
            trace = next(running[name], None)
            if trace is None:  # this lane has finished: its last trace has its result set
                del running[name]
                continue
            traces[name] = trace
            yield None
    yield traces


def build(ctx: Context, demo: gr.Blocks, default_prompt: str, lang: str = i18n.DEFAULT) -> None:
    models, ar_name = ctx.models, ctx.ar_model_name
    tr = i18n.Texts(lang)

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
        yield race_outputs(timelines, 0, mode == "wall clock", lang)

    def race_tick(timelines, tick, mode):
        if not timelines:
            return [None, 0, "", None, gr.Timer(active=False)]
        return race_outputs(timelines, int(tick) + 1, mode == "wall clock", lang)

    def set_speed(speed):
        return gr.Timer(value=SPEEDS.get(speed, 0.25))

    gr.Markdown(tr("race.intro"))
    with gr.Row(equal_height=False):
        prompt = gr.Textbox(label=tr("race.prompt"), lines=2, value=default_prompt, elem_id="race-prompt", scale=3,
                            max_length=ctx.prompt_chars(),
                            min_width=300)
        with gr.Column(scale=2, min_width=300):
            # (label in the page's language, value): the values are the API's, in every language
            ar_choice = gr.Radio([(tr(f"race.ar.{value}"), value) for _, value in AR_CHOICES],
                                 value="parent" if ar_name else "same",
                                 label=tr("race.ar_lane"), interactive=bool(ar_name))
            with gr.Row():
                mode = gr.Radio([(tr(f"race.mode.{key}"), value) for value, key in MODES.items()],
                                value="one forward per tick", label=tr("race.replay"), min_width=140)
                speed = gr.Radio([(tr(f"race.speed.{key}"), value) for value, key in SPEED_IDS.items()],
                                 value=NORMAL_SPEED, label=tr("race.speed"), elem_id="race-speed", min_width=140)
    with gr.Row():
        # the server's limits bound the sliders (as on the Decode tab): the page never offers what it refuses
        window = knobs.slider("window", high=ctx.limits.max_window, info=None, lang=lang)
        max_new = knobs.slider("max_new_tokens", high=ctx.limits.max_new_tokens, info=None, elem_id="race-max-new",
                               lang=lang)
        with gr.Column(min_width=140):
            tau, no_tau = knobs.tau(info=None, lang=lang)
        penalty = knobs.number("penalty", info=None, min_width=120, lang=lang)
    with gr.Accordion(tr("race.advanced"), open=False):
        block = knobs.slider("block_size", high=ctx.limits.max_window, lang=lang)
    race_btn = gr.Button(tr("race.run"), variant="primary", elem_id="race-run")
    lanes = gr.HTML(elem_id="race-lanes")
    chart = gr.Plot(elem_id="race-chart", label=tr("race.chart"))
    state = gr.State(None)
    tick_n = gr.State(0)
    timer = gr.Timer(SPEEDS[NORMAL_SPEED], active=False)
    outs = [state, tick_n, lanes, chart, timer]
    race_btn.click(in_language(run_race, lang), [prompt, window, tau, no_tau, penalty, block, max_new, ar_choice, mode], outs,
                   api_name=i18n.api_name("race", lang), **gpu.forward_event(ctx.limits))
    timer.tick(race_tick, [state, tick_n, mode], outs, api_name=False, show_progress="hidden")
    speed.change(set_speed, [speed], [timer], api_name=False)
