"""Sentences made from a step record, and the words every chapter shares: a colour word comes
from the palette's role names (so it names a colour the views really use), a term links to the
glossary."""
from __future__ import annotations

from html import escape, unescape

from ... import i18n
from ...views import palette, render
from ...views.timeline import Timeline
from .glossary import TERMS

LISTED_FILLS = 6      # narration names this many fills, then "and N more"


def colour(role: str, lang: str = i18n.DEFAULT) -> str:
    """A colour word with its swatch, e.g. colour("state-new") -> ▮ orange."""
    hex_ = palette.ROLE_COLOURS[role]
    return (f'<span class="ckey" data-role="{role}"><i style="background:{hex_}"></i>'
            f'{palette.colour_word(role)}</span>')


def term(key: str, text: str | None = None, lang: str = i18n.DEFAULT) -> str:
    """A glossary term as a link (its definition also shows on hover)."""
    title, definition = TERMS[key]
    return (f'<a class="gloss" href="#glossary-{key}" data-term="{key}" title="{escape(definition)}">'
            f'{text or escape(title)}</a>')


def tok(tl: Timeline, token: int | None) -> str:
    """A token as the narration quotes it (escaped HTML, whitespace made visible)."""
    return f"‘{render.token_label(tl, token)}’"


def span(positions: list[int], lang: str = i18n.DEFAULT) -> str:
    if not positions:
        return "none"
    return str(positions[0]) if len(positions) == 1 else f"{positions[0]}–{positions[-1]}"


def some(positions: list[int], shown: int = 8, lang: str = i18n.DEFAULT) -> str:
    """A few positions: a span when consecutive, else a list."""
    if not positions or positions == list(range(positions[0], positions[-1] + 1)):
        return span(positions, lang=lang)
    return ", ".join(map(str, positions[:shown])) + ("…" if len(positions) > shown else "")


def fills_sentence(tl: Timeline, step: int, lang: str = i18n.DEFAULT) -> str:
    """'Filled 3: ‘7’ at 12, … and N more.' for the step's fills, logical order."""
    s = tl.trace.steps[step]
    filled = sorted(s.filled, key=lambda f: f.pos)
    if not filled:
        return "Nothing was filled."
    named = ", ".join(f"{tok(tl, f.token)} at {f.pos}" for f in filled[:LISTED_FILLS])
    more = f" and {len(filled) - LISTED_FILLS} more" if len(filled) > LISTED_FILLS else ""
    return f"Filled {len(filled)}: {named}{more}."


def commits_sentence(tl: Timeline, step: int, lang: str = i18n.DEFAULT) -> str:
    s = tl.trace.steps[step]
    n = len(s.committed)
    if n == 0:
        return f"Committed 0 tokens: the KV cache stays at {s.cache_after}."
    positions = list(range(s.start, s.start + n))
    text = "".join(unescape(render.token_label(tl, t)) for t in s.committed[:12])
    return (f"Committed {n} token{'s' if n > 1 else ''} (position{'s' if n > 1 else ''} "
            f"{span(positions, lang=lang)}, {escape(repr(text))}{'…' if n > 12 else ''}): the KV cache grows "
            f"{s.cache_before} → {s.cache_after}.")


def facts(tl: Timeline, step: int, lang: str = i18n.DEFAULT) -> str:
    """The box under every chapter's text: what this forward really did."""
    return (f'<div class="tour-facts" data-step="{step}"><b>Step {step} (forward {step + 1} of '
            f'{tl.num_steps})</b> · {fills_sentence(tl, step, lang=lang)} {commits_sentence(tl, step, lang=lang)}</div>')


def narration(paragraphs: list[str], tl: Timeline | None = None, step: int | None = None,
              lang: str = i18n.DEFAULT) -> str:
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    at = f' data-step="{step}"' if step is not None else ""
    return f'<div class="tour-text"{at}>{body}{facts(tl, step, lang=lang) if tl is not None else ""}</div>'


def run_summary(tl: Timeline, lang: str = i18n.DEFAULT) -> str:
    """One sentence on a whole decode: what it wrote and how fast."""
    st = tl.trace.stats()
    text = tl.trace.text or ""
    shown = escape(repr(text[:60])) + ("…" if len(text) > 60 else "")
    tau = tl.trace.config.get("threshold")
    return (f"This run (τ = {'none' if tau is None else f'{tau:g}'}, λ = {tl.trace.config.get('penalty', 0):g}) "
            f"wrote {st['generated_tokens']} tokens in {st['forwards']} forwards "
            f"({st['tokens_per_forward']:.2f} tokens per forward): {shown}.")


def elsewhere(tl: Timeline, step: int, why: str, moment: int | None, lang: str = i18n.DEFAULT) -> str:
    """A step the chapter's words were not written for (the teacher stepped away): what it
    shows instead, the way back, and the step's own facts."""
    back = f" This chapter's moment is step {moment}." if moment is not None and moment != step else ""
    return narration([f"<b>Step {step}.</b> {why}{back}"], tl, step, lang=lang)
