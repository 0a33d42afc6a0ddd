"""The race: the same prompt decoded by AR, WeDLM streaming, block decoding and WeDLM verified
(lossless, beyond the paper), replayed side by side one forward per tick, or on the wall clock
each decode really took."""
from __future__ import annotations

from html import escape
from typing import NamedTuple

from .. import i18n
from .timeline import Timeline

LANES = ("ar", "streaming", "block", "verified")
LANE_TITLES = {name: i18n.text(i18n.DEFAULT, "views.lane." + name) for name in LANES}  # English; lane_title(name, lang)


def lane_title(decoder: str, lang: str = i18n.DEFAULT) -> str:
    """A lane's title (LANE_TITLES in `lang`); a decoder with no title keeps its name."""
    return i18n.text(lang, "views.lane." + decoder) if decoder in LANE_TITLES else decoder


def times(ratio: float) -> str:
    """A speed ratio (WeDLM's tokens per second over AR's) in the one format the lanes, their note
    and the tour's chapter 6 all write it (a walker read 5.35× in the box, 5.3× in the words)."""
    return f"{ratio:.2f}"


def tokens_after(timeline: Timeline, forwards: int) -> int:
    """Output tokens that are final after `forwards` forward passes (after prefill)."""
    total = len(timeline.trace.token_ids)
    if timeline.trace.decoder == "ar":
        return min(forwards + 1, total)  # the prefill already gave the first token
    if timeline.trace.decoder == "verified":  # final: every token up to the AR token it found
        steps = timeline.trace.steps
        if forwards <= 0 or not steps:
            return min(1, total)  # the prefill's token, as for AR
        step = steps[min(forwards, len(steps)) - 1]
        return min(step.verify.ar_pos - timeline.prompt_len + 1, total)
    return committed_after(timeline, forwards)


def committed_after(timeline: Timeline, forwards: int) -> int:
    """Tokens committed (KV cached) after `forwards` forwards, as the growth chart draws them: for
    streaming and block decoding the lane's count; AR's newest prediction is not among them until the
    next forward reads it. A decode that has ended keeps its count."""
    if forwards <= 0 or not timeline.committed_after:
        return 0
    return timeline.committed_after[min(forwards, len(timeline.committed_after)) - 1]


def prefill_tokens(timeline: Timeline) -> int:
    """Output tokens the prefill wrote before the first forward (AR and verified: one; streaming
    and block: none). The lanes count them apart, so AR makes exactly one token per forward, as
    chapter 1 says."""
    return tokens_after(timeline, 0)


def tokens_per_forward(timeline: Timeline, forwards: int | None = None) -> float:
    """Tokens per forward after `forwards` forwards (default: the whole decode), the prefill's
    token not counted (it came before the first forward)."""
    forwards = len(timeline.trace.steps) if forwards is None else min(forwards, len(timeline.trace.steps))
    if forwards <= 0:
        return 0.0
    return (tokens_after(timeline, forwards) - prefill_tokens(timeline)) / forwards


def forwards_by(timeline: Timeline, seconds: float) -> int:
    """Forwards finished `seconds` after the decode started (prefill included)."""
    trace = timeline.trace
    elapsed = trace.result.prefill_s if trace.result else 0.0
    done = 0
    for step in trace.steps:
        elapsed += step.seconds
        if elapsed > seconds:
            break
        done += 1
    return done


def total_seconds(timeline: Timeline) -> float:
    r = timeline.trace.result
    return (r.prefill_s + r.decode_s) if r else sum(s.seconds for s in timeline.trace.steps)


def lane_html(timeline: Timeline, forwards: int, ar_speed: float | None, paused: bool = False,
              stepped: bool = False, lang: str = i18n.DEFAULT) -> str:
    """A lane after `forwards` forwards; paused: a still frame (it says "paused", not "decoding…");
    stepped: a frame the page plays or holds (app/static/stepper.js), so it carries both words and
    the page's style shows the one that is true (.playing on the view while Play runs)."""
    trace = timeline.trace
    forwards = min(forwards, len(trace.steps))
    n = tokens_after(timeline, forwards)
    ids = [t for t in trace.token_ids[:n] if t not in trace.stop_ids]
    text = escape("".join(trace.tokens.get(t, "") for t in ids))
    stats = trace.stats()
    done = forwards >= len(trace.steps)
    speed = stats.get("tokens_per_s", 0.0)
    tr = i18n.Texts(lang)
    speedup = (tr("views.lane.speedup", x=times(speed / ar_speed)) if ar_speed and trace.decoder != "ar" else "")
    if done:
        status = f'<span class="lanestate" data-state="done">{tr("views.lane.finished")}</span>'
    elif stepped:
        status = (f'<span class="lanestate" data-state="stepped"><span class="when-playing">{tr("views.lane.decoding")}'
                  f'</span><span class="when-still">{tr("views.lane.paused")}</span></span>')
    else:
        state = "paused" if paused else "playing"
        status = (f'<span class="lanestate" data-state="{state}">'
                  f'{tr("views.lane.paused") if paused else tr("views.lane.decoding")}</span>')
    final = (f'<div class="lanefinal">' + tr("views.lane.final", tpf=f"{tokens_per_forward(timeline):.2f}",
                                             speed=f"{speed:.1f}", speedup=speedup)
             + '</div>') if done else ""  # no spoiler
    # every lane says how its first token is counted: from the prefill (AR, verified: left out of
    # tokens per forward) or from a forward (streaming, block: the prefill writes none)
    prefill = prefill_tokens(timeline)
    first = tr("views.lane.prefill", n=prefill) if prefill else tr("views.lane.no_prefill")
    counts = tr("views.lane.counts." + ("one" if forwards == 1 else "many"), forwards=forwards, n=n,
                tpf=f"{tokens_per_forward(timeline, forwards):.2f}", prefill=first if n else "")
    return (f'<div class="lane {escape(trace.decoder)}"><div class="lanehead">'
            f'<b>{escape(lane_title(trace.decoder, lang))}</b> · {status} · {counts}</div>{final}'
            f'<div class="lanetext">{text}<span class="cursor">▌</span></div></div>')


def forward_ms(timeline: Timeline) -> tuple[float, float]:
    """(mean milliseconds of one forward, mean rows per forward) over the decode's steps: the
    model forward alone where the trace records it, else the whole step."""
    steps = timeline.trace.steps
    if not steps:
        return 0.0, 0.0
    ms = [1000 * (getattr(s, "forward_seconds", 0.0) or s.seconds) for s in steps]
    return sum(ms) / len(ms), sum(s.rows for s in steps) / len(steps)


class ForwardCost(NamedTuple):
    """One streaming forward's cost in AR forwards, and the figures the cost note prints for it."""
    ratio: float     # st_ms / ar_ms, rounded as printed
    st_ms: float     # a streaming forward's mean milliseconds, rounded to 0.1 as printed
    ar_ms: float     # an AR forward's
    st_rows: float   # a streaming forward's mean rows


def forward_cost(timelines: dict[str, Timeline]) -> ForwardCost | None:
    """What one streaming forward cost in AR forwards on the machine that ran the lanes (the cost
    note's figure, and chapter 6's test of whether rows cost time); None without both lanes' timings.
    Computed from the mean milliseconds as the note shows them (rounded), so a reader who divides
    them gets the ratio printed (a walker read "18.8 / 10.1 ms" beside 1.87×)."""
    ar, stream = timelines.get("ar"), timelines.get("streaming")
    if not ar or not stream:
        return None
    (ar_ms, _), (st_ms, st_rows) = forward_ms(ar), forward_ms(stream)
    ar_ms, st_ms = round(ar_ms, 1), round(st_ms, 1)
    return ForwardCost(round(st_ms / ar_ms, 2), st_ms, ar_ms, st_rows) if ar_ms > 0 else None


def cost_note(timelines: dict[str, Timeline], lang: str = i18n.DEFAULT) -> str:
    """Why the wall-clock speedup differs from the tokens-per-forward ratio, measured on these
    lanes: a forward over R rows costs more than AR's one-row forward, and the decode's time
    also holds the prefill and the work between forwards. Every figure is the lanes' own (the
    note said "at most 6.19×" beside a lane's measured 6.60×)."""
    ar, stream = timelines.get("ar"), timelines.get("streaming")
    if not ar or not stream or not ar.trace.result or not stream.trace.result:
        return ""
    fc = forward_cost(timelines)
    if fc is None:
        return ""
    cost = fc.ratio
    # the lanes' own count (the prefill's token left out), so the note quotes what the lanes show
    tpf = round(tokens_per_forward(stream) / max(tokens_per_forward(ar), 1e-9), 2)
    ar_speed = ar.trace.stats().get("tokens_per_s") or 0.0
    measured = stream.trace.stats().get("tokens_per_s", 0.0) / ar_speed if ar_speed else 0.0
    return ('<div class="racenote">'
            + i18n.text(lang, "views.lane.cost_note", rows=f"{fc.st_rows:.1f}", st_ms=f"{fc.st_ms:.1f}", ar_ms=f"{fc.ar_ms:.1f}",
                        cost=f"{cost:.2f}", tpf=f"{tpf:.2f}", forwards_only=f"{tpf / cost:.2f}" if cost else "—",
                        measured=times(measured)) + '</div>')


def lane_forwards(timelines: dict[str, Timeline], tick: int, wall_clock: bool,
                  seconds_per_tick: float) -> dict[str, int]:
    """Forwards each lane has shown at `tick` (one per tick, or as many as its decode had done
    on the wall clock), capped at its decode's end: the lanes and the chart read the same count."""
    return {name: min(forwards_by(tl, tick * seconds_per_tick) if wall_clock else tick, len(tl.trace.steps))
            for name, tl in timelines.items()}


def race_frame(timelines: dict[str, Timeline], tick: int, wall_clock: bool, seconds_per_tick: float,
               paused: bool = False, stepped: bool = False, lang: str = i18n.DEFAULT) -> tuple[str, bool]:
    """HTML of all lanes at `tick` (the cost note once every lane has finished); and whether
    every lane has finished. paused: a still frame, not a replay in motion; stepped: the page
    says which (lane_html)."""
    ar = timelines.get("ar")
    ar_speed = ar.trace.stats().get("tokens_per_s") if ar else None
    parts, finished = [], True
    shown = lane_forwards(timelines, tick, wall_clock, seconds_per_tick)
    for name in LANES:
        tl = timelines.get(name)
        if tl is None:
            continue
        finished &= shown[name] >= len(tl.trace.steps)
        parts.append(lane_html(tl, shown[name], ar_speed, paused, stepped, lang))
    if finished:
        parts.append(cost_note(timelines, lang))
    return "".join(parts), finished
