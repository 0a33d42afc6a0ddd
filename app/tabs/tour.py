"""The guided tour: eight chapters, each one focused view of a recorded step beside a few
sentences, with Back / Next and one "try it" control that re-runs live.

The steps come from assets/tour/tour.json (python -m tools.record_tour decodes the bundled model and
picks each chapter's step with the rules in tour_moments.py), so the tour opens instantly with
no model loaded. Views are the Decode tab's own renderers (render.py, figures.py, race.py).
A chapter can be linked: ?chapter=3 or #chapter-3; ?present=1 opens it in presentation mode.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from html import escape, unescape

import gradio as gr

from wedlm import DecodeConfig, Trace, ValidationError, decode
from wedlm.branch import branch
from wedlm.paths import ASSETS_DIR

from ..views import entropy, figures, lanes as race, render
from . import tour_moments as moments
from ..serving import gpu
from ..serving.context import Context, make_config
from ..views.timeline import Timeline

TOUR_FILE = ASSETS_DIR / "tour" / "tour.json"
TOUR_FORMAT = "wedlm-tour"
# trace name -> (prompt, decoder, max new tokens); tools/record_tour.py decodes these
TOUR_PROMPTS = {
    "ar-counting": ("Count from 1 to 20:", "ar", 64),
    "counting": ("Count from 1 to 20:", "streaming", 64),
    "table": ("Times table of 7 up to 10:", "streaming", 128),
    "code": ('def sum_list(numbers: list) -> int:\n    """Return the sum of the numbers."""\n', "streaming", 48),
    "plays": ("ROMEO:\n", "streaming", 48),
}
LISTED_FILLS = 6      # narration names this many fills, then "and N more"
TRAINING_BLOCK = 8    # block size of chapter 8's training mask
LAW_MAX_NEW = 96      # chapter 7's decodes (the entropy explorer's default)
TITLES = [
    "1 · One token per forward: AR decoding and the KV cache",
    "2 · The window of masks and the fill rule (τ, λ, d)",
    "3 · Topological reordering: filled tokens move in front of masks",
    "4 · What commits, and what waits",
    "5 · A stall, and what λ does about it",
    "6 · The race against AR, forward by forward",
    "7 · Entropy decides speed",
    "8 · Training: the dual-stream mask",
]


@dataclass
class TourData:
    timelines: dict[str, Timeline]
    picks: dict
    law_rows: list[dict]

    def at(self, pick: str) -> tuple[Timeline, int]:
        p = self.picks[pick]
        return self.timelines[p["trace"]], p["step"]


def load_tour() -> TourData:
    data = json.loads(TOUR_FILE.read_text(encoding="utf-8"))
    if data.get("format") != TOUR_FORMAT:
        raise ValueError(f"{TOUR_FILE} is not a tour file")
    timelines = {k: Timeline(Trace.from_dict(v)) for k, v in data["traces"].items()}
    return TourData(timelines, data["picks"], data["law_rows"])


# ---------- words made from a step record ----------

def tok(tl: Timeline, token: int | None) -> str:
    """A token as the narration quotes it (escaped HTML, whitespace made visible)."""
    return f"‘{render.token_label(tl, token)}’"


def span(positions: list[int]) -> str:
    if not positions:
        return "none"
    return str(positions[0]) if len(positions) == 1 else f"{positions[0]}–{positions[-1]}"


def fills_sentence(tl: Timeline, step: int) -> str:
    """'Filled: ‘7’ at 12 (H 0.01), … (N in all).' for the step's fills, logical order."""
    s = tl.trace.steps[step]
    filled = sorted(s.filled, key=lambda f: f.pos)
    if not filled:
        return "Nothing was filled."
    named = ", ".join(f"{tok(tl, f.token)} at {f.pos}" for f in filled[:LISTED_FILLS])
    more = f" and {len(filled) - LISTED_FILLS} more" if len(filled) > LISTED_FILLS else ""
    return f"Filled {len(filled)}: {named}{more}."


def commits_sentence(tl: Timeline, step: int) -> str:
    s = tl.trace.steps[step]
    n = len(s.committed)
    if n == 0:
        return f"Committed 0 tokens: the KV cache stays at {s.cache_after}."
    positions = list(range(s.start, s.start + n))
    text = "".join(unescape(render.token_label(tl, t)) for t in s.committed[:12])
    return (f"Committed {n} token{'s' if n > 1 else ''} (position{'s' if n > 1 else ''} "
            f"{span(positions)}, {escape(repr(text))}{'…' if n > 12 else ''}): the KV cache grows "
            f"{s.cache_before} → {s.cache_after}.")


def facts(tl: Timeline, step: int) -> str:
    """The box under every chapter's text: what this forward really did."""
    return (f'<div class="tour-facts"><b>Step {step} (forward {step + 1} of {tl.num_steps})</b> · '
            f'{fills_sentence(tl, step)} {commits_sentence(tl, step)}</div>')


def narration(paragraphs: list[str], tl: Timeline | None = None, step: int | None = None) -> str:
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return f'<div class="tour-text">{body}{facts(tl, step) if tl is not None else ""}</div>'


def missing(what: str) -> str:
    return f'<div class="tour-text"><p>This decode never had {what}. Try other knobs.</p></div>'


# ---------- the chapters: pure functions of a trace and a step ----------

def ch1(tl: Timeline, step: int):
    """AR decoding: one row in, one token out, the cache grows by one."""
    s = tl.trace.steps[step]
    fill = s.filled[0]
    text = narration([
        "An ordinary language model is <b>autoregressive (AR)</b>: it writes one token per "
        "<b>forward pass</b> (one run of the network). Each forward reads the newest token, looks "
        "back at everything before it, and predicts the next token.",
        "Attention is <b>causal</b>: a token only looks at tokens before it. So the keys and values "
        "(<b>KV</b>) computed for a token never change, and the engine keeps them in a <b>KV cache</b> "
        "instead of recomputing them. Each forward adds one row to the cache.",
        f"Here the model reads {tok(tl, s.window[0])} at position {s.start}, stores its KV "
        f"(cache {s.cache_before} → {s.cache_after} tokens) and predicts {tok(tl, fill.token)} for "
        f"position {fill.pos} with entropy {fill.entropy:.2f} nats (0 = certain). "
        f"After {tl.num_steps} forwards it has written {len(tl.trace.token_ids)} tokens: one per forward. "
        "WeDLM keeps this cache but writes several tokens per forward.",
    ], tl, step)
    return (text, render.order_view(tl, step), render.token_canvas(tl, step),
            figures.prefix_growth({"autoregressive": tl}, step))


def ch2(tl: Timeline, step: int):
    """The fill rule on a real step: which masks fill, which stay open, and why."""
    s = tl.trace.steps[step]
    tau, lam = s.threshold, s.penalty
    open_ = [m for m in s.masks if not m.selected]
    chosen = [m for m in s.masks if m.selected]
    def score(m):
        return f"H {m.entropy:.2f} + λ·d {lam:g}×{m.distance} = {m.score:.2f}"
    lam_kept = [m for m in open_ if tau is not None and m.entropy < tau <= m.score]
    example_open = (lam_kept or open_ or [None])[0]
    why_open = ""
    if example_open is not None:
        why_open = (f" Position {example_open.pos} stays a mask: {score(example_open)} is not under "
                    f"τ {tau:g}.")
        if example_open in lam_kept:
            why_open += " Its entropy alone was under τ: the distance penalty kept it open."
    best = min(chosen, key=lambda m: m.score)
    text = narration([
        f"WeDLM appends a <b>window</b> of W = {tl.trace.config['window']} <b>mask</b> slots after the "
        "text and runs one forward over all of them. Every mask predicts its own token, with an "
        "<b>entropy</b> H (in nats; 0 = certain, higher = unsure).",
        "<b>The fill rule.</b> Let <b>d</b> = how many slots after the first open mask a slot is "
        "(the first open mask has d = 0). Score = H + <b>λ</b>·d. Fill every mask whose score is under "
        f"<b>τ</b>; if none is, fill the single lowest. Here τ = {tau:g} (the red line) and λ = {lam:g} "
        "(the orange part of each bar).",
        f"On this step {len(chosen)} of {len(s.masks)} open masks fill (green bars), e.g. position "
        f"{best.pos}: {score(best)} &lt; τ.{why_open}",
    ], tl, step)
    return text, figures.entropy_bars(tl, step), render.token_canvas(tl, step)


def ch3(tl: Timeline, step: int):
    """Reordering on a step where filled slots sit behind masks."""
    s = tl.trace.steps[step]
    waiting = [s.start + i for i in moments.waits_behind_mask(s)]
    first_mask = s.start + next(i for i, t in enumerate(s.window) if t is None)
    text = narration([
        "Masks are not filled left to right, so a window can hold a filled token <i>after</i> a "
        f"mask. In this step's input the mask at {first_mask} has filled tokens after it, at "
        f"{span(waiting) if len(waiting) < 3 else ', '.join(map(str, waiting[:8])) + ('…' if len(waiting) > 8 else '')}.",
        "The mask needs to see them (they are its right-hand context), yet attention must stay "
        "causal to keep the KV cache. WeDLM's trick: physically move every filled token in front of "
        "every mask, keeping each token's <b>position id</b> (the number under it: what the model's "
        "position encoding sees). Compare the two rows below.",
        "The forward runs a plain causal triangle in <b>physical</b> order (left grid). Read in "
        "<b>logical</b> order (right grid), the same mask lets each mask see the filled tokens "
        "logically after it: the <span class='later-key'>orange</span> cells.",
    ], tl, step)
    return (text, render.order_view(tl, step), render.mask_grid(tl, step, logical=False),
            render.mask_grid(tl, step, logical=True))


def ch4(tl: Timeline, step: int):
    """What commits (the leading filled run) and what waits behind a mask."""
    s = tl.trace.steps[step]
    n = len(s.committed)
    waiting = [s.start + i for i in moments.waits_behind_mask(s)]
    first_mask = s.start + n + next(i for i, t in enumerate(s.window[n:]) if t is None)
    later = moments.commit_step_of(tl.trace, waiting[0]) if waiting else None
    when = (f"They commit at step {later}, once every slot before them is filled."
            if later is not None else "They never commit in this decode.")
    nxt = min(step + 1, tl.num_steps - 1)
    text = narration([
        "A token's KV can be kept only if it was computed exactly as an AR pass would: seeing the "
        "prefix and the tokens before it, nothing else. That is true of the <b>leading filled run</b> "
        "(the filled slots before the first mask): they are first in physical order, in logical order.",
        f"So at this step positions {span(list(range(s.start, s.start + n)))} commit (green): their KV "
        f"stays in the cache, {s.cache_before} → {s.cache_after} tokens. Positions "
        f"{span(waiting) if waiting else '–'} are filled too, but wait behind the mask at {first_mask} "
        f"(yellow): their KV is dropped and recomputed next forward. {when}",
        f"Top: this step's window. Below: step {nxt}, the next forward.",
    ], tl, step)
    return (text, render.order_view(tl, step), render.order_view(tl, nxt), render.token_canvas(tl, step))


def ch5(tl: Timeline, step: int, other: Timeline | None, other_penalty: float | None):
    """A stall (far fill, first mask open, flat growth) beside a branch with a larger λ."""
    s = tl.trace.steps[step]
    first = s.masks[0]
    far = next(m for m in s.masks if m.selected and m.distance >= moments.FAR)
    flat = moments.flat_run(tl.trace, step)
    was = moments.commit_step_of(tl.trace, first.pos)
    paragraphs = [
        f"At this step the first open mask (position {first.pos}) has entropy {first.entropy:.2f} "
        "nats: the model cannot tell what comes next. "
        + ("No mask scores under τ, so the rule fills the single lowest score: "
           if moments.fell_back(s) else "The rule fills what scores under τ: ")
        + f"a far slot, position {far.pos} (d = {far.distance}, H {far.entropy:.2f} + λ·d "
        f"{far.score - far.entropy:.2f} = {far.score:.2f}).",
        f"The first mask stays open, so nothing can commit: the prefix stays flat for {flat} more "
        f"forward{'s' if flat != 1 else ''} (the flat line). Position {first.pos} commits only at step "
        f"{was if was is not None else '–'}.",
    ]
    if other is not None:
        now = moments.commit_step_of(other.trace, first.pos)
        a, b = tl.trace.stats(), other.trace.stats()
        changed = "the same text" if other.trace.token_ids == tl.trace.token_ids else "a different text"
        paragraphs.append(
            f"<b>λ</b> charges λ per slot of distance, pulling the choice toward the front. Branched "
            f"from step {step - 1} with λ = {other_penalty:g}: position {first.pos} commits at step "
            f"{now if now is not None else '–'}; {b['generated_tokens']} tokens in {b['forwards']} "
            f"forwards ({b['tokens_per_forward']:.2f} per forward) against {a['generated_tokens']} in "
            f"{a['forwards']} ({a['tokens_per_forward']:.2f}), {changed}.")
    text = narration(paragraphs, tl, step)
    lines = {f"λ = {tl.trace.config['penalty']:g}": tl}
    if other is not None:
        lines[f"λ = {other_penalty:g} (branch)"] = other
    shown = min(step + flat, tl.num_steps - 1)
    right = ("<b>branch</b>" if other is None else f"<b>λ = {other_penalty:g}</b>, same step") + (
        render.token_canvas(other, min(shown, other.num_steps - 1)) if other is not None else "")
    return (text, figures.prefix_growth(lines, step),
            f"<b>λ = {tl.trace.config['penalty']:g}</b>, step {shown}" + render.token_canvas(tl, shown),
            right)


def ch6(timelines: dict[str, Timeline], tick: int):
    """The race at one forward: AR and WeDLM lanes and their growth."""
    tick = max(0, min(int(tick), max(len(t.trace.steps) for t in timelines.values())))
    html, _ = race.race_frame(timelines, tick, False, 0.0)
    wd, ar = timelines["streaming"], timelines["ar"]
    n_wd, n_ar = race.tokens_after(wd, tick), race.tokens_after(ar, tick)
    st_wd, st_ar = wd.trace.stats(), ar.trace.stats()
    wall = (st_wd["tokens_per_s"] / st_ar["tokens_per_s"]) if st_ar.get("tokens_per_s") else 0.0
    text = narration([
        "Same prompt, both decoders, one forward pass per tick. The AR model (WeDLM's parent: the "
        "model it was trained from) writes one token per forward; WeDLM commits the whole leading "
        "filled run each forward.",
        f"After <b>{tick}</b> forwards: AR has {n_ar} tokens, WeDLM {n_wd}. Over the whole decode WeDLM "
        f"makes {st_wd['tokens_per_forward']:.2f} tokens per forward (AR {st_ar['tokens_per_forward']:.2f}).",
        f"On the wall clock the gain is smaller ({wall:.1f}× AR's tokens per second when recorded): a "
        f"WeDLM forward carries the whole window ({st_wd['rows_processed'] / max(st_wd['forwards'], 1):.0f} "
        "rows on average) while an AR forward carries one, and rows cost time.",
    ])
    growth = figures.prefix_growth({race.LANE_TITLES[k]: v for k, v in timelines.items()}, tick - 1)
    return text, html, growth


def ch7(rows: list[dict], low: tuple[Timeline, int], high: tuple[Timeline, int], yours: dict | None = None):
    """The entropy -> tokens per forward plot, and one step of each extreme."""
    shown = rows + ([yours] if yours else [])
    by_class = {}
    for r in rows:
        by_class.setdefault(r["class"], []).append(r)
    def mean(cls, key):
        vals = [r[key] for r in by_class.get(cls, [])]
        return sum(vals) / len(vals) if vals else float("nan")
    (ltl, lstep), (htl, hstep) = low, high
    ls, hs = ltl.trace.steps[lstep], htl.trace.steps[hstep]
    paras = [
        "Each point is one prompt decoded by the bundled model: across, the mean entropy of the "
        "slots when they were filled; up, tokens per forward.",
        f"Counting is nearly certain (mean entropy {mean('counting', 'entropy'):.2f} nats): many masks "
        f"fall under τ at once, {mean('counting', 'tokens_per_forward'):.1f} tokens per forward. Plays "
        f"(prose) are not ({mean('plays', 'entropy'):.2f} nats): about "
        f"{mean('plays', 'tokens_per_forward'):.1f} per forward, no faster than AR.",
        f"Below, left: counting step {lstep} fills {len(ls.filled)} masks at once. Right: a play's step "
        f"{hstep}: no mask under τ, so one slot is filled (the lowest score) and {len(hs.masks) - len(hs.filled)} "
        "stay open.",
    ]
    if yours:
        paras.append(f"<b>Your prompt</b>: mean entropy {yours['entropy']:.2f} nats, "
                     f"{yours['tokens_per_forward']:.2f} tokens per forward (the black point).")
    fig = entropy.law_figure(shown)
    return (narration(paras, ltl, lstep), fig, figures.entropy_bars(ltl, lstep),
            figures.entropy_bars(htl, hstep))


def ch8(pattern: list[bool], block: int, source: str):
    masked = sum(pattern)
    text = narration([
        "How does a model learn to fill masks it can see past? WeDLM is trained from an AR model "
        "with <b>two copies</b> of each text side by side: a clean copy <b>x0</b> (memory) and a "
        "masked copy <b>xt</b> (prediction), both at the same positions.",
        f"xt is cut into blocks of {block}; in each block some tokens are masked, and inside the "
        "block the observed tokens sit in front of the masks, exactly like the reordered window. "
        "x0 is plainly causal; an xt block sees the clean x0 of all earlier blocks and itself in "
        "reordered causal order. Each mask is trained to predict its own token.",
        f"The mask pattern here ({masked} of {len(pattern)} masked) is {source}. The grid is built by "
        "the project's training code: purple = row sees column.",
    ])
    return text, figures.training_mask_figure(pattern, block)


# ---------- live "try it": decode through wedlm, land with the chapter's rule ----------

def live_decode(ctx: Context, prompt: str, decoder: str, config: DecodeConfig) -> Timeline:
    """One decode through the app's GPU entry point (app/serving/gpu.py)."""
    model = ctx.models.ar if decoder == "ar" else ctx.models.wedlm
    work = gpu.Work.of(config.max_new_tokens, config.window, [decoder], ctx.limits)
    return Timeline(gpu.run_on_gpu(decode, model, prompt, decoder, config,
                                   time_limit_s=work.time_limit_s, work=work))


def redecode(ctx: Context, name: str, tau, no_tau, penalty) -> Timeline:
    prompt, decoder, max_new = TOUR_PROMPTS[name]
    config = make_config(threshold=tau, no_threshold=no_tau, penalty=penalty, max_new_tokens=max_new)
    return live_decode(ctx, prompt, decoder, config)


def ar_and_streaming(lm, ar_lm, prompt: str, config: DecodeConfig, time_limit_s: float) -> dict:
    """Chapter 6's two lanes (runs inside the GPU call; plain data out, one shared budget)."""
    deadline = time.perf_counter() + time_limit_s
    return {name: decode(model, prompt, name, config, time_limit_s=max(0.0, deadline - time.perf_counter()))
            for name, model in (("ar", ar_lm), ("streaming", lm))}


def link_chapter(value) -> int:
    """A chapter number from the page link (untrusted): 1..8, else 1."""
    try:
        n = int(float(value))
    except (TypeError, ValueError):
        return 1
    return n if 1 <= n <= len(TITLES) else 1


READ_LINK_JS = """() => {
  const hash = location.hash.match(/chapter-(\\d+)/);
  const query = new URLSearchParams(location.search);
  if (query.get('present') === '1') document.body.classList.add('tour-present');
  return hash ? hash[1] : (query.get('chapter') || '1');
}"""
WRITE_LINK_JS = """(n) => { history.replaceState(null, '', location.pathname + location.search + '#chapter-' + n); }"""
PRESENT_JS = """() => {
  const on = document.body.classList.toggle('tour-present');
  try { if (on && !document.fullscreenElement) document.documentElement.requestFullscreen(); } catch (e) {}
  try { if (!on && document.fullscreenElement) document.exitFullscreen(); } catch (e) {}
}"""


def tau_lambda(prefix: str):
    """The τ / λ pair of a chapter's "try it" (widgets from DecodeConfig's metadata)."""
    from . import knobs
    tau, no_tau = knobs.tau(elem_id=f"{prefix}-tau")
    penalty = knobs.number("penalty", elem_id=f"{prefix}-penalty")
    return tau, no_tau, penalty


def build(ctx: Context, demo: gr.Blocks) -> None:
    data = load_tour()
    chapter = gr.Number(1, visible=False, elem_id="tour-chapter")
    with gr.Row(elem_id="tour-nav", equal_height=True):
        back = gr.Button("◀ Back", size="sm", elem_id="tour-back", scale=0, min_width=90)
        pick = gr.Dropdown([(t, i + 1) for i, t in enumerate(TITLES)], value=1, show_label=False,
                           container=False, elem_id="tour-pick", scale=4)
        nxt = gr.Button("Next ▶", size="sm", variant="primary", elem_id="tour-next", scale=0, min_width=90)
        present = gr.Button("Present ▣", size="sm", elem_id="tour-present-btn", scale=0, min_width=100)
    columns = []
    for n, builder in enumerate((_build1, _build2, _build3, _build4, _build5, _build6, _build7, _build8), 1):
        with gr.Column(visible=n == 1, elem_id=f"chapter-{n}", elem_classes=["tour-chapter"]) as col:
            builder(ctx, data)
        columns.append(col)

    def go(n):
        n = link_chapter(n)
        return [n, n] + [gr.Column(visible=i == n) for i in range(1, len(TITLES) + 1)]

    def open_link(n):
        """Page load: open the linked chapter; chapter 1 is already open (redrawing it would
        only make the first view flicker)."""
        n = link_chapter(n)
        return go(n) if n != 1 else [gr.skip()] * (2 + len(TITLES))

    outs = [chapter, pick] + columns
    fast = dict(show_progress="hidden", queue=False, api_name=False)
    back.click(lambda n: go(link_chapter(n) - 1 or 1), [chapter], outs, **fast).then(
        None, [chapter], None, js=WRITE_LINK_JS)
    nxt.click(lambda n: go(min(len(TITLES), link_chapter(n) + 1)), [chapter], outs, **fast).then(
        None, [chapter], None, js=WRITE_LINK_JS)
    pick.input(go, [pick], outs, **fast).then(None, [chapter], None, js=WRITE_LINK_JS)
    present.click(None, None, None, js=PRESENT_JS)
    demo.load(open_link, [chapter], outs, js=READ_LINK_JS, **fast)


def _build1(ctx: Context, data: TourData):
    tl, step = data.at("ar")
    text, orders, canvas, growth = ch1(tl, step)
    with gr.Row(elem_classes=["tour-body"]):
        with gr.Column(scale=3, elem_classes=["tour-view"]):
            v_orders = gr.HTML(orders, elem_id="tour-viz-1", elem_classes=["tour-viz"])
            v_canvas = gr.HTML(canvas)
            v_growth = gr.Plot(growth, show_label=False)
        with gr.Column(scale=2, min_width=300):
            v_text = gr.HTML(text, elem_id="tour-text-1")
            with gr.Group(elem_classes=["tour-try"]):
                prompt = gr.Textbox(tl.trace.prompt, label="Try it: your prompt, decoded by the AR model",
                                    lines=2, max_length=400)
                btn = gr.Button("Decode live", elem_id="tour-try-1")

    def run(prompt):
        live = live_decode(ctx, prompt, "ar", make_config(max_new_tokens=TOUR_PROMPTS["ar-counting"][2]))
        trace = live.trace
        k = moments.ar_step(trace)
        if k is None:
            k = max(0, live.num_steps - 1)
            if not trace.steps or not trace.steps[k].filled:
                return missing("a forward after its first token"), gr.skip(), gr.skip(), gr.skip()
        return ch1(live, k)

    btn.click(run, [prompt], [v_text, v_orders, v_canvas, v_growth], api_name="tour_ar", **gpu.forward_event(ctx.limits))


def _window_try(ctx, n: int, name: str, finder, render_fn, outputs):
    """τ / λ knobs and a button: re-decode the chapter's prompt and land with its rule."""
    with gr.Group(elem_classes=["tour-try"]):
        gr.Markdown(f"**Try it:** re-decode “{escape(TOUR_PROMPTS[name][0][:40])}” live with other knobs.")
        tau, no_tau, penalty = tau_lambda(f"tour{n}")
        btn = gr.Button("Re-decode live", elem_id=f"tour-try-{n}")

    def run(t, nt, lam):
        live = redecode(ctx, name, t, nt, lam)
        k = finder(live.trace)
        if k is None:
            return [missing("this moment")] + [gr.skip()] * (len(outputs) - 1)
        return list(render_fn(live, k))

    btn.click(run, [tau, no_tau, penalty], outputs, api_name=f"tour_chapter_{n}", **gpu.forward_event(ctx.limits))


def _build2(ctx, data):
    tl, step = data.at("fill_rule")
    text, bars, canvas = ch2(tl, step)
    with gr.Row(elem_classes=["tour-body"]):
        with gr.Column(scale=3, elem_classes=["tour-view"]):
            v_bars = gr.Plot(bars, show_label=False, elem_id="tour-viz-2", elem_classes=["tour-viz"])
            v_canvas = gr.HTML(canvas)
        with gr.Column(scale=2, min_width=300):
            v_text = gr.HTML(text, elem_id="tour-text-2")
            _window_try(ctx, 2, data.picks["fill_rule"]["trace"], moments.fill_rule_step, ch2,
                        [v_text, v_bars, v_canvas])


def _build3(ctx, data):
    tl, step = data.at("reorder")
    text, orders, phys, logi = ch3(tl, step)
    with gr.Row(elem_classes=["tour-body"]):
        with gr.Column(scale=3, elem_classes=["tour-view"]):
            v_orders = gr.HTML(orders, elem_id="tour-viz-3", elem_classes=["tour-viz"])
            with gr.Row():
                v_phys = gr.HTML(phys, elem_classes=["tour-grid"])
                v_logi = gr.HTML(logi, elem_classes=["tour-grid"])
        with gr.Column(scale=2, min_width=300):
            v_text = gr.HTML(text, elem_id="tour-text-3")
            _window_try(ctx, 3, data.picks["reorder"]["trace"], moments.reorder_step, ch3,
                        [v_text, v_orders, v_phys, v_logi])


def _build4(ctx, data):
    tl, step = data.at("commit")
    text, now, nxt, canvas = ch4(tl, step)
    with gr.Row(elem_classes=["tour-body"]):
        with gr.Column(scale=3, elem_classes=["tour-view"]):
            v_now = gr.HTML(now, elem_id="tour-viz-4", elem_classes=["tour-viz"])
            v_next = gr.HTML(nxt)
            v_canvas = gr.HTML(canvas)
        with gr.Column(scale=2, min_width=300):
            v_text = gr.HTML(text, elem_id="tour-text-4")
            _window_try(ctx, 4, data.picks["commit"]["trace"], moments.commit_step, ch4,
                        [v_text, v_now, v_next, v_canvas])


def _build5(ctx, data):
    tl, step = data.at("stall")
    pick = data.picks["stall"]
    other = data.timelines[pick["branch"]]
    text, growth, left, right = ch5(tl, step, other, pick["penalty"])
    with gr.Row(elem_classes=["tour-body"]):
        with gr.Column(scale=3, elem_classes=["tour-view"]):
            v_growth = gr.Plot(growth, show_label=False, elem_id="tour-viz-5", elem_classes=["tour-viz"])
            with gr.Row():
                v_left = gr.HTML(left)
                v_right = gr.HTML(right)
        with gr.Column(scale=2, min_width=300):
            v_text = gr.HTML(text, elem_id="tour-text-5")
            with gr.Group(elem_classes=["tour-try"]):
                gr.Markdown(f"**Try it:** branch from step {step - 1} with another λ (live).")
                from . import knobs
                penalty = knobs.number("penalty", value=pick["penalty"], elem_id="tour5-penalty")
                btn = gr.Button("Branch live", elem_id="tour-try-5")

    def run(lam):
        try:
            config = DecodeConfig.from_dict({**tl.trace.config, "penalty": float(lam)})
        except (ValidationError, TypeError, ValueError) as err:
            raise gr.Error(str(err))
        work = gpu.Work.of(config.max_new_tokens, config.window, ["streaming"], ctx.limits)
        new = Timeline(gpu.run_on_gpu(branch, ctx.models.wedlm, tl.trace, step - 1, config,
                                      time_limit_s=work.time_limit_s, work=work))
        return ch5(tl, step, new, float(lam))

    btn.click(run, [penalty], [v_text, v_growth, v_left, v_right], api_name="tour_branch", **gpu.forward_event(ctx.limits))


def _build6(ctx, data):
    pick = data.picks["race"]
    timelines = {"ar": data.timelines[pick["ar"]], "streaming": data.timelines[pick["streaming"]]}
    text, lanes, growth = ch6(timelines, pick["tick"])
    longest = max(len(t.trace.steps) for t in timelines.values())
    state = gr.State(timelines)
    with gr.Row(elem_classes=["tour-body"]):
        with gr.Column(scale=3, elem_classes=["tour-view"]):
            v_lanes = gr.HTML(lanes, elem_id="tour-viz-6", elem_classes=["tour-viz"])
            tick = gr.Slider(0, longest, value=pick["tick"], step=1, label="Forward passes so far",
                             elem_id="tour6-tick")
            v_growth = gr.Plot(growth, show_label=False)
        with gr.Column(scale=2, min_width=300):
            v_text = gr.HTML(text, elem_id="tour-text-6")
            with gr.Group(elem_classes=["tour-try"]):
                gr.Markdown("**Try it:** race both decoders live with another τ.")
                from . import knobs
                tau, no_tau = knobs.tau(elem_id="tour6-tau")
                btn = gr.Button("Race live", elem_id="tour-try-6")

    tick.release(lambda t, k: ch6(t, k), [state, tick], [v_text, v_lanes, v_growth], api_name=False,
                 show_progress="hidden", queue=False)

    def run(t, nt):
        prompt, _, max_new = TOUR_PROMPTS[pick["streaming"]]
        config = make_config(threshold=t, no_threshold=nt, max_new_tokens=max_new)
        work = gpu.Work.of(config.max_new_tokens, config.window, ["ar", "streaming"], ctx.limits)
        traces = gpu.run_on_gpu(ar_and_streaming, ctx.models.wedlm, ctx.models.ar, prompt, config,
                                work.time_limit_s, work=work)
        live = {name: Timeline(t) for name, t in traces.items()}
        k = len(live["streaming"].trace.steps)
        top = max(len(x.trace.steps) for x in live.values())
        return [live, gr.Slider(0, top, value=k, step=1)] + list(ch6(live, k))

    btn.click(run, [tau, no_tau], [state, tick, v_text, v_lanes, v_growth], api_name="tour_race",
              **gpu.forward_event(ctx.limits))


def _build7(ctx, data):
    low, high = data.at("entropy_low"), data.at("entropy_high")
    text, law, bars_low, bars_high = ch7(data.law_rows, low, high)
    with gr.Row(elem_classes=["tour-body"]):
        with gr.Column(scale=3, elem_classes=["tour-view"]):
            v_law = gr.Plot(law, show_label=False, elem_id="tour-viz-7", elem_classes=["tour-viz"])
            with gr.Row():
                gr.Plot(bars_low, show_label=False)
                gr.Plot(bars_high, show_label=False)
        with gr.Column(scale=2, min_width=300):
            v_text = gr.HTML(text, elem_id="tour-text-7")
            with gr.Group(elem_classes=["tour-try"]):
                prompt = gr.Textbox("Count by 3 from 3 to 60:", label="Try it: where does your prompt land?",
                                    lines=2, max_length=400)
                btn = gr.Button("Decode live", elem_id="tour-try-7")

    def run(prompt):
        trace = live_decode(ctx, prompt, "streaming", make_config(max_new_tokens=LAW_MAX_NEW)).trace
        yours = {"id": "yours", "class": "your prompt", "entropy": round(entropy.fill_entropy(trace), 3),
                 "tokens_per_forward": round(trace.stats()["tokens_per_forward"], 2),
                 "speedup_tokens_per_s": None}
        out = ch7(data.law_rows, low, high, yours)
        return out[0], out[1]

    btn.click(run, [prompt], [v_text, v_law], api_name="tour_entropy", **gpu.forward_event(ctx.limits))


def _build8(ctx, data):
    tl, step = data.at("reorder")
    window = tl.trace.steps[step].window
    pattern = [t is None for t in window]
    source = f"the input window of chapter 3's step ({len(window)} slots, 1 = mask)"
    text, fig = ch8(pattern, TRAINING_BLOCK, source)
    with gr.Row(elem_classes=["tour-body"]):
        with gr.Column(scale=3, elem_classes=["tour-view"]):
            v_fig = gr.Plot(fig, show_label=False, elem_id="tour-viz-8", elem_classes=["tour-viz"])
        with gr.Column(scale=2, min_width=300):
            v_text = gr.HTML(text, elem_id="tour-text-8")
            with gr.Group(elem_classes=["tour-try"]):
                bits = gr.Textbox("".join("1" if m else "0" for m in pattern), max_length=32,
                                  label="Try it: a mask pattern (1 = masked in xt), up to 32 slots")
                block = gr.Slider(2, 16, value=TRAINING_BLOCK, step=1, label="Block size")
                btn = gr.Button("Draw the mask", elem_id="tour-try-8")

    def run(text_bits, b):
        chosen = [c == "1" for c in (text_bits or "") if c in "01"][:32]
        if len(chosen) < 2:
            raise gr.Error("type at least two 0/1 characters")
        return ch8(chosen, int(b), "yours")

    btn.click(run, [bits, block], [v_text, v_fig], api_name="tour_training_mask")
