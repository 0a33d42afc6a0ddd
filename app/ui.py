"""The explorer's layout and event wiring. Handlers stay thin: decoding happens in `wedlm`,
views are functions in render.py and figures.py."""
from __future__ import annotations

import tempfile
import threading
import time
import uuid
from pathlib import Path

import gradio as gr

from wedlm import DecodeConfig, ModelLoadError, Trace, ValidationError, decode_steps, load_model
from wedlm.branch import branch, first_divergence
from wedlm.loading import BUNDLED_AR_MODEL, REPO_ROOT

from . import entropy, export, figures, lessons, race, render
from .timeline import Timeline

TRACE_DIR = REPO_ROOT / "assets" / "traces"
MAX_TRACE_BYTES = 5 * 1024 * 1024
DOWNLOADS = Path(tempfile.mkdtemp(prefix="wedlm-traces-"))
DECODE_TIME_LIMIT_S = 120.0  # wall-clock budget of one decode in the app
LIVE_UPDATE_S = 0.25  # at most one live refresh per this many seconds (the end always shows)
DECODER_CHOICES = [("WeDLM streaming", "streaming"), ("block (stop-and-wait)", "block"),
                   ("reference (no cache)", "reference"), ("autoregressive", "ar")]
EXAMPLES = [
    ["Count from 1 to 40:"],
    ["Count from 25 to 60:"],
    ["Times table of 7 up to 10:"],
    ["Question: A shop sells pencils in packs of 6. Mia buys 4 packs and gives 5 pencils away. "
     "How many pencils does she have left?\nAnswer:"],
    ['def sum_list(numbers: list) -> int:\n    """Return the sum of the numbers."""\n'],
    ["ROMEO:\n"],
]

try:  # on Hugging Face Spaces, run decodes on the GPU the Space lends
    import spaces
    on_gpu = spaces.GPU
except ImportError:
    def on_gpu(fn):
        return fn


class Models:
    """Loads each model once, on first use, and shares it between sessions."""

    def __init__(self, default: str | None):
        self.default = default
        self._cache: dict = {}
        self._lock = threading.Lock()

    def get(self, name: str | None = None):
        key = name or self.default
        with self._lock:
            if key not in self._cache:
                self._cache[key] = load_model(key)
            return self._cache[key]


def example_traces() -> list[str]:
    return sorted(p.name for p in TRACE_DIR.glob("*.json")) if TRACE_DIR.is_dir() else []


def read_trace_file(path: str | Path) -> Trace:
    path = Path(path)
    if path.stat().st_size > MAX_TRACE_BYTES:
        raise gr.Error(f"trace file is larger than {MAX_TRACE_BYTES // (1024 * 1024)} MB")
    try:
        return Trace.load(path)
    except Exception as err:  # any malformed file: one clear message, no crash
        raise gr.Error(f"not a valid WeDLM trace: {type(err).__name__}: {str(err)[:200]}")


def make_config(window, threshold, no_threshold, penalty, temperature, top_k, top_p,
                max_new_tokens, seed, block_size) -> DecodeConfig:
    def whole(value, name):
        if value is None or float(value) != int(float(value)):
            raise ValidationError(f"{name} must be a whole number, got {value!r}")
        return int(float(value))
    try:
        return DecodeConfig(
            window=whole(window, "window"),
            threshold=None if no_threshold or threshold is None else float(threshold),
            penalty=float(penalty), temperature=float(temperature), top_k=whole(top_k, "top_k"),
            top_p=float(top_p), max_new_tokens=whole(max_new_tokens, "max_new_tokens"),
            seed=whole(seed, "seed"), block_size=whole(block_size, "block_size"))
    except (TypeError, ValueError) as err:
        raise gr.Error(str(err))


def views(timeline: Timeline | None, step: int, colour_by: str) -> list:
    """Everything that depends on the current step, in VIEW_OUTPUTS order."""
    if timeline is None or timeline.num_steps == 0:
        empty = "<div class='empty'>Run a decode or load a trace.</div>"
        return [gr.Slider(minimum=0, maximum=1, value=0), empty, empty, empty, None, None, None,
                None, empty]
    step = max(0, min(int(step), timeline.num_steps - 1))
    label = timeline.trace.decoder
    return [
        gr.Slider(minimum=0, maximum=max(1, timeline.num_steps - 1), value=step, step=1),
        render.badge(timeline, step),
        render.token_canvas(timeline, step, colour_by),
        render.order_view(timeline, step),
        figures.attention_mask(timeline, step, logical=False),
        figures.attention_mask(timeline, step, logical=True),
        figures.entropy_bars(timeline, step),
        figures.prefix_growth({label: timeline}, step),
        render.step_table(timeline, step),
    ]


def trace_outputs(timeline: Timeline | None, colour_by: str) -> list:
    """Per-trace outputs (state, text, heatmap, download) followed by the step views."""
    if timeline is None:
        return [None, "", None, None] + views(None, 0, colour_by)
    trace = timeline.trace
    last = max(0, timeline.num_steps - 1)
    download = None
    if trace.result is not None:  # the finished trace is ready to download
        download = str(DOWNLOADS / f"wedlm-trace-{trace.decoder}-{uuid.uuid4().hex[:8]}.json")
        trace.save(download)
    return [timeline, trace.text or _partial_text(timeline), figures.entropy_heatmap(timeline),
            download] + views(timeline, last, colour_by)


def live_outputs(timeline: Timeline, colour_by: str) -> list:
    """While decoding: the cheap views only (text, badge, canvas, orders, growth); the plots
    and the table wait for the end, so live refreshes stay fast."""
    step = timeline.num_steps - 1
    skip = gr.skip()
    return [timeline, _partial_text(timeline), skip, None,
            gr.Slider(minimum=0, maximum=max(1, step), value=step, step=1),
            render.badge(timeline, step), render.token_canvas(timeline, step, colour_by),
            render.order_view(timeline, step), skip, skip, skip,
            figures.prefix_growth({timeline.trace.decoder: timeline}, step), skip]


def _partial_text(timeline: Timeline) -> str:
    tokens = timeline.trace.tokens
    ids = [p.token for pos, p in sorted(timeline.positions.items())
           if p.commit_step is not None and p.token not in timeline.trace.stop_ids]
    return "".join(tokens.get(i, "") for i in ids)


RACE_TICKS = 40  # wall-clock mode: the slowest lane finishes in about this many ticks
AR_CHOICES = [("AR parent model", "parent"), ("the same WeDLM model (next-token head)", "same")]


def rows_frame(rows: list[dict]):
    import pandas as pd
    return pd.DataFrame(rows)


def race_outputs(timelines: dict, tick: int, wall_clock: bool) -> list:
    """Race state, tick, lanes HTML, growth chart (up to the current forward)."""
    spt = max(race.total_seconds(t) for t in timelines.values()) / RACE_TICKS
    html, finished = race.race_frame(timelines, tick, wall_clock, spt)
    longest = max(len(t.trace.steps) for t in timelines.values())
    current = None if finished else min(tick, longest) - 1
    chart = figures.prefix_growth({race.LANE_TITLES[k]: v for k, v in timelines.items()}, current)
    return [timelines, tick, html, chart, gr.Timer(active=not finished)]


def build_ui(model_name: str | None = None, ar_model_name: str | None = None) -> gr.Blocks:
    models = Models(model_name)
    if ar_model_name is None and model_name is None and BUNDLED_AR_MODEL.is_dir():
        ar_model_name = str(BUNDLED_AR_MODEL)

    @on_gpu
    def run_decode(prompt, decoder, window, threshold, no_threshold, penalty, temperature, top_k,
                   top_p, max_new_tokens, seed, block_size, colour_by):
        config = make_config(window, threshold, no_threshold, penalty, temperature, top_k, top_p,
                             max_new_tokens, seed, block_size)
        try:
            lm = models.get()
            last_yield = 0.0
            for trace in decode_steps(lm, prompt, decoder, config, time_limit_s=DECODE_TIME_LIMIT_S):
                if trace.result is not None:  # finished: every view, once
                    yield trace_outputs(Timeline(trace), colour_by)
                    break
                now = time.perf_counter()
                if now - last_yield >= LIVE_UPDATE_S:
                    last_yield = now
                    yield live_outputs(Timeline(trace), colour_by)
        except (ValidationError, ModelLoadError) as err:
            raise gr.Error(str(err))

    def decode_api(prompt: str, decoder: str = "streaming", window: int = 16,
                   threshold: float | None = 0.4, penalty: float = 0.02, temperature: float = 0.0,
                   max_new_tokens: int = 128, seed: int = 0) -> dict:
        """Decode a prompt; returns the whole trace (steps, stats with tokens_per_forward,
        forwards, generated_tokens, p_cache)."""
        try:
            config = DecodeConfig(window=int(window), threshold=None if threshold is None else float(threshold),
                                  penalty=float(penalty), temperature=float(temperature),
                                  max_new_tokens=int(max_new_tokens), seed=int(seed))
            trace = None
            for trace in decode_steps(models.get(), prompt, decoder, config,
                                      time_limit_s=DECODE_TIME_LIMIT_S):
                pass
            return trace.to_dict()
        except (ValidationError, ModelLoadError, TypeError, ValueError) as err:
            raise gr.Error(str(err))

    @on_gpu
    def run_race(prompt, window, threshold, no_threshold, penalty, block_size, max_new_tokens,
                 ar_choice, mode):
        config = make_config(window, threshold, no_threshold, penalty, 0.0, 0, 1.0,
                             max_new_tokens, 0, block_size)
        try:
            lm = models.get()
            ar_lm = models.get(ar_model_name) if ar_choice == "parent" and ar_model_name else lm
            timelines = {}
            for name, model in (("ar", ar_lm), ("streaming", lm), ("block", lm)):
                trace = None
                for trace in decode_steps(model, prompt, name, config):
                    pass
                timelines[name] = Timeline(trace)
        except (ValidationError, ModelLoadError) as err:
            raise gr.Error(str(err))
        return race_outputs(timelines, 0, mode == "wall clock")

    def run_branch(timeline, step, tau, no_tau, penalty, force_pos, force_tok, veto_pos, colour_by):
        if timeline is None:
            raise gr.Error("run a decode (or load a trace) first")
        trace = timeline.trace
        try:
            lm = models.get()
            config = DecodeConfig.from_dict({**trace.config, "threshold": None if no_tau or tau is None else float(tau),
                                             "penalty": float(penalty)})
            force = None
            if force_pos is not None and force_tok:
                ids = lm.tokenizer.encode(force_tok, add_special_tokens=False)
                if len(ids) != 1:
                    raise ValidationError(f"force needs text that is exactly one token; {force_tok!r} is {len(ids)}")
                force = (int(force_pos), ids[0])
            other = branch(lm, trace, int(step), config, force=force,
                           veto=None if veto_pos is None else int(veto_pos))
        except (ValidationError, ModelLoadError, KeyError) as err:
            raise gr.Error(str(err))
        new = Timeline(other)
        div = first_divergence(trace, other)
        where = "the two trajectories are the same" if div is None else f"they diverge at step {div}"
        a, b = trace.stats(), other.stats()
        summary = (f"<div class='badge'>Branched after step {int(step)}: {where}. "
                   f"Original: {a.get('generated_tokens', 0)} tokens in {a.get('forwards', 0)} forwards; "
                   f"branch: {b['generated_tokens']} tokens in {b['forwards']} forwards "
                   f"({b['tokens_per_forward']:.2f} per forward).</div>")
        last_old, last_new = timeline.num_steps - 1, new.num_steps - 1
        return (summary, "<b>original</b>" + render.token_canvas(timeline, last_old, colour_by),
                "<b>branch</b>" + render.token_canvas(new, last_new, colour_by),
                figures.prefix_growth({"original": timeline, "branch": new},
                                      None if div is None else div))

    @on_gpu
    def run_suite(tau, max_new_tokens, progress=gr.Progress()):
        config = make_config(16, tau, False, 0.02, 0.0, 0, 1.0, max_new_tokens, 0, 16)
        try:
            lm = models.get()
            ar_lm = models.get(ar_model_name) if ar_model_name else lm
            rows = entropy.run_suite(lm, ar_lm, config, entropy.suite_prompts(), progress)
        except (ValidationError, ModelLoadError) as err:
            raise gr.Error(str(err))
        return entropy.law_figure(rows), rows_frame(rows)

    @on_gpu
    def run_sweep(prompt, max_new_tokens):
        config = make_config(16, 0.4, False, 0.02, 0.0, 0, 1.0, max_new_tokens, 0, 16)
        try:
            rows, fig = entropy.tau_sweep(models.get(), prompt, config)
        except (ValidationError, ModelLoadError) as err:
            raise gr.Error(str(err))
        return fig, rows_frame(rows)

    def make_exports(timeline, step):
        if timeline is None:
            raise gr.Error("run a decode (or load a trace) first")
        step = max(0, min(int(step), timeline.num_steps - 1))
        folder = DOWNLOADS / uuid.uuid4().hex[:8]
        folder.mkdir()
        figs = folder / f"wedlm-figures-step-{step}.html"
        figs.write_text(export.figures_html(timeline, step), encoding="utf-8")
        replay = folder / "wedlm-replay.html"
        replay.write_text(export.replay_html(timeline), encoding="utf-8")
        return [str(figs), str(replay)]

    def race_tick(timelines, tick, mode):
        if not timelines:
            return [None, 0, "", None, gr.Timer(active=False)]
        return race_outputs(timelines, int(tick) + 1, mode == "wall clock")

    def load_example(name, colour_by):
        if not name:
            return trace_outputs(None, colour_by)
        if name not in example_traces():
            raise gr.Error("unknown example trace")
        return trace_outputs(Timeline(read_trace_file(TRACE_DIR / name)), colour_by)

    def load_upload(file, colour_by):
        if file is None:
            return trace_outputs(None, colour_by)
        return trace_outputs(Timeline(read_trace_file(file)), colour_by)

    def move(timeline, step, delta, colour_by):
        if timeline is None:
            return views(None, 0, colour_by)
        target = {"first": 0, "last": timeline.num_steps - 1}.get(delta)
        target = int(step) + int(delta) if target is None else target
        return views(timeline, target, colour_by)

    def tick(timeline, step, colour_by):
        """Play: one step per tick; stop at the end."""
        if timeline is None or int(step) >= timeline.num_steps - 1:
            return [gr.Timer(active=False), "▶ Play"] + views(timeline, step, colour_by)
        return [gr.Timer(active=True), "⏸ Pause"] + views(timeline, int(step) + 1, colour_by)

    def toggle_play(playing, timeline, step):
        start_over = timeline is not None and int(step) >= timeline.num_steps - 1
        playing = not playing
        return playing, gr.Timer(active=playing), ("⏸ Pause" if playing else "▶ Play"), \
            (0 if playing and start_over else step)

    with gr.Blocks(title="WeDLM Explorer") as demo:
        gr.Markdown("# WeDLM Explorer\nA real **WeDLM streaming parallel decoder** on a real KV cache, "
                    "step by step: masks are filled in parallel, filled tokens move in front of masks "
                    "(keeping their position ids), and the leading filled run commits to the cache.")
        timeline_state = gr.State(None)
        playing = gr.State(False)
        with gr.Tab("Decode"):
            with gr.Row():
                with gr.Column(scale=3):
                    prompt = gr.Textbox(label="Prompt", lines=4, value=EXAMPLES[0][0], elem_id="prompt")
                    gr.Examples(EXAMPLES, inputs=[prompt], label="Examples, from very low to high entropy")
                    with gr.Row():
                        run_btn = gr.Button("Run", variant="primary", elem_id="run")
                        stop_btn = gr.Button("Stop", elem_id="stop")
                with gr.Column(scale=2):
                    decoder = gr.Radio(DECODER_CHOICES, value="streaming", label="Decoder")
                    with gr.Row():
                        window = gr.Slider(1, 64, value=16, step=1, label="Window W")
                        block_size = gr.Slider(1, 64, value=16, step=1, label="Block size (block)")
                    with gr.Row():
                        threshold = gr.Number(value=0.4, label="Threshold τ", minimum=0)
                        no_threshold = gr.Checkbox(False, label="No τ (one slot per step)")
                        penalty = gr.Number(value=0.02, label="Penalty λ", minimum=0)
                    with gr.Row():
                        temperature = gr.Number(value=0.0, label="Temperature", minimum=0)
                        top_k = gr.Number(value=0, label="Top-k", minimum=0, precision=0)
                        top_p = gr.Number(value=1.0, label="Top-p", minimum=0.01, maximum=1)
                    with gr.Row():
                        max_new = gr.Slider(1, 512, value=128, step=1, label="Max new tokens", elem_id="max-new")
                        seed = gr.Number(value=0, label="Seed", precision=0, minimum=0)
            output_text = gr.Textbox(label="Output", lines=3, interactive=False, elem_id="output")
            badge = gr.HTML(elem_id="badge")
            with gr.Row():
                first_btn = gr.Button("« first", size="sm", elem_id="first")
                prev_btn = gr.Button("◀ step", size="sm", elem_id="prev")
                play_btn = gr.Button("▶ Play", size="sm", elem_id="play")
                next_btn = gr.Button("step ▶", size="sm", elem_id="next")
                last_btn = gr.Button("last »", size="sm", elem_id="last")
                colour_by = gr.Radio(["entropy", "step"], value="entropy", label="Colour tokens by")
            step_slider = gr.Slider(0, 1, value=0, step=1, label="Step (forward index, from 0)", elem_id="step")
            canvas = gr.HTML(elem_id="canvas")
            orders = gr.HTML(elem_id="orders")
            with gr.Row():
                mask_phys = gr.Plot(elem_id="mask-physical", label="Attention mask, physical order")
                mask_log = gr.Plot(elem_id="mask-logical", label="Attention mask, logical order")
            with gr.Row():
                bars = gr.Plot(elem_id="entropy-bars", label="Entropy of mask slots")
                growth = gr.Plot(elem_id="growth", label="Committed prefix growth")
            heatmap = gr.Plot(elem_id="entropy-heatmap", label="Entropy over steps")
            table = gr.HTML(elem_id="step-table")
            with gr.Accordion("Branch: re-run from the current step with other knobs", open=False):
                with gr.Row():
                    br_tau = gr.Number(value=0.8, label="New threshold τ", minimum=0)
                    br_no_tau = gr.Checkbox(False, label="No τ")
                    br_penalty = gr.Number(value=0.02, label="New penalty λ", minimum=0)
                    br_force_pos = gr.Number(value=None, label="Force: position (optional)", precision=0)
                    br_force_tok = gr.Textbox(value="", label="Force: token text", max_length=64)
                    br_veto_pos = gr.Number(value=None, label="Veto: position filled at this step", precision=0)
                br_btn = gr.Button("Branch from this step", elem_id="branch")
                br_summary = gr.HTML(elem_id="branch-summary")
                with gr.Row():
                    br_old = gr.HTML(elem_id="branch-old")
                    br_new = gr.HTML(elem_id="branch-new")
                br_growth = gr.Plot(elem_id="branch-growth", label="Both trajectories")
            with gr.Accordion("Export", open=False):
                gr.Markdown("Every plot also saves itself as PNG from its toolbar (camera icon).")
                export_btn = gr.Button("Export this step's figures and a self-contained HTML replay",
                                       elem_id="export")
                export_files = gr.File(label="Exports", file_count="multiple", elem_id="export-files")
            with gr.Row():
                examples_dd = gr.Dropdown(example_traces(), label="Recorded example traces",
                                          value=(example_traces() or [None])[0], elem_id="examples")
                upload = gr.File(label="Load a trace (JSON)", file_types=[".json"], elem_id="upload")
                download = gr.DownloadButton("Download this trace (JSON)", elem_id="download")
        with gr.Tab("Race"):
            gr.Markdown("The same prompt decoded by **AR**, **WeDLM streaming** and **block decoding**, "
                        "replayed side by side: one forward pass per tick (AR commits one token per "
                        "forward, WeDLM several), or on the wall clock each decode really took.")
            with gr.Row():
                race_prompt = gr.Textbox(label="Prompt", lines=3, value=EXAMPLES[1][0], elem_id="race-prompt", scale=3)
                with gr.Column(scale=2):
                    race_ar = gr.Radio(AR_CHOICES, value="parent" if ar_model_name else "same",
                                       label="AR lane model", interactive=bool(ar_model_name))
                    race_mode = gr.Radio(["one forward per tick", "wall clock"], value="one forward per tick",
                                         label="Replay")
            with gr.Row():
                race_window = gr.Slider(1, 64, value=16, step=1, label="Window W")
                race_block = gr.Slider(1, 64, value=16, step=1, label="Block size")
                race_tau = gr.Number(value=0.4, label="Threshold τ", minimum=0)
                race_no_tau = gr.Checkbox(False, label="No τ")
                race_penalty = gr.Number(value=0.02, label="Penalty λ", minimum=0)
                race_max = gr.Slider(1, 512, value=128, step=1, label="Max new tokens")
            race_btn = gr.Button("Race", variant="primary", elem_id="race-run")
            race_lanes = gr.HTML(elem_id="race-lanes")
            race_chart = gr.Plot(elem_id="race-chart", label="Committed tokens against forwards")
            race_state = gr.State(None)
            race_tick_n = gr.State(0)
            race_timer = gr.Timer(0.25, active=False)
        with gr.Tab("Entropy explorer"):
            gr.Markdown("WeDLM's speedup follows **output entropy**: where the next tokens are nearly "
                        "certain (counting, sequences), many masks fall under τ at once; where they are "
                        "not (plays), decoding is close to one token per forward. Run the suite to see it.")
            with gr.Row():
                ex_tau = gr.Number(value=0.4, label="Threshold τ", minimum=0)
                ex_max = gr.Slider(8, 256, value=96, step=8, label="Max new tokens")
                ex_btn = gr.Button("Run the suite", variant="primary", elem_id="suite-run")
            ex_plot = gr.Plot(elem_id="entropy-law", label="Entropy against tokens per forward")
            ex_table = gr.Dataframe(elem_id="suite-table", label="Per prompt", interactive=False)
            gr.Markdown("#### τ sweep for one prompt: speed against faithfulness")
            with gr.Row():
                sw_prompt = gr.Textbox(value=EXAMPLES[3][0], label="Prompt", lines=3, scale=3)
                sw_btn = gr.Button("Sweep τ", elem_id="sweep-run", scale=1)
            sw_plot = gr.Plot(elem_id="tau-sweep", label="τ sweep")
            sw_table = gr.Dataframe(elem_id="sweep-table", interactive=False)
        with gr.Tab("How it works"):
            gr.Markdown(lessons.CAUSAL)
            gr.Markdown(lessons.REORDER)
            with gr.Row():
                pg_size = gr.Slider(2, 16, value=8, step=1, label="Window size", elem_id="pg-size")
                pg_filled = gr.CheckboxGroup([str(i) for i in range(8)], value=["0", "1", "3", "6"],
                                             label="Filled slots (window index)", elem_id="pg-filled")
            pg_orders = gr.HTML(elem_id="pg-orders")
            with gr.Row():
                pg_phys = gr.Plot(elem_id="pg-mask-physical", label="Mask, physical order")
                pg_log = gr.Plot(elem_id="pg-mask-logical", label="Mask, logical order")
            gr.Markdown(lessons.STREAMING)
            gr.Markdown(lessons.TRAINING)
            with gr.Row():
                tm_length = gr.Slider(4, 32, value=12, step=1, label="Sequence length L")
                tm_block = gr.Slider(2, 16, value=4, step=1, label="Block size")
                tm_pattern = gr.Textbox(value="010011100110", label="Mask pattern (1 = masked in xt)",
                                        elem_id="tm-pattern")
            tm_plot = gr.Plot(elem_id="training-mask", label="Training mask")
        timer = gr.Timer(0.6, active=False)

        view_outputs = [step_slider, badge, canvas, orders, mask_phys, mask_log, bars, growth, table]
        trace_outs = [timeline_state, output_text, heatmap, download] + view_outputs
        knobs = [prompt, decoder, window, threshold, no_threshold, penalty, temperature, top_k,
                 top_p, max_new, seed, block_size, colour_by]

        run_event = run_btn.click(run_decode, knobs, trace_outs, api_name="run_live",
                                  concurrency_limit=2)
        stop_btn.click(None, None, None, cancels=[run_event])
        gr.api(decode_api, api_name="decode", concurrency_limit=2)
        examples_dd.change(load_example, [examples_dd, colour_by], trace_outs, api_name="load_example")
        upload.upload(load_upload, [upload, colour_by], trace_outs, api_name="load_trace")
        step_slider.release(lambda t, s, c: views(t, s, c), [timeline_state, step_slider, colour_by],
                            view_outputs, api_name="show_step", show_progress="hidden")
        colour_by.change(lambda t, s, c: views(t, s, c), [timeline_state, step_slider, colour_by],
                         view_outputs, api_name=False, show_progress="hidden")
        for btn, delta in ((first_btn, "first"), (prev_btn, -1), (next_btn, 1), (last_btn, "last")):
            btn.click(lambda t, s, c, d=delta: move(t, s, d, c), [timeline_state, step_slider, colour_by],
                      view_outputs, api_name=False, show_progress="hidden")
        play_btn.click(toggle_play, [playing, timeline_state, step_slider],
                       [playing, timer, play_btn, step_slider], api_name=False)
        timer.tick(tick, [timeline_state, step_slider, colour_by], [timer, play_btn] + view_outputs,
                   api_name=False, show_progress="hidden")
        def show_playground(size, filled):
            size = int(size)
            chosen = [int(i) for i in filled or [] if int(i) < size]
            html, window, order = lessons.playground(size, chosen)
            labels = ["[M]" if t is None else f"t{i}" for i, t in enumerate(window)]
            return (gr.CheckboxGroup(choices=[str(i) for i in range(size)], value=[str(i) for i in chosen]),
                    html, figures.window_mask(window, order, 100, 100, labels, logical=False),
                    figures.window_mask(window, order, 100, 100, labels, logical=True))

        def show_training_mask(length, block, pattern):
            bits = [c for c in (pattern or "") if c in "01"]
            length = int(length)
            bits = (bits + ["0"] * length)[:length]
            return figures.training_mask_figure([b == "1" for b in bits], int(block))

        pg_inputs, pg_outputs = [pg_size, pg_filled], [pg_filled, pg_orders, pg_phys, pg_log]
        pg_size.release(show_playground, pg_inputs, pg_outputs, api_name=False)
        pg_filled.input(show_playground, pg_inputs, pg_outputs, api_name="playground")
        tm_inputs = [tm_length, tm_block, tm_pattern]
        for comp in (tm_length, tm_block):
            comp.release(show_training_mask, tm_inputs, [tm_plot], api_name=False)
        tm_pattern.submit(show_training_mask, tm_inputs, [tm_plot], api_name="training_mask")
        demo.load(show_playground, pg_inputs, pg_outputs, api_name=False)
        demo.load(show_training_mask, tm_inputs, [tm_plot], api_name=False)
        br_btn.click(run_branch, [timeline_state, step_slider, br_tau, br_no_tau, br_penalty, br_force_pos,
                                  br_force_tok, br_veto_pos, colour_by],
                     [br_summary, br_old, br_new, br_growth], api_name=False)
        ex_btn.click(run_suite, [ex_tau, ex_max], [ex_plot, ex_table], api_name="entropy_suite",
                     concurrency_limit=1)
        sw_btn.click(run_sweep, [sw_prompt, ex_max], [sw_plot, sw_table], api_name="tau_sweep",
                     concurrency_limit=1)
        export_btn.click(make_exports, [timeline_state, step_slider], [export_files], api_name=False)
        race_outs = [race_state, race_tick_n, race_lanes, race_chart, race_timer]
        race_btn.click(run_race, [race_prompt, race_window, race_tau, race_no_tau, race_penalty, race_block,
                                  race_max, race_ar, race_mode], race_outs, api_name="race", concurrency_limit=2)
        race_timer.tick(race_tick, [race_state, race_tick_n, race_mode], race_outs, api_name=False,
                        show_progress="hidden")
        demo.load(load_example, [examples_dd, colour_by], trace_outs, api_name=False)
    return demo


MAX_UPLOAD = "5mb"
QUEUE_SIZE = 64   # waiting events at most; more get a "queue full" message
DEFAULT_CONCURRENCY = 2  # events of one kind running at once (per-event limits override it)


def launch(demo: gr.Blocks, **kwargs):
    """Queue and launch with the explorer's settings: offline, no share link, capped uploads."""
    demo.queue(default_concurrency_limit=DEFAULT_CONCURRENCY, max_size=QUEUE_SIZE)
    return demo.launch(css=CSS, share=False, max_file_size=MAX_UPLOAD, **kwargs)


CSS = """
.canvas .prompt { white-space: pre-wrap; color: #374151; font-family: monospace; font-size: 12px;
  border-left: 3px solid #9ca3af; padding-left: 6px; margin-bottom: 6px; }
.canvas .tokens { line-height: 1.9; }
.tok { display: inline-block; font-family: monospace; font-size: 13px; padding: 0 3px; margin: 1px;
  border-radius: 3px; border: 1px solid transparent; white-space: pre; color: #111827; }
.tok.mask { color: #4b5563; }
.tok.filled { border: 1px dashed #6b7280; }
.tok.new { border: 2px solid #dc2626; }
.tok.committed { border: 1px solid #15803d; }
.tok.special { font-weight: bold; outline: 1px solid #7c3aed; }
.legend .tok { font-size: 11px; background: #f3f4f6; }
.orders .row { display: flex; flex-wrap: wrap; align-items: center; margin: 4px 0; gap: 2px; }
.orders .lab { width: 230px; font-size: 12px; color: #374151; }
.slot { display: inline-flex; flex-direction: column; align-items: center; min-width: 28px;
  border-radius: 4px; padding: 1px 3px; font-family: monospace; font-size: 12px; }
.slot.mask { background: #d1d5db; } .slot.filled { background: #fde68a; }
.slot.commit { background: #86efac; }
.slot .pid { font-size: 10px; color: #6b7280; }
.kv { display: inline-block; background: #dbeafe; font-family: monospace; font-size: 11px;
  padding: 1px 3px; border-radius: 2px; white-space: pre; }
.kv.new { background: #86efac; } .kv.more { background: none; color: #6b7280; }
.orders .note { font-size: 11px; color: #6b7280; }
.badge { font-size: 13px; } .badge .dec { background: #1d4ed8; color: white; border-radius: 4px;
  padding: 1px 6px; font-weight: bold; }
.lane { border: 1px solid #e5e7eb; border-radius: 6px; padding: 6px 8px; margin: 6px 0; }
.lane.ar { border-left: 5px solid #6b7280; } .lane.streaming { border-left: 5px solid #2563eb; }
.lane.block { border-left: 5px solid #f59e0b; }
.lanehead { font-size: 13px; } .lanefinal { font-size: 11px; color: #6b7280; }
.lanetext { font-family: monospace; font-size: 12px; white-space: pre-wrap; margin-top: 4px; }
.lanetext .cursor { color: #2563eb; }
.steptable { max-height: 260px; overflow-y: auto; }
.steptable table { font-size: 12px; } .steptable tr.current { background: #fef3c7; }
"""
