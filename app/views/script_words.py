"""The words app/static/stepper.js and present.js show (Play/Pause, "copied", Present/Stop), in
every language, as one CSS custom property the scripts read: `--wedlm-words`, a JSON object in a
CSS string, set per language with :lang() (the page's <html lang>, or a stepper's own lang
attribute). It rides in palette.css_variables(), so every page and the offline replay carry it,
with or without a stepper; the scripts hold no words of their own."""
from __future__ import annotations

import json

from .. import i18n

JS_WORDS = ("play", "pause", "waiting", "copied", "refused", "present", "stop_presenting", "stop_short",
            "pane_picture", "pane_words", "pane_title")


def js_words(lang: str = i18n.DEFAULT) -> dict[str, str]:
    """The scripts' words in `lang` (catalog ids views.js.*)."""
    return {key: i18n.text(lang, "views.js." + key) for key in JS_WORDS}


def css() -> str:
    """`--wedlm-words` for every language: English at the root and wherever lang is en, each
    other language where :lang() says so (a later rule wins at the root)."""
    rules = []
    for lang in i18n.LANGS:
        text = json.dumps(js_words(lang), ensure_ascii=False, separators=(",", ":"))
        if "'" in text or "\\" in text or "\n" in text:  # the CSS string is read back verbatim
            raise ValueError(f"a script word in {lang} has a quote, backslash or newline: {text}")
        where = f":root, :lang({lang})" if lang == i18n.DEFAULT else f":lang({lang})"
        rules.append(f"{where} {{ --wedlm-words: '{text}'; }}")
    return "\n".join(rules) + "\n"
