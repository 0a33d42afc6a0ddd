"""Plotly figures: plain functions of a trace (through its Timeline) and a step index.

Figures are built from plain dicts and handed to Plotly unvalidated: validation cost ~50 ms a
figure, which made stepping through a trace slow. The dicts below are the whole spec.
"""
from __future__ import annotations

import plotly.graph_objects as go

from wedlm.reorder import visibility

from .render import token_label
from .timeline import Timeline

AXIS = dict(gridcolor="#e5e7eb", zerolinecolor="#d1d5db", automargin=True)


def make_figure(data: list[dict], title: str, height: int, **layout) -> go.Figure:
    """A figure with the explorer's look and an explicit height (never zero)."""
    base = dict(title=dict(text=title, font=dict(size=13)), height=height, font=dict(size=11),
                margin=dict(l=50, r=20, t=40, b=40), plot_bgcolor="white", paper_bgcolor="white",
                xaxis=dict(AXIS), yaxis=dict(AXIS))
    for key, value in layout.items():
        base[key] = {**base[key], **value} if isinstance(value, dict) and key in base else value
    return go.Figure({"data": data, "layout": base}, _validate=False)


def _plain(label: str) -> str:
    """Axis labels are set as text by Plotly; undo the HTML escaping of token_label."""
    return (label.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
            .replace("&quot;", '"').replace("&#x27;", "'"))


def attention_mask(timeline: Timeline, step: int, logical: bool) -> go.Figure:
    """Window rows × [prefix, window] columns of a recorded step."""
    s = timeline.trace.steps[step]
    labels = [_plain(token_label(timeline, tok)) for tok in s.window]
    return window_mask(s.window, s.order, s.start, s.cache_before, labels, logical)


def window_mask(window: list, order: list[int], start: int, cache_len: int, labels: list[str],
                logical: bool) -> go.Figure:
    """In physical order the mask is the causal triangle that really runs; in logical order the
    same mask seen from each token's place in the text (masks see later filled tokens)."""
    idx = list(range(len(window))) if logical else list(order)
    vis = visibility(window)  # the same mask either way; only the row/column order differs
    names = [f"{start + i}:{labels[i]}" for i in idx]
    z = [[1] + [int(vis[i][j]) for j in idx] for i in idx]
    x = [f"prefix ({cache_len})"] + names
    heat = dict(type="heatmap", z=z, x=list(range(len(x))), y=list(range(len(idx))),
                colorscale=[[0, "#f3f4f6"], [1, "#2563eb"]], showscale=False, xgap=1, ygap=1,
                zmin=0, zmax=1, hovertemplate="row %{y}, column %{x}: %{z}<extra>1 = sees</extra>")
    title = "Attention, logical order" if logical else "Attention, physical order (what runs)"
    return make_figure([heat], title, 420,
                       xaxis=dict(tickmode="array", tickvals=list(range(len(x))), ticktext=x, tickangle=-60),
                       yaxis=dict(tickmode="array", tickvals=list(range(len(idx))), ticktext=names,
                                  autorange="reversed"))


def training_mask_figure(is_mask: list[bool], block_size: int) -> go.Figure:
    """The dual-stream training mask (2L × 2L), built by the training code itself."""
    import torch
    from wedlm.training.objective import training_mask
    allowed = training_mask(torch.tensor([is_mask]), block_size)[0, 0].int().tolist()
    length = len(is_mask)
    names = [f"x0:{i}" for i in range(length)] + [f"xt:{i}{'[M]' if is_mask[i] else ''}" for i in range(length)]
    heat = dict(type="heatmap", z=allowed, x=names, y=names, colorscale=[[0, "#f3f4f6"], [1, "#7c3aed"]],
                showscale=False, xgap=1, ygap=1, hovertemplate="%{y} sees %{x}: %{z}<extra></extra>")
    return make_figure([heat], f"Dual-stream training mask (L = {length}, blocks of {block_size})", 560,
                       xaxis=dict(tickangle=-60), yaxis=dict(autorange="reversed"))


def entropy_bars(timeline: Timeline, step: int) -> go.Figure:
    s = timeline.trace.steps[step]
    data = []
    if s.masks:
        x = [str(m.pos) for m in s.masks]
        data.append(dict(type="bar", x=x, y=[m.entropy for m in s.masks], name="entropy H",
                         marker=dict(color=["#16a34a" if m.selected else "#9ca3af" for m in s.masks]),
                         hovertemplate="position %{x}<br>H = %{y:.3f} nats<extra></extra>"))
        data.append(dict(type="bar", x=x, y=[m.score - m.entropy for m in s.masks], name="λ·d",
                         marker=dict(color="#f59e0b"), hovertemplate="position %{x}<br>λ·d = %{y:.3f}<extra></extra>"))
        if s.threshold is not None:
            data.append(dict(type="scatter", x=[x[0], x[-1]], y=[s.threshold, s.threshold], mode="lines",
                             name=f"τ = {s.threshold}", line=dict(color="#dc2626", dash="dash")))
    title = "Mask slots this step (green = filled)" if s.masks else "No open masks this step"
    return make_figure(data, title, 320, barmode="stack",
                       xaxis=dict(title=dict(text="mask slot (logical position)"), type="category"),
                       yaxis=dict(title=dict(text="score = H + λ·d")))


def entropy_heatmap(timeline: Timeline) -> go.Figure:
    steps = timeline.trace.steps
    positions = sorted({m.pos for s in steps for m in s.masks})
    col = {p: i for i, p in enumerate(positions)}
    z = [[None] * len(positions) for _ in steps]
    for s in steps:
        for m in s.masks:
            z[s.index][col[m.pos]] = m.entropy
    heat = dict(type="heatmap", z=z, x=positions, y=list(range(len(steps))), colorscale=[[0, "#1a9850"], [0.5, "#ffffbf"], [1, "#d73027"]],
                colorbar=dict(title=dict(text="H")), zmin=0,
                hovertemplate="step %{y}, position %{x}<br>H = %{z:.2f}<extra></extra>")
    return make_figure([heat], "Entropy of every mask slot, step by step", 360,
                       xaxis=dict(title=dict(text="logical position")),
                       yaxis=dict(title=dict(text="step"), autorange="reversed"))


def prefix_growth(timelines: dict[str, Timeline], current: int | None = None) -> go.Figure:
    """Committed output tokens against forward passes, one line per decode."""
    data, longest = [], 1
    for name, tl in timelines.items():
        y = list(tl.committed_after)
        longest = max(longest, len(y))
        data.append(dict(type="scatter", x=list(range(1, len(y) + 1)), y=y, mode="lines+markers", name=name,
                         hovertemplate="forward %{x}: %{y} committed<extra>" + name + "</extra>"))
    data.append(dict(type="scatter", x=[0, longest], y=[0, longest], mode="lines",
                     name="one token per forward (AR pace)", line=dict(dash="dot", color="#9ca3af")))
    shapes = []
    if current is not None:
        shapes.append(dict(type="line", x0=current + 1, x1=current + 1, y0=0, y1=1, yref="paper",
                           line=dict(color="#dc2626", dash="dash")))
    return make_figure(data, "Committed prefix growth", 340, shapes=shapes,
                       xaxis=dict(title=dict(text="forward passes after prefill")),
                       yaxis=dict(title=dict(text="committed tokens")),
                       legend=dict(orientation="h", y=-0.25))
