"""The tour's glossary: every term a chapter uses, defined once (app/i18n/tour.py: gloss.KEY.term
and gloss.KEY.def). A chapter links a term where it first uses it (words.term); the glossary
panel opens from the tour's nav in every chapter."""
from __future__ import annotations

from html import escape

from ... import i18n

# terms that are the name of a number the app reports (a stats table's column): kept as they are
NAMES = ("p_cache", "forward_ratio")
KEYS = ("token", "forward", "kv-cache", "prefill", "position-id", "order", "diffusion", "mask", "window", "attention-mask",
        "entropy", "tau", "lambda", "distance", "commit", "leading-run", "p-cache", "tpf", "block", "greedy", "draft",
        "streaming", "verified", "cost-window", "cached-prefix", "reference", "float-rounding", "layer", "qkv", "forward-ratio", "glyphs", "bundled", "nats")
# terms a chapter's narration links where it first uses them (words.narration), and the words it
# looks for (catalog id gloss.KEY.word) where they differ from the glossary's heading
LINKED = ("nats", "diffusion", "prefill", "cost-window", "window", "order", "leading-run", "streaming")   # a longer term first
WORDED = ("diffusion", "window", "order", "leading-run", "streaming")


def terms(lang: str = i18n.DEFAULT) -> dict[str, tuple[str, str]]:
    """key -> (the term as the glossary heads it, its definition as plain text), in `lang`."""
    return {k: (i18n.text(lang, f"gloss.{k}.term"), i18n.text(lang, f"gloss.{k}.def")) for k in KEYS}


TERMS = terms()   # the English


def word(key: str, lang: str = i18n.DEFAULT) -> str:
    """The word a chapter writes for term `key` (what words.link_first looks for)."""
    return i18n.text(lang, f"gloss.{key}.word" if key in WORDED else f"gloss.{key}.term")


def _head(title: str) -> str:
    """A term as the glossary heads it, a reported number's name marked as not words to translate."""
    head = escape(title)
    for name in NAMES:
        head = head.replace(name, f'<span translate="no">{name}</span>')
    return head


def glossary_html(lang: str = i18n.DEFAULT) -> str:
    """The glossary panel (hidden until opened; app/static/present.js opens it on a term link)."""
    tr = i18n.Texts(lang)
    items = "".join(f'<dt id="glossary-{k}">{_head(title)}</dt><dd>{escape(text)}</dd>'
                    for k, (title, text) in terms(lang).items())
    return (f'<div id="glossary" class="glossary" role="dialog" aria-label="{tr("tour.glossary")}" hidden>'
            f'<div class="glossary-head"><b>{tr("tour.glossary")}</b> <button type="button" class="glossary-close" '
            f'aria-label="{tr("tour.glossary_close")}">✕</button></div><dl>{items}</dl></div>')
