"""How a token's text is spelled on the page: whitespace made visible (· space, ↵ new line, → tab,
the key views.glyph_key gives), any other unprintable character as its escape. Every token display
uses visible(): the strips and slots, the narration's quotes, the tap card, chapter 3's Σ table."""
from __future__ import annotations

GLYPHS = {" ": "·", "\n": "↵", "\t": "→"}


def visible(text: str) -> str:
    """A token's text as the page shows it (plain text: the caller escapes it for HTML)."""
    return "".join(GLYPHS.get(c) or (c if c.isprintable() else repr(c)[1:-1]) for c in text)
