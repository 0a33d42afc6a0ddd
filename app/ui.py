"""The explorer: one Blocks page whose tabs live in their own modules. Decoding happens in
`wedlm`; views are functions in render.py and figures.py."""
from __future__ import annotations

import html
import inspect
from pathlib import Path

import gradio as gr

from wedlm.paths import BUNDLED_AR_MODEL

from .tabs import decode as decode_tab, entropy as entropy_tab, lessons as lessons_tab, race as race_tab, tour
from . import examples, i18n, links
from .tabs.tour.words import term
from .views import palette
from .serving import guard, language, sessions
from .serving.context import Context, Models
from .serving.settings import Limits, limits as env_limits, on_zero_gpu, space_mode

CSS = palette.css_variables() + (Path(__file__).parent / "static" / "style.css").read_text()
STATIC = Path(__file__).parent / "static"
# linked highlighting, the client-side stepper (app/views/stepper.py), projector mode and the glossary
HEAD = "".join(f"<script>{(STATIC / name).read_text()}</script>"
               for name in ("lang.js", "highlight.js", "stepper.js", "present.js"))
# Gradio 6.31's queue looks for work every 1 ms while it has none (and for progress to send every
# 10 ms): about 7 % of a core with nobody on the page. Every 20 ms / 100 ms costs ~0.5 %; an event
# starts at most 20 ms later, progress reaches the page at most 10 times a second.
QUEUE_POLL_S = 0.02
PROGRESS_POLL_S = 0.1


def build_ui(model_name: str | None = None, ar_model_name: str | None = None,
             limits: Limits | None = None) -> gr.Blocks:
    """model_name: the WeDLM model (default: bundled); ar_model_name: the AR baseline (default:
    the bundled model's AR parent when the bundled model is used); limits: default from the
    environment (app/serving/settings.py)."""
    if ar_model_name is None and model_name is None and BUNDLED_AR_MODEL.is_dir():
        ar_model_name = str(BUNDLED_AR_MODEL)
    ctx = Context(models=Models(model_name, ar_model_name), ar_model_name=ar_model_name,
                  limits=limits or env_limits())
    cache = (sessions.CACHE_SWEEP_S, sessions.CACHE_AGE_S)  # served files do not pile up
    # One page per language (app/i18n): English at /, Chinese at /zh, the same events and pool.
    with gr.Blocks(title="WeDLM Explorer", delete_cache=cache) as demo:
        build_page(ctx, demo, i18n.DEFAULT)
    for lang in i18n.LANGS[1:]:
        with demo.route(i18n.NAMES[lang], i18n.PAGE_PATH[lang], show_in_navbar=False):
            build_page(ctx, demo, lang)
    demo.explorer_limits = ctx.limits  # launch() sizes the queue and uploads from the same limits
    demo.explorer_context = ctx.models.wedlm_lm.max_context  # ... and request bodies from the prompt's
    word_missing_inputs(demo)
    return demo


def header(lang: str = i18n.DEFAULT) -> str:
    """The page's header (Markdown): each word a newcomer meets there first (forward, KV cache, masks,
    diffusion, position ids, commits) linked to the tour's glossary."""
    said = {name: i18n.text(lang, f"page.{name}") for name in ("diffusion", "position_ids", "forward", "masks", "commits")}
    return i18n.text(lang, "page.header", diffusion=term("diffusion", said["diffusion"], lang),
                     position_ids=term("position-id", said["position_ids"], lang),
                     forward=term("forward", said["forward"], lang), kv_cache=term("kv-cache", lang=lang),
                     masks=term("mask", said["masks"], lang), commits=term("commit", said["commits"], lang))


def build_page(ctx: Context, demo: gr.Blocks, lang: str) -> None:
    """One language's page: the header, the five tabs and what a link to a moment restores."""
    tr = i18n.Texts(lang)
    gr.Navbar(visible=False, main_page_name=False)  # the languages switch in the header, not in a page bar
    gr.HTML(language_switch(lang), elem_id="lang-switch")
    # our own catalog's words (no visitor's text), unsanitized so the glossary link keeps its data-term
    gr.Markdown(header(lang), elem_id="app-header", sanitize_html=False)
    gr.HTML(server_line(ctx, lang), elem_id="server-line")
    link_note = gr.HTML("", elem_id="link-note")  # what a link to a moment could not restore (app/links.py)
    with gr.Tabs(elem_id="tabs") as tabs:
        with gr.Tab(tr("tab.tour"), elem_id="tour", id="tour"):
            tour.build(ctx, demo, lang)
        with gr.Tab(tr("tab.decode"), id="decode"):
            decode_tab.build(ctx, demo, lang)
        with gr.Tab(tr("tab.race"), id="race"):
            race_tab.build(ctx, demo, examples.RACE_PROMPT, lang)
        with gr.Tab(tr("tab.entropy"), id="entropy") as entropy_explorer:
            entropy_tab.build(ctx, demo, examples.SWEEP_PROMPT, entropy_explorer, lang)
        with gr.Tab(tr("tab.lessons"), id="lessons"):
            lessons_tab.build(ctx, demo, lang)

    def open_link(request: gr.Request = None):
        """Page load: the linked tab, and a worded line for whatever the link could not restore."""
        link = links.read(links.query(request), ctx.limits, ctx.prompt_chars(),
                          ctx.models.wedlm_lm.max_context, chapters=len(tour.CHAPTERS), lang=lang)
        if link.notices:
            gr.Warning(tr("link.unused", notes="; ".join(link.notices))[:400])
        return gr.Tabs(selected=link.tab) if link.tab else gr.skip(), links.notice_html(link, lang)
    demo.load(open_link, None, [tabs, link_note], api_name=False, show_progress="hidden")


def language_switch(lang: str) -> str:
    """A link to the same page in the other language; it keeps the link's query (the moment)
    and remembers the choice (app/serving/language.py reads ?lang= and sets the cookie)."""
    other = next(code for code in i18n.LANGS if code != lang) if len(i18n.LANGS) == 2 else i18n.DEFAULT
    path = i18n.PAGE_PATH[other]
    return (f'<a class="lang-switch" lang="{i18n.HTML_LANG[other]}" hreflang="{i18n.HTML_LANG[other]}" '
            f'data-lang="{other}" data-path="{path}" href="./{path}?lang={other}" '
            f'title="{html.escape(i18n.text(lang, "page.switch_title"))}" '
            f'data-page-lang="{lang}">{html.escape(i18n.text(lang, "page.switch"))}</a>')


def word_missing_inputs(demo: gr.Blocks) -> None:
    """Too few inputs to an event: name what it takes (Gradio's own message lists Python object
    reprs, and without show_error a visitor got {"error": null})."""
    check = demo.validate_inputs

    def validate_inputs(block_fn, inputs):
        if len(inputs) < len(block_fn.inputs):
            try:
                names = [p for p in inspect.signature(block_fn.fn).parameters if p != "request"]
            except (TypeError, ValueError):
                names = []
            takes = f" ({', '.join(names)})" if len(names) == len(block_fn.inputs) else ""
            raise gr.Error(f"{block_fn.api_name or 'this event'} takes {len(block_fn.inputs)} inputs"
                           f"{takes}; got {len(inputs)}")
        check(block_fn, inputs)

    demo.validate_inputs = validate_inputs


def server_line(ctx: Context, lang: str = i18n.DEFAULT) -> str:
    """What this server runs and allows, in one line under the title (names are hub ids or
    folder names, never server paths)."""
    tr = i18n.Texts(lang)
    lm, ar_lm, lim = ctx.models.wedlm_lm, ctx.models.ar_lm, ctx.limits
    device = "ZeroGPU" if on_zero_gpu() else lm.device.type
    dtype = str(lm.dtype).removeprefix("torch.")
    ar = tr("server.ar_model", name=html.escape(ar_lm.name)) if ar_lm else tr("server.ar_head")
    mode = tr("server.space_limits") if space_mode() else tr("server.limits")
    dtype = f'<abbr title="{html.escape(tr("server.dtype_title"))}">{html.escape(dtype)}</abbr>'  # "float32": said on hover
    line = tr("server.line", model=html.escape(lm.name), ar=ar, device=device, dtype=dtype,
              attn=html.escape(lm.attn_implementation), mode=mode, new_tokens=lim.max_new_tokens,
              window=lim.max_window, seconds=f"{lim.decode_seconds:.0f}", concurrency=lim.concurrency)
    return f"<div class='server-line'>{line}</div>"


def launch(demo: gr.Blocks, limits: Limits | None = None, **kwargs):
    """Queue and launch with the explorer's settings: offline, no share link, capped uploads."""
    limits = limits or getattr(demo, "explorer_limits", None) or env_limits()
    demo.queue(default_concurrency_limit=limits.concurrency, max_size=limits.queue_size)
    demo._queue.sleep_when_free = QUEUE_POLL_S  # (Gradio has no public setting for these two)
    demo._queue.progress_update_sleep_when_free = PROGRESS_POLL_S
    kwargs.setdefault("state_session_capacity", sessions.MAX_SESSIONS)  # app/serving/sessions.py
    # Gradio 6.31's status tracker announces a finished event with the i18n key "common.complete",
    # which its English messages lack: the raw key showed on the page. Give it its words.
    kwargs.setdefault("i18n", gr.I18n(en={"common.complete": "Complete"}))
    # Bodies and uploads are bounded before Gradio parses them (app/serving/guard.py).
    context = getattr(demo, "explorer_context", None) or 32_768
    app_kwargs = dict(kwargs.pop("app_kwargs", None) or {})
    app_kwargs["middleware"] = (guard.middleware(limits, context) + [language.middleware()]
                                + list(app_kwargs.get("middleware", [])))
    # Every refusal is worded: without show_error Gradio answers {"error": null} to anything that
    # is not a gr.Error (e.g. its own "not enough input values"); our handlers word their own.
    kwargs.setdefault("show_error", True)
    return demo.launch(css=CSS, head=HEAD, share=False, max_file_size=limits.upload_bytes,
                       app_kwargs=app_kwargs, **kwargs)
