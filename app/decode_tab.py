"""The Decode tab: run or load a decode, then step through it view by view; branch; export."""
from __future__ import annotations

import threading
import uuid

import gradio as gr

from wedlm import DecodeConfig, ModelLoadError, ValidationError, decode, decode_steps
from wedlm.branch import branch, first_divergence

from . import export, figures, gpu, render
from .common import (DOWNLOADS, TRACE_DIR, Context, example_traces, make_config,
                     read_trace_file)
from .timeline import Timeline

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


def views(timeline: Timeline | None, step: int, colour_by: str, with_growth: bool = True) -> list:
    """Everything that depends on the current step, in view_outputs order. Stepping leaves the
    growth chart alone (it only moves its marker) so the page redraws one plot less."""
    if timeline is None or timeline.num_steps == 0:
        empty = "<div class='empty'>Run a decode or load a trace.</div>"
        return [gr.Slider(minimum=0, maximum=1, value=0), empty, empty, empty, empty, empty, None,
                None, empty]
    step = max(0, min(int(step), timeline.num_steps - 1))
    return [
        gr.Slider(minimum=0, maximum=max(1, timeline.num_steps - 1), value=step, step=1),
        render.badge(timeline, step),
        render.token_canvas(timeline, step, colour_by),
        render.order_view(timeline, step),
        render.mask_grid(timeline, step, logical=False),
        render.mask_grid(timeline, step, logical=True),
        figures.entropy_bars(timeline, step),
        figures.prefix_growth({timeline.trace.decoder: timeline}, step) if with_growth else gr.skip(),
        render.step_table(timeline, step),
    ]


def trace_outputs(timeline: Timeline | None, colour_by: str) -> list:
    """Per-trace outputs (state, text, heatmap, download) followed by the step views."""
    if timeline is None:
        return [None, "", None, None] + views(None, 0, colour_by)
    trace = timeline.trace
    download = None
    if trace.result is not None:  # the finished trace is ready to download
        download = str(DOWNLOADS / f"wedlm-trace-{trace.decoder}-{uuid.uuid4().hex[:8]}.json")
        trace.save(download)
    return [timeline, trace.text or partial_text(timeline), figures.entropy_heatmap(timeline),
            download] + views(timeline, max(0, timeline.num_steps - 1), colour_by)


def live_outputs(timeline: Timeline, colour_by: str) -> list:
    """While decoding: the cheap views only (text, badge, canvas, orders, growth); the plots
    and the table wait for the end, so live refreshes stay fast."""
    step = timeline.num_steps - 1
    skip = gr.skip()
    return [timeline, partial_text(timeline), skip, None,
            gr.Slider(minimum=0, maximum=max(1, step), value=step, step=1),
            render.badge(timeline, step), render.token_canvas(timeline, step, colour_by),
            render.order_view(timeline, step), skip, skip, skip,
            figures.prefix_growth({timeline.trace.decoder: timeline}, step), skip]


def partial_text(timeline: Timeline) -> str:
    tokens = timeline.trace.tokens
    ids = [p.token for _, p in sorted(timeline.positions.items())
           if p.commit_step is not None and p.token not in timeline.trace.stop_ids]
    return "".join(tokens.get(i, "") for i in ids)


class UserTraces:
    """Sessions in which the user has run, uploaded or picked a trace."""

    def __init__(self):
        self._sessions: set[str] = set()
        self._lock = threading.Lock()

    def add(self, request: gr.Request | None) -> None:
        if request is not None and request.session_hash:
            with self._lock:
                self._sessions.add(request.session_hash)

    def has(self, request: gr.Request | None) -> bool:
        with self._lock:
            return request is not None and request.session_hash in self._sessions

    def forget(self, request: gr.Request) -> None:
        with self._lock:
            self._sessions.discard(request.session_hash)


def build(ctx: Context, demo: gr.Blocks) -> None:
    models = ctx.models
    user_traces = UserTraces()

    def run_decode(prompt, decoder, window, threshold, no_threshold, penalty, temperature, top_k,
                   top_p, max_new_tokens, seed, block_size, colour_by, request: gr.Request):
        user_traces.add(request)
        config = make_config(window, threshold, no_threshold, penalty, temperature, top_k, top_p,
                             max_new_tokens, seed, block_size)
        work = gpu.Work.of(config.max_new_tokens, config.window, [decoder], ctx.limits)
        for trace in gpu.stream_on_gpu(decode_steps, models.wedlm, prompt, decoder, config,
                                       time_limit_s=work.time_limit_s, work=work,
                                       every_s=LIVE_UPDATE_S):
            if trace.result is not None:  # finished: every view, once
                yield trace_outputs(Timeline(trace), colour_by)
                break
            yield live_outputs(Timeline(trace), colour_by)

    def decode_api(prompt: str, decoder: str = "streaming", window: int = 16,
                   threshold: float | None = 0.4, penalty: float = 0.02, temperature: float = 0.0,
                   max_new_tokens: int = 128, seed: int = 0) -> dict:
        """Decode a prompt; returns the whole trace (steps, stats with tokens_per_forward,
        forwards, generated_tokens, p_cache)."""
        try:
            config = make_config(window, threshold, False, penalty, temperature,
                                 max_new_tokens=max_new_tokens, seed=seed)
            work = gpu.Work.of(config.max_new_tokens, config.window, [decoder], ctx.limits)
            return gpu.run_on_gpu(decode, models.wedlm, prompt, decoder, config,
                                  time_limit_s=work.time_limit_s, work=work).to_dict()
        except (ValidationError, ModelLoadError, TypeError, ValueError) as err:
            raise gr.Error(str(err))

    def run_branch(timeline, step, tau, no_tau, penalty, force_pos, force_tok, veto_pos, colour_by):
        if timeline is None:
            raise gr.Error("run a decode (or load a trace) first")
        trace = timeline.trace
        try:
            lm = models.wedlm_lm  # tokenizing only: the branch itself runs through gpu
            config = DecodeConfig.from_dict({**trace.config, "penalty": float(penalty),
                                             "threshold": None if no_tau or tau is None else float(tau)})
            force = None
            if force_pos is not None and force_tok:
                ids = lm.tokenizer.encode(force_tok, add_special_tokens=False)
                if len(ids) != 1:
                    raise ValidationError(f"force needs text that is exactly one token; {force_tok!r} is {len(ids)}")
                force = (int(force_pos), ids[0])
            work = gpu.Work.of(config.max_new_tokens, config.window, [trace.decoder], ctx.limits)
            other = gpu.run_on_gpu(branch, models.wedlm, trace, int(step), config, force=force,
                                   veto=None if veto_pos is None else int(veto_pos), work=work)
        except (ValidationError, ModelLoadError, KeyError, TypeError) as err:
            raise gr.Error(str(err))
        new = Timeline(other)
        div = first_divergence(trace, other)
        where = "the two trajectories are the same" if div is None else f"they diverge at step {div}"
        a, b = trace.stats(), other.stats()
        summary = (f"<div class='badge'>Branched after step {int(step)}: {where}. "
                   f"Original: {a.get('generated_tokens', 0)} tokens in {a.get('forwards', 0)} forwards; "
                   f"branch: {b['generated_tokens']} tokens in {b['forwards']} forwards "
                   f"({b['tokens_per_forward']:.2f} per forward).</div>")
        return (summary, "<b>original</b>" + render.token_canvas(timeline, timeline.num_steps - 1, colour_by),
                "<b>branch</b>" + render.token_canvas(new, new.num_steps - 1, colour_by),
                figures.prefix_growth({"original": timeline, "branch": new}, div))

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

    def load_example(name, colour_by):
        if not name:
            return trace_outputs(None, colour_by)
        if name not in example_traces():
            raise gr.Error("unknown example trace")
        return trace_outputs(Timeline(read_trace_file(TRACE_DIR / name)), colour_by)

    def show_first_example(name, colour_by, request: gr.Request):
        """Page load: show the first example trace, unless the user has already loaded or run
        one in this session (on a busy server this event can finish after theirs)."""
        outputs = load_example(name, colour_by)
        if user_traces.has(request):
            return [gr.skip()] * len(outputs)
        return outputs

    def pick_example(name, colour_by, request: gr.Request):
        user_traces.add(request)
        return load_example(name, colour_by)

    def load_upload(file, colour_by, request: gr.Request):
        user_traces.add(request)
        if file is None:
            return trace_outputs(None, colour_by)
        return trace_outputs(Timeline(read_trace_file(file)), colour_by)

    def move(timeline, step, delta, colour_by):
        if timeline is None:
            return views(None, 0, colour_by)
        target = {"first": 0, "last": timeline.num_steps - 1}.get(delta)
        target = int(step) + int(delta) if target is None else target
        return views(timeline, target, colour_by, with_growth=False)

    def tick(timeline, step, colour_by):
        """Play: one step per tick; stop at the end."""
        if timeline is None or int(step) >= timeline.num_steps - 1:
            return [gr.Timer(active=False), "▶ Play"] + views(timeline, step, colour_by)
        return [gr.Timer(active=True), "⏸ Pause"] + views(timeline, int(step) + 1, colour_by, with_growth=False)

    def toggle_play(playing, timeline, step):
        start_over = timeline is not None and int(step) >= timeline.num_steps - 1
        playing = not playing
        return playing, gr.Timer(active=playing), ("⏸ Pause" if playing else "▶ Play"), \
            (0 if playing and start_over else step)

    timeline_state = gr.State(None)
    playing = gr.State(False)
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
        mask_phys = gr.HTML(elem_id="mask-physical", label="Attention mask, physical order")
        mask_log = gr.HTML(elem_id="mask-logical", label="Attention mask, logical order")
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
        export_btn = gr.Button("Export this step's figures and a self-contained HTML replay", elem_id="export")
        export_files = gr.File(label="Exports", file_count="multiple", elem_id="export-files")
    with gr.Row():
        examples_dd = gr.Dropdown(example_traces(), label="Recorded example traces",
                                  value=(example_traces() or [None])[0], elem_id="examples")
        upload = gr.File(label="Load a trace (JSON)", file_types=[".json"], elem_id="upload")
        download = gr.DownloadButton("Download this trace (JSON)", elem_id="download")
    timer = gr.Timer(0.6, active=False)

    view_outputs = [step_slider, badge, canvas, orders, mask_phys, mask_log, bars, growth, table]
    trace_outs = [timeline_state, output_text, heatmap, download] + view_outputs
    knobs = [prompt, decoder, window, threshold, no_threshold, penalty, temperature, top_k, top_p,
             max_new, seed, block_size, colour_by]
    step_inputs = [timeline_state, step_slider, colour_by]

    run_event = run_btn.click(run_decode, knobs, trace_outs, api_name="run_live", concurrency_limit=2)
    stop_btn.click(None, None, None, cancels=[run_event])
    gr.api(decode_api, api_name="decode", concurrency_limit=2)
    examples_dd.change(pick_example, [examples_dd, colour_by], trace_outs, api_name="load_example")
    upload.upload(load_upload, [upload, colour_by], trace_outs, api_name="load_trace")
    # Stepping is cheap (a few ms of server work): skip the queue so it is never stuck behind a decode.
    fast = dict(show_progress="hidden", queue=False)
    step_slider.release(lambda t, s, c: views(t, s, c, with_growth=False), step_inputs, view_outputs,
                        api_name="show_step", **fast)
    colour_by.change(views, step_inputs, view_outputs, api_name=False, **fast)
    for btn, delta in ((first_btn, "first"), (prev_btn, -1), (next_btn, 1), (last_btn, "last")):
        btn.click(lambda t, s, c, d=delta: move(t, s, d, c), step_inputs, view_outputs,
                  api_name=False, **fast)
    play_btn.click(toggle_play, [playing, timeline_state, step_slider],
                   [playing, timer, play_btn, step_slider], api_name=False)
    timer.tick(tick, step_inputs, [timer, play_btn] + view_outputs, api_name=False, **fast)
    br_btn.click(run_branch, [timeline_state, step_slider, br_tau, br_no_tau, br_penalty, br_force_pos,
                              br_force_tok, br_veto_pos, colour_by],
                 [br_summary, br_old, br_new, br_growth], api_name=False)
    export_btn.click(make_exports, [timeline_state, step_slider], [export_files], api_name=False)
    demo.load(show_first_example, [examples_dd, colour_by], trace_outs, api_name=False)
    demo.unload(user_traces.forget)
