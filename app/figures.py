"""Plotly figures: plain functions of a trace (through its Timeline) and a step index."""
from __future__ import annotations

import plotly.graph_objects as go

from wedlm.reorder import physical_mask, visibility

from .render import token_label
from .timeline import Timeline

FONT = dict(size=11)


def _layout(fig: go.Figure, title: str, height: int) -> go.Figure:
    fig.update_layout(title=dict(text=title, font=dict(size=13)), height=height, font=FONT,
                      margin=dict(l=50, r=20, t=40, b=40), template="plotly_white")
    return fig


def _plain(label: str) -> str:
    """Axis labels are set as text by Plotly; undo the HTML escaping of token_label."""
    return label.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&").replace("&quot;", '"').replace("&#x27;", "'")


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
    if logical:
        vis = visibility(window)
    else:
        tri = physical_mask(len(window))
        rank = {w: r for r, w in enumerate(order)}
        vis = [[tri[rank[i]][rank[j]] for j in range(len(window))] for i in range(len(window))]
    names = [f"{start + i}:{labels[i]}" for i in idx]
    z = [[1] + [int(vis[i][j]) for j in idx] for i in idx]
    x = [f"prefix ({cache_len})"] + names
    hover = [[f"{names[r]} sees {x[c]}" if z[r][c] else f"{names[r]} does not see {x[c]}"
              for c in range(len(x))] for r in range(len(idx))]
    fig = go.Figure(go.Heatmap(z=z, x=list(range(len(x))), y=list(range(len(idx))), text=hover,
                               hoverinfo="text", colorscale=[[0, "#f3f4f6"], [1, "#2563eb"]],
                               showscale=False, xgap=1, ygap=1, zmin=0, zmax=1))
    fig.update_xaxes(tickmode="array", tickvals=list(range(len(x))), ticktext=x, tickangle=-60)
    fig.update_yaxes(tickmode="array", tickvals=list(range(len(idx))), ticktext=names, autorange="reversed")
    title = "Attention, logical order" if logical else "Attention, physical order (what runs)"
    return _layout(fig, title, height=420)


def training_mask_figure(is_mask: list[bool], block_size: int) -> go.Figure:
    """The dual-stream training mask (2L × 2L), built by the training code itself."""
    import torch
    from wedlm.training.objective import training_mask
    allowed = training_mask(torch.tensor([is_mask]), block_size)[0, 0].int().tolist()
    length = len(is_mask)
    names = [f"x0:{i}" for i in range(length)] + [f"xt:{i}{'[M]' if is_mask[i] else ''}" for i in range(length)]
    fig = go.Figure(go.Heatmap(z=allowed, x=names, y=names, colorscale=[[0, "#f3f4f6"], [1, "#7c3aed"]],
                               showscale=False, xgap=1, ygap=1,
                               hovertemplate="%{y} sees %{x}: %{z}<extra></extra>"))
    fig.update_yaxes(autorange="reversed")
    fig.update_xaxes(tickangle=-60)
    return _layout(fig, f"Dual-stream training mask (L = {length}, blocks of {block_size})", height=560)


def entropy_bars(timeline: Timeline, step: int) -> go.Figure:
    s = timeline.trace.steps[step]
    fig = go.Figure()
    if s.masks:
        x = [str(m.pos) for m in s.masks]
        ent = [m.entropy for m in s.masks]
        pen = [m.score - m.entropy for m in s.masks]
        colours = ["#16a34a" if m.selected else "#9ca3af" for m in s.masks]
        fig.add_bar(x=x, y=ent, name="entropy H", marker_color=colours,
                    hovertemplate="position %{x}<br>H = %{y:.3f} nats<extra></extra>")
        fig.add_bar(x=x, y=pen, name="λ·d", marker_color="#f59e0b",
                    hovertemplate="position %{x}<br>λ·d = %{y:.3f}<extra></extra>")
        if s.threshold is not None:
            fig.add_hline(y=s.threshold, line_dash="dash", line_color="#dc2626",
                          annotation_text=f"τ = {s.threshold}")
    fig.update_layout(barmode="stack", xaxis_title="mask slot (logical position)",
                      yaxis_title="score = H + λ·d")
    title = "Mask slots this step (green = filled)" if s.masks else "No open masks this step"
    return _layout(fig, title, height=320)


def entropy_heatmap(timeline: Timeline) -> go.Figure:
    steps = timeline.trace.steps
    positions = sorted({m.pos for s in steps for m in s.masks})
    col = {p: i for i, p in enumerate(positions)}
    z = [[None] * len(positions) for _ in steps]
    for s in steps:
        for m in s.masks:
            z[s.index][col[m.pos]] = m.entropy
    fig = go.Figure(go.Heatmap(z=z, x=positions, y=list(range(len(steps))), colorscale="RdYlGn_r",
                               colorbar=dict(title="H"), zmin=0,
                               hovertemplate="step %{y}, position %{x}<br>H = %{z:.2f}<extra></extra>"))
    fig.update_layout(xaxis_title="logical position", yaxis_title="step")
    fig.update_yaxes(autorange="reversed")
    return _layout(fig, "Entropy of every mask slot, step by step", height=360)


def prefix_growth(timelines: dict[str, Timeline], current: int | None = None) -> go.Figure:
    """Committed output tokens against forward passes, one line per decode."""
    fig = go.Figure()
    longest = 1
    for name, tl in timelines.items():
        y = list(tl.committed_after)
        longest = max(longest, len(y))
        fig.add_scatter(x=list(range(1, len(y) + 1)), y=y, mode="lines+markers", name=name,
                        hovertemplate="forward %{x}: %{y} committed<extra>" + name + "</extra>")
    fig.add_scatter(x=[0, longest], y=[0, longest], mode="lines", name="one token per forward (AR pace)",
                    line=dict(dash="dot", color="#9ca3af"))
    if current is not None:
        fig.add_vline(x=current + 1, line_color="#dc2626", line_dash="dash")
    fig.update_layout(xaxis_title="forward passes after prefill", yaxis_title="committed tokens",
                      legend=dict(orientation="h", y=-0.25))
    return _layout(fig, "Committed prefix growth", height=340)
