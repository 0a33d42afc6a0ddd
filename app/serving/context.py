"""What the tabs share: loaded models, knob parsing, trace files, limits."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import gradio as gr

from wedlm import DecodeConfig, ModelLoadError, Trace, ValidationError, decode, load_model
from wedlm.config import DEFAULTS, max_prompt_chars
from wedlm.paths import TRACES_DIR as TRACE_DIR

from .. import i18n
from . import gpu
from .errors import worded
from .settings import LOCAL, Limits, on_zero_gpu

MAX_TRACE_BYTES = 5 * 1024 * 1024


class Models:
    """The served models, loaded once at startup (before the first request, on every hardware)
    and warmed with one short decode; no event loads a model. Events reach them through
    app/serving/gpu.py with `wedlm` / `ar` (ModelRefs); `wedlm_lm` / `ar_lm` are for work without a
    forward (tokenizing, the header)."""

    def __init__(self, wedlm_name: str | None, ar_name: str | None = None, warm: bool = True):
        self.wedlm_lm = load_model(wedlm_name)
        self.ar_lm = load_model(ar_name) if ar_name else None
        self.wedlm = gpu.serve(self.wedlm_lm.source, self.wedlm_lm)
        self.ar = gpu.serve(self.ar_lm.source, self.ar_lm) if self.ar_lm else self.wedlm
        if warm and not on_zero_gpu():  # on ZeroGPU CUDA exists only inside a leased call
            # "verified" also measures this device's forward cost curve (its window policy), so
            # no visitor's first verified decode pays for the measurement
            for lm, decoder in ((self.wedlm_lm, "streaming"), (self.wedlm_lm, "verified"), (self.ar_lm, "ar")):
                if lm is not None:
                    decode(lm, "Hello", decoder, DecodeConfig(window=4, max_new_tokens=2))

    def get(self, name: str | None = None):
        """A served model (the WeDLM one by default) for work without a forward."""
        if name is None or name in (self.wedlm.key, self.wedlm_lm.name):
            return self.wedlm_lm
        if self.ar_lm is not None and name in (self.ar.key, self.ar_lm.name):
            return self.ar_lm
        raise ModelLoadError(f"model {name!r} is not served by this app")


@dataclass
class Context:
    """Handed to every tab: the models and the shared decode state."""
    models: Models
    ar_model_name: str | None   # the AR baseline (the bundled model's parent by default)
    limits: Limits = LOCAL      # what one request may cost (app/serving/settings.py)
    decode_state: gr.State | None = None  # the Decode tab's Timeline, for other tabs to read

    def prompt_chars(self) -> int:
        """A prompt box's max_length: the longest prompt the served model takes (validate_prompt)."""
        return max_prompt_chars(self.models.wedlm_lm.max_context)


def example_traces() -> list[str]:
    return sorted(p.name for p in TRACE_DIR.glob("*.json")) if TRACE_DIR.is_dir() else []


def read_trace_file(path: str | Path, lang: str = i18n.DEFAULT) -> Trace:
    path = Path(path)
    if not path.is_file():  # e.g. an upload dropped by the upload folder's cap (app/serving/guard.py)
        raise gr.Error(i18n.text(lang, "decode.trace_gone"))
    if path.stat().st_size > MAX_TRACE_BYTES:
        raise gr.Error(i18n.text(lang, "decode.trace_too_big", mb=MAX_TRACE_BYTES // (1024 * 1024)))
    try:
        return Trace.load(path)
    except Exception as err:  # any malformed file: one clear message, no crash
        raise gr.Error(i18n.text(lang, "decode.trace_invalid", error=f"{type(err).__name__}: {str(err)[:200]}"))


def make_config(window=DEFAULTS["window"], threshold=DEFAULTS["threshold"], no_threshold=False,
                penalty=DEFAULTS["penalty"], temperature=DEFAULTS["temperature"], top_k=DEFAULTS["top_k"],
                top_p=DEFAULTS["top_p"], max_new_tokens=DEFAULTS["max_new_tokens"], seed=DEFAULTS["seed"],
                block_size=DEFAULTS["block_size"]) -> DecodeConfig:
    """Knob values from the page (numbers may arrive as floats or None) -> a checked config."""
    def whole(value, name):
        try:
            if value is not None and float(value) == int(float(value)):
                return int(float(value))
        except OverflowError:  # 1e400 in JSON is infinity
            pass
        raise ValidationError(f"{name} must be a whole number, got {str(value)[:40]!r}")
    with worded(kinds=(TypeError, ValueError, OverflowError)):
        return DecodeConfig(
            window=whole(window, "window"),
            threshold=None if no_threshold or threshold is None else float(threshold),
            penalty=float(penalty), temperature=float(temperature), top_k=whole(top_k, "top_k"),
            top_p=float(top_p), max_new_tokens=whole(max_new_tokens, "max_new_tokens"),
            seed=whole(seed, "seed"), block_size=whole(block_size, "block_size"))


def rows_frame(rows: list[dict], lang: str = i18n.DEFAULT):
    """A table of result rows (the entropy suite, a τ sweep). In another language than English its
    column names and its worded values (a prompt's class, none, true/false) are in `lang`; ids,
    numbers and the model's text stay as they are."""
    import pandas as pd
    frame = pd.DataFrame(rows)
    if lang == i18n.DEFAULT or frame.empty:
        return frame
    catalog = i18n.catalog()

    def word(value):
        if isinstance(value, bool):
            return i18n.text(lang, "entropy.yes" if value else "entropy.no")
        key = f"entropy.value.{value}" if isinstance(value, str) else None
        return i18n.text(lang, key) if key in catalog else value
    for column in ("class", "threshold", "output_changed", "verified_output_changed"):
        if column in frame:
            frame[column] = frame[column].map(word).astype(object)
    return frame.rename(columns={c: i18n.text(lang, f"entropy.column.{c}") for c in frame.columns
                                 if f"entropy.column.{c}" in catalog})
