"""The entropy explorer: how output entropy decides WeDLM's speedup."""
from __future__ import annotations

import functools
import json
import statistics
import time
from dataclasses import replace
from html import escape
from pathlib import Path
from typing import Iterator

import plotly.graph_objects as go

from wedlm import DecodeConfig, decode, decode_steps, selection
from wedlm.paths import ASSETS_DIR
from wedlm.suite import THRESHOLD_GRID, read_prompts

from .. import i18n
from . import palette
from .figures import aside_below, make_figure

SWEEP = (None,) + THRESHOLD_GRID  # None first: the baseline each output is compared with
CLASS_COLOURS = {"counting": "#16a34a", "sequence": "#65a30d", "code": "#2563eb", "math": "#f59e0b",
                 "plays": "#dc2626"}
YOURS_COLOURS = ("#7c3aed", "#db2777")  # your decode, the swept prompt
RECORDED_SUITE = ASSETS_DIR / "bench" / "suite.json"  # written by tools/record_suite.py
SWEEP_DIFF_CHARS = 60  # a changed output shows this much of where it departs
SUITE_MAX_NEW_TOKENS = 96


def suite_prompts() -> list[dict]:
    return read_prompts()


@functools.lru_cache(maxsize=1)
def _prompt_lines() -> dict[str, str]:
    return {p["id"]: p["prompt"] for p in suite_prompts()}


def prompt_name(row: dict) -> str:
    """A suite row as a visitor knows it: its prompt's first line ("…" if there is more), not the
    suite's internal id (a walker asked what "code-reverse" was). Plain text: escape to render."""
    prompt = _prompt_lines().get(row["id"])
    if prompt is None:
        return row["id"]
    first = prompt.strip().splitlines()[0]
    return first + ("…" if first != prompt.strip() else "")


def fill_entropy(trace) -> float:
    """Mean entropy (nats) of the slots at the step they were filled."""
    values = [f.entropy for s in trace.steps for f in s.filled]
    return statistics.mean(values) if values else 0.0


def front_wait(trace) -> dict | None:
    """Why a decode with a low mean entropy can still be slow: the step whose FRONT slot (the
    window's first, the next token to commit) was filled with the highest entropy, and what waited
    for it. Only the leading filled run commits, so a fill past the first still-open mask (an easy
    far slot: a stop token, indentation) waits behind it, is recomputed each forward and commits
    nothing. None when no step filled its front slot."""
    front = [(f.entropy, k, f) for k, s in enumerate(trace.steps) for f in s.filled if f.pos == s.start]
    if not front:
        return None
    _, step, fill = max(front, key=lambda e: (e[0], -e[1]))
    ids = list(trace.result.token_ids) if trace.result else []
    stop = next((i for i, t in enumerate(ids) if t in trace.stop_ids), None)
    return {"step": step, "pos": fill.pos, "token": fill.token, "entropy": fill.entropy,
            # forwards that left the hard slot a mask before the one that filled it (all behind it waited)
            "held": sum(1 for s in trace.steps[:step] if any(m.pos == fill.pos for m in s.masks)),
            # tokens written before the stop token
            "written": len(ids) if stop is None else stop,
            "fills": sum(len(s.filled) for s in trace.steps), "forwards": trace.stats()["forwards"],
            # what the forward after the hard fill committed at once
            "burst": len(trace.steps[step + 1].committed) if step + 1 < len(trace.steps) else 0,
            # what the forwards that held it filled after it (they wait, then commit in that burst)
            "after": sum(1 for s in trace.steps[:step] if any(m.pos == fill.pos for m in s.masks)
                         for f in s.filled if f.pos > fill.pos)}


def front_stall(trace, wait: dict | None = None) -> dict | None:
    """One forward that shows, per mask, why a decode with a hard front token is slow (chapter 7's
    third score chart): a forward before the hard token fills (front_wait) whose front slot is that
    token's, fed as a mask (so the forward commits nothing), in which no mask scored under τ (the
    fill rule: the single lowest fills) and that one fill lies behind the front. Of those, the one
    where the hard slot scores highest in its window, then the one with the most masks (the first).
    {"step", "front": the hard slot, "token": what fills it later, "front_score", "fill": the slot it
    filled, "fill_score", "masks": how many were open}; None when no forward is such. `wait`: the
    trace's front_wait, when the caller has it already."""
    wait = wait or front_wait(trace)
    if wait is None:
        return None
    found = []
    for k, s in enumerate(trace.steps[:wait["step"]]):
        # the hard slot is the window's front (fed as a mask: the forward commits nothing) and its first mask
        if not s.masks or s.threshold is None or not s.masks[0].pos == s.start == wait["pos"] or len(s.filled) != 1:
            continue
        scores = [m.score for m in s.masks]
        if selection.under_threshold(scores, s.threshold) or s.filled[0].pos == wait["pos"]:
            continue
        fill = next(m for m in s.masks if m.pos == s.filled[0].pos)
        found.append({"step": k, "front": wait["pos"], "token": wait["token"], "front_score": s.masks[0].score,
                      "fill": fill.pos, "fill_score": fill.score, "masks": len(s.masks),
                      "tallest": s.masks[0].score >= max(scores)})
    if not found:
        return None
    best = max(found, key=lambda f: (f["tallest"], f["masks"], -f["step"]))
    return {k: v for k, v in best.items() if k != "tallest"}


def fill_account(trace) -> dict:
    """Where a decode's fills went: every streaming forward but the last fills a slot and no fill is
    undone, so tokens = fills - the fills thrown away (those past the stop token, or past the budget).
    A forward that commits nothing loses nothing: its fills commit later."""
    fills = sum(len(s.filled) for s in trace.steps)
    tokens = trace.stats()["generated_tokens"]
    return {"fills": fills, "tokens": tokens, "lost": fills - tokens, "forwards": len(trace.steps)}


def under_tau(trace) -> dict:
    """How many masks scored under τ together, forward by forward (the fill rule: every mask whose
    score is under τ fills, else the single lowest; wedlm/selection.py): of the forwards that had
    open masks, in how many none scored under τ (the lowest alone filled). A mean entropy hides
    this: code's is low, yet its masks seldom score under τ."""
    scored = [s for s in trace.steps if s.masks and s.threshold is not None]
    none = sum(1 for s in scored if not selection.under_threshold([m.score for m in s.masks], s.threshold))
    return {"scored": len(scored), "none": none}


COMMIT_BUCKETS = ("0", "1", "2", "3+")  # tokens one forward committed, as chapter 7's table groups them


def commit_buckets(trace) -> dict[str, int]:
    """How many forwards committed 0, 1, 2, 3 or more tokens: read from each step's record
    (`committed`: the tokens whose KV that forward kept), nothing decoded again."""
    out = dict.fromkeys(COMMIT_BUCKETS, 0)
    for s in trace.steps:
        out[COMMIT_BUCKETS[min(len(s.committed), len(COMMIT_BUCKETS) - 1)]] += 1
    return out


def idle_share(trace) -> float:
    """The share of a decode's forwards that committed nothing (its front slot was a mask when fed)."""
    return sum(1 for s in trace.steps if not s.committed) / max(len(trace.steps), 1)


def trace_point(trace, label: str) -> dict:
    """A decode as a point of the law plot: (mean fill entropy, tokens per forward)."""
    return {"label": label, "entropy": round(fill_entropy(trace), 3),
            "tokens_per_forward": round(trace.stats()["tokens_per_forward"], 2)}


def _time_left(deadline: float | None) -> float | None:
    return None if deadline is None else deadline - time.perf_counter()


def iter_suite(lm, ar_lm, config: DecodeConfig, prompts: list[dict],
               time_limit_s: float | None = None) -> Iterator[list[dict]]:
    """The rows measured so far, after each prompt (a page shows them as they come); with
    time_limit_s, the prompts that fit in it (a GPU lease)."""
    deadline = None if time_limit_s is None else time.perf_counter() + time_limit_s
    rows = []
    for p in prompts:
        if deadline is not None and _time_left(deadline) <= 0:
            break
        wedlm = decode(lm, p["prompt"], "streaming", config, time_limit_s=_time_left(deadline))
        ar = decode(ar_lm, p["prompt"], "ar", config, time_limit_s=_time_left(deadline))
        ws, ars = wedlm.stats(), ar.stats()
        rows.append({"id": p["id"], "class": p["class"], "entropy": round(fill_entropy(wedlm), 3),
                     "tokens_per_forward": round(ws["tokens_per_forward"], 2),
                     "speedup_tokens_per_s": round(ws["tokens_per_s"] / ars["tokens_per_s"], 2) if ars["tokens_per_s"] else None,
                     "forward_ratio": round(ars["forwards"] / max(ws["forwards"], 1), 2),
                     "text": wedlm.text[:80]})
        yield list(rows)


def run_suite(lm, ar_lm, config: DecodeConfig, prompts: list[dict],
              time_limit_s: float | None = None) -> list[dict]:
    """One row per prompt; with time_limit_s, the prompts that fit in it."""
    rows = []
    for rows in iter_suite(lm, ar_lm, config, prompts, time_limit_s):
        pass
    return rows


def recorded_suite(path: Path = RECORDED_SUITE) -> dict | None:
    """The suite as tools/record_suite.py measured it on the bundled models, or None."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return data if isinstance(data.get("rows"), list) else None
    except (OSError, ValueError, AttributeError):
        return None


LAW_HEIGHT = 460   # px, the Entropy explorer's law chart (the tour's chapter 7 draws it shorter)


# where a point's mark sits (px from its centre; a diamond is 20 px): "above" centred, "right" level
# with it, "above_right" starting over its centre and rising clear of a dot just right of it and of a
# column of dots just left of it (chapter 7's code diamond: centred above, "code: 0.50" lay on the
# sequence dots on a phone)
MARK_SIDES = {"above": dict(xanchor="center", yanchor="bottom", xshift=0, yshift=11),
              "right": dict(xanchor="left", yanchor="middle", xshift=13, yshift=0),
              "above_right": dict(xanchor="left", yanchor="bottom", xshift=4, yshift=13)}


SPREAD = 0.025   # of the x axis's span: dots at one place are drawn this far apart (12 px dots, ~15 px at 1024)


def stacks(rows: list[dict], span: float) -> list[list[int]]:
    """Groups of a class's dots that would be drawn on top of each other (the suite's three counting
    prompts: 13.71 tokens per forward each, at 0.005–0.007 nats): same class, same tokens per forward,
    entropies closer than SPREAD of the axis's span (x: `span` wide). Each group: indices into rows."""
    out: list[list[int]] = []
    for k, r in enumerate(rows):
        group = next((g for g in out if rows[g[0]]["class"] == r["class"]
                      and rows[g[0]]["tokens_per_forward"] == r["tokens_per_forward"]
                      and abs(rows[g[-1]]["entropy"] - r["entropy"]) < SPREAD * span), None)
        if group is None:
            out.append([k])
        else:
            group.append(k)
    return out


def spread_x(rows: list[dict], span: float) -> list[float]:
    """Where each dot is drawn across: at its entropy, except dots that would lie on top of each other
    (stacks), drawn side by side SPREAD of the span apart, centred on their mean, so a reader sees
    all of them (a walker saw one counting dot where the words said 3); the hover says so. Never left
    of 0: an entropy is never negative (walk 23 read a counting dot drawn at -0.04 as one), so a
    stack at about 0 starts at 0."""
    drawn = [r["entropy"] for r in rows]
    for group in stacks(rows, span):
        if len(group) > 1:
            mid = statistics.mean(rows[k]["entropy"] for k in group)
            first = max(mid - (len(group) - 1) / 2 * SPREAD * span, 0.0)
            ordered = sorted(group, key=lambda k: rows[k]["entropy"])
            for i, k in enumerate(ordered):
                drawn[k] = round(first + i * SPREAD * span, 4)
    return drawn


def stack_sizes(rows: list[dict], span: float) -> list[int]:
    """For each row: how many dots share its place (stacks; 1: drawn at its own entropy)."""
    size = [1] * len(rows)
    for group in stacks(rows, span):
        for k in group:
            size[k] = len(group)
    return size


def tau_split(rows: list[dict], tau: float) -> dict:
    """How the dots' means lie about τ's value (an observation, not the rule: the rule holds each
    mask's own score to τ, never a mean, so chapter 7 draws no τ line on its mean axis): "left" the rows
    whose mean entropy is under τ, "right" the others; each side's count and its lowest and highest
    tokens per forward (None when it has no dot); "clean" when both sides have dots and every left
    dot makes more tokens per forward than every right one. Whether the record splits so is read,
    never assumed."""
    sides = {"left": [r["tokens_per_forward"] for r in rows if r["entropy"] < tau],
             "right": [r["tokens_per_forward"] for r in rows if r["entropy"] >= tau]}
    out = {"tau": tau}
    for side, tpf in sides.items():
        out.update({side: len(tpf), f"{side}_lo": min(tpf, default=None), f"{side}_hi": max(tpf, default=None)})
    out["clean"] = bool(sides["left"] and sides["right"]) and out["left_lo"] > out["right_hi"]
    return out


def law_figure(rows: list[dict], threshold: float | None = None, yours: list[dict] = (),
               height: int = LAW_HEIGHT, lang: str = i18n.DEFAULT, tau_note: bool = True,
               title: str | None = None) -> go.Figure:
    """Entropy against tokens per forward, one colour per class (hover for a prompt's name);
    `yours`: trace_point()s drawn as stars (or a point's own "symbol", "colour", hover "text", "mark"
    written above it, or where "mark_side" says (MARK_SIDES), "legend": False to leave it out of the
    legend); the τ line (dashed, in the colour and dash of the score bars' τ) marks
    where the cliff is, with the cliff's note beside it, or (tau_note False) only "τ = 0.4".
    height: px; title: the chart's own (views.law.title)."""
    tr = i18n.Texts(lang)
    data = []
    xs = [r["entropy"] for r in rows] + [p["entropy"] for p in yours] + [threshold or 0.0, 1.0]
    drawn, size = spread_x(rows, 1.09 * max(xs)), stack_sizes(rows, 1.09 * max(xs))
    for cls in dict.fromkeys(r["class"] for r in rows):
        sel = [k for k, r in enumerate(rows) if r["class"] == cls]
        # a dot drawn beside its place (spread_x) says so on hover; the hover's entropy is its own
        data.append(dict(type="scatter", x=[drawn[k] for k in sel], y=[rows[k]["tokens_per_forward"] for k in sel],
                         mode="markers", name=class_name(cls, lang),
                         text=[escape(prompt_name(rows[k])) + (tr("views.law.spread", n=size[k]) if size[k] > 1 else "")
                               for k in sel],
                         marker=dict(size=12, color=CLASS_COLOURS.get(cls)),
                         customdata=[[rows[k]["speedup_tokens_per_s"], rows[k]["entropy"]] for k in sel],
                         hovertemplate=tr("views.law.hover")))
    marks = []   # a point's "mark": words beside it, an annotation (present.js grows its type with the axes')
    for k, p in enumerate(yours):
        if p.get("mark"):
            marks.append(dict(x=p["entropy"], y=p["tokens_per_forward"], xref="x", yref="y", text=p["mark"],
                              showarrow=False, font=dict(size=13, color="#111827"),
                              bgcolor="rgba(255,255,255,0.8)",   # the τ line runs behind it, not through it
                              **MARK_SIDES[p.get("mark_side", "above")]))
        data.append(dict(type="scatter", x=[p["entropy"]], y=[p["tokens_per_forward"]], mode="markers",
                         name=p["label"], text=[p.get("text", p["label"])], showlegend=p.get("legend", True),
                         marker=dict(size=20, symbol=p.get("symbol", "star"), color=p.get("colour", YOURS_COLOURS[k % 2]),
                                     line=dict(width=1.5, color="#111827")),
                         hovertemplate=tr("views.law.hover_yours")))
    # a little room left of 0, so the counting dots (entropy ≈ 0, some drawn left of it by spread_x)
    # are not half under the y-axis
    low = min([-0.04 * max(xs)] + [x - 0.02 * max(xs) for x in drawn])
    layout = dict(xaxis=dict(title=dict(text=tr("views.law.x")), range=[low, 1.05 * max(xs)]),
                  yaxis=dict(title=dict(text=tr("views.tokens_per_forward")), rangemode="tozero"),
                  # the legend at the figure's foot (its margin grows to hold it), under the axis title:
                  # placed on the plot's scale (y=-0.2) it lay on that title on a phone, where it wraps
                  legend=dict(orientation="h", yref="container", y=0, yanchor="bottom"), margin=dict(t=64, b=90))
    annotations = marks
    if threshold is not None:
        layout["shapes"] = [dict(type="line", xref="x", yref="paper", x0=threshold, x1=threshold, y0=0, y1=1,
                                 line=dict(color=palette.ROLE_COLOURS["threshold"], dash="dash", width=2))]
        if tau_note:
            annotations.append(dict(x=threshold, y=1, xref="x", yref="paper", xanchor="left", yanchor="top",
                                    xshift=8, bgcolor="rgba(255,255,255,0.9)",  # beside the dashed line, not on it
                                    showarrow=False, align="left", font=dict(size=11, color="#991b1b"),
                                    text=tr("views.law.cliff", tau=f"{threshold:g}")))
        else:   # its name only, at its top right, where the score bars' legend names their τ line
            annotations.append(dict(x=threshold, y=1, xref="x", yref="paper", xanchor="left", yanchor="top",
                                    xshift=4, showarrow=False, bgcolor="rgba(255,255,255,0.85)",
                                    font=dict(size=13, color=palette.ROLE_COLOURS["threshold"]),
                                    text=f"τ = {threshold:g}"))
    if not rows and not yours:
        annotations.append(dict(text=tr("views.law.empty"), showarrow=False, xref="paper",
                                yref="paper", x=0.5, y=0.5))
    layout["annotations"] = annotations
    return make_figure(data, aside_below(title or tr("views.law.title")), height, lang=lang, **layout)


def slow_low_entropy_row(rows: list[dict]) -> dict | None:
    """The row that contradicts "low entropy is fast" most: under 1 token per forward at the lowest
    mean entropy (the suite's code prompts), or None."""
    slow = [r for r in rows if r["tokens_per_forward"] < 1]
    return min(slow, key=lambda r: (r["entropy"], r["tokens_per_forward"])) if slow else None


def law_note(rows: list[dict], lang: str = i18n.DEFAULT) -> str:
    """Beside the law plot: why a point with a low mean entropy can still be slow, in the rows' numbers."""
    row = slow_low_entropy_row(rows)
    if row is None:
        return ""
    text = i18n.text(lang, "views.law.why", id=f'<code translate="no">{escape(prompt_name(row))}</code>',
                     cls=escape(class_name(row["class"], lang)), h=row["entropy"], tpf=row["tokens_per_forward"])
    return f'<div class="note law-why">{text}</div>'


def class_name(cls: str, lang: str = i18n.DEFAULT) -> str:
    """A suite prompt class ("counting", "code", ...) as the page names it; unknown: as it is."""
    key = "views.class." + cls
    return cls if lang == i18n.DEFAULT or key not in i18n.catalog() else i18n.text(lang, key)


def tau_text(threshold, lang: str = i18n.DEFAULT) -> str:
    """A sweep row's τ as shown: "none" (no threshold) in `lang`, a number as it is."""
    return i18n.text(lang, "views.none") if threshold == "none" or threshold is None else str(threshold)


def tau_sweep(lm, prompt: str, config: DecodeConfig,
              time_limit_s: float | None = None, lang: str = i18n.DEFAULT) -> tuple[list[dict], go.Figure]:
    rows = tau_sweep_rows(lm, prompt, config, time_limit_s)
    return rows, sweep_figure(rows, lang)


def tau_sweep_rows(lm, prompt: str, config: DecodeConfig,
                   time_limit_s: float | None = None) -> list[dict]:
    """One row per τ of SWEEP (tokens per forward, whether the output changed, mean entropy of
    the filled slots), for streaming and, beside it, the verified decoder (beyond the paper:
    its output is the model's own greedy AR text at every τ); with time_limit_s, the τ values
    that fit in it."""
    for rows in tau_sweep_steps(lm, prompt, config, time_limit_s):
        pass
    return rows


def tau_sweep_steps(lm, prompt: str, config: DecodeConfig,
                    time_limit_s: float | None = None) -> Iterator[list[dict] | None]:
    """tau_sweep_rows one forward at a time: None after every forward, then the rows. Closing
    it (a cancel, a closed tab) stops the sweep at its next forward."""
    deadline = None if time_limit_s is None else time.perf_counter() + time_limit_s

    def run(decoder: str, cfg: DecodeConfig):
        trace = None
        for trace in decode_steps(lm, prompt, decoder, cfg, time_limit_s=_time_left(deadline)):
            yield None
        return trace  # the last one yielded: finished, its result set

    base = yield from run("streaming", replace(config, threshold=None))
    verified_base = None
    rows = []
    for tau in SWEEP:
        if tau is not None and deadline is not None and _time_left(deadline) <= 0:
            break
        cfg = replace(config, threshold=tau)
        trace = base if tau is None else (yield from run("streaming", cfg))
        verified = yield from run("verified", cfg)
        verified_base = verified_base or verified
        rows.append({"threshold": "none" if tau is None else tau,
                     "tokens_per_forward": round(trace.stats()["tokens_per_forward"], 2),
                     "output_changed": trace.token_ids != base.token_ids,
                     "mean_fill_entropy": round(fill_entropy(trace), 3),
                     "verified_tokens_per_forward": round(verified.stats()["tokens_per_forward"], 2),
                     "verified_output_changed": verified.token_ids != verified_base.token_ids,
                     "output": trace.text})
    yield rows


def sweep_diff_html(rows: list[dict], lang: str = i18n.DEFAULT) -> str:
    """How each changed output differs from τ = none: the shared start, then where it departs
    (marked) against what τ = none wrote there."""
    from html import escape
    base = next((r for r in rows if r["threshold"] == "none"), None)
    if base is None:
        return ""
    tr = i18n.Texts(lang)
    items = []
    for r in rows:
        if not r.get("output_changed"):
            continue
        ours, theirs = r.get("output", ""), base.get("output", "")
        k = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), min(len(ours), len(theirs)))
        lead = ("…" if k > 24 else "") + ours[max(0, k - 24):k]
        items.append(tr("views.sweep.item", tau=tau_text(r["threshold"], lang), lead=escape(lead),
                        ours=escape(ours[k:k + SWEEP_DIFF_CHARS]) or tr("views.sweep.ends"),
                        theirs=escape(theirs[k:k + SWEEP_DIFF_CHARS]) or tr("views.sweep.nothing_more")))
    if not items:
        return f'<div class="sweep-diff">{tr("views.sweep.same")}</div>'
    return f'<div class="sweep-diff">{tr("views.sweep.differ", items="".join(items))}</div>'


def sweep_dips(rows: list[dict]) -> list[tuple[dict, dict]]:
    """Neighbouring τ values (none left out) where tokens per forward FELL as τ rose."""
    numeric = [r for r in rows if r["threshold"] != "none"]
    return [(a, b) for a, b in zip(numeric, numeric[1:]) if b["tokens_per_forward"] < a["tokens_per_forward"]]


def sweep_returns(rows: list[dict]) -> tuple[dict, dict] | None:
    """A τ whose output changed, then a larger τ whose output is τ = none's again (or None)."""
    numeric = [r for r in rows if r["threshold"] != "none"]
    for k, r in enumerate(numeric):
        back = next((b for b in numeric[k + 1:] if not b["output_changed"]), None)
        if r["output_changed"] and back is not None:
            return r, back
    return None


def sweep_note(rows: list[dict], lang: str = i18n.DEFAULT) -> str:
    """Under the sweep: why one prompt's tokens per forward (and its changed outputs) need not move
    step by step with τ, quoting this sweep's own numbers where they do not."""
    tr = i18n.Texts(lang)
    seen = [tr("views.sweep.dip", a=a["tokens_per_forward"], ta=tau_text(a["threshold"], lang),
               b=b["tokens_per_forward"], tb=tau_text(b["threshold"], lang)) for a, b in sweep_dips(rows)[:2]]
    back = sweep_returns(rows)
    if back:
        seen.append(tr("views.sweep.back", ta=tau_text(back[0]["threshold"], lang), tb=tau_text(back[1]["threshold"], lang)))
    if not seen:
        return ""
    return (f'<div class="note sweep-why">{tr("views.sweep.why", seen=tr("views.sweep.and").join(seen))}</div>')


def trend_rows(recorded: dict | None) -> list[dict]:
    """The recorded arithmetic sweep (assets/tour/tour.json, chapter 8) per τ: mean tokens per
    forward and right answers over its questions."""
    return [{"threshold": r["threshold"], "tokens_per_forward": r["tokens_per_forward"], "right": r["right"],
             "total": r["total"]} for r in (recorded or {}).get("rows", [])]


def trend_html(recorded: dict | None, lang: str = i18n.DEFAULT) -> str:
    """The same sweep over the several recorded questions, beside the one prompt: the trend per τ."""
    rows = trend_rows(recorded)
    if not rows:
        return ""
    tr = i18n.Texts(lang)
    tpf = [r["tokens_per_forward"] for r in rows]
    rising = all(b >= a for a, b in zip(tpf, tpf[1:]))
    head = tr("views.trend.head", n=rows[0]["total"], max_new=recorded.get("config", {}).get("max_new_tokens", "?"))
    head += tr("views.trend.rising") if rising else ""
    cells = "".join(f'<tr><td>{escape(tau_text(r["threshold"], lang))}</td><td>{r["tokens_per_forward"]:.2f}</td>'
                    f'<td>{r["right"]}/{r["total"]}</td></tr>' for r in rows)
    return (f'<div class="note sweep-trend">{head}<table><thead><tr><th>τ</th><th>{tr("views.trend.tpf")}</th>'
            f'<th>{tr("views.trend.right")}</th></tr></thead><tbody>{cells}</tbody></table></div>')


def sweep_point(rows: list[dict], threshold: float | None, lang: str = i18n.DEFAULT) -> dict | None:
    """The swept prompt at τ as a point of the law plot, when τ is one of the sweep's."""
    key = "none" if threshold is None else threshold
    row = next((r for r in rows if r["threshold"] == key), None)
    label = i18n.text(lang, "views.sweep.point", tau=tau_text(key, lang))
    return None if row is None else {"label": label, "entropy": row["mean_fill_entropy"],
                                     "tokens_per_forward": row["tokens_per_forward"]}


SWEEP_HEIGHT = 380


def sweep_placeholder(lang: str = i18n.DEFAULT) -> go.Figure:
    """The τ sweep's chart before a sweep has run: no data, only what it will draw and which button
    draws it (an empty frame told a newcomer nothing)."""
    tr = i18n.Texts(lang)
    taus = [t for t in SWEEP if t is not None]
    note = tr("views.sweep.empty", button=tr("entropy.sweep"), lo=f"{min(taus):g}", hi=f"{max(taus):g}",
              n=len(SWEEP), streaming=tr("views.sweep.streaming"), verified=tr("views.lane.verified"))
    return make_figure([], tr("views.sweep.title"), SWEEP_HEIGHT, lang=lang,
                       xaxis=dict(title=dict(text=tr("views.sweep.x")), visible=False),
                       yaxis=dict(title=dict(text=tr("views.tokens_per_forward")), visible=False),
                       annotations=[dict(text=note, xref="paper", yref="paper", x=0.5, y=0.5, showarrow=False,
                                         align="center", font=dict(size=13, color="#374151"))])


def sweep_figure(rows: list[dict], lang: str = i18n.DEFAULT) -> go.Figure:
    """TPF against τ: streaming (solid) and verified (dotted, beyond the paper). A marker is a
    red cross where the output differs from τ = none, a green circle where it is the same."""
    tr = i18n.Texts(lang)
    x = [tau_text(r["threshold"], lang) for r in rows]
    lines = []
    for key, name, dash in (("", tr("views.sweep.streaming"), "solid"),
                            ("verified_", tr("views.lane.verified"), "dot")):
        if rows and f"{key}tokens_per_forward" not in rows[0]:
            continue
        changed = [r[f"{key}output_changed"] for r in rows]
        lines.append(dict(type="scatter", x=x, y=[r[f"{key}tokens_per_forward"] for r in rows], name=name,
                          mode="lines+markers", line=dict(dash=dash, color=palette.decoder_colour(key.rstrip("_") or "streaming")),
                          customdata=[[tr("views.sweep.differs") if c else tr("views.sweep.same_output")] for c in changed],
                          hovertemplate=tr("views.sweep.hover") + "<extra>" + name + "</extra>",
                          marker=dict(size=11, symbol=["x" if c else "circle" for c in changed],
                                      color=["#dc2626" if c else "#16a34a" for c in changed])))
    return make_figure(lines, tr("views.sweep.title"), SWEEP_HEIGHT, lang=lang,
                       xaxis=dict(title=dict(text=tr("views.sweep.x")), type="category"),
                       yaxis=dict(title=dict(text=tr("views.tokens_per_forward"))),
                       legend=dict(orientation="h", y=-0.3))
