"""Exports: the current step's figures as one HTML page, and a self-contained HTML replay of a
trace that runs in any browser with no server and no model."""
from __future__ import annotations

import json
from html import escape
from pathlib import Path

import plotly.io as pio

from . import figures, palette, render
from .timeline import Timeline

STYLE = palette.css_variables() + (Path(__file__).parent.parent / "static" / "style.css").read_text(encoding="utf-8")


def figures_html(timeline: Timeline, step: int) -> str:
    """Every view of one step (the same HTML and figures as the app, the same palette), with
    plotly.js embedded once (works offline)."""
    html = [render.narration_html(timeline, step), render.token_canvas(timeline, step),
            render.order_view(timeline, step), render.mask_grid(timeline, step, logical=False),
            render.mask_grid(timeline, step, logical=True)]
    figs = [figures.entropy_bars(timeline, step), figures.entropy_heatmap(timeline),
            figures.prefix_growth({timeline.trace.decoder: timeline}, step)]
    parts = [pio.to_html(fig, full_html=False, include_plotlyjs=(k == 0)) for k, fig in enumerate(figs)]
    title = f"WeDLM Explorer: {timeline.trace.decoder}, step {step}"
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{escape(title)}</title>"
            f"<style>{STYLE}</style></head><body><h2>{escape(title)}</h2>{render.badge(timeline, step)}"
            f"{''.join(html)}{''.join(parts)}</body></html>")


def _json_for_script(data: dict) -> str:
    """JSON that cannot close its <script> element or open a comment."""
    text = json.dumps(data, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


REPLAY_JS = r"""
const trace = JSON.parse(document.getElementById('trace').textContent);
const steps = trace.steps, P = trace.prompt_ids.length, stops = new Set(trace.stop_ids);
const tok = id => id === null ? '[M]' : stops.has(id) ? '<EOS>' :
  (trace.tokens[String(id)] ?? ('#' + id)).replace(/ /g, '\u00b7').replace(/\n/g, '\u21b5');
const fill = {}, commit = {};
steps.forEach(s => { s.filled.forEach(f => { fill[f.pos] = [s.index, f.token, f.entropy]; });
  s.committed.forEach((t, k) => { commit[s.start + k] = s.index; }); });
function cell(text, cls, title) {
  const span = document.createElement('span'); span.className = 'tok ' + cls;
  span.textContent = text; if (title) span.title = title; return span; }
function show(k) {
  const s = steps[k]; document.getElementById('label').textContent =
    `step ${k} (forward ${k + 1} of ${steps.length}) · cache ${s.cache_before} \u2192 ${s.cache_after} · rows ${s.rows}`;
  const canvas = document.getElementById('canvas'); canvas.replaceChildren();
  const end = Math.max(s.start + s.window.length, ...s.filled.map(f => f.pos + 1));
  for (let p = P; p < end; p++) {
    const f = fill[p]; let state = 'mask';
    if (f && f[0] <= k) state = (commit[p] !== undefined && commit[p] <= k) ? 'committed' : (f[0] === k ? 'new' : 'filled');
    canvas.appendChild(cell(state === 'mask' ? '[M]' : tok(f[1]), state,
      f ? `position ${p}: filled at step ${f[0]}, entropy ${f[2].toFixed(2)}` : `position ${p}`));
  }
  const logical = document.getElementById('logical'), physical = document.getElementById('physical');
  logical.replaceChildren(); physical.replaceChildren();
  const n = s.committed.length;
  s.window.forEach((t, i) => logical.appendChild(cell(`${tok(t)} @${s.start + i}`, t === null ? 'mask' : (i < n ? 'committed' : 'filled'))));
  s.order.forEach(i => physical.appendChild(cell(`${tok(s.window[i])} @${s.start + i}`, s.window[i] === null ? 'mask' : (i < n ? 'committed' : 'filled'))));
}
const slider = document.getElementById('step'); slider.max = steps.length - 1;
slider.oninput = () => show(+slider.value);
let timer = null;
document.getElementById('play').onclick = () => {
  if (timer) { clearInterval(timer); timer = null; return; }
  timer = setInterval(() => { if (+slider.value >= steps.length - 1) { clearInterval(timer); timer = null; return; }
    slider.value = +slider.value + 1; show(+slider.value); }, 500); };
document.getElementById('prev').onclick = () => { slider.value = Math.max(0, +slider.value - 1); show(+slider.value); };
document.getElementById('next').onclick = () => { slider.value = Math.min(steps.length - 1, +slider.value + 1); show(+slider.value); };
if (steps.length) show(0);
"""

_C = palette.STATE_COLOURS
REPLAY_CSS = f"""body {{ font-family: sans-serif; margin: 20px; }} pre {{ white-space: pre-wrap; }}
.tok {{ display: inline-block; font-family: monospace; font-size: 16px; padding: 0 3px; margin: 1px;
  border-radius: 3px; white-space: pre; }}
.mask {{ background: {_C["mask"]}; }} .filled {{ background: {_C["filled"]}; border: 1px dashed #6b7280; }}
.new {{ background: {_C["new"]}; border: 2px solid #9a3412; }} .committed {{ background: {_C["committed"]}; }}
.row {{ margin: 6px 0; }} .lab {{ display: inline-block; width: 150px; font-size: 12px; color: #374151; }}"""


def replay_html(timeline: Timeline) -> str:
    """One HTML file: the trace embedded as JSON and a small player (all text set as text)."""
    trace = timeline.trace
    stats = trace.stats()
    summary = (f"{stats.get('generated_tokens', 0)} tokens in {stats.get('forwards', 0)} forwards, "
               f"{stats.get('tokens_per_forward', 0):.2f} per forward") if stats else "unfinished decode"
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>WeDLM trace replay</title>
<style>{REPLAY_CSS}</style></head><body>
<h2>WeDLM trace replay: {escape(trace.decoder)} on {escape(trace.model.split('/')[-1])}</h2>
<p>{escape(summary)}</p><pre>{escape(trace.prompt)}</pre>
<div><button id="prev">\u25c0</button> <button id="play">play / pause</button> <button id="next">\u25b6</button>
<input id="step" type="range" min="0" value="0" style="width:60%"> <span id="label"></span></div>
<div class="row" id="canvas"></div>
<div class="row"><span class="lab">logical order</span><span id="logical"></span></div>
<div class="row"><span class="lab">physical order</span><span id="physical"></span></div>
<script type="application/json" id="trace">{_json_for_script(trace.to_dict())}</script>
<script>{REPLAY_JS}</script></body></html>"""
