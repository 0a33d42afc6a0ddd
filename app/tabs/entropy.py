"""The Entropy explorer tab: the entropy -> speed law (your decodes on it), a τ sweep for one
prompt, and the entropy lens (where inside a text parallel decoding pays)."""
from __future__ import annotations

import functools
from pathlib import Path

import gradio as gr

from wedlm.analysis import MAX_TEXT_TOKENS
from wedlm.config import DEFAULTS
from wedlm.paths import BUNDLED_MODEL

from .. import i18n
from ..views import entropy, lens
from ..serving import gpu
from ..serving.errors import in_language, worded
from . import knobs
from .tour.data import load_tau_sweep
from ..serving.context import Context, make_config, rows_frame

LENS_EXAMPLES = (
    ("Count from 1 to 20:", " 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20"),
    ("ROMEO:\n", " But soft, what light through yonder window breaks? It is the east, and Juliet "
                 "is the sun. Arise, fair sun, and kill the envious moon"),
)


HEARTBEAT_S = 0.5  # long work answers this often: where a cancel or a closed tab can stop it


def serves_bundled_model(ctx: Context) -> bool:
    try:
        return Path(ctx.models.wedlm_lm.source).resolve() == BUNDLED_MODEL.resolve()
    except (OSError, TypeError):
        return False


def law(rows, tau, decode_timeline, sweep_point, lang: str = i18n.DEFAULT):
    """The law plot with the Decode tab's finished decode and the swept prompt on it."""
    yours = []
    trace = getattr(decode_timeline, "trace", None)
    if trace is not None and trace.result is not None and trace.steps and trace.decoder != "ar":
        decoder, tau_used = trace.decoder, trace.config.get("threshold")
        if lang != i18n.DEFAULT:  # the decoder and "none" as the Decode tab's menu names them
            decoder = i18n.text(lang, f"decode.choice.{decoder}") if f"decode.choice.{decoder}" in i18n.catalog() \
                else decoder
            tau_used = i18n.text(lang, "entropy.value.none") if tau_used is None else tau_used
        yours.append(entropy.trace_point(trace, i18n.text(lang, "entropy.your_decode", decoder=decoder,
                                                          tau=tau_used)))
    if sweep_point:
        yours.append(sweep_point)
    try:
        threshold = None if tau is None else float(tau)
    except (TypeError, ValueError):
        threshold = None
    return entropy.law_figure(rows or [], threshold, yours, lang=lang)


def suite_source(recorded: dict | None, lang: str = i18n.DEFAULT) -> str:
    """Where the suite's rows come from and what its columns mean, in a visitor's words."""
    tr = i18n.Texts(lang)
    where = (tr("entropy.recorded", tau=recorded["config"]["threshold"], max_new=recorded["config"]["max_new_tokens"])
             if recorded else tr("entropy.live"))
    return where + tr("entropy.columns")


def build(ctx: Context, demo: gr.Blocks, default_prompt: str, tab: gr.Tab | None = None,
          lang: str = i18n.DEFAULT) -> None:
    models, ar_name = ctx.models, ctx.ar_model_name
    recorded = entropy.recorded_suite() if serves_bundled_model(ctx) else None
    tr = i18n.Texts(lang)

    def run_suite(tau, max_new_tokens):
        """Streams the table and the plot row by row (the rows are the progress)."""
        config = make_config(threshold=tau, max_new_tokens=max_new_tokens)
        prompts = entropy.suite_prompts()
        work = gpu.Work.of(config.max_new_tokens, config.window, ["streaming", "ar"] * len(prompts),
                           ctx.limits)
        for rows in gpu.stream_on_gpu(entropy.iter_suite, models.wedlm, models.ar if ar_name else models.wedlm,
                                      config, prompts, work.time_limit_s, work=work):
            yield rows, entropy.law_figure(rows, config.threshold, lang=lang), rows_frame(rows, lang)

    def run_sweep(prompt, max_new_tokens, tau):
        config = make_config(threshold=tau, max_new_tokens=max_new_tokens)
        work = gpu.Work.of(config.max_new_tokens, config.window, ["streaming", "verified"] * len(entropy.SWEEP),
                           ctx.limits)
        rows = None  # a generator: a cancel or a closed tab stops the sweep at its next forward
        for rows in gpu.stream_on_gpu(entropy.tau_sweep_steps, models.wedlm, prompt, config,
                                      work.time_limit_s, work=work, every_s=HEARTBEAT_S):
            if rows is None:
                yield gr.skip(), gr.skip(), gr.skip(), gr.skip()
        table = rows_frame([{k: v for k, v in r.items() if k != "output"} for r in rows], lang)
        yield (entropy.sweep_figure(rows, lang=lang), table,
               entropy.sweep_note(rows, lang=lang) + entropy.sweep_diff_html(rows, lang=lang),
               entropy.sweep_point(rows, config.threshold, lang=lang))

    gr.Markdown(tr("entropy.intro"))
    suite_rows = gr.State(recorded["rows"] if recorded else [])
    sweep_point = gr.State(None)
    with gr.Row():
        tau = knobs.number("threshold", lang=lang)
        max_new = gr.Slider(8, 256, value=entropy.SUITE_MAX_NEW_TOKENS, step=8, label=tr("entropy.max_new"))
        suite_btn = gr.Button(tr("entropy.run_suite"), variant="primary", elem_id="suite-run")
    gr.Markdown(suite_source(recorded, lang), elem_id="suite-source")
    law_plot = gr.Plot(value=entropy.law_figure(recorded["rows"], recorded["config"]["threshold"], lang=lang)
                       if recorded else None, elem_id="entropy-law", label=tr("entropy.law"))
    law_why = gr.HTML(entropy.law_note(recorded["rows"], lang) if recorded else "", elem_id="law-why")
    table = gr.Dataframe(value=rows_frame(recorded["rows"], lang) if recorded else None, elem_id="suite-table",
                         label=tr("entropy.per_prompt"), interactive=False, visible=recorded is not None)
    gr.Markdown(tr("entropy.sweep_title"))
    gr.Markdown(tr("entropy.sweep_intro"))
    with gr.Row():
        prompt = gr.Textbox(value=default_prompt, label=tr("entropy.prompt"), lines=3, scale=3, max_length=ctx.prompt_chars())
        sweep_btn = gr.Button(tr("entropy.sweep"), elem_id="sweep-run", scale=1)
    with gr.Row(equal_height=False):
        sweep_plot = gr.Plot(entropy.sweep_placeholder(lang), elem_id="tau-sweep", label=tr("entropy.sweep_plot"),
                             visible=True, scale=3)
        if recorded:  # the bundled model's recorded sweep over several questions: the trend beside one prompt
            gr.HTML(entropy.trend_html(load_tau_sweep(), lang), elem_id="sweep-trend", scale=2)
    sweep_table = gr.Dataframe(elem_id="sweep-table", interactive=False, visible=False)
    sweep_diff = gr.HTML(elem_id="sweep-diff")

    lens_build(ctx, lang)

    law_inputs = [suite_rows, tau, ctx.decode_state or gr.State(None), sweep_point]
    law_here = functools.partial(law, lang=lang)
    suite_btn.click(lambda: gr.Dataframe(visible=True), None, table, queue=False, api_name=False).then(
        in_language(run_suite, lang), [tau, max_new], [suite_rows, law_plot, table], api_name=i18n.api_name("entropy_suite", lang),
        show_progress="minimal", **gpu.forward_event(ctx.limits)).then(law_here, law_inputs, law_plot, api_name=False).then(
        lambda rows: entropy.law_note(rows or [], lang), [suite_rows], law_why, api_name=False, queue=False,
        show_progress="hidden")
    sweep_btn.click(lambda: gr.Dataframe(visible=True), None, sweep_table, queue=False, api_name=False).then(
        in_language(run_sweep, lang), [prompt, max_new, tau], [sweep_plot, sweep_table, sweep_diff, sweep_point],
                    api_name=i18n.api_name("tau_sweep", lang), **gpu.forward_event(ctx.limits)).then(law_here, law_inputs, law_plot, api_name=False)
    tau.submit(law_here, law_inputs, law_plot, api_name=False)
    if tab is not None:  # opening the tab places the Decode tab's latest decode
        tab.select(law_here, law_inputs, law_plot, api_name=False)


def lens_build(ctx: Context, lang: str = i18n.DEFAULT) -> None:
    models = ctx.models
    # a lens runs one forward per text token for the table, about as many for the forced decode;
    # the stop's forward fits in the W = 16 headroom (asking MAX_TEXT_TOKENS + 1 would exceed a
    # public Space's max_new_tokens of 256 and refuse the app at startup)
    lens_work = gpu.Work.of(MAX_TEXT_TOKENS, 16, ["streaming", "streaming"], ctx.limits)
    colours = lens.colour_by_labels(lang)  # the radio's label in `lang` -> the lens's colouring

    def lens_stream(prompt, text, config):
        return gpu.stream_on_gpu(lens.compute_steps, models.wedlm, prompt, text, config,
                                 lens_work.time_limit_s, work=lens_work,
                                 every_s=HEARTBEAT_S)

    def show(prompt_a, text_a, prompt_b, text_b, tau, no_tau, penalty, colour_label):
        config = make_config(threshold=tau, no_threshold=no_tau, penalty=penalty)
        colour = colours.get(colour_label, "fill")
        out = []
        for prompt, text, title in ((prompt_a, text_a, "A"), (prompt_b, text_b, "B")):
            if not (text or "").strip():
                out += [None, ""]
                continue
            with worded(i18n.text(lang, "entropy.lens_prefix", title=title), lang=lang):
                lens.check_text(prompt, text)
            view = None
            for view in lens_stream(prompt, text, config):
                if view is None:
                    yield [gr.skip()] * 4
            out += [view, lens.view_html(view, colour, title, lang=lang)]
        yield out

    def regroup(view_a, view_b, tau, no_tau, penalty, colour_label):
        """τ or λ moved: re-group from the recorded entropies where exact, else re-run."""
        config = make_config(threshold=tau, no_threshold=no_tau, penalty=penalty)
        colour = colours.get(colour_label, "fill")
        out = []
        for view, title in ((view_a, "A"), (view_b, "B")):
            if view is None:
                out += [None, gr.skip()]
                continue
            view = lens.regrouped(view, config.threshold, config.penalty) or gpu.run_on_gpu(
                lens.rerun, models.wedlm, view, config.threshold, config.penalty,
                lens_work.time_limit_s, work=lens_work)
            out += [view, lens.view_html(view, colour, title, lang=lang)]
        return out

    def recolour(view_a, view_b, colour_label):
        colour = colours.get(colour_label, "fill")
        return lens.view_html(view_a, colour, "A", lang=lang), lens.view_html(view_b, colour, "B", lang=lang)

    def from_decode(timeline):
        trace = getattr(timeline, "trace", None)
        if trace is None or trace.result is None:
            raise gr.Error(i18n.text(lang, "entropy.decode_first"))
        return trace.prompt, trace.text

    def lens_api(prompt: str, text: str, threshold: float | None = DEFAULTS["threshold"],
                 penalty: float = DEFAULTS["penalty"]) -> dict:
        """The entropy lens of one text: per token the entropies (when filled, as the first
        open mask, next-token head), the step that filled and committed it, the commit groups, and tokens
        per forward at τ and λ (a forced streaming decode: the model picks slots, the text gives tokens)."""
        config = make_config(threshold=threshold, penalty=penalty)  # a gr.Error naming the knob
        # A generator (null while working, then the lens), so that a cancel or a closed tab
        # stops the lens at its next forward.
        with worded():
            lens.check_text(prompt, text)
        view = None
        for view in lens_stream(prompt, text, config):
            if view is None:
                yield None
        yield {"tokens": view.texts, **view.lens.to_dict()}

    with gr.Column(elem_id="lens-section"):
        lens_ui(ctx, in_language(show, lang), in_language(regroup, lang), recolour, in_language(from_decode, lang),
                lang)
    if lang == i18n.DEFAULT:  # one API endpoint, whatever the page's language
        gr.api(lens_api, api_name="lens", **gpu.forward_event(ctx.limits))


def lens_ui(ctx: Context, show, regroup, recolour, from_decode, lang: str = i18n.DEFAULT) -> None:
    tr = i18n.Texts(lang)
    gr.Markdown(tr("entropy.lens_intro"))
    view_a, view_b = gr.State(None), gr.State(None)
    with gr.Row(equal_height=False):
        with gr.Column():
            prompt_a = gr.Textbox(LENS_EXAMPLES[0][0], label=tr("entropy.prompt_a"), lines=1, elem_id="lens-prompt-a",
                                  max_length=lens.MAX_TEXT_CHARS)
            text_a = gr.Textbox(LENS_EXAMPLES[0][1], label=tr("entropy.text_a"), lines=3,
                                elem_id="lens-text-a", max_length=lens.MAX_TEXT_CHARS)
            use_decode = gr.Button(tr("entropy.use_decode"), size="sm", elem_id="lens-use-decode")
        with gr.Column():
            prompt_b = gr.Textbox(LENS_EXAMPLES[1][0], label=tr("entropy.prompt_b"), lines=1, elem_id="lens-prompt-b",
                                  max_length=lens.MAX_TEXT_CHARS)
            text_b = gr.Textbox(LENS_EXAMPLES[1][1], label=tr("entropy.text_b"), lines=3, elem_id="lens-text-b",
                                max_length=lens.MAX_TEXT_CHARS)
    with gr.Row():
        lens_tau = knobs.slider("threshold", high=3, label=tr("entropy.lens_tau"), elem_id="lens-tau", lang=lang)
        lens_no_tau = gr.Checkbox(False, label=tr("entropy.lens_no_tau"))
        lens_penalty = knobs.number("penalty", elem_id="lens-penalty", lang=lang)
        colours = list(lens.colour_by_labels(lang))
        colour_by = gr.Radio(colours, value=colours[0], label=tr("entropy.colour_by"), info=tr("views.lens.by_info"))
        lens_btn = gr.Button(tr("entropy.show_lens"), variant="primary", elem_id="lens-run")
    gr.HTML(lens.legend_html(lang) + f'<div class="note">{lens.limits_note(lang)}</div>', elem_id="lens-legend")
    with gr.Row(equal_height=False):
        html_a = gr.HTML(elem_id="lens-a")
        html_b = gr.HTML(elem_id="lens-b")

    lens_knobs = [lens_tau, lens_no_tau, lens_penalty, colour_by]
    lens_btn.click(show, [prompt_a, text_a, prompt_b, text_b] + lens_knobs, [view_a, html_a, view_b, html_b],
                   api_name=False, **gpu.forward_event(ctx.limits))
    for knob in (lens_tau, lens_no_tau, lens_penalty):  # always_last: a dragged slider re-groups once it rests
        knob.change(regroup, [view_a, view_b] + lens_knobs, [view_a, html_a, view_b, html_b], api_name=False,
                    trigger_mode="always_last", show_progress="minimal", **gpu.forward_event(ctx.limits))
    colour_by.change(recolour, [view_a, view_b, colour_by], [html_a, html_b], api_name=False, queue=False)
    use_decode.click(from_decode, [ctx.decode_state or gr.State(None)], [prompt_a, text_a], api_name=False,
                     queue=False)
