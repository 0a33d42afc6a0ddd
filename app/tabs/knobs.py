"""Widgets for decoding knobs, built from DecodeConfig's field metadata (wedlm.config.KNOBS):
every tab gets the same label, default, range and help text from that one source."""
from __future__ import annotations

import gradio as gr

from wedlm.config import knob

NO_TAU_LABEL = "τ = none: one slot per step (most cautious)"


def slider(name: str, *, high: float | None = None, **kwargs) -> gr.Slider:
    """A slider over the field's whole range (`high` narrows it for a view that needs less)."""
    default, k = knob(name)
    top = k.high if high is None else high if k.high is None else min(high, k.high)
    kwargs.setdefault("label", k.label)
    kwargs.setdefault("info", k.help)
    kwargs.setdefault("value", min(default, top))
    return gr.Slider(k.low, top, step=k.step, **kwargs)


def number(name: str, **kwargs) -> gr.Number:
    default, k = knob(name)
    kwargs.setdefault("label", k.label)
    kwargs.setdefault("info", k.help)
    kwargs.setdefault("value", default)
    whole = isinstance(default, int)
    return gr.Number(minimum=k.low, maximum=k.high, step=k.step, precision=0 if whole else None, **kwargs)


def tau(**kwargs) -> tuple[gr.Number, gr.Checkbox]:
    """τ and its 'none' switch, named the same in every tab (threshold / no_threshold)."""
    return number("threshold", **kwargs), gr.Checkbox(False, label=NO_TAU_LABEL)
