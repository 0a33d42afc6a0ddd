"""The entropy explorer: how output entropy decides WeDLM's speedup."""
from __future__ import annotations

import statistics
import time
from dataclasses import replace

import plotly.graph_objects as go

from wedlm import DecodeConfig, decode
from wedlm.suite import THRESHOLD_GRID, read_prompts

from .figures import make_figure

SWEEP = (None,) + THRESHOLD_GRID  # None first: the baseline each output is compared with
CLASS_COLOURS = {"counting": "#16a34a", "sequence": "#65a30d", "code": "#2563eb", "math": "#f59e0b",
                 "plays": "#dc2626"}


def suite_prompts() -> list[dict]:
    return read_prompts()


def fill_entropy(trace) -> float:
    """Mean entropy (nats) of the slots at the step they were filled."""
    values = [f.entropy for s in trace.steps for f in s.filled]
    return statistics.mean(values) if values else 0.0


def _time_left(deadline: float | None) -> float | None:
    return None if deadline is None else deadline - time.perf_counter()


def run_suite(lm, ar_lm, config: DecodeConfig, prompts: list[dict], progress=None,
              time_limit_s: float | None = None) -> list[dict]:
    """One row per prompt; with time_limit_s, the prompts that fit in it (a GPU lease)."""
    deadline = None if time_limit_s is None else time.perf_counter() + time_limit_s
    rows = []
    for k, p in enumerate(prompts):
        if deadline is not None and _time_left(deadline) <= 0:
            break
        if progress:
            progress((k, len(prompts)), desc=f"decoding {p['id']}")
        wedlm = decode(lm, p["prompt"], "streaming", config, time_limit_s=_time_left(deadline))
        ar = decode(ar_lm, p["prompt"], "ar", config, time_limit_s=_time_left(deadline))
        ws, ars = wedlm.stats(), ar.stats()
        rows.append({"id": p["id"], "class": p["class"], "entropy": round(fill_entropy(wedlm), 3),
                     "tokens_per_forward": round(ws["tokens_per_forward"], 2),
                     "speedup_tokens_per_s": round(ws["tokens_per_s"] / ars["tokens_per_s"], 2) if ars["tokens_per_s"] else None,
                     "forward_ratio": round(ars["forwards"] / max(ws["forwards"], 1), 2),
                     "text": wedlm.text[:80]})
    return rows


def law_figure(rows: list[dict]) -> go.Figure:
    data = []
    for cls in dict.fromkeys(r["class"] for r in rows):
        sel = [r for r in rows if r["class"] == cls]
        data.append(dict(type="scatter", x=[r["entropy"] for r in sel], y=[r["tokens_per_forward"] for r in sel],
                         mode="markers+text", name=cls, text=[r["id"] for r in sel], textposition="top center",
                         marker=dict(size=12, color=CLASS_COLOURS.get(cls)),
                         customdata=[[r["speedup_tokens_per_s"]] for r in sel],
                         hovertemplate="%{text}<br>entropy %{x:.2f} nats<br>TPF %{y:.2f}"
                                       "<br>speedup vs AR %{customdata[0]}×<extra></extra>"))
    return make_figure(data, "Low entropy, many tokens per forward", 440,
                       xaxis=dict(title=dict(text="mean entropy of filled slots (nats)")),
                       yaxis=dict(title=dict(text="tokens per forward")))


def tau_sweep(lm, prompt: str, config: DecodeConfig,
              time_limit_s: float | None = None) -> tuple[list[dict], go.Figure]:
    rows = tau_sweep_rows(lm, prompt, config, time_limit_s)
    return rows, sweep_figure(rows)


def tau_sweep_rows(lm, prompt: str, config: DecodeConfig,
                   time_limit_s: float | None = None) -> list[dict]:
    """One row per τ of SWEEP; with time_limit_s, the τ values that fit in it."""
    deadline = None if time_limit_s is None else time.perf_counter() + time_limit_s
    base = decode(lm, prompt, "streaming", replace(config, threshold=None),
                  time_limit_s=_time_left(deadline))
    rows = []
    for tau in SWEEP:
        if tau is not None and deadline is not None and _time_left(deadline) <= 0:
            break
        trace = base if tau is None else decode(lm, prompt, "streaming", replace(config, threshold=tau),
                                                time_limit_s=_time_left(deadline))
        rows.append({"threshold": "none" if tau is None else tau,
                     "tokens_per_forward": round(trace.stats()["tokens_per_forward"], 2),
                     "output_changed": trace.token_ids != base.token_ids})
    return rows


def sweep_figure(rows: list[dict]) -> go.Figure:
    line = dict(type="scatter", x=[str(r["threshold"]) for r in rows], y=[r["tokens_per_forward"] for r in rows],
                mode="lines+markers", hovertemplate="τ = %{x}<br>TPF %{y:.2f}<extra></extra>",
                marker=dict(size=11, color=["#dc2626" if r["output_changed"] else "#16a34a" for r in rows]))
    return make_figure([line], "τ sweep (red: output differs from τ = none)", 380,
                             xaxis=dict(title=dict(text="threshold τ"), type="category"),
                             yaxis=dict(title=dict(text="tokens per forward")))
