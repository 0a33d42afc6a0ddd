"""Widgets for decoding knobs, built from DecodeConfig's field metadata (wedlm.config.KNOBS):
every tab gets the same label, default, range and help text from that one source. The words a
visitor reads come from the catalog (app/i18n/tabs.py, knob.<field>.label / .help), whose English
is the library's own metadata text (tests/test_i18n.py checks they agree); the library stays
English and Gradio-free."""
from __future__ import annotations

import gradio as gr

from wedlm.config import MIN_TEMPERATURE, knob

from .. import i18n

NO_TAU_LABEL = i18n.text(i18n.DEFAULT, "knob.no_tau")


def label(name: str, lang: str = i18n.DEFAULT) -> str:
    """A DecodeConfig field's label in `lang` (catalog id knob.<name>.label)."""
    return i18n.text(lang, f"knob.{name}.label")


def help_text(name: str, lang: str = i18n.DEFAULT) -> str:
    """A DecodeConfig field's help in `lang` (catalog id knob.<name>.help)."""
    return i18n.text(lang, f"knob.{name}.help", **({"min_temperature": MIN_TEMPERATURE}
                                                    if name == "temperature" else {}))


def slider(name: str, *, high: float | None = None, lang: str = i18n.DEFAULT, **kwargs) -> gr.Slider:
    """A slider over the field's whole range (`high` narrows it for a view that needs less)."""
    default, k = knob(name)
    top = k.high if high is None else high if k.high is None else min(high, k.high)
    kwargs.setdefault("label", label(name, lang))
    kwargs.setdefault("info", help_text(name, lang))
    kwargs.setdefault("value", min(default, top))
    return gr.Slider(k.low, top, step=k.step, **kwargs)


def number(name: str, *, lang: str = i18n.DEFAULT, **kwargs) -> gr.Number:
    default, k = knob(name)
    kwargs.setdefault("label", label(name, lang))
    kwargs.setdefault("info", help_text(name, lang))
    kwargs.setdefault("value", default)
    whole = isinstance(default, int)
    return gr.Number(minimum=k.low, maximum=k.high, step=k.step, precision=0 if whole else None, **kwargs)


def tau(*, lang: str = i18n.DEFAULT, **kwargs) -> tuple[gr.Number, gr.Checkbox]:
    """τ and its 'none' switch, named the same in every tab (threshold / no_threshold)."""
    return number("threshold", lang=lang, **kwargs), gr.Checkbox(False, label=i18n.text(lang, "knob.no_tau"))
