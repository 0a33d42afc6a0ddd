"""What the tabs share: loaded models, knob parsing, trace files, limits."""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path

import gradio as gr

from wedlm import DecodeConfig, Trace, ValidationError, load_model
from wedlm.loading import REPO_ROOT

TRACE_DIR = REPO_ROOT / "assets" / "traces"
MAX_TRACE_BYTES = 5 * 1024 * 1024
DECODE_TIME_LIMIT_S = 120.0  # wall-clock budget of one decode in the app

try:  # on Hugging Face Spaces, run decodes on the GPU the Space lends
    import spaces
    on_gpu = spaces.GPU
except ImportError:
    def on_gpu(fn):
        return fn


class Models:
    """Loads each model once, on first use, and shares it between sessions."""

    def __init__(self, default: str | None):
        self.default = default
        self._cache: dict = {}
        self._lock = threading.Lock()

    def get(self, name: str | None = None):
        key = name or self.default
        with self._lock:
            if key not in self._cache:
                self._cache[key] = load_model(key)
            return self._cache[key]


@dataclass
class Context:
    """Handed to every tab: the models and the shared decode state."""
    models: Models
    ar_model_name: str | None   # the AR baseline (the bundled model's parent by default)


def example_traces() -> list[str]:
    return sorted(p.name for p in TRACE_DIR.glob("*.json")) if TRACE_DIR.is_dir() else []


def read_trace_file(path: str | Path) -> Trace:
    path = Path(path)
    if path.stat().st_size > MAX_TRACE_BYTES:
        raise gr.Error(f"trace file is larger than {MAX_TRACE_BYTES // (1024 * 1024)} MB")
    try:
        return Trace.load(path)
    except Exception as err:  # any malformed file: one clear message, no crash
        raise gr.Error(f"not a valid WeDLM trace: {type(err).__name__}: {str(err)[:200]}")


def make_config(window=16, threshold=0.4, no_threshold=False, penalty=0.02, temperature=0.0,
                top_k=0, top_p=1.0, max_new_tokens=128, seed=0, block_size=16) -> DecodeConfig:
    """Knob values from the page (numbers may arrive as floats or None) -> a checked config."""
    def whole(value, name):
        if value is None or float(value) != int(float(value)):
            raise ValidationError(f"{name} must be a whole number, got {value!r}")
        return int(float(value))
    try:
        return DecodeConfig(
            window=whole(window, "window"),
            threshold=None if no_threshold or threshold is None else float(threshold),
            penalty=float(penalty), temperature=float(temperature), top_k=whole(top_k, "top_k"),
            top_p=float(top_p), max_new_tokens=whole(max_new_tokens, "max_new_tokens"),
            seed=whole(seed, "seed"), block_size=whole(block_size, "block_size"))
    except (TypeError, ValueError) as err:
        raise gr.Error(str(err))


def cancellable(steps, finish, pending=None, every_s: float = 0.25):
    """Run a step-wise job (an iterator) to its end inside a Gradio generator handler: yields
    `pending` every `every_s` seconds, then finish(last item). Cancelling the event closes the
    handler at a yield, which closes `steps`, so the work stops within one step instead of
    running on after its concurrency slot was freed (what a plain function would do)."""
    last, item = time.perf_counter(), None
    try:
        for item in steps:
            if time.perf_counter() - last >= every_s:
                last = time.perf_counter()
                yield pending
    finally:
        steps.close()
    yield finish(item)


def rows_frame(rows: list[dict]):
    import pandas as pd
    return pd.DataFrame(rows)
