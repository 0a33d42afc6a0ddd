"""HTML views of a trace. Every piece of text from a prompt, a model or a file is escaped here."""
from __future__ import annotations

from html import escape

from .timeline import Timeline

STATE_LABEL = {"mask": "mask", "filled": "filled, not committed", "new": "new this step",
               "committed": "committed"}


def token_label(timeline: Timeline, token: int | None) -> str:
    """Readable, escaped text of one token: special tokens named, whitespace made visible."""
    trace = timeline.trace
    if token is None or token == trace.mask_token_id:
        return "[M]"
    if token in trace.stop_ids:
        return "&lt;EOS&gt;"
    text = trace.tokens.get(token, f"#{token}")
    if text.startswith("<|") and text.endswith("|>"):
        return escape(text)
    shown = text.replace(" ", "·").replace("\n", "↵").replace("\t", "→")
    return escape(shown) if shown else "∅"


def _entropy_colour(h: float | None) -> str:
    if h is None:
        return "#e5e7eb"
    x = max(0.0, min(1.0, h / 3.0))  # 0 nats: green, >= 3 nats: red
    return f"hsl({int(120 * (1 - x))}, 70%, 82%)"


def _step_colour(step: int | None, steps: int) -> str:
    if step is None:
        return "#e5e7eb"
    x = (step + 1) / max(1, steps)
    return f"hsl({int(220 - 180 * x)}, 65%, 82%)"


def _tooltip(timeline: Timeline, pos: int) -> str:
    p = timeline.positions.get(pos)
    if p is None or p.token is None:
        return f"position {pos}: mask"
    tokens = timeline.trace.tokens
    cands = ", ".join(f"{tokens.get(int(t), '#' + str(t))!r} {float(q):.2f}" for t, q in p.candidates[:5])
    filled = "prefill" if p.fill_step == -1 else f"step {p.fill_step}"
    committed = "not yet" if p.commit_step is None else f"step {p.commit_step}"
    ent = "" if p.entropy is None else f"entropy {p.entropy:.2f} nats\n"
    return (f"position {pos}: {tokens.get(p.token, '#' + str(p.token))!r}\n{ent}"
            f"filled at {filled}, committed at {committed}\ntop candidates: {cands}")


def token_canvas(timeline: Timeline, step: int, colour_by: str = "entropy") -> str:
    """The output so far at `step`: every slot with its state; hover for its story."""
    cells = []
    for pos in timeline.visible_positions(step):
        state = timeline.state_at(pos, step)
        p = timeline.positions.get(pos)
        token = p.token if p and state != "mask" else None
        if state == "mask":
            bg = "#d1d5db"
        elif colour_by == "step":
            bg = _step_colour(p.fill_step, timeline.num_steps)
        else:
            bg = _entropy_colour(p.entropy)
        special = " special" if token is not None and token in timeline.trace.stop_ids else ""
        cells.append(f'<span class="tok {state}{special}" style="background:{bg}" '
                     f'data-pos="{pos}" title="{escape(_tooltip(timeline, pos))}">'
                     f'{token_label(timeline, token)}</span>')
    legend = "".join(f'<span class="tok {k} legend">{escape(v)}</span>' for k, v in STATE_LABEL.items())
    prompt = escape(timeline.trace.prompt)
    return (f'<div class="canvas"><div class="prompt" title="prompt">{prompt}</div>'
            f'<div class="tokens">{"".join(cells)}</div><div class="legend">{legend}</div></div>')


def order_view(timeline: Timeline, step: int) -> str:
    """The window of `step` in logical and physical order with position ids, and the cache."""
    s = timeline.trace.steps[step]
    n = len(s.committed)

    def slot(i: int) -> str:
        tok = s.window[i]
        kind = "mask" if tok is None else ("commit" if i < n else "filled")
        return (f'<div class="slot {kind}"><div class="tokt">{token_label(timeline, tok)}</div>'
                f'<div class="pid">{s.start + i}</div></div>')

    logical = "".join(slot(i) for i in range(len(s.window)))
    physical = "".join(slot(i) for i in s.order)
    cache_tail = 24
    cached = timeline.trace.prompt_ids + [t for t in _committed_before(timeline, step)]
    shown = cached[-cache_tail:]
    strip = "".join(f'<div class="kv">{token_label(timeline, t)}</div>' for t in shown)
    new = "".join(f'<div class="kv new">{token_label(timeline, t)}</div>' for t in s.committed)
    more = f'<div class="kv more">…{len(cached) - len(shown)} more</div>' if len(cached) > len(shown) else ""
    return (f'<div class="orders"><div class="row"><span class="lab">logical order</span>{logical}</div>'
            f'<div class="row"><span class="lab">physical order (fed to the model)</span>{physical}</div>'
            f'<div class="row"><span class="lab">KV cache: {s.cache_before} → {s.cache_after} tokens</span>'
            f'{more}{strip}{new}</div>'
            f'<div class="note">Numbers are position ids (logical positions, what RoPE sees). '
            f'Green slots commit this step: their KV stays in the cache.</div></div>')


def _committed_before(timeline: Timeline, step: int) -> list[int]:
    out = []
    for s in timeline.trace.steps[:step]:
        out.extend(s.committed)
    return out


def step_table(timeline: Timeline, current: int) -> str:
    rows = []
    for s in timeline.trace.steps:
        cls = ' class="current"' if s.index == current else ""
        rows.append(f"<tr{cls}><td>{s.index}</td><td>{s.rows}</td><td>{len(s.filled)}</td>"
                    f"<td>{len(s.committed)}</td><td>{s.cache_after}</td><td>{s.seconds * 1000:.1f}</td></tr>")
    head = ("<tr><th>step</th><th>rows in forward</th><th>filled</th><th>committed</th>"
            "<th>cache length</th><th>ms</th></tr>")
    return f'<div class="steptable"><table>{head}{"".join(rows)}</table></div>'


def badge(timeline: Timeline, step: int) -> str:
    trace = timeline.trace
    stats = trace.stats()
    extra = ""
    if stats:
        extra = (f" · {stats['generated_tokens']} tokens / {stats['forwards']} forwards = "
                 f"{stats['tokens_per_forward']:.2f} per forward · p_cache {stats['p_cache']:.2f}")
    return (f'<div class="badge"><span class="dec">{escape(trace.decoder)}</span> '
            f'model {escape(trace.model.split("/")[-1])} · step {step} (forward {step + 1} of {timeline.num_steps}){extra}</div>')


def mask_grid(timeline: Timeline, step: int, logical: bool) -> str:
    """The step's attention mask as an HTML grid (window rows × [prefix, window] columns): in
    physical order the causal triangle that runs, in logical order what each token sees from
    its place in the text. HTML rather than a plot: it redraws in a few ms while stepping."""
    from wedlm.reorder import visibility

    s = timeline.trace.steps[step]
    window = s.window
    idx = list(range(len(window))) if logical else list(s.order)
    vis = visibility(window)  # the same mask either way; only the row/column order differs
    names = [f"{s.start + i}:{token_label(timeline, window[i])}" for i in idx]
    head = "".join(f'<th class="col"><div>{n}</div></th>' for n in names)
    rows = []
    for r, i in enumerate(idx):
        kind = "mask" if window[i] is None else ("commit" if i < len(s.committed) else "filled")
        # "later": a mask seeing a filled token logically after it (what reordering buys)
        cells = "".join(f'<td class="{"off" if not vis[i][j] else "on later" if window[i] is None and j > i else "on"}"></td>'
                        for j in idx)
        rows.append(f'<tr><th class="row {kind}">{names[r]}</th><td class="on prefix"></td>{cells}</tr>')
    title = "logical order" if logical else "physical order (what runs)"
    return (f'<div class="maskgrid"><div class="gridtitle">Attention, {title}: row sees column '
            f'(blue); the first column is the cached prefix ({s.cache_before} tokens)</div>'
            f'<table><tr><th></th><th class="col"><div>prefix</div></th>{head}</tr>{"".join(rows)}</table></div>')
