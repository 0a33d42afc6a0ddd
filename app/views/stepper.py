"""Stepping in the browser: every view of every step of a trace is drawn ONCE on the server (by
the same renderers as everywhere else), shipped to the page as one bounded bundle, and switched
by app/static/stepper.js with no request to the server. The offline replay export
(app/views/export.py) is the same bundle, the same script and the same CSS in one file.

API (stable: the Decode tab, the tour and the export use it)
  bundle_html(timeline, key, views=DECODE_VIEWS, *, start=None, live=False, keys=False)
      The stepper `key`: its controls (first / back / play / next / last, a slider, the step's
      one-sentence summary in an aria-live region) and the trace's drawn views as JSON. Put it
      in one gr.HTML and update that gr.HTML when the trace changes (nothing else needs to).
      start: the step shown first (default: the last); live: a decode still running (only its
      newest step is drawn, the controls wait); keys: ←/→, Space, Home/End drive this stepper
      while it is visible and no text box has focus (keys="present": the tour's projector mode
      drives it with ↓/↑ and . / , instead, app/static/present.js; the buttons' tooltips name
      whichever keys are true, none when keys=False); play_ms: one step every this many
      milliseconds while playing; autoplay: play from `start` as soon as the bundle arrives.
  slot_html(key, view)
      An empty box where view `view` of stepper `key` appears; put it anywhere on the page (the
      same gr.HTML as the bundle or another, which then never changes). stepper.js fills it at
      every step and sets its data-step to the step it shows.
  Views: a view is a function. StepView(timeline, step) -> HTML is drawn for every step;
      WholeView(timeline) -> HTML is drawn once per trace, and its elements that carry
      data-at-step="k" get the class "now" while step k is shown (a marker, a table row). A tab
      registers its views by passing its own Views(step={name: fn}, whole={name: fn}).
  In the page: window.wedlmStepper.show(key, step), .current(key), .toggle(key), and a
  "wedlm-step" event on document with detail {key, step} after every shown step.

Bounds: a bundle holds at most MAX_STEPS steps and MAX_BUNDLE_BYTES of drawn HTML. A longer
trace shows its first steps that fit, and the page says so (download the trace JSON for the
rest; nothing freezes).

Language: bundle_html(..., lang=lang) draws every view, the step summaries (the aria-live
sentence) and the controls in `lang` (app/i18n/views.py), and marks the stepper lang="...". The
words stepper.js shows itself (Play/Pause, "copied", ...) come from the page's CSS, by that lang
(app/views/script_words.py); the script holds no words of its own.
"""
from __future__ import annotations

import base64
import gzip
import json
from dataclasses import dataclass, field
from html import escape
from typing import Callable

from .. import i18n
from . import charts, render
from .timeline import Timeline

MAX_STEPS = 600              # steps one bundle draws
MAX_BUNDLE_BYTES = 6_000_000  # drawn HTML in one bundle (about 10 KB a step for 600 steps)
PLAY_MS = 500                 # play: one step every this many milliseconds

StepView = Callable[[Timeline, int], str]
WholeView = Callable[[Timeline], str]


@dataclass(frozen=True)
class Views:
    step: dict[str, StepView] = field(default_factory=dict)
    whole: dict[str, WholeView] = field(default_factory=dict)
    # a page that steps two decodes at once (the tour's chapter 5) steps the longer one's count and
    # words each step's one-sentence summary itself; by default: the timeline's steps, step_summary
    steps: Callable[[Timeline], int] | None = None
    summary: StepView | None = None


def decode_views(lang: str = i18n.DEFAULT) -> Views:
    """The Decode tab's views, their words in `lang`."""
    return Views(
        step={
            "badge": lambda tl, k: render.badge(tl, k, lang=lang),
            "narration": lambda tl, k: render.narration_html(tl, k, lang=lang),
            "canvas": lambda tl, k: render.token_canvas(tl, k, colour_by="page", tips=False, lang=lang),
            "output": lambda tl, k: render.output_view(tl, k, lang=lang),
            "orders": lambda tl, k: render.order_view(tl, k, lang=lang),
            "bars": lambda tl, k: charts.entropy_bars(tl, k, lang=lang),
            "mask-physical": lambda tl, k: render.mask_grid(tl, k, logical=False, lang=lang),
            "mask-logical": lambda tl, k: render.mask_grid(tl, k, logical=True, lang=lang),
        },
        whole={
            "growth": lambda tl: charts.prefix_growth(tl, lang=lang),
            "heatmap": lambda tl: charts.entropy_heatmap(tl, lang=lang),
            "table": lambda tl: render.step_table(tl, lang=lang),
        })


DECODE_VIEWS = decode_views()  # English; bundle_html/draw swap in decode_views(lang) for another language
LIVE_WHOLE = ("growth",)  # while decoding, the whole-trace views worth redrawing every refresh


def encode(data: dict) -> str:
    """The drawn views as the page receives them: JSON, gzipped, in base64 (views repeat from
    step to step, so this is 10-30 times smaller than the HTML; base64 is inert text in a hidden div).
    stepper.js unpacks it with the browser's DecompressionStream."""
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return base64.b64encode(gzip.compress(raw, compresslevel=6, mtime=0)).decode("ascii")


def decode(text: str) -> dict:
    """encode()'s inverse (tests and tools read bundles with it)."""
    return json.loads(gzip.decompress(base64.b64decode(text)))


def bundle_data(html: str) -> dict:
    """The drawn data inside a bundle_html() string."""
    body = html.split('class="wedlm-steps"', 1)[1].split(">", 1)[1].split("<", 1)[0]
    return decode(body)


def draw(timeline: Timeline, views: Views = DECODE_VIEWS, *, live: bool = False, lang: str = i18n.DEFAULT) -> dict:
    """Every view of the steps that fit the bounds, as plain data (what the page receives)."""
    if views is DECODE_VIEWS and lang != i18n.DEFAULT:
        views = decode_views(lang)
    n = views.steps(timeline) if views.steps else timeline.num_steps
    first = n - 1 if live else 0
    drawn: dict[str, list[str]] = {name: [] for name in views.step}
    summaries: list[str] = []
    whole = {name: fn(timeline) for name, fn in views.whole.items() if not live or name in LIVE_WHOLE}
    used = sum(len(h) for h in whole.values())
    for k in range(first, n):
        if k - first >= MAX_STEPS:
            break
        html = {name: fn(timeline, k) for name, fn in views.step.items()}
        size = sum(len(h) for h in html.values())
        if used + size > MAX_BUNDLE_BYTES and k > first:
            break
        used += size
        for name, h in html.items():
            drawn[name].append(h)
        summaries.append(views.summary(timeline, k) if views.summary else render.step_summary(timeline, k, lang))
    count = len(summaries)
    return {"total": n, "first": first, "count": count, "views": drawn, "whole": whole,
            "summaries": summaries, "tips": {str(p): t for p, t in render.position_tips(timeline, lang).items()},
            "tints": render.canvas_tints(timeline), "live": live, "bytes": used,
            "capped": (not live) and count < n}


def bundle_html(timeline: Timeline | None, key: str, views: Views = DECODE_VIEWS, *, start: int | None = None,
                live: bool = False, keys: bool | str = False, data: dict | None = None, link: str | None = None,
                play_ms: int = PLAY_MS, autoplay: bool = False, lang: str = i18n.DEFAULT) -> str:
    """The stepper `key` for `timeline` (see the module's docstring); `data`: draw()'s result
    when the caller cached it; `link`: a query string (e.g. "chapter=3") for a "Copy link to
    this step" button that copies the page's URL with it and step=K (app/links.py reads it)."""
    if timeline is None or timeline.num_steps == 0:
        return (f'<div class="wedlm-stepper empty" data-stepper="{escape(key)}">'
                f'{render.empty_view(lang=lang)}</div>')
    tr = i18n.Texts(lang)
    data = data if data is not None else draw(timeline, views, live=live, lang=lang)
    last = data["first"] + data["count"] - 1
    start = last if start is None else max(data["first"], min(int(start), last))
    note = ""
    if data["capped"]:
        note = ('<div class="stepper-note">' + tr("views.stepper.capped", total=data["total"], count=data["count"],
                                                   max_steps=MAX_STEPS, mb=MAX_BUNDLE_BYTES // 1_000_000) + '</div>')
    keys_attr = ' data-keys="1"' if keys is True else ""
    key_help = f'<div class="stepper-keys">{tr("views.stepper.keys")}</div>' if keys is True else ""
    live_attr = f' data-live="{escape(tr("views.lane.decoding"))}"' if live else ""  # style.css shows it
    play_attr = ' data-autoplay="1"' if autoplay and not live else ""
    state = {"play": ' data-state="play"'}  # the play button's icon is drawn by style.css from it
    # a tooltip names only the keys that really press the button: the stepper's own (keys=True),
    # projector mode's (keys="present": app/static/present.js, whose Space moves the tour on)
    suffix = {True: "_title", "present": "_title_present"}.get(keys)
    buttons = "".join(f'<button type="button" data-act="{act}"{state.get(act, "")}'
                      + (f' title="{tr(f"views.stepper.{act}{suffix}")}"' if suffix else "") + '>'
                      f'{tr("views.js.play" if act == "play" else f"views.stepper.{act}")}</button>'
                      for act in ("first", "prev", "play", "next", "last"))
    slider = (f'<input type="range" min="{data["first"]}" max="{last}" value="{start}" '
              f'aria-label="{tr("views.stepper.step")}"> <output class="stepper-label">{start}</output>')
    forward = f'<output class="stepper-forward">{start + 1}</output>'   # stepper.js keeps it at the step + 1
    return (f'<div class="wedlm-stepper" lang="{i18n.HTML_LANG.get(lang, lang)}" data-stepper="{escape(key)}" '
            f'data-start="{start}" data-play-ms="{int(play_ms)}"{keys_attr}{live_attr}{play_attr}>'
            f'<div class="stepper-controls" role="group" aria-label="{tr("views.stepper.group")}">{buttons}'
            f'<label class="stepper-range">{tr("views.stepper.range", input=slider, last=data["total"] - 1, forward=forward)}'
            f'</label></div>{key_help}{note}'
            f'{link_html(link, lang) if link and not live else ""}'
            f'<div class="stepper-summary" aria-live="polite"></div>'
            f'<div class="wedlm-steps" hidden>{encode(data)}</div></div>')


def link_html(query: str, lang: str = i18n.DEFAULT) -> str:
    """A stepper's "Copy link to this step" button and the box the link always shows in."""
    tr = i18n.Texts(lang)
    return (f'<div class="stepper-link"><button type="button" data-link="{escape(query)}">{tr("views.stepper.copy_link")}'
            f'</button> <input type="text" readonly class="link-url" hidden aria-label="{tr("views.stepper.link_label")}">'
            f'</div>')


def slot_html(key: str, view: str) -> str:
    """The box view `view` of stepper `key` shows in (stepper.js fills it)."""
    return f'<div class="wedlm-view" data-stepper="{escape(key)}" data-view="{escape(view)}"></div>'
