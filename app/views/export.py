"""Exports: a self-contained HTML replay of a trace that runs in any browser with no server and
no model. It is the Decode tab's own stepper (app/views/stepper.py): the same drawn views, the
same app/static/stepper.js and highlight.js, the same CSS, in one file, so the export and the
app cannot drift apart."""
from __future__ import annotations

from html import escape
from pathlib import Path

from .. import i18n
from . import palette, render, stepper
from .timeline import Timeline

STATIC = Path(__file__).parent.parent / "static"
STYLE = palette.css_variables() + (STATIC / "style.css").read_text(encoding="utf-8")
SCRIPTS = "".join((STATIC / name).read_text(encoding="utf-8") for name in ("highlight.js", "stepper.js"))
KEY = "decode"
EXPORT_CSS = """body { font-family: system-ui, sans-serif; margin: 16px auto; max-width: 1400px; padding: 0 12px; }
.export-grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 420px), 1fr)); gap: 12px; }
.export-grid > * { min-width: 0; } .export-row { margin: 10px 0; }"""

# The Decode tab's arrangement: (view, element id) rows; a row of two sits side by side when wide.
LAYOUT = [[("badge", "badge")], [("narration", "narration")], [("canvas", "canvas")], [("output", "output")],
          [("orders", "orders")], [("bars", "entropy-bars"), ("growth", "growth")],
          [("mask-physical", "mask-physical"), ("mask-logical", "mask-logical")],
          [("heatmap", "entropy-heatmap")], [("table", "step-table")]]


def _box(view: str, elem_id: str) -> str:
    return f'<div id="{elem_id}">{stepper.slot_html(KEY, view)}</div>'


def replay_html(timeline: Timeline, start: int | None = None, lang: str = i18n.DEFAULT) -> str:
    """One HTML file: the stepper with every view of every step (drawn like the app's), opened
    at step `start` (default: the first)."""
    trace = timeline.trace
    stats = trace.stats()
    tr = i18n.Texts(lang)
    summary = (tr("views.export.summary", tokens=stats.get('generated_tokens', 0), forwards=stats.get('forwards', 0),
                  tpf=f"{stats.get('tokens_per_forward', 0):.2f}") if stats else tr("views.export.unfinished"))
    rows = "".join(f'<div class="{"export-grid" if len(row) > 1 else "export-row"}">'
                   + "".join(_box(v, i) for v, i in row) + "</div>" for row in LAYOUT)
    bundle = stepper.bundle_html(timeline, KEY, start=0 if start is None else start, keys=True,
                                 lang=lang)
    heading = tr("views.export.heading", decoder=escape(render.decoder_name(trace.decoder, lang)),
                 model=escape(trace.model.split("/")[-1]))
    return (f'<!doctype html><html lang="{i18n.HTML_LANG.get(lang, lang)}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{tr("views.export.title")}</title><style>{STYLE}{EXPORT_CSS}</style></head><body>'
            f'<h2>{heading}</h2><p>{tr("views.export.made_by", summary=escape(summary))}</p>'
            f'<div id="stepper">{bundle}</div>{rows}<script>{SCRIPTS}</script></body></html>')


def figures_html(timeline: Timeline, step: int, lang: str = i18n.DEFAULT) -> str:
    """Every view of one step: the replay, opened at `step`."""
    return replay_html(timeline, start=step, lang=lang)
