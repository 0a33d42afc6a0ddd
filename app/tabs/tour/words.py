"""Sentences made from a step record, and the words every chapter shares: a colour word comes
from the palette's role names (so it names a colour the views really use), a term links to the
glossary. Every sentence is a catalog template (app/i18n/tour.py) filled with the step's numbers."""
from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape, unescape

from ... import i18n
from ...views import lanes, palette, render
from ...views.narration import masks_left, positions_text, run_account
from ...views.timeline import Timeline
from .glossary import LINKED, terms, word as term_word

LISTED_FILLS = 6      # narration names this many fills, then "and N more"


def gap(lang: str = i18n.DEFAULT) -> str:
    """What runs two sentences together: a space in English, nothing after Chinese punctuation."""
    return "" if lang == "zh" else " "


def plural(key: str, n: int, lang: str = i18n.DEFAULT, **values) -> str:
    """Message `key.one` for n == 1, else `key.many` (English needs both; Chinese says them alike)."""
    return i18n.text(lang, f"{key}.{'one' if n == 1 else 'many'}", n=n, **values)


def colour(role: str, lang: str = i18n.DEFAULT, outline: str | None = None) -> str:
    """A colour word with its swatch, e.g. colour("state-new") -> ▮ orange. outline ("solid" or
    "dashed"): a role the picture draws as an outline (the verified checks), its swatch outlined
    the same way, e.g. colour("verify-accepted", outline="solid") -> ▢ emerald outline."""
    hex_, word = palette.ROLE_COLOURS[role], palette.colour_word(role, lang)
    if outline is None:
        return f'<span class="ckey" data-role="{role}"><i style="background:{hex_}"></i>{word}</span>'
    word = i18n.text(lang, "views.colour.outline", colour=word)
    return (f'<span class="ckey ckey-outline" data-role="{role}"><i style="border:2px {outline} {hex_}"></i>'
            f'{word}</span>')


def term(key: str, text: str | None = None, lang: str = i18n.DEFAULT) -> str:
    """A glossary term as a link (its definition also shows on hover)."""
    title, definition = terms(lang)[key]
    return (f'<a class="gloss" href="#glossary-{key}" data-term="{key}" title="{escape(definition)}">'
            f'{text or escape(title)}</a>')


def final_words(lang: str = i18n.DEFAULT) -> str:
    """"Final" in its two senses (tour.final), one sentence that chapter 4 and the recap both say:
    a filled token is never changed; it commits (output, KV kept) only in the leading filled run."""
    return i18n.text(lang, "tour.final", commits=term("commit", i18n.text(lang, "tour.link.commits"), lang=lang))


def model_text(text: str) -> str:
    """The model's own words quoted in a sentence (escaped, as Python writes them): marked as
    not the page's language, so no translator (nor a check for English left) touches them."""
    return f'<span translate="no">{escape(repr(text))}</span>'


TOKEN_QUOTES = {"en": "‘’", "zh": "“”"}   # a token in a sentence; Chinese quotes as the views' sentences do


def tok(tl: Timeline, token: int | None, lang: str = i18n.DEFAULT) -> str:
    """A token as the narration quotes it (escaped HTML, whitespace made visible)."""
    left, right = TOKEN_QUOTES.get(lang, TOKEN_QUOTES[i18n.DEFAULT])
    return f"{left}{render.token_label(tl, token)}{right}"


def none_word(lang: str = i18n.DEFAULT) -> str:
    """τ or a span that is not there."""
    return i18n.text(lang, "tour.none")


def span(positions: list[int], lang: str = i18n.DEFAULT) -> str:
    """Positions in the one format every chapter and view uses (`views.narration.positions_text`):
    runs as "74–80", runs joined by the list separator ("74–76, 79"), none as "none"."""
    return positions_text(positions, lang) if positions else none_word(lang)


def some(positions: list[int], shown: int = 8, lang: str = i18n.DEFAULT) -> str:
    """A few positions, as span() writes them (at most `shown` runs, then "…")."""
    text = span(positions, lang=lang)
    sep = i18n.text(lang, "tour.list_sep")
    runs = text.split(sep)
    return sep.join(runs[:shown]) + ("…" if len(runs) > shown else "")


def fills_sentence(tl: Timeline, step: int, lang: str = i18n.DEFAULT) -> str:
    """'Filled 3: ‘7’ at 12, … and N more.' for the step's fills, logical order (the verified
    decoder's AR token first, named as the AR token)."""
    tr = i18n.Texts(lang)
    s = tl.trace.steps[step]
    filled = sorted(s.filled, key=lambda f: f.pos)
    v = s.verify
    ar = ""
    if v is not None:  # verified (beyond the paper): the AR token is named as such, not as a fill
        ar_fill = next((f for f in filled if f.pos == v.ar_pos and f.token == v.ar_token), None)
        if ar_fill is not None:
            filled.remove(ar_fill)
            ar = tr("tour.ar_filled", token=tok(tl, v.ar_token, lang), where=render.ar_token_place(v, lang))
            if not filled:
                return ar
            ar += gap(lang)
    if not filled:
        return tr("tour.filled_none")
    if tl.trace.decoder == "ar":   # no masks to fill: AR predicts its one token (the step summary's word)
        return tr("tour.ar_predicted", token=tok(tl, filled[0].token, lang), pos=filled[0].pos)
    named = tr("tour.list_sep").join(tr("tour.fill_at", token=tok(tl, f.token, lang), pos=f.pos)
                                     for f in filled[:LISTED_FILLS])
    more = tr("tour.fills_more", n=len(filled) - LISTED_FILLS) if len(filled) > LISTED_FILLS else ""
    return ar + tr("tour.filled", n=len(filled), named=named, more=more)


def commits_sentence(tl: Timeline, step: int, lang: str = i18n.DEFAULT) -> str:
    s = tl.trace.steps[step]
    n = len(s.committed)
    if n == 0:
        return i18n.text(lang, "tour.committed_none", cache=s.cache_after)
    positions = list(range(s.start, s.start + n))
    text = "".join(unescape(render.token_label(tl, t)) for t in s.committed[:12])
    return plural("tour.committed", n, lang, span=span(positions, lang=lang),
                  text=model_text(text) + ("…" if n > 12 else ""), before=s.cache_before, after=s.cache_after)


def facts(tl: Timeline, step: int, lang: str = i18n.DEFAULT, head: str | None = None) -> str:
    """The box under every chapter's text: what this forward really did. head: its heading where
    the chapter's steps are not `tl`'s alone (chapter 5 steps two decodes; its heading says which)."""
    head = head or i18n.text(lang, "tour.facts", step=step, forward=step + 1, forwards=tl.num_steps)
    return (f'<div class="tour-facts" data-step="{step}"><b>{head}</b> · '
            f'{fills_sentence(tl, step, lang=lang)}{gap(lang)}{commits_sentence(tl, step, lang=lang)}</div>')


def ar_chart(tl: Timeline, forwards: int, lang: str = i18n.DEFAULT) -> str:
    """What the growth chart (figs.growth: Timeline.committed_after) shows for an AR decode after
    `forwards` forwards, in the one sentence chapters 1 and 6 both use: committed tokens, the
    prefill's token committed by forward 1. It says why first, then the tokens written beside the
    ones cached (the chart's height), so the two numbers do not read as a clash."""
    ended = forwards >= len(tl.trace.steps)   # no next forward feeds the newest token
    return plural("tour.ar_chart", forwards, lang, chart=tl.committed_after[forwards - 1], written=lanes.tokens_after(tl, forwards),
                  committed=term("commit", i18n.text(lang, "tour.link.committed"), lang),
                  newest=i18n.text(lang, "tour.ar_chart.end" if ended else "tour.ar_chart.next"))


def link_first(html: str, key: str, lang: str = i18n.DEFAULT) -> str:
    """`html` with the first use of glossary term `key` (the word a chapter writes for it, in the
    text, not in a tag, inside a link nor in the model's own words) linked to the glossary, unless
    a link to it is there."""
    if f'data-term="{key}"' in html:
        return html
    pattern = re.compile(rf"(?<![A-Za-z]){re.escape(term_word(key, lang))}(?![A-Za-z])")
    parts, depth, quoted = re.split(r"(<[^>]+>)", html), 0, False
    for k, part in enumerate(parts):
        if part.startswith("<"):
            depth += 1 if re.match(r"<a[\s>]", part) else -1 if part.startswith("</a") else 0
            quoted = part.startswith('<span translate="no"') or (quoted and not part.startswith("</span"))
            continue
        if depth == 0 and not quoted and pattern.search(part):
            parts[k] = pattern.sub(lambda m: term(key, m.group(0), lang), part, count=1)
            return "".join(parts)
    return html


def paragraph(text: str) -> str:
    """One paragraph; one that ends in a numbered list (<ol>) leaves the list outside its <p>, which
    cannot hold it. A block of its own (a <div>, chapter 4's slot life) is no paragraph."""
    if text.startswith("<div"):
        return text
    head, ol, rest = text.partition("<ol")
    return f"<p>{head}</p>{ol}{rest}"


# an opening bracket and the colour key after it (colour()): one unbreakable unit (at 1920x1080 chapter
# 10's "agreed ✓ (" ended a line, its key on the next: the swatch is an inline box a line may break before)
KEY_AFTER_BRACKET = re.compile(r'([(（])(<span class="ckey[^"]*"[^>]*>.*?</span>)')


def keep_keys(html: str) -> str:
    """Each colour key with the bracket that opens it, in a span that never breaks (.ckey-keep)."""
    return KEY_AFTER_BRACKET.sub(r'<span class="ckey-keep">\1\2</span>', html)


def narration(paragraphs: list[str], tl: Timeline | None = None, step: int | None = None,
              lang: str = i18n.DEFAULT, head: str | None = None) -> str:
    body = keep_keys("".join(paragraph(p) for p in paragraphs))
    at = f' data-step="{step}"' if step is not None else ""
    text = f'<div class="tour-text"{at}>{body}{facts(tl, step, lang, head) if tl is not None else ""}</div>'
    for key in LINKED:   # entropy's unit, the window, the prefill…: explained where a chapter first uses them
        text = link_first(text, key, lang)
    return text


def run_summary(tl: Timeline, lang: str = i18n.DEFAULT) -> str:
    """One sentence on a whole decode: what it wrote and how fast."""
    st = tl.trace.stats()
    text = tl.trace.text or ""
    shown = model_text(text[:60]) + ("…" if len(text) > 60 else "")
    tau = tl.trace.config.get("threshold")
    return i18n.text(lang, "tour.run_summary", tau=none_word(lang) if tau is None else f"{tau:g}",
                     penalty=f"{tl.trace.config.get('penalty', 0):g}", tokens=st["generated_tokens"],
                     forwards=st["forwards"], tpf=st["tokens_per_forward"], text=shown)


@dataclass(frozen=True)
class StopKV:
    """The decode's stop token, from the record: where it is, the step whose forward wrote it, and
    the later step whose forward read it in the run it commits (so wrote its KV), None if none did."""
    pos: int
    wrote: int
    read: int | None


def stop_kv(tl: Timeline, step: int) -> StopKV | None:
    """Whether a forward read the stop token that ended the decode at `step` after it was written:
    only a forward that reads a token computes its KV (chapter 4), so a stop token no forward read
    has none. None: the decode did not end at `step` on a stop token."""
    s, stops = tl.trace.steps[step], tl.trace.stop_ids
    if not s.finished or s.stop_reason != "stop_token":
        return None
    pos = next((s.start + i for i, t in enumerate(s.committed) if t in stops), None)
    if pos is None:
        pos = min((f.pos for f in s.filled if f.token in stops), default=None)
    if pos is None:
        return None
    wrote = max((r.index for r in tl.trace.steps[:step + 1] for f in r.filled if f.pos == pos and f.token in stops),
                default=None)
    if wrote is None:
        return None

    def kept(r) -> bool:   # r's forward read it in its leading run (the slots it commits): it wrote its KV
        i = pos - r.start
        return 0 <= i < len(r.committed) and i < len(r.window) and r.window[i] in stops
    read = next((r.index for r in tl.trace.steps[wrote + 1:step + 1] if kept(r)), None)
    return StopKV(pos, wrote, read)


def ending(tl: Timeline, step: int, lang: str = i18n.DEFAULT) -> str:
    """What ended the decode at `step` (its last), and the masks it leaves unscored; "" for
    any other step."""
    s = tl.trace.steps[step]
    if not s.finished:
        return ""
    tr = i18n.Texts(lang)
    stop = next((s.start + i for i, t in enumerate(s.committed) if t in tl.trace.stop_ids), None)
    found = next((f.pos for f in s.filled if f.token in tl.trace.stop_ids), None)
    kv = stop_kv(tl, step)
    # the rule, then why it holds for this decode's stop token, in the same words in chapters 2-4 and 10
    why = "" if kv is None else (tr("tour.ending.kv_read", read=kv.read, wrote=kv.wrote) if kv.read is not None
                                 else tr("tour.ending.kv_unread", wrote=kv.wrote, after=s.cache_after))
    if s.stop_reason == "stop_token" and stop is not None:
        said = tr("tour.ending.stop", pos=stop, rule=tr("tour.ending.kv_rule"), why=why,
                  commits=term("commit", tr("tour.link.commits"), lang))
    elif s.stop_reason == "stop_token" and found is not None:  # predicted, never fed: its KV is not cached
        said = tr("tour.ending.stop_found", pos=found, rule=tr("tour.ending.kv_rule"), why=why)
    elif s.stop_reason == "max_new_tokens":
        said = tr("tour.ending.budget", budget=tl.trace.config.get("max_new_tokens"))
    else:
        said = tr("tour.ending.stopped")
    acc = run_account(s)
    if acc.dropped and s.stop_reason in ("stop_token", "max_new_tokens") and s.verify is None:
        key = "tour.ending.cut_stop" if s.stop_reason == "stop_token" else "tour.ending.cut_budget"
        said += plural(key, acc.dropped, lang, run=positions_text(acc.run_positions, lang), kept=acc.committed,
                       total=acc.run, positions=positions_text(acc.dropped_positions, lang))
    left = masks_left(s)   # the [M] the views draw after this step (a filled slot, e.g. the AR token's, is not one)
    return said + (plural("tour.ending.left", left, lang) if left else "")


def elsewhere(tl: Timeline, step: int, why: str, moment: int | None, lang: str = i18n.DEFAULT,
              head: str | None = None, more: str = "") -> str:
    """A step the chapter's words were not written for (the teacher stepped away): what it
    shows instead, the way back, and the step's own facts. The decode's last step first says
    what ended it (so no chapter's words contradict that step's panels)."""
    tr = i18n.Texts(lang)
    # the way back: a live run's is its own step the chapter's words were written for, not "this
    # chapter's moment" (the recording's)
    back = (tr("tour.moment_is_live" if tl.live else "tour.moment_is", moment=moment)
            if moment is not None and moment != step else "")
    said = gap(lang).join(p for p in (ending(tl, step, lang), why) if p)
    first = tr("tour.elsewhere_forward", step=step, forward=step + 1) + said
    # more: a paragraph of its own after the step's words (chapter 10's window), the way back last
    paragraphs = [first, more + back] if more else [first + back]
    return narration(paragraphs, tl, step, lang=lang, head=head)
