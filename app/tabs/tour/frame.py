"""What every chapter shares: its page layout (views left, words right, a "try it" below the
words), the step every view reports (data-step on HTML, layout.meta.step on a Plotly figure, so
a test can check that narration, panels and markers agree), the live decodes a "try it" runs
through the app's one GPU door and its one pool of forwards, and the bar that says a live run is
shown and brings the recording back (LiveBar)."""
from __future__ import annotations

import json
import time
from contextlib import contextmanager
from dataclasses import dataclass
from html import escape

import gradio as gr

from wedlm import DecodeConfig, decode

from ... import i18n
from ...serving import gpu
from ...serving.context import Context, make_config
from ...views.timeline import Timeline
from .data import TOUR_PROMPTS


def at_step(html: str, step: int, secondary: bool = False) -> str:
    """An HTML view that says which step it draws (secondary: a second view of the same kind,
    whose legend the first already shows; presenting hides it)."""
    return f'<div class="tour-step{" tour-secondary" if secondary else ""}" data-step="{step}">{html}</div>'


def plot_at(fig, step: int):
    """A figure that says which step it draws (read in the browser as layout.meta.step)."""
    fig.layout.meta = {"step": step}
    return fig


def pool(ctx: Context) -> dict:
    """Event kwargs of every event that runs forwards: the app's one "forwards" pool."""
    return gpu.forward_event(ctx.limits)


@contextmanager
def body(n: int):
    """A chapter's two columns; yields (views, words) column contexts in order of use."""
    with gr.Row(elem_classes=["tour-body"]):
        views = gr.Column(scale=3, elem_classes=["tour-view"])
        words = gr.Column(scale=2, min_width=300, elem_classes=["tour-words"])
        yield views, words


def try_box():
    """The "try it" group under a chapter's words (hidden while presenting)."""
    return gr.Group(elem_classes=["tour-try"])


# ---------- a live run shown, and the way back to the recording ----------

# On a phone the "try it" sits under the pictures and the bar above them, a screen or more up:
# once the bar shows (Gradio draws it a moment after the event), bring it into view if it is not.
SHOW_BAR_JS = """() => { const id = %s; let tries = 0;
    const look = () => { const bar = document.getElementById(id);
        if (!bar || !bar.offsetParent) { if (++tries < 40) setTimeout(look, 50); return; }
        const r = bar.getBoundingClientRect();
        if (r.top < 0 || r.bottom > window.innerHeight) bar.scrollIntoView({block: "start"}); };
    look(); }"""


@dataclass
class LiveBar:
    """Above a chapter's views: hidden while the recording is shown; after a "try it" it says
    that the views show the live run (with its knobs) and offers "Back to the recording", which
    puts back the values the chapter was built with (no decode: they are kept here)."""
    row: gr.Row
    label: gr.HTML
    back: gr.Button
    lang: str

    @property
    def press_js(self) -> str:
        """The try it's own js (pass it as the button's click js=): keeps the knobs as the run
        reads them, at the press, for the bar's words. Kept by the run's own event, not by a
        second listener on the button: Gradio ran that one only after the run had finished and
        the bar had been worded, so a second run's bar named the first run's prompt."""
        key = json.dumps(self.row.elem_id)
        return f"(...v) => {{ (window.wedlmTourPressed ||= {{}})[{key}] = v; return v; }}"

    def offer(self, event, inputs: list, knobs, outputs: list, recorded: tuple,
              whole: bool = True, said: str | None = None) -> None:
        """After `event` (a try it's click, made with js=self.press_js) succeeds, show the bar,
        its words from knobs(*inputs) (plain text, escaped here) as they were when the button was
        pressed; its button returns `recorded` to `outputs` and the inputs to the values the chapter
        was built with (the recording's). whole: the live run replaces the views (else it joins a
        recorded chart); said: the bar's message where the try it is no decode."""
        fast = dict(queue=False, show_progress="hidden", api_name=False)
        said = said or ("tour.live.views" if whole else "tour.live.added")
        # the knobs as the run read them (a knob turned while it runs must not reword the bar):
        # kept in the page at the press (press_js), handed to shown() in place of the knobs' values then
        key = json.dumps(self.row.elem_id)
        built = tuple(component.value for component in inputs)

        def shown(*values):
            words = i18n.text(self.lang, said, knobs=escape(knobs(*values)))
            return gr.Row(visible=True), f'<div class="tour-live-label">{words}</div>'

        event.success(shown, inputs, [self.row, self.label],
                      js=f"(...v) => (window.wedlmTourPressed || {{}})[{key}] || v", **fast
                      ).then(None, None, None, js=SHOW_BAR_JS % key, api_name=False)
        self.back.click(lambda: (*recorded, *built, gr.Row(visible=False), ""), None,
                        list(outputs) + list(inputs) + [self.row, self.label], **fast)


def live_bar(n: int, lang: str = i18n.DEFAULT) -> LiveBar:
    """Chapter n's LiveBar; call it first in the chapter's views column."""
    with gr.Row(visible=False, elem_id=f"tour-live-{n}", elem_classes=["tour-live"], equal_height=True) as row:
        label = gr.HTML("", elem_id=f"tour-live-label-{n}")
        back = gr.Button(i18n.text(lang, "tour.live.back"), size="sm", variant="primary",
                         elem_id=f"tour-recorded-{n}", scale=0, min_width=160)
    return LiveBar(row, label, back, lang)


def tau_lambda_words(t, no_t, lam=None, lang: str = i18n.DEFAULT) -> str:
    """A live run's τ (and λ) as the bar says them, read as the decode read them (DecodeConfig)."""
    config = make_config(threshold=t, no_threshold=no_t, **({} if lam is None else {"penalty": lam}))
    tau = i18n.text(lang, "tour.live.no_tau") if config.threshold is None else f"τ = {config.threshold:g}"
    return tau if lam is None else f"{tau}, λ = {config.penalty:g}"


def opening(prompt, n: int = 40) -> str:
    """A prompt's first n characters on one line, with … when it goes on."""
    text = " ".join(str(prompt or "").split())
    return text if len(text) <= n else text[:n].rstrip() + "…"


def prompt_words(prompt, lang: str = i18n.DEFAULT) -> str:
    return i18n.text(lang, "tour.live.prompt", prompt=opening(prompt))


# ---------- live "try it": decode through wedlm ----------

def live_decode(ctx: Context, prompt: str, decoder: str, config: DecodeConfig) -> Timeline:
    """One decode through the app's GPU entry point (app/serving/gpu.py)."""
    model = ctx.models.ar if decoder == "ar" else ctx.models.wedlm
    work = gpu.Work.of(config.max_new_tokens, config.window, [decoder], ctx.limits)
    tl = Timeline(gpu.run_on_gpu(decode, model, prompt, decoder, config,
                                 time_limit_s=work.time_limit_s, work=work))
    tl.live = True   # its steps are not the recording's: the chapter's words say so (words.elsewhere)
    return tl


def redecode(ctx: Context, name: str, tau, no_tau, penalty) -> Timeline:
    prompt, decoder, max_new = TOUR_PROMPTS[name]
    config = make_config(threshold=tau, no_threshold=no_tau, penalty=penalty, max_new_tokens=max_new)
    return live_decode(ctx, prompt, decoder, config)


def ar_and_streaming(lm, ar_lm, prompt: str, config: DecodeConfig, time_limit_s: float) -> dict:
    """Chapter 6's two lanes (runs inside the GPU call; plain data out, one shared budget)."""
    deadline = time.perf_counter() + time_limit_s
    return {name: decode(model, prompt, name, config, time_limit_s=max(0.0, deadline - time.perf_counter()))
            for name, model in (("ar", ar_lm), ("streaming", lm))}


def tau_lambda(prefix: str, lang: str = i18n.DEFAULT):
    """The τ / λ pair of a chapter's "try it" (widgets from DecodeConfig's metadata, worded in
    the page's language)."""
    from .. import knobs
    tau, no_tau = knobs.tau(elem_id=f"{prefix}-tau", lang=lang)
    penalty = knobs.number("penalty", elem_id=f"{prefix}-penalty", lang=lang)
    return tau, no_tau, penalty


def window_try(ctx: Context, n: int, name: str, finder, key: str, views, fallback, steps: gr.HTML,
               recorded: str, bar: LiveBar, lang: str = i18n.DEFAULT):
    """τ / λ knobs and a button: re-decode the chapter's prompt live and land with its rule; a
    run without the chapter's moment lands where fallback(timeline) -> (step, note) says, and
    says so. The chapter's stepper then steps the live run, and `bar` says so and offers the
    recording (`recorded`: the stepper as built) back. `views` and `fallback` come bound to the page's language
    (functools.partial); `lang` words the box itself."""
    with try_box():
        gr.Markdown(i18n.text(lang, "tour.try_redecode", prompt=escape(opening(TOUR_PROMPTS[name][0]))))
        tau, no_tau, penalty = tau_lambda(f"tour{n}", lang)
        btn = gr.Button(i18n.text(lang, "tour.redecode"), elem_id=f"tour-try-{n}")

    def run(t, nt, lam):
        live = redecode(ctx, name, t, nt, lam)
        k = finder(live.trace)
        if k is not None:
            return stepper_html(live, key, views(k), k, lang=lang)
        k, note = fallback(live)
        return stepper_html(live, key, views(None, note), k, lang=lang)

    event = btn.click(run, [tau, no_tau, penalty], [steps], js=bar.press_js,
                      api_name=i18n.api_name(f"tour_chapter_{n}", lang),
                      **pool(ctx))
    bar.offer(event, [tau, no_tau, penalty], lambda t, nt, lam: tau_lambda_words(t, nt, lam, lang), [steps],
              (recorded,))


# ---------- stepping a chapter in the browser (app/views/stepper.py) ----------

def stepper_html(tl: Timeline, key: str, views, start: int, lang: str = i18n.DEFAULT) -> str:
    """The chapter's ± step controls and every step of `tl` drawn once (no request per step)."""
    from ...views import stepper
    return stepper.bundle_html(tl, key, views, start=start, link=f"chapter={key.removeprefix('tour-')}",
                               keys="present", lang=lang)


def slot(key: str, name: str, elem_id: str | None = None, **kwargs) -> gr.HTML:
    """A box the stepper fills with view `name` of the shown step (it never changes itself)."""
    from ...views import stepper
    return gr.HTML(stepper.slot_html(key, name), elem_id=elem_id, js_on_load=None, **kwargs)


def drawn(views, tl: Timeline, step: int) -> tuple:
    """What the page shows at `step`: every step view, then every whole view with its marker
    for `step` shown (as stepper.js shows it). Tests and the narration read the same HTML."""
    marker = f'class="at-step" data-at-step="{step}"'
    return (tuple(fn(tl, step) for fn in views.step.values())
            + tuple(fn(tl).replace(marker, f'class="at-step now" data-at-step="{step}"')
                    for fn in views.whole.values()))
