"""How it works: short lessons and the interactive reorder playground."""
from __future__ import annotations

from html import escape

from wedlm.reorder import leading_filled, physical_order

from .. import i18n
from . import render

# The lessons in English; lesson(name, lang) in any language (app/i18n/views.py)
CAUSAL, REORDER, STREAMING, TRAINING = (i18n.text(i18n.DEFAULT, f"views.lesson.{name}")
                                        for name in ("causal", "reorder", "streaming", "training"))


LESSONS = {"causal": CAUSAL, "reorder": REORDER, "streaming": STREAMING, "training": TRAINING}


def lesson(name: str, lang: str = i18n.DEFAULT) -> str:
    """A lesson's Markdown ("causal", "reorder", "streaming", "training") in `lang`."""
    return i18n.text(lang, f"views.lesson.{name}")


def playground(window_size: int, filled: list[int], start: int = 100, lang: str = i18n.DEFAULT) -> tuple[str, str, str]:
    """The window with `filled` slots (indices) filled: both orders with the commit, and the
    attention mask in both orders, drawn by the same code as the Decode tab's views."""
    window = [("T" if i in filled else None) for i in range(window_size)]
    order = physical_order(window)
    commit = leading_filled(window)
    labels = ["[M]" if t is None else f"t{i}" for i, t in enumerate(window)]
    kinds = render.slot_kinds(window, commit)
    said = i18n.text(lang, f"views.lesson.commit.{'none' if not commit else 'one' if commit == 1 else 'many'}", n=commit)
    html = (f'<div class="orders">{render.order_rows(window, order, start, labels, kinds, lang=lang)}'
            f'<div class="note">{i18n.text(lang, "views.lesson.playground", ids=escape(str([start + i for i in order])), commit=said)}'
            f'</div></div>')
    return (html, render.grid_html(window, order, start, start, labels, kinds, logical=False, lang=lang),
            render.grid_html(window, order, start, start, labels, kinds, logical=True, lang=lang))
