"""Chapter 6: the race against AR, forward by forward: both lanes and their growth at one tick,
and a live race that plays out forward by forward."""
from __future__ import annotations

import gradio as gr

from wedlm.config import DEFAULTS

from ... import i18n
from ...serving import gpu
from ...serving.context import make_config
from ...views import lanes as race, palette, stepper
from ...views.timeline import Timeline
from . import figs
from .data import TOUR_PROMPTS
from .frame import ar_and_streaming, body, live_bar, pool, slot, tau_lambda_words, try_box
from .words import ar_chart, colour, model_text, narration, plural, term

TITLE = i18n.text(i18n.DEFAULT, "ch6.title")
PLAY_TICK_S = 0.15   # a live race replays one forward per this many seconds
KEY = "tour-6"
ROWS_COST_CLEAR = 1.1   # a WeDLM forward costing at least this many AR forwards: its rows clearly cost time


def title(lang: str = i18n.DEFAULT) -> str:
    return i18n.text(lang, "ch6.title")


def clock_words(wall: float, lang: str = i18n.DEFAULT) -> str:
    """WeDLM's tokens per second over AR's, worded as what it is: a smaller gain, or a loss (a
    walker read "the gain is smaller (0.4×)" beside a live race WeDLM lost)."""
    return i18n.text(lang, "ch6.clock_gain" if wall >= 1 else "ch6.clock_loss", wall=race.times(wall))


def rows_cost_time(cost: float | None) -> bool | None:
    """Whether this run's rows clearly cost time, from the measured cost of one WeDLM forward in AR
    forwards (lanes.forward_cost, the race's cost note); None when the run has no timings. One
    decision for both of chapter 6's sentences that depend on it (rows_words, the block aside)."""
    return None if cost is None else cost >= ROWS_COST_CLEAR


def prefill_share(tl: Timeline) -> float | None:
    """The prefill's share of a decode's measured time (stats: prefill_s, decode_s), or None."""
    st = tl.trace.stats()
    total = (st.get("prefill_s") or 0.0) + (st.get("decode_s") or 0.0)
    return st["prefill_s"] / total if total and st.get("prefill_s") is not None else None


def rows_words(cost: float | None, costly: bool | None, tpf: float, lang: str = i18n.DEFAULT,
               wall: float | None = None, shares: tuple | None = None) -> str:
    """Whether this run's rows cost time (costly: rows_cost_time(cost)): a walker read "rows cost
    time" beside "one streaming forward cost 28.7 ÷ 28.6 ≈ 1.00× an AR forward". tpf: WeDLM's
    tokens per forward over AR's. "" when the run has no timings. Where rows cost time, the
    reader's division tpf ÷ cost is shown beside the measured tokens/s `wall` (a walker divided
    12.00 by 1.86, got 6.45× and read 5.35×), with the prefill's share of each lane's time
    (shares: (WeDLM's, AR's)), which both pay once."""
    if costly is None:
        return ""
    words = i18n.text(lang, "ch6.rows_cost" if costly else "ch6.rows_free", cost=f"{cost:.2f}", tpf=f"{tpf:.2f}")
    if costly and wall and shares and None not in shares:
        words += i18n.text(lang, "ch6.rows_gap", tpf=f"{tpf:.2f}", cost=f"{cost:.2f}", alone=f"{tpf / cost:.2f}",
                           p_wd=round(100 * shares[0]), p_ar=round(100 * shares[1]), wall=race.times(wall))
    return words


SUMS_SHOWN = 8   # a longer decode's sum would not fit a sentence: the growth chart shows it


def commit_sums(timeline: Timeline, tick: int, lang: str = i18n.DEFAULT) -> str:
    """What each of the decode's forwards up to `tick` committed, as a sum to the lane's count
    ("; … 0 + 16 + 16 + 16 + 12 = 60"): the growth chart's steps, added up. "" before a second
    forward and for a decode of more than SUMS_SHOWN forwards."""
    shown = min(tick, len(timeline.committed_after))
    if not 2 <= shown or len(timeline.committed_after) > SUMS_SHOWN:
        return ""
    counts = [race.committed_after(timeline, k) for k in range(shown + 1)]
    terms = " + ".join(str(b - a) for a, b in zip(counts, counts[1:]))
    return i18n.text(lang, "ch6.sums", terms=terms, total=counts[-1])


def view(timelines: dict[str, Timeline], tick: int, playing: bool | None = None, lang: str = i18n.DEFAULT):
    """The chapter at `tick`; playing None: a frame of the page's stepper, whose lanes say
    "decoding…" while Play runs and "paused" otherwise (the page shows the true one)."""
    tr = i18n.Texts(lang)
    tick = max(1, min(int(tick), max(len(t.trace.steps) for t in timelines.values())))
    html, _ = race.race_frame(timelines, tick, False, 0.0, paused=playing is False, stepped=playing is None,
                              lang=lang)
    wd, ar = timelines["streaming"], timelines["ar"]
    n_wd, n_ar = race.committed_after(wd, tick), race.committed_after(ar, tick)   # the growth chart's two lines
    st_wd, st_ar = wd.trace.stats(), ar.trace.stats()
    shown = race.lane_forwards(timelines, tick, False, 0.0)   # forwards each lane has shown at this tick
    # the growth chart counts committed tokens: AR's prefill token once forward 1 commits it (as chapter 1 says)
    prefill = (tr("ch6.prefill", chart=ar_chart(ar, shown["ar"], lang))
               if race.prefill_tokens(ar) and shown["ar"] and ar.committed_after else "")
    wall = (st_wd["tokens_per_s"] / st_ar["tokens_per_s"]) if st_ar.get("tokens_per_s") else 0.0
    rows = st_wd["rows_processed"] / max(st_wd["forwards"], 1)
    fc = race.forward_cost(timelines)   # one WeDLM forward in AR forwards: do this run's rows cost time?
    cost = fc.ratio if fc else None
    costly = rows_cost_time(cost)
    tpf_gain = race.tokens_per_forward(wd) / max(race.tokens_per_forward(ar), 1e-9)
    text = narration([
        tr("ch6.p1", prompt=model_text(wd.trace.prompt), ar_colour=colour("decoder-ar", lang=lang),
           wd_colour=colour("decoder-streaming", lang=lang)),
        # per forward, the prefill's token not counted: AR makes exactly one, as chapter 1 says
        tr("ch6.p2", tick=tick, forwards_word=tr("ch6.forward_one" if tick == 1 else "ch6.forward_many"), step=tick - 1, n_ar=n_ar, n_wd=n_wd, prefill=prefill, tpf_wd=race.tokens_per_forward(wd),
           tpf=term("tpf", lang=lang), tpf_ar=race.tokens_per_forward(ar),
           # WeDLM's count (lane and line) is its committed tokens, one forward behind its fills as AR's is
           # (walk 20 read its line at 60 after forward 5 as no lag): forward 1's record says it
           first_filled=len(wd.trace.steps[0].filled), first_committed=len(wd.trace.steps[0].committed),
           sums=commit_sums(wd, tick, lang)),
        # a block forward: its block of masks, and the finished block beside it in the forward that commits it
        tr("ch6.p3", clock=clock_words(wall, lang), rows=rows, rows_cost=rows_words(cost, costly, tpf_gain, lang, wall,
                                                                                  (prefill_share(wd), prefill_share(ar))),
           block_words=tr("ch6.block_free" if costly is False else "ch6.block_cost",
                          block=term("block", lang=lang), rows=rows, block_rows=DEFAULTS["block_size"],
                          commit_rows=2 * DEFAULTS["block_size"])),
    ], lang=lang)
    text = text.replace('class="tour-text"', f'class="tour-text" data-step="{tick - 1}"', 1)
    lanes = f'<div class="tour-step" data-step="{tick - 1}">{html}</div>'
    # each line only as far as its lane has got at this tick (the Race tab's count)
    growth = figs.growth({race.lane_title(k, lang): (v, palette.decoder_colour(k)) for k, v in timelines.items()},
                         tick - 1, lang=lang, shown={race.lane_title(k, lang): n for k, n in shown.items()})
    return text, lanes, growth


def race_bundle(timelines: dict[str, Timeline], tick: int, autoplay: bool = False, lang: str = i18n.DEFAULT) -> str:
    """The race at every tick drawn once, stepped in the page (step k: k + 1 forwards so far)."""
    longest = max(timelines.values(), key=lambda t: t.num_steps)
    frames = [view(timelines, k + 1, lang=lang) for k in range(longest.num_steps)]
    views = stepper.Views(step={name: (lambda _, k, i=i: frames[k][i]) for i, name in enumerate(("text", "lanes", "growth"))})
    data = stepper.draw(longest, views)
    data["summaries"] = [plural("ch6.summary", k + 1, lang, ar=race.committed_after(timelines["ar"], k + 1),
                                wedlm=race.committed_after(timelines["streaming"], k + 1)) for k in range(data["count"])]
    return stepper.bundle_html(longest, KEY, data=data, start=tick - 1, link="chapter=6", keys="present",
                               play_ms=int(PLAY_TICK_S * 1000), autoplay=autoplay, lang=lang)


def build(ctx, data, lang: str = i18n.DEFAULT):
    tr = i18n.Texts(lang)
    pick = data.picks["race"]
    timelines = {"ar": data.timelines[pick["ar"]], "streaming": data.timelines[pick["streaming"]]}
    with body(6) as (views, words):
        with views:
            bar = live_bar(6, lang)
            recorded = race_bundle(timelines, pick["tick"], lang=lang)
            steps = gr.HTML(recorded, elem_id="tour-stepper-6", js_on_load=None)
            slot(KEY, "lanes", "tour-viz-6", elem_classes=["tour-viz"])
            slot(KEY, "growth")
        with words:
            slot(KEY, "text", "tour-text-6")
            with try_box():
                gr.Markdown(tr("ch6.try"))
                from .. import knobs
                tau, no_tau = knobs.tau(elem_id="tour6-tau", lang=lang)
                btn = gr.Button(tr("ch6.button"), elem_id="tour-try-6")

    def run(t, nt):
        """Both decoders live, then the race replayed one forward per tick in the page."""
        prompt, _, max_new = TOUR_PROMPTS[pick["streaming"]]
        config = make_config(threshold=t, no_threshold=nt, max_new_tokens=max_new)
        work = gpu.Work.of(config.max_new_tokens, config.window, ["ar", "streaming"], ctx.limits)
        traces = gpu.run_on_gpu(ar_and_streaming, ctx.models.wedlm, ctx.models.ar, prompt, config,
                                work.time_limit_s, work=work)
        return race_bundle({name: Timeline(t) for name, t in traces.items()}, 1, autoplay=True, lang=lang)

    event = btn.click(run, [tau, no_tau], [steps], js=bar.press_js,
                      api_name=i18n.api_name("tour_race", lang),
                      show_progress="minimal", **pool(ctx))
    bar.offer(event, [tau, no_tau], lambda t, nt: tau_lambda_words(t, nt, lang=lang), [steps], (recorded,))
