"""The page's languages: one catalog of message ids, each with its English and Chinese text.

Every string a visitor reads comes from here: `text(lang, "tour.back")`, or with numbers,
`text(lang, "narr.filled", n=3)` (str.format placeholders, the same in every language). The
catalog lives in one module per area of the page (page.py, tour.py, narration.py, ...), each a
`MESSAGES = {id: {"en": ..., "zh": ...}}`; tests/test_i18n.py checks that every id has every
language with the same placeholders. Token text and names (WeDLM, τ, KV cache ids) are not
translated: they are what the model and the paper call them.
"""
from __future__ import annotations

import importlib
import pkgutil
import string
from functools import lru_cache

LANGS = ("en", "zh")          # the first is the default and the fallback
DEFAULT = LANGS[0]
HTML_LANG = {"en": "en", "zh": "zh-CN"}   # <html lang>, for screen readers and fonts
NAMES = {"en": "English", "zh": "中文"}    # each language named in itself (the switch)
PAGE_PATH = {"en": "", "zh": "zh"}        # the page each language is served at (app/ui.py)


def lang_of(value) -> str:
    """A language code from untrusted input (a link, a header): one of LANGS, else the default.
    'zh-CN', 'zh_TW', 'ZH' -> 'zh'."""
    code = str(value or "").strip().lower().replace("_", "-").split("-")[0][:8]
    return code if code in LANGS else DEFAULT


@lru_cache(maxsize=1)
def catalog() -> dict[str, dict[str, str]]:
    """Every message id of every area module, merged (an id defined twice is an error)."""
    merged: dict[str, dict[str, str]] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for key, texts in getattr(module, "MESSAGES", {}).items():
            if key in merged:
                raise ValueError(f"message id {key!r} is defined twice (second time in {info.name}.py)")
            merged[key] = texts
    return merged


def text(lang: str, key: str, **values) -> str:
    """The message `key` in `lang` (English when a language lacks it), its {placeholders} filled."""
    texts = catalog()[key]
    template = texts.get(lang) or texts[DEFAULT]
    return template.format(**values) if values else template


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


class Texts:
    """`text` bound to one language: `tr = Texts("zh"); tr("tour.back")`."""

    def __init__(self, lang: str):
        self.lang = lang_of(lang)

    def __call__(self, key: str, **values) -> str:
        return text(self.lang, key, **values)


def api_name(name: str, lang: str) -> str:
    """An event's API name on a language's page: the English page keeps the documented names
    (/decode, /race, ...); another language's copy of the same event gets a suffix."""
    return name if lang == DEFAULT else f"{name}_{lang}"
