"""HTML views of a trace. Every piece of text from a prompt, a model or a file is escaped here.

Every token element carries `data-pos` (its logical position): app/static/highlight.js links them, so
pointing at (or tapping) a token highlights it in every view. Colours are CSS classes `st-<state>`
whose colours come from app/views/palette.py."""
from __future__ import annotations

import functools
import math
import re
import unicodedata
from html import escape, unescape

from wedlm.reorder import visibility

from .. import i18n
from . import glyphs, narration, palette
from .timeline import Timeline

CANVAS_STATES = ("mask", "filled", "new", "committed", "stop", "dropped")
AR_CANVAS_STATES = tuple(k for k in CANVAS_STATES if k not in ("mask", "filled", "dropped"))


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
    shown = glyphs.visible(text)
    return escape(shown) if shown else "∅"


def _step_colour(step: int | None, steps: int) -> str:
    if step is None:
        return palette.STATE_COLOURS["mask"]
    x = (step + 1) / max(1, steps)
    return f"hsl({int(220 - 180 * x)}, 65%, 82%)"


def _said(timeline: Timeline, token: int) -> str:
    """A token in a story (plain text, a title): the stop token named as everywhere else, <EOS>;
    spelled as the strips spell it ('·x', not ' x')."""
    if token in timeline.trace.stop_ids:
        return "<EOS>"
    return f"'{glyphs.visible(timeline.trace.tokens.get(token, '#' + str(token)))}'"


def _tooltip(timeline: Timeline, pos: int, lang: str = i18n.DEFAULT) -> str:
    tr = i18n.Texts(lang)
    p = timeline.positions.get(pos)
    if p is None or p.token is None:   # a mask, perhaps after fills the decode took back
        return tr("views.tip.mask", pos=pos) + "".join(
            tr("views.tip.earlier", token=_said(timeline, e["token"]), step=e["fill_step"], until=e["until"])
            for e in (p.earlier if p else ()))
    said = functools.partial(_said, timeline)
    cands = tr("views.list_sep").join(f"{said(int(t))} {float(q):.2f}" for t, q in p.candidates[:5])
    filled = tr("views.tip.filled_prefill") if p.fill_step == -1 else tr("views.tip.filled_step", step=p.fill_step)
    committed = (tr("views.tip.committed_not_yet") if p.commit_step is None
                 else tr("views.tip.committed_step", step=p.commit_step))
    ent = "" if p.entropy is None else tr("views.tip.entropy", h=f"{p.entropy:.2f}")
    story = tr("views.tip.token", pos=pos, token=said(p.token), entropy=ent,
               filled=filled, committed=committed, candidates=cands)
    # a fill the decode took back before this one (verified decoding's rejected or dropped drafts)
    return story + "".join(tr("views.tip.earlier", token=said(e["token"]), step=e["fill_step"], until=e["until"])
                           for e in p.earlier)


def verify_marks(timeline: Timeline, step: int) -> dict[int, str]:
    """The verified decoder's check at `step` (BEYOND THE PAPER), by logical position: "accepted"
    or "rejected" for each draft it decided, "ar" where its AR token went (replacing the rejected
    draft, or appended after the accepted run). Drafts after the rejected one are dropped
    unchecked and get no mark. Empty for every other decoder."""
    v = timeline.trace.steps[step].verify
    if v is None:
        return {}
    first = timeline.trace.steps[step].start + 1
    marks = {first + j: "accepted" for j in range(v.accepted)}
    if v.rejected_pos is not None:
        marks[v.rejected_pos] = "rejected"
    return marks


def verify_mark(kind: str | None) -> str:
    """The mark that tells a check without colour (✓ / ✗ / AR), or nothing."""
    if not kind:
        return ""
    return f'<span class="vmark vm-{kind}" aria-hidden="true">{palette.VERIFY_MARKS[kind]}</span>'


def verify_legend(lang: str = i18n.DEFAULT, kinds=None) -> str:
    """The checks' key; kinds: only these marks (the ones a view draws), else all."""
    return "".join(f'<span class="tok vf-{k} legend">{escape(palette.verify_label(k, lang))}</span>'
                   for k in palette.VERIFY_COLOURS if kinds is None or k in kinds)


def glyph_key(lang: str = i18n.DEFAULT) -> str:
    """What token_label's whitespace marks mean (a legend's last item)."""
    return (f'<span class="glyph-key" style="font-size:12px;margin-left:8px">'
            f'{escape(i18n.text(lang, "views.glyph_key"))}</span>')


def state_legend(states=CANVAS_STATES, lang: str = i18n.DEFAULT) -> str:
    return "".join(f'<span class="tok st-{k} legend">{escape(palette.state_label(k, lang))}</span>' for k in states)


def order_legend(decoder: str, lang: str = i18n.DEFAULT, kinds=None) -> str:
    """The order view's colour key; AR's window has no masks, so its key names none. kinds: the
    slot classes the view draws (slot_kinds): only their entries, so the key never names a state
    that is not drawn. A forward's input holds no committed token: its leading run is committing
    (this forward writes its KV), as are the KV strip's new cells."""
    states = ("committing", "stop") if decoder == "ar" else ("mask", "committing", "filled", "stop")
    fills = decoder != "ar"
    if kinds is not None:
        drawn = {k.split()[0] for k in kinds}
        states = tuple(k for k in states if k in drawn)
        fills = fills and "mask fills" in kinds
    return state_legend(states, lang) + (
        f'<span class="tok st-mask fills legend">{i18n.text(lang, "views.orders.fills")}</span>' if fills else "")


def token_canvas(timeline: Timeline, step: int, colour_by: str = "state", tips: bool = True,
                 lang: str = i18n.DEFAULT) -> str:
    """The output after `step` (its result): every slot with its state; point at one for its story.
    tips=False leaves the per-position stories out (the stepper ships them once per trace, see
    position_tips, rather than once per step). colour_by "page": no colours inline and both
    legends; the page colours it (the stepper's switch, from canvas_tints)."""
    cells = []
    checks = verify_marks(timeline, step)
    v = timeline.trace.steps[step].verify
    if v is not None:  # the canvas shows the result: the AR token now sits where it went
        checks = {p: k for p, k in checks.items() if k == "accepted"}
        if v.ar_token not in timeline.trace.stop_ids:  # a stop token is drawn as the stop token
            checks[v.ar_pos] = "ar"
    s = timeline.trace.steps[step]
    # the stop token in the text: committed, or the one this last forward wrote that ended the
    # decode (verified: the AR token; AR and streaming: predicted, never fed). Drawn as the stop
    # token from the step it is written, as the legend promises.
    text_stop = v.ar_pos if v is not None and s.finished and v.ar_token in timeline.trace.stop_ids else None
    if text_stop is None and s.finished and s.stop_reason == "stop_token":
        text_stop = min((f.pos for f in s.filled if f.token in timeline.trace.stop_ids), default=None)
    for pos in timeline.visible_positions(step):
        state = timeline.state_at(pos, step)
        fill = timeline.fill_at(pos, step) if state != "mask" else None   # the fill it holds now
        token = fill["token"] if fill else None
        if token is not None and token in timeline.trace.stop_ids and (state == "committed" or pos == text_stop):
            state = "stop"
        style = ""
        if state not in ("mask", "dropped") and colour_by == "entropy":
            style = f' style="background:{palette.entropy_colour(fill["entropy"])}"'
        elif state not in ("mask", "dropped") and colour_by == "step":
            style = f' style="background:{_step_colour(fill["fill_step"], timeline.num_steps)}"'
        title = f' title="{escape(_tooltip(timeline, pos, lang))}"' if tips else ""
        check = checks.get(pos) if state not in ("mask", "dropped") else None
        vf = f' vf-{check}" data-verify="{check}' if check else ""
        cells.append(f'<span class="tok st-{state}{vf}"{style} data-pos="{pos}" tabindex="0"{title}>'
                     f'{token_label(timeline, token)}{verify_mark(check)}</span>')
    # AR writes no masks and keeps every token it writes: its key names only what it draws (a walker
    # met "mask" and "filled, not committed" in chapter 1, which has neither)
    states = AR_CANVAS_STATES if timeline.trace.decoder == "ar" else CANVAS_STATES
    legend = state_legend(states, lang=lang) + (palette.entropy_legend_html(lang) if colour_by in ("entropy", "page") else "")
    if v is not None:
        legend += verify_legend(lang)
    legend += glyph_key(lang)
    prompt = escape(timeline.trace.prompt)
    tr = i18n.Texts(lang)
    return (f'<div class="canvas"><div class="viewtitle">{tr("views.canvas.title", step=step, forward=step + 1)}</div>'
            f'<div class="prompt" title="{tr("views.prompt")}">{prompt}</div>'
            f'<div class="tokens">{"".join(cells)}</div><div class="legend">{legend}</div></div>')


def position_tips(timeline: Timeline, lang: str = i18n.DEFAULT) -> dict[int, str]:
    """Every output position's story (plain text, the page sets it as a title): the same at every step."""
    return {pos: _tooltip(timeline, pos, lang) for pos in timeline.positions}


def canvas_tints(timeline: Timeline) -> dict[str, dict[int, str]]:
    """Background colours of every filled position when the canvas is coloured by entropy or by
    the step that filled it (the stepper's "colour by" switch applies them in the page)."""
    out: dict[str, dict[int, str]] = {"entropy": {}, "step": {}}
    for pos, p in timeline.positions.items():
        if p.token is not None:
            out["entropy"][pos] = palette.entropy_colour(p.entropy)
            out["step"][pos] = _step_colour(p.fill_step, timeline.num_steps)
    return out


def output_text(timeline: Timeline, step: int) -> str:
    """The committed text after `step` (the stop token left out), as a reader sees it."""
    tokens, stops = timeline.trace.tokens, timeline.trace.stop_ids
    ids = [p.token for _, p in sorted(timeline.positions.items())
           if p.commit_step is not None and p.commit_step <= step and p.token not in stops]
    return "".join(tokens.get(i, "") for i in ids)


def output_view(timeline: Timeline, step: int, lang: str = i18n.DEFAULT) -> str:
    text = output_text(timeline, step)
    tr = i18n.Texts(lang)
    nothing = f'<span class=note>{tr("views.output.nothing")}</span>'
    return (f'<div class="outtext"><div class="viewtitle">{tr("views.output.title", step=step)}</div>'
            f'<div class="outbox">{escape(text) or nothing}</div></div>')


def step_summary(timeline: Timeline, step: int, lang: str = i18n.DEFAULT) -> str:
    """One sentence about `step` for a screen reader (plain text); the last step says what ended
    the decode and that the masks still in the window are never scored. Its mask counts add up on
    the line itself (narration.mask_account): read = newly filled + taken by the AR token + left;
    AR's line counts the one token its forward wrote (the account's written)."""
    s = timeline.trace.steps[step]
    acc = narration.mask_account(s)
    # "masks read" are the forward's input; "left" those it did not fill (what the window picture
    # beside the line shows as [M])
    left = acc.left
    why = {"stop_token": "ends_stop", "max_new_tokens": "ends_budget"}.get(s.stop_reason) if s.finished else None
    counted = bool(why and left)   # the ending names the masks left (the [M] drawn), so the line stays one line
    end = (_count(lang, f"views.summary.{why}", left) if counted
           else i18n.text(lang, "views.summary.ends") if s.finished else "")
    key = "views.summary.last" if counted and not s.filled else "views.summary"
    values = {}
    if timeline.trace.decoder == "ar":  # AR has no masks: a chapter with none said "0 masks in the window"
        key = "views.summary.ar"
    elif s.verify is not None and key == "views.summary":
        v = s.verify
        if acc.read == 0:   # no mask read: the forward only checked drafts (or read the AR token alone)
            key = "views.summary.verified_checked" if v.checked else "views.summary.verified_ar_only"
            values["checks"] = _count(lang, "views.summary.drafts", len(v.checked)) if v.checked else ""
        elif acc.taken:     # the AR token took the first mask's slot: counted apart from the fills
            key = "views.summary.verified"
        else:               # the AR token replaced a rejected draft (or came after the window)
            inside = 0 <= v.ar_pos - s.start < len(s.window)
            key = "views.summary.verified_replaced" if inside else "views.summary.verified_after"
    return i18n.text(lang, key, step=step, last=timeline.num_steps - 1,
                     filled=acc.filled, written=acc.written, taken=acc.taken, committed=len(s.committed), left=left,
                     masks=_count(lang, "views.summary.masks", acc.read), before=s.cache_before,
                     after=s.cache_after, end=end, **values)


def slot_kinds(window: list, commit_n: int, stop_ids=(), filled_now=()) -> list[str]:
    """The state class of each slot of a fed window: committing (the leading filled run, whose KV
    this very forward writes: it is not in the cache yet), stop, filled (waits), mask; `fills`
    marks a mask this step's forward fills."""
    kinds = []
    stopped = False
    for i, tok in enumerate(window):
        if tok is None:
            kinds.append("mask fills" if i in filled_now else "mask")
        elif stopped:
            kinds.append("dropped")
        elif i < commit_n:
            stopped = tok in stop_ids
            kinds.append("stop" if stopped else "committing")
        else:
            kinds.append("filled")
    return kinds


SLOT_CH_MAX = 10   # past this many columns a label keeps its own width: one long token would widen every slot


def _columns(label: str) -> int:
    """How many monospace columns an escaped label takes (a wide character, e.g. Chinese, takes two)."""
    text = unescape(re.sub(r"<[^>]*>", "", label))
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def slot_columns(labels: list[str], checks: dict[int, str], start: int) -> int | None:
    """One width (in the slot's monospace columns) for every slot of a window, so the logical and
    physical rows wrap at the same slot and their columns line up at any screen width (walk 24: at
    1024 px the two rows of chapter 3 broke at different slots). The widest label (a ✓/✗ mark adds
    one) or position id (drawn at 3/4 of the token's size); None past SLOT_CH_MAX."""
    widest = max([_columns(lab) + (1 if checks.get(start + i) else 0) for i, lab in enumerate(labels)]
                 + [math.ceil(len(str(start + len(labels) - 1)) * 0.75)], default=0)
    return widest if widest <= SLOT_CH_MAX else None


def order_rows(window: list, order: list[int], start: int, labels: list[str], kinds: list[str],
               checks: dict[int, str] | None = None, lang: str = i18n.DEFAULT) -> str:
    """The window in logical and physical order; every slot shows its position id. Labels are
    escaped HTML already. checks: the verified decoder's mark by position (verify_marks). Used by
    the Decode tab and by the reorder playground. Every slot is one width (slot_columns)."""
    checks = checks or {}
    columns = slot_columns(labels, checks, start)
    width = f' style="--slot-ch: {columns}"' if columns else ""

    def slot(i: int) -> str:
        check = checks.get(start + i)
        vf = f' vf-{check}" data-verify="{check}' if check else ""
        return (f'<div class="slot st-{kinds[i]}{vf}" data-pos="{start + i}" tabindex="0">'
                f'<div class="tokt">{labels[i]}{verify_mark(check)}</div><div class="pid">{start + i}</div></div>')
    logical = "".join(slot(i) for i in range(len(window)))
    physical = "".join(slot(i) for i in order)
    tr = i18n.Texts(lang)
    return (f'<div class="row"><span class="lab">{tr("views.order.logical")}</span><div class="slots"{width}>{logical}</div></div>'
            f'<div class="row"><span class="lab">{tr("views.order.physical")}</span><div class="slots"{width}>{physical}</div></div>')


def order_view(timeline: Timeline, step: int, lang: str = i18n.DEFAULT) -> str:
    """Step `step`'s input: the window fed to its forward, in both orders, and the KV cache. For
    the verified decoder (BEYOND THE PAPER) each checked draft is marked ✓ / ✗ and a row shows
    the AR token this forward found, where it went."""
    s = timeline.trace.steps[step]
    labels = [token_label(timeline, t) for t in s.window]
    # verified: the AR token is not a draft the fill rule made (its own row and key show it), so its
    # slot is not marked "mask this forward fills" (the last step filled none and its key still named it)
    ar_pos = s.verify.ar_pos if s.verify is not None else None
    filled_now = {f.pos - s.start for f in s.filled if f.pos != ar_pos}
    kinds = slot_kinds(s.window, len(s.committed) if s.committed else 0, timeline.trace.stop_ids, filled_now)
    if timeline.trace.decoder == "ar":   # its one slot: the token the last forward predicted, read now
        kinds = ["committing"]
    cache_tail = 24
    cached = timeline.trace.prompt_ids + _committed_before(timeline, step)
    shown = cached[-cache_tail:]
    # cached tokens sit at positions 0.. in text order: their chips carry data-pos, so a tapped token
    # is outlined in the cache row too (walk 23 tapped position 8 in chapter 1: the row stayed bare)
    first = len(cached) - len(shown)
    strip = "".join(f'<div class="kv" data-pos="{first + i}">{token_label(timeline, t)}</div>'
                    for i, t in enumerate(shown))
    # the KV this forward writes (the leading run it reads): committing, not yet cached when it is fed
    new = "".join(f'<div class="kv st-committing" data-pos="{len(cached) + i}">{token_label(timeline, t)}</div>'
                  for i, t in enumerate(s.committed))
    tr = i18n.Texts(lang)
    # the blue chips get a key of their own (walk 30: a colour no key named)
    cached_key = f'<span class="kv legend">{tr("views.orders.cached")}</span>' if shown else ""
    more = (f'<div class="kv more">{tr("views.orders.more", n=len(cached) - len(shown))}</div>'
            if len(cached) > len(shown) else "")
    if s.verify is None:
        kind, title_key, ar_row, checks_legend = "orders", "views.orders.title", "", ""
        # AR's input has no masks: its caption says what its one row is, not how filled slots move
        note = note_tail = tr("views.orders.note_ar" if timeline.trace.decoder == "ar" else "views.orders.note",
                              colour=palette.colour_word("state-committing", lang))
        window = timeline.trace.config.get("window")
        if timeline.trace.decoder in ("streaming", "reference") and window:  # why rows exceed W
            acc = narration.run_account(s)  # the leading filled run: it commits unless the decode ends in it
            if not acc.run:   # a mask in front: no run leads, nothing commits (walk 17: "0 in the run … commits")
                # the title names the window alone (walk 23: "the leading filled run and the window" over
                # a note saying no filled run leads)
                title_key = "views.orders.title_window"
                note_tail = tr("views.orders.note_none")
                note = tr("views.orders.rows_none", n=s.rows, w=window)
            else:
                note = tr("views.orders.rows", n=s.rows, commit=acc.run, kept=len(s.window) - acc.run, w=window)
            if acc.dropped:
                note += tr("views.orders.rows_end", positions=narration.positions_text(acc.run_positions, lang),
                           kept=acc.committed, run=acc.run, dropped=acc.dropped,
                           dropped_positions=narration.positions_text(acc.dropped_positions, lang))
            note += note_tail
    else:
        # a step with no drafts (the record's `checked` is empty) says so, not "its drafts checked ✓ / ✗"
        title_key = "views.verified.title" if s.verify.checked else "views.verified.title_none"
        kind, ar_row = "orders verified", _ar_found_row(timeline, s.verify, lang)
        marks = set(verify_marks(timeline, step).values()) | {"ar"}   # the AR token's row is always drawn
        checks_legend = verify_legend(lang, marks)
        note = (narration.verified_rows_text(s, timeline.trace.config.get("window"), lang)
                + tr("views.verified.note", slot=s.start))
    title = _count(lang, title_key, s.rows, step=step, forward=step + 1)
    # the animation only where a slot moves (chapter 10's verified rows never do: walk 28 pressed it there)
    button = _reorder_button(lang) if list(s.order) != list(range(len(s.window))) else ""
    return (f'<div class="{kind}"><div class="viewtitle">{title}</div>{button}'
            f'{order_rows(s.window, s.order, s.start, labels, kinds, verify_marks(timeline, step), lang)}{ar_row}'
            f'<div class="row"><span class="lab">{tr("views.orders.kv", before=s.cache_before, after=s.cache_after)}'
            f'</span><div class="slots">{more}{strip}{new}</div></div>'
            f'<div class="legend">{order_legend(timeline.trace.decoder, lang, kinds)}{cached_key}{checks_legend}'
            f'{glyph_key(lang)}</div>'
            f'<div class="note">{note}</div></div>')


def _count(lang: str, key: str, n: int, **values) -> str:
    """Message `key`.one or `key`.many by n (English agrees in number; Chinese has one form)."""
    return i18n.text(lang, f"{key}.{'one' if n == 1 else 'many'}", n=n, **values)


def _reorder_button(lang: str) -> str:
    tr = i18n.Texts(lang)
    return (f'<button type="button" class="reorder-play" title="{tr("views.orders.play_title")}">'
            f'{tr("views.orders.play")}</button>')


def ar_token_place(v, lang: str = i18n.DEFAULT) -> str:
    """Where a verified step's AR token went (replaces a rejected draft, follows the accepted run,
    or is the next token of an AR step), worded: the order view and the tour's fills say it alike."""
    key = ("views.verified.replaces" if v.replaced else
           "views.verified.appended" if v.checked else "views.verified.next")
    return i18n.text(lang, key, pos=v.ar_pos)


def _ar_found_row(timeline: Timeline, v, lang: str = i18n.DEFAULT) -> str:
    """The verified decoder's AR token at a step (BEYOND THE PAPER): what it is and where it went."""
    tr = i18n.Texts(lang)
    where = ar_token_place(v, lang)
    return (f'<div class="row"><span class="lab">{tr("views.verified.ar_found", where=where)}</span><div class="slots">'
            f'<div class="slot vf-ar" data-verify="ar" data-pos="{v.ar_pos}" tabindex="0"><div class="tokt">'
            f'{token_label(timeline, v.ar_token)}{verify_mark("ar")}</div><div class="pid">{v.ar_pos}</div></div>'
            f'</div></div>')


def _committed_before(timeline: Timeline, step: int) -> list[int]:
    out = []
    for s in timeline.trace.steps[:step]:
        out.extend(s.committed)
    return out


def step_table(timeline: Timeline, current: int | None = None, lang: str = i18n.DEFAULT) -> str:
    """Every step's numbers, the `current` one marked; rows carry data-at-step, so the stepper
    marks the shown step's row in a table drawn once."""
    rows = []
    for s in timeline.trace.steps:
        cls = ' class="at-step current"' if s.index == current else ' class="at-step"'
        rows.append(f'<tr{cls} data-at-step="{s.index}"><td>{s.index}</td><td>{s.rows}</td><td>{len(s.filled)}</td>'
                    f"<td>{len(s.committed)}</td><td>{s.cache_after}</td><td>{s.seconds * 1000:.1f}</td></tr>")
    tr = i18n.Texts(lang)
    head = "<tr>" + "".join(f"<th>{tr('views.table.' + k)}</th>" for k in
                            ("step", "rows", "filled", "committed", "cache", "ms")) + "</tr>"
    # focusable: it scrolls sideways, and a keyboard user must be able to scroll it (axe, tests/test_a11y.py)
    return (f'<div class="steptable" tabindex="0" role="region" aria-label="{tr("views.table.label")}">'
            f'<table>{head}{"".join(rows)}</table></div>')


def badge(timeline: Timeline, step: int, lang: str = i18n.DEFAULT) -> str:
    trace = timeline.trace
    stats = trace.stats()
    tr = i18n.Texts(lang)
    extra = ""
    if stats:
        rows = stats.get("rows_processed", 0) / max(1, stats["forwards"])
        extra = (f' · <span title="{tr("views.badge.tpf_title")}">'
                 + tr("views.badge.tpf", tokens=stats["generated_tokens"], forwards=stats["forwards"],
                      tpf=f'{stats["tokens_per_forward"]:.2f}') + '</span>'
                 f' · <span title="{tr("views.badge.rows_title")}">{tr("views.badge.rows", rows=f"{rows:.1f}")}</span>'
                 f' · <span title="{tr("views.badge.p_cache_title")}">p_cache {stats["p_cache"]:.2f}</span>')
    dec = escape(trace.decoder)
    meaning = f'<div class="note">{tr("views.badge.meaning")}</div>' if stats else ""
    main = tr("views.badge.main", model=escape(trace.model.split("/")[-1]), step=step, forward=step + 1,
              forwards=timeline.num_steps)
    return (f'<div class="badge"><span class="dec dec-{dec}">{escape(decoder_name(trace.decoder, lang))}</span> '
            f'{main}{extra}{meaning}</div>')


def decoder_name(decoder: str, lang: str = i18n.DEFAULT) -> str:
    """A decoder's name as the page shows it: its own name in English ("streaming"), the usual
    Chinese term in Chinese; an unknown decoder keeps its name."""
    key = "views.decoder." + decoder
    return decoder if lang == i18n.DEFAULT or key not in i18n.catalog() else i18n.text(lang, key)


def narration_html(timeline: Timeline, step: int, lang: str = i18n.DEFAULT) -> str:
    sentences = narration.narrate(timeline.trace, step, lang)
    title = i18n.text(lang, "views.narration.title", step=step, forward=step + 1)
    return (f'<div class="narration"><div class="viewtitle">{title}</div>'
            f'<p>{narration.joined([escape(t) for t in sentences], lang)}</p></div>')


GRID_CELL = 16  # SVG units: a cell, and the labels' size (style.css draws them 16 units tall)
GRID_PAD = 8    # room beside the row labels and above the column ids
# a phone draws the tour's grids at least this many px a unit (labels 16 units: >= 11 px on screen; scaled to
# a 326 px box a 38-column step read 8.4 px, and at 0.64 they read 10.2), scrolling inside their box when
# that is wider (style.css)
GRID_MIN_SCALE = 0.7
PHONE_BOX = 320  # px: a phone's grid box, about (390 px wide: 326); a grid wider than this at GRID_MIN_SCALE says it scrolls


def grid_text_units(html_text: str) -> float:
    """How long a grid label (escaped HTML) is drawn, in SVG units: monospace, 0.6 em a character,
    a wide (CJK) character 1 em. The grid's margins are as wide as its labels, no wider, so the
    cells (and the labels with them) get the rest of the box."""
    text = unescape(html_text)
    return sum(GRID_CELL if ord(ch) > 0x2E80 else 0.6 * GRID_CELL for ch in text)



def grid_html(window: list, order: list[int], start: int, cache_len: int, labels: list[str],
              kinds: list[str], logical: bool, lang: str = i18n.DEFAULT) -> str:
    """A window's attention mask as an SVG grid (window rows × [prefix, window] columns): in
    physical order the causal triangle that runs, in logical order what each token sees from
    its place in the text (masks see later filled tokens: orange, marked ›). Runs of seen cells
    are one rectangle each (a grid of cells cost the page tens of ms a step), and the SVG scales
    to its box, so it never scrolls sideways. Each row carries data-pos and data-sees (per
    column: 1 seen, 0 not, 2 seen and later); rows and columns are outlined when followed
    (app/static/highlight.js), so the orange cells stay visible. Labels are escaped HTML
    already. Shared with the playground."""
    idx = list(range(len(window))) if logical else list(order)
    vis = visibility(window)  # the same mask either way; only the row/column order differs
    n, c = len(idx), GRID_CELL
    prefix = i18n.text(lang, "views.grid.prefix")
    left = round(max(grid_text_units(f"{start + i}:{labels[i]}") for i in idx) + GRID_PAD)
    top = round(max([grid_text_units(prefix)] + [grid_text_units(str(start + j)) for j in idx]) + GRID_PAD)
    width, height = left + c * (n + 1), top + c * n
    parts = [f'<rect class="off" x="{left + c}" y="{top}" width="{c * n}" height="{c * n}"/>',
             f'<rect class="prefix" x="{left}" y="{top}" width="{c}" height="{c * n}"/>',
             f'<text class="colh" x="{left + c / 2 + 4}" y="{top - 3}" transform="rotate(-90 {left + c / 2 + 4} '
             f'{top - 3})">{prefix}</text>']
    for col, j in enumerate(idx):
        x = left + c * (col + 1)
        parts.append(f'<text class="colh" x="{x + c / 2 + 4}" y="{top - 3}" transform="rotate(-90 {x + c / 2 + 4} '
                     f'{top - 3})">{start + j}</text>')
    any_later = False
    for row, i in enumerate(idx):
        y = top + c * row
        sees = ["2" if vis[i][j] and window[i] is None and j > i else "1" if vis[i][j] else "0" for j in idx]
        any_later = any_later or "2" in sees
        runs, col = [], 0
        while col < n:  # one rectangle per run of seen columns
            if sees[col] == "0":
                col += 1
                continue
            end = col
            while end < n and sees[end] != "0":
                end += 1
            runs.append(f'<rect class="on" x="{left + c * (col + 1)}" y="{y}" width="{c * (end - col)}" height="{c}"/>')
            col = end
        later = "".join(f'<rect class="later" x="{left + c * (k + 1)}" y="{y}" width="{c}" height="{c}"/>'
                        f'<text class="lt" x="{left + c * (k + 1.5)}" y="{y + c - 4}">›</text>'
                        for k, v in enumerate(sees) if v == "2")
        tip = f' <title>{i18n.text(lang, "views.grid.sees_later")}</title>' if "2" in sees else ""
        parts.append(f'<g class="gr" data-pos="{start + i}" data-sees="{"".join(sees)}">{tip}'
                     f'<rect class="rowlab st-{kinds[i].split()[0]}" x="0" y="{y}" width="{left - 2}" height="{c}"/>'
                     f'<text class="rowt" x="{left - 5}" y="{y + c - 4}">{start + i}:{labels[i]}</text>'
                     f'{"".join(runs)}{later}</g>')
    lines = "".join(f"M{left + c * k} {top}V{height}" for k in range(1, n + 1)) + \
        "".join(f"M{left} {top + c * k}H{width}" for k in range(1, n))
    parts.append(f'<path class="cells" d="{lines}"/>')
    # outlines for a followed row or column, over the cell lines
    parts += [f'<rect class="band" data-pos="{start + i}" x="{left}" y="{top + c * row}" width="{c * (n + 1)}" '
              f'height="{c}"/>' for row, i in enumerate(idx)]
    parts += [f'<rect class="gc" data-pos="{start + j}" x="{left + c * (col + 1)}" y="{top}" width="{c}" height="{c * n}"/>'
              for col, j in enumerate(idx)]
    tr = i18n.Texts(lang)
    title = tr("views.order.logical") if logical else tr("views.grid.physical")
    later_key = (tr("views.grid.later", colour=palette.colour_word("attend-later", lang).capitalize())
                 if any_later else "")
    cached = f'<span class="gt-more">{tr("views.grid.cached", n=cache_len)}</span>'
    head = tr("views.grid.title", title=title, colour=palette.colour_word("attend", lang), cached=cached, later=later_key)
    least = round(width * GRID_MIN_SCALE)
    hint = f'<p class="grid-hint">{tr("views.grid.scroll_hint")}</p>' if least > PHONE_BOX else ""
    return (f'<div class="maskgrid"><div class="gridtitle">{head}</div>{hint}'
            f'<svg class="grid" viewBox="0 0 {width} {height}" width="100%" '
            f'style="max-width:{round(width * 1.3)}px;--grid-least:{least}px" '
            f'role="img" aria-label="{tr("views.grid.label", title=title)}">{"".join(parts)}</svg></div>')


def mask_grid(timeline: Timeline, step: int, logical: bool, lang: str = i18n.DEFAULT) -> str:
    """The attention mask of a recorded step (see grid_html)."""
    s = timeline.trace.steps[step]
    if timeline.trace.decoder == "ar":
        tr = i18n.Texts(lang)
        return (f'<div class="maskgrid"><div class="gridtitle">'
                f'{tr("views.grid.ar_logical" if logical else "views.grid.ar_physical")}</div>'
                f'<p class="note">{tr("views.grid.ar_note", pos=s.start, n=s.cache_before)}</p></div>')
    labels = [token_label(timeline, t) for t in s.window]
    kinds = slot_kinds(s.window, len(s.committed), timeline.trace.stop_ids)
    return grid_html(s.window, s.order, s.start, s.cache_before, labels, kinds, logical, lang)


def empty_view(message: str | None = None, lang: str = i18n.DEFAULT) -> str:
    """A view's placeholder; message None: "Run a decode or load a trace." in `lang`."""
    if message is None:
        message = i18n.text(lang, "views.empty")
    return f"<div class='empty'>{escape(message)}</div>"
