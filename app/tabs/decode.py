"""The Decode tab: run or load a decode, then step through it view by view; branch; export.

layout() places the widgets and returns them as a DecodeTab; the handlers below are plain
functions that return {component: value} updates; wire() connects the two."""
from __future__ import annotations

import functools
from dataclasses import dataclass

import gradio as gr

from wedlm import DECODERS, DecodeConfig, ModelLoadError, ValidationError, decode_steps
from wedlm.animate import AnimationError, animate
from wedlm.branch import branch, first_divergence
from wedlm.config import DEFAULT_THRESHOLD, DEFAULTS

from ..views import export, figures, render, stepper
from ..serving import gpu
from ..serving.settings import Limits
from . import knobs
from ..serving.errors import in_language, worded
from ..serving.context import TRACE_DIR, Context, example_traces, make_config, read_trace_file
from ..serving.sessions import SESSION_TTL_S, UserTraces, downloads
from ..views.timeline import Timeline
from .. import examples, i18n, links

LIVE_UPDATE_S = 0.25  # at most one live refresh per this many seconds (the end always shows)
KEY = "decode"  # this tab's stepper (app/views/stepper.py)
DECODERS_SHOWN = ("streaming", "block", "reference", "ar", "verified")  # the Decoder menu, in order


def decoder_choices(lang: str = i18n.DEFAULT) -> list[tuple[str, str]]:
    """The Decoder menu: (label in `lang`, decoder name)."""
    return [(i18n.text(lang, f"decode.choice.{name}"), name) for name in DECODERS_SHOWN]


DECODER_CHOICES = decoder_choices()
EXAMPLES = [[prompt] for prompt in examples.PROMPTS.values()]  # app/examples.py
MODEL_CARD = i18n.text(i18n.DEFAULT, "decode.model_card")
EMPTY = "Run a decode or load a trace."
VERIFIED_NOTE = i18n.text(i18n.DEFAULT, "decode.verified_note")
# where a copied link shows (always: the clipboard may be refused); stepper.js copyLink fills it
LINK_FIELD = i18n.text(i18n.DEFAULT, "decode.link_field")


@dataclass
class DecodeTab:
    """The tab's components, by name (no positional lists). The step views are static boxes
    (app/views/stepper.py slot_html) that app/static/stepper.js fills from `stepper`, the one
    component the server updates when the trace changes; stepping never reaches the server."""
    timeline: gr.State
    prompt: gr.Textbox
    run_btn: gr.Button
    stop_btn: gr.Button
    decoder: gr.Radio
    window: gr.Slider
    threshold: gr.Number
    no_threshold: gr.Checkbox
    penalty: gr.Number
    max_new: gr.Slider
    temperature: gr.Number
    top_k: gr.Number
    top_p: gr.Number
    seed: gr.Number
    block_size: gr.Slider
    stepper: gr.HTML
    step: gr.Number
    text: gr.Textbox
    colour_by: gr.Radio
    br_tau: gr.Number
    br_no_tau: gr.Checkbox
    br_penalty: gr.Number
    br_force_pos: gr.Textbox
    br_force_tok: gr.Textbox
    br_veto_pos: gr.Textbox
    br_btn: gr.Button
    br_summary: gr.HTML
    br_old: gr.HTML
    br_new: gr.HTML
    br_growth: gr.Plot
    export_btn: gr.Button
    export_files: gr.File
    slides_btn: gr.Button
    slides_files: gr.File
    examples: gr.Dropdown
    upload: gr.File
    download: gr.DownloadButton
    # -- links to a moment (app/links.py) --
    link_btn: gr.Button
    link_url: gr.HTML
    link_live: gr.Checkbox    # the page's link asks for a live decode (run once after the page loads)
    link_step: gr.Number      # ... and the step to show when it finishes

    def trace_views(self) -> list:
        """Everything that changes with the trace."""
        return [self.timeline, self.text, self.stepper, self.download, self.examples, self.prompt, self.decoder]

    def decode_knobs(self) -> list:
        """run_live's inputs, in the order of its API."""
        return [self.prompt, self.decoder, self.window, self.threshold, self.no_threshold, self.penalty,
                self.temperature, self.top_k, self.top_p, self.max_new, self.seed, self.block_size,
                self.colour_by]


# -- layout --------------------------------------------------------------------------------------

def view_box(name: str, elem_id: str, **kwargs) -> gr.HTML:
    """A static box that app/static/stepper.js fills with view `name` of the shown step."""
    return gr.HTML(stepper.slot_html(KEY, name), elem_id=elem_id, js_on_load=None, **kwargs)


def layout(limits: Limits, prompt_chars: int | None = None, lang: str = i18n.DEFAULT) -> DecodeTab:
    """The tab's widgets; the knobs' ranges stop at what this server allows (`limits`, the same
    numbers the line under the title shows); their words in the page's language `lang`."""
    tr = i18n.Texts(lang)
    c: dict = {"timeline": gr.State(None, time_to_live=SESSION_TTL_S)}  # app/serving/sessions.py: caps
    with gr.Row(equal_height=False):
        with gr.Column(scale=2, min_width=320, elem_id="decode-controls"):
            c["prompt"] = gr.Textbox(label=tr("decode.prompt"), lines=2, max_lines=6, value=EXAMPLES[0][0], elem_id="prompt",
                                     max_length=prompt_chars)
            with gr.Row():
                c["run_btn"] = gr.Button(tr("decode.run"), variant="primary", elem_id="run", min_width=80)
                c["stop_btn"] = gr.Button(tr("decode.stop"), elem_id="stop", min_width=80)
            gr.Examples(EXAMPLES, inputs=[c["prompt"]], label=tr("decode.examples"),
                        elem_id="decode-examples")
            c["decoder"] = gr.Dropdown(decoder_choices(lang), value="streaming", label=tr("decode.decoder"),
                                       elem_id="decoder")
            gr.HTML(tr("decode.verified_note"), elem_id="decoder-note")
            with gr.Row():
                c["window"] = knobs.slider("window", high=limits.max_window, info=None, elem_id="window",
                                           lang=lang)
                c["max_new"] = knobs.slider("max_new_tokens", high=limits.max_new_tokens, info=None,
                                            elem_id="max-new", lang=lang)
            with gr.Row():
                with gr.Column(min_width=140):
                    c["threshold"], c["no_threshold"] = knobs.tau(info=None, elem_id="threshold", lang=lang)
                c["penalty"] = knobs.number("penalty", info=None, elem_id="penalty", min_width=120,
                                          lang=lang)
            gr.Markdown(tr("decode.fill_rule"), elem_classes=["note"])
            with gr.Accordion(tr("decode.advanced"), open=False, elem_id="advanced"):
                with gr.Row():
                    c["temperature"] = knobs.number("temperature", lang=lang)
                    c["top_k"] = knobs.number("top_k", lang=lang)
                    c["top_p"] = knobs.number("top_p", lang=lang)
                with gr.Row():
                    c["seed"] = knobs.number("seed", lang=lang)
                    c["block_size"] = knobs.slider("block_size", high=limits.max_window, lang=lang)
        with gr.Column(scale=3, min_width=320, elem_id="decode-views"):
            c["stepper"] = gr.HTML(stepper.bundle_html(None, KEY, lang=lang), elem_id="stepper", js_on_load=None)
            # -- links to a moment (app/links.py): copy the shown step's URL --
            with gr.Row(elem_id="link-row"):
                c["link_btn"] = gr.Button(tr("decode.copy_link"), size="sm", elem_id="copy-link", scale=0,
                                          min_width=180)
                c["link_url"] = gr.HTML(tr("decode.link_field"), elem_id="link-field")
            c["link_live"] = gr.Checkbox(False, visible=False)
            c["link_step"] = gr.Number(None, visible=False, precision=0)
            c["step"] = gr.Number(0, visible=False, precision=0)  # the shown step, read by branch and export
            c["text"] = gr.Textbox(visible=False)  # the trace's whole text, for API clients (run_live, load_trace)
            view_box("badge", "badge")
            view_box("narration", "narration")
            view_box("canvas", "canvas")
            c["colour_by"] = gr.Radio([(tr(f"decode.colour.{mode}"), mode) for mode in ("state", "entropy", "step")],
                                      value="state", label=tr("decode.colour_by"), elem_id="colour-by")
            view_box("output", "output")
    view_box("orders", "orders")
    for pair in ((("bars", "entropy-bars"), ("growth", "growth")),
                 (("mask-physical", "mask-physical"), ("mask-logical", "mask-logical"))):
        with gr.Row(equal_height=False):  # side by side when wide, one under the other on a phone
            for name, elem_id in pair:
                with gr.Column(min_width=320):
                    view_box(name, elem_id)
    view_box("heatmap", "entropy-heatmap")
    view_box("table", "step-table")
    with gr.Accordion(tr("decode.branch_fold"), open=False, elem_id="branch-fold"):
        with gr.Row():
            # a looser τ than the default, so an untouched branch shows what τ changes
            c["br_tau"] = knobs.number("threshold", label=tr("decode.new_tau"), value=2 * DEFAULT_THRESHOLD,
                                       info=None, elem_id="br-tau")
            c["br_no_tau"] = gr.Checkbox(False, label=tr("knob.no_tau"))
            c["br_penalty"] = knobs.number("penalty", label=tr("decode.new_penalty"), info=None, elem_id="br-penalty")
        with gr.Row():
            c["br_force_pos"] = gr.Textbox(label=tr("decode.force_pos"), placeholder=tr("decode.force_pos_hint"),
                                           max_length=8, elem_id="br-force-pos")
            c["br_force_tok"] = gr.Textbox(label=tr("decode.force_tok"), max_length=64, elem_id="br-force-tok")
            c["br_veto_pos"] = gr.Textbox(label=tr("decode.veto_pos"),
                                          placeholder=tr("decode.veto_pos_hint"), max_length=8, elem_id="br-veto-pos")
        c["br_btn"] = gr.Button(tr("decode.branch_btn"), elem_id="branch")
        c["br_summary"] = gr.HTML(elem_id="branch-summary")
        with gr.Row():
            c["br_old"] = gr.HTML(elem_id="branch-old")
            c["br_new"] = gr.HTML(elem_id="branch-new")
        c["br_growth"] = gr.Plot(elem_id="branch-growth", label=tr("decode.both"), visible=False)
    with gr.Accordion(tr("decode.export_fold"), open=False):
        c["export_btn"] = gr.Button(tr("decode.export_btn"), elem_id="export")
        c["export_files"] = gr.File(label=tr("decode.exports"), file_count="multiple", elem_id="export-files")
        c["slides_btn"] = gr.Button(tr("decode.slides_btn"), elem_id="export-slides")
        c["slides_files"] = gr.File(label=tr("decode.slides"), file_count="multiple", elem_id="slides-files")
    with gr.Row():
        c["examples"] = gr.Dropdown(example_traces(), label=tr("decode.recorded"),
                                    value=(example_traces() or [None])[0], elem_id="examples")
        c["upload"] = gr.File(label=tr("decode.upload"), file_types=[".json"], elem_id="upload")
        c["download"] = gr.DownloadButton(tr("decode.download"), elem_id="download")
    with gr.Accordion(tr("decode.model_fold"), open=False, elem_id="model-card"):
        gr.Markdown(tr("decode.model_card"), elem_classes=["modelcard"])
    return DecodeTab(**c)


# -- views ---------------------------------------------------------------------------------------

def step_number(step, lang: str = i18n.DEFAULT) -> int:
    """A step from the page or the API (a number, maybe a float or null), else a worded error."""
    try:
        return int(float(step or 0))
    except (TypeError, ValueError, OverflowError):
        raise gr.Error(i18n.text(lang, "decode.bad_step", value=repr(str(step)[:40]))) from None


def trace_updates(ui: DecodeTab, timeline: Timeline | None, *, from_example: str | None = None,
                  bundle: str | None = None, start: int | None = None, lang: str = i18n.DEFAULT) -> dict:
    """A new trace: its stepper (every view of every step, drawn once; the last step shown),
    download and prompt. The examples dropdown names the example it came from, or nothing (a
    decode or an upload). `bundle`: the stepper already drawn (examples are cached)."""
    if timeline is None:
        return {ui.timeline: None, ui.text: "", ui.stepper: stepper.bundle_html(None, KEY, lang=lang), ui.download: None,
                ui.examples: gr.Dropdown(value=from_example)}
    trace = timeline.trace
    download = None
    if trace.result is not None:  # the finished trace is ready to download
        name = trace.decoder if trace.decoder in DECODERS else "trace"  # never a name from a file
        download = str(downloads.file(f"wedlm-trace-{name}.json"))
        trace.save(download)
    decoder = trace.decoder if trace.decoder in DECODERS_SHOWN else gr.skip()
    return {ui.timeline: timeline, ui.text: trace.text or render.output_text(timeline, timeline.num_steps - 1),
            ui.stepper: bundle or stepper.bundle_html(timeline, KEY, keys=True, start=start, lang=lang),
            ui.download: download, ui.examples: gr.Dropdown(value=from_example), ui.prompt: trace.prompt,
            ui.decoder: decoder}


def live_updates(ui: DecodeTab, timeline: Timeline, lang: str = i18n.DEFAULT) -> dict:
    """While decoding: the newest step only (its views drawn for it alone), so refreshes stay small."""
    return {ui.timeline: timeline, ui.text: render.output_text(timeline, timeline.num_steps - 1),
            ui.stepper: stepper.bundle_html(timeline, KEY, live=True, keys=True, lang=lang)}


# -- handlers ------------------------------------------------------------------------------------

def widest(config: DecodeConfig, decoder: str) -> int:
    """The slots a decode's forwards hold: the block decoder's block, else the window."""
    return config.block_size if decoder == "block" else config.window


def run_decode(ui: DecodeTab, ctx: Context, user_traces: UserTraces, prompt, decoder, window, threshold,
               no_threshold, penalty, temperature, top_k, top_p, max_new_tokens, seed, block_size,
               colour_by, request: gr.Request, start: int | None = None, lang: str = i18n.DEFAULT):
    """Decode live (through app/serving/gpu.py): cheap views every LIVE_UPDATE_S, every view once at
    the end, showing step `start` (default: the last; a link's step)."""
    user_traces.add(request)
    config = make_config(window, threshold, no_threshold, penalty, temperature, top_k, top_p,
                         max_new_tokens, seed, block_size)
    work = gpu.Work.of(config.max_new_tokens, widest(config, decoder), [decoder], ctx.limits)
    for trace in gpu.stream_on_gpu(decode_steps, ctx.models.wedlm, prompt, decoder, config,
                                   time_limit_s=work.time_limit_s, work=work, every_s=LIVE_UPDATE_S):
        if trace.result is not None:  # finished: every view of every step, once
            yield trace_updates(ui, Timeline(trace), start=start, lang=lang)
            break
        yield live_updates(ui, Timeline(trace), lang)


def make_decode_api(ctx: Context):
    """The `decode` API endpoint (its signature is the API's)."""
    def decode_api(prompt: str, decoder: str = "streaming", window: int = DEFAULTS["window"],
                   threshold: float | None = DEFAULTS["threshold"], penalty: float = DEFAULTS["penalty"],
                   temperature: float = DEFAULTS["temperature"],
                   max_new_tokens: int = DEFAULTS["max_new_tokens"], seed: int = DEFAULTS["seed"]) -> dict:
        """Decode a prompt; returns the whole trace (steps, stats with tokens_per_forward,
        forwards, generated_tokens, p_cache)."""
        # A generator (it streams null while decoding, then the trace), so that cancelling the
        # request stops the decode: Gradio closes it at its next yield, while a plain function
        # would decode on after its queue slot was freed.
        with worded(kinds=(ValidationError, ModelLoadError, TypeError, ValueError)):
            config = make_config(window, threshold, False, penalty, temperature,
                                 max_new_tokens=max_new_tokens, seed=seed)
            work = gpu.Work.of(config.max_new_tokens, widest(config, decoder), [decoder], ctx.limits)
            trace = None
            for trace in gpu.stream_on_gpu(decode_steps, ctx.models.wedlm, prompt, decoder, config,
                                           time_limit_s=work.time_limit_s, work=work,
                                           every_s=LIVE_UPDATE_S):
                if trace.result is None:
                    yield None
            yield trace.to_dict()
    return decode_api


def _optional_position(text, name: str, lang: str = i18n.DEFAULT) -> int | None:
    text = (text or "").strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise ValidationError(i18n.text(lang, "decode.bad_position", name=name, value=repr(text)))


def run_branch(ui: DecodeTab, ctx: Context, timeline, step, tau, no_tau, penalty, force_pos,
               force_tok, veto_pos, colour_by, lang: str = i18n.DEFAULT) -> dict:
    tr = i18n.Texts(lang)
    if timeline is None:
        raise gr.Error(tr("decode.first"))
    trace = timeline.trace
    step = step_number(step, lang)
    with worded(lang=lang):  # ValidationError, ModelLoadError, KeyError, TypeError, ValueError
        force_at = _optional_position(force_pos, tr("decode.force_position"), lang)
        veto = _optional_position(veto_pos, tr("decode.veto_position"), lang)
        lm = ctx.models.wedlm_lm  # tokenizing only: the branch itself runs through gpu
        config = DecodeConfig.from_dict({**trace.config, "penalty": float(penalty),
                                         "threshold": None if no_tau or tau is None else float(tau)})
        force = None
        if force_at is not None:
            ids = lm.tokenizer.encode(force_tok or "", add_special_tokens=False)
            if len(ids) != 1:
                raise ValidationError(tr("decode.force_one_token", text=repr(force_tok), n=len(ids)))
            force = (force_at, ids[0])
        work = gpu.Work.of(config.max_new_tokens, widest(config, trace.decoder), [trace.decoder], ctx.limits)
        other = gpu.run_on_gpu(branch, ctx.models.wedlm, trace, step, config, force=force, veto=veto,
                               time_limit_s=work.time_limit_s, work=work)
    new = Timeline(other)
    div = first_divergence(trace, other)
    where = tr("decode.branch_same") if div is None else tr("decode.branch_diverge", step=div)
    same_text = (trace.text or render.output_text(timeline, timeline.num_steps - 1)) == other.text
    text = tr("decode.text_same") if same_text else tr("decode.text_changed")
    a, b = trace.stats(), other.stats()
    summary = tr("decode.branch_summary", step=step, where=where, text=text, a_tokens=a.get("generated_tokens", 0),
                 a_forwards=a.get("forwards", 0), b_tokens=b["generated_tokens"], b_forwards=b["forwards"],
                 b_rate=f"{b['tokens_per_forward']:.2f}")
    original, branched = tr("decode.original"), tr("decode.branch")
    return {ui.br_summary: summary,
            ui.br_old: f"<b>{original}</b>" + render.token_canvas(timeline, timeline.num_steps - 1, colour_by, lang=lang),
            ui.br_new: f"<b>{branched}</b>" + render.token_canvas(new, new.num_steps - 1, colour_by, lang=lang),
            ui.br_growth: gr.Plot(figures.prefix_growth(
                {original: timeline, branched: new}, div,
                colours={original: "#6b7280", branched: "#2563eb"}, lang=lang), visible=True)}


def make_exports(timeline, step, lang: str = i18n.DEFAULT) -> list[str]:
    if timeline is None:
        raise gr.Error(i18n.text(lang, "decode.first"))
    step = max(0, min(step_number(step, lang), timeline.num_steps - 1))
    folder = downloads.folder()
    figs = folder / f"wedlm-figures-step-{step}.html"
    figs.write_text(export.figures_html(timeline, step, lang=lang), encoding="utf-8")
    replay = folder / "wedlm-replay.html"
    replay.write_text(export.replay_html(timeline, lang=lang), encoding="utf-8")
    return [str(figs), str(replay)]


SLIDES_MAX_STEPS = 300  # server work: frames of the GIF (a 128-token decode takes at most ~200)


def make_slides(ctx: Context, timeline, lang: str = i18n.DEFAULT) -> list[str]:
    """The trace's steps as slides (wedlm/animate.py): bounded to SLIDES_MAX_STEPS frames and the
    request's budget; one at a time over the whole app (concurrency_id "slides")."""
    if timeline is None:
        raise gr.Error(i18n.text(lang, "decode.first"))
    folder = downloads.folder()
    try:
        made = animate(timeline.trace, folder / "wedlm-slides.gif", folder / "wedlm-slides.mp4",
                       max_frames=SLIDES_MAX_STEPS, time_limit_s=ctx.limits.decode_seconds)
    except AnimationError as err:
        raise gr.Error(str(err)) from None
    if made.note:
        gr.Info(i18n.text(lang, "decode.slides_note", note=made.note))
    return [str(made.gif)] + ([str(made.mp4)] if made.mp4 else [])


@functools.lru_cache(maxsize=16)
def example_bundle(name: str, mtime_ns: int, lang: str = i18n.DEFAULT) -> tuple[Timeline, str, dict]:
    """An example trace, its stepper and its drawn views, drawn once per file version (every
    visitor's page load shows the first example; a link to a step re-packs the drawn views)."""
    timeline = Timeline(read_trace_file(TRACE_DIR / name))
    data = stepper.draw(timeline, stepper.decode_views(lang), lang=lang)
    return timeline, stepper.bundle_html(timeline, KEY, keys=True, data=data, lang=lang), data


def load_example(ui: DecodeTab, name, start: int | None = None, lang: str = i18n.DEFAULT) -> dict:
    if not name:
        return trace_updates(ui, None, lang=lang)
    if name not in example_traces():
        raise gr.Error(i18n.text(lang, "decode.unknown_example"))
    timeline, bundle, data = example_bundle(name, (TRACE_DIR / name).stat().st_mtime_ns, lang)
    if start is not None:
        bundle = stepper.bundle_html(timeline, KEY, keys=True, data=data, start=start, lang=lang)
    return trace_updates(ui, timeline, from_example=name, bundle=bundle, lang=lang)


def show_first_example(ui: DecodeTab, user_traces: UserTraces, name, request: gr.Request,
                       ctx: Context | None = None, lang: str = i18n.DEFAULT) -> dict:
    """Page load: show the page link's moment (app/links.py), else the first example trace,
    unless the user has already loaded or run one in this session (on a busy server this event
    can finish after theirs). A link's live prompt fills the form here; run_link decodes it."""
    link = links.read(links.query(request), ctx.limits, ctx.prompt_chars(), ctx.models.wedlm_lm.max_context,
                      lang=lang) if ctx is not None else links.Link()
    if link.live:
        knobs = {**{k: v for k, v in DEFAULTS.items()}, **link.knobs}
        form = {ui.prompt: link.prompt, ui.decoder: link.decoder, ui.link_live: True, ui.link_step: link.step,
                ui.examples: gr.Dropdown(value=None), ui.no_threshold: bool(knobs.get("no_threshold"))}
        for name, box in (("window", ui.window), ("threshold", ui.threshold), ("penalty", ui.penalty),
                          ("temperature", ui.temperature), ("top_k", ui.top_k), ("top_p", ui.top_p),
                          ("max_new_tokens", ui.max_new), ("seed", ui.seed), ("block_size", ui.block_size)):
            form[box] = float(knobs[name]) if knobs.get(name) is not None else None
        return {} if user_traces.has(request) else form
    updates = load_example(ui, link.example or name, link.step, lang)
    return {} if user_traces.has(request) else updates


def pick_example(ui: DecodeTab, user_traces: UserTraces, name, request: gr.Request,
                 lang: str = i18n.DEFAULT) -> dict:
    user_traces.add(request)
    return load_example(ui, name, lang=lang)


def load_upload(ui: DecodeTab, user_traces: UserTraces, file, request: gr.Request,
                lang: str = i18n.DEFAULT) -> dict:
    user_traces.add(request)
    if file is None:
        return trace_updates(ui, None, lang=lang)
    return trace_updates(ui, Timeline(read_trace_file(file, lang)), lang=lang)


# The shown step lives in the page (app/static/stepper.js). The events that need it on the server
# (branch, export) read it there as they start: this replaces the hidden step input's value.
WITH_SHOWN_STEP = ("(...args) => { const k = window.wedlmStepper && window.wedlmStepper.current('decode'); "
                   "args[1] = k === null || k === undefined ? args[1] : k; return args; }")
COPY_LINK_JS = """(example, prompt, decoder, w, threshold, no_threshold, penalty, temperature, top_k, top_p,
                  max_new_tokens, seed, block_size) => {
  const q = {tab: 'decode'};  // (w: a parameter named window would hide the page's window)
  if (example) q.example = example;
  else Object.assign(q, {prompt, decoder, window: w, threshold, penalty, temperature, top_k, top_p, max_new_tokens,
                         seed, block_size}, no_threshold ? {no_threshold: 1} : {});
  window.wedlmStepper && window.wedlmStepper.copyLink('decode', q, document.querySelector('#link-field .link-url'));
  return [];
}"""
COLOUR_BY_JS = "(mode) => { window.wedlmStepper && window.wedlmStepper.colourBy('decode', mode); return []; }"


# -- wiring --------------------------------------------------------------------------------------

def wire(ui: DecodeTab, ctx: Context, demo: gr.Blocks, lang: str = i18n.DEFAULT) -> None:
    user_traces = UserTraces()
    def bind(fn, *args, **kwargs):
        """functools.partial keeping the handler's name (what logs and the tests find it by)."""
        bound = functools.partial(fn, *args, **kwargs)
        bound.__name__ = fn.__name__
        return bound
    trace_views = ui.trace_views()

    # Handlers that take the gr.Request get a plain function each (Gradio finds the request by
    # its type hint, which a functools.partial hides); the parameter names are the API's.
    # colour_by stays in the APIs' signatures; the page applies it (no request).
    def run_live(prompt, decoder, window, threshold, no_threshold, penalty, temperature, top_k, top_p,
                 max_new_tokens, seed, block_size, colour_by, request: gr.Request):
        yield from run_decode(ui, ctx, user_traces, prompt, decoder, window, threshold, no_threshold,
                              penalty, temperature, top_k, top_p, max_new_tokens, seed, block_size,
                              colour_by, request, lang=lang)

    def on_pick(name, colour_by, request: gr.Request):
        return pick_example(ui, user_traces, name, request, lang)

    def on_upload(file, colour_by, request: gr.Request):
        return load_upload(ui, user_traces, file, request, lang)

    def on_page_load(name, request: gr.Request):
        return show_first_example(ui, user_traces, name, request, ctx, lang)

    def run_link(live, step, prompt, decoder, window, threshold, no_threshold, penalty, temperature, top_k,
                 top_p, max_new_tokens, seed, block_size, colour_by, request: gr.Request):
        """A link's live prompt: decoded once, through the Run button's own handler and pool,
        from the form values on_page_load checked and filled; then its step is shown."""
        yield {ui.link_live: False}  # (an empty dict would read as one value)
        if not live:
            return
        yield from run_decode(ui, ctx, user_traces, prompt, decoder, window, threshold, no_threshold,
                              penalty, temperature, top_k, top_p, max_new_tokens, seed, block_size,
                              colour_by, request, start=None if step is None else int(step), lang=lang)

    run_event = ui.run_btn.click(in_language(run_live, lang), ui.decode_knobs(), trace_views, api_name=i18n.api_name("run_live", lang),
                                 **gpu.forward_event(ctx.limits))
    ui.stop_btn.click(None, None, None, cancels=[run_event])
    if lang == i18n.DEFAULT:  # one API endpoint, whatever the page's language
        gr.api(make_decode_api(ctx), api_name="decode", **gpu.forward_event(ctx.limits))
    ui.examples.input(in_language(on_pick, lang), [ui.examples, ui.colour_by], trace_views, api_name=i18n.api_name("load_example", lang))
    ui.upload.upload(in_language(on_upload, lang), [ui.upload, ui.colour_by], trace_views, api_name=i18n.api_name("load_trace", lang))
    # Stepping, playing, the keys and "colour by" run in the page: no event reaches the server.
    ui.colour_by.change(None, [ui.colour_by], None, js=COLOUR_BY_JS)
    ui.br_btn.click(in_language(bind(run_branch, ui, ctx, lang=lang), lang),
                    [ui.timeline, ui.step, ui.br_tau, ui.br_no_tau, ui.br_penalty, ui.br_force_pos,
                     ui.br_force_tok, ui.br_veto_pos, ui.colour_by],
                    [ui.br_summary, ui.br_old, ui.br_new, ui.br_growth], api_name=False,
                    js=WITH_SHOWN_STEP, **gpu.forward_event(ctx.limits))
    ui.export_btn.click(in_language(bind(make_exports, lang=lang), lang), [ui.timeline, ui.step], [ui.export_files], api_name=False,
                        js=WITH_SHOWN_STEP)
    ui.slides_btn.click(in_language(bind(make_slides, ctx, lang=lang), lang), [ui.timeline], [ui.slides_files], api_name=False,
                        concurrency_id="slides", concurrency_limit=1)
    link_outputs = trace_views + [ui.window, ui.threshold, ui.no_threshold, ui.penalty, ui.temperature, ui.top_k,
                                  ui.top_p, ui.max_new, ui.seed, ui.block_size, ui.link_live, ui.link_step]
    demo.load(in_language(on_page_load, lang), [ui.examples], link_outputs, api_name=False).then(
        in_language(run_link, lang), [ui.link_live, ui.link_step] + ui.decode_knobs(), trace_views + [ui.link_live], api_name=False,
        **gpu.forward_event(ctx.limits))
    # -- links to a moment: the URL of the shown step, from the form's values (app/links.py reads it) --
    ui.link_btn.click(None, [ui.examples] + ui.decode_knobs(), None, js=COPY_LINK_JS)
    demo.unload(user_traces.forget)


def build(ctx: Context, demo: gr.Blocks, lang: str = i18n.DEFAULT) -> DecodeTab:
    ui = layout(ctx.limits, ctx.prompt_chars(), lang)
    ctx.decode_state = ui.timeline  # the lens and the law plot read the last decode
    wire(ui, ctx, demo, lang)
    return ui
