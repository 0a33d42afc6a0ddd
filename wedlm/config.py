"""Decoding knobs and their validation: the one place the CLI, the app and the API check input."""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, fields

# Official WeDLM defaults (the paper's streaming decoding; docs/design.md#knobs).
DEFAULT_WINDOW = 16
DEFAULT_THRESHOLD = 0.4
DEFAULT_PENALTY = 0.02

MAX_WINDOW = 64
MAX_NEW_TOKENS_CAP = 1024  # a decode never asks for more; documented in README
MAX_TOP_CANDIDATES = 20


class ValidationError(ValueError):
    """Bad input from a user: the message is meant to be shown as is."""


@dataclass(frozen=True)
class Knob:
    """What a user needs to set one DecodeConfig field: its label, meaning and allowed range.
    The CLI's options, the app's widgets and validation all read these."""
    label: str
    help: str
    low: float | None = None      # inclusive bounds; None = unbounded on that side
    high: float | None = None
    step: float | None = None     # a widget's step (whole-number fields step by 1)


def _knob(default, label: str, help: str, low=None, high=None, step=None):
    return field(default=default, metadata={"knob": Knob(label, help, low, high, step)})


@dataclass(frozen=True)
class DecodeConfig:
    window: int = _knob(DEFAULT_WINDOW, "Window W", "uncommitted slots kept in the window", 1, MAX_WINDOW, 1)
    threshold: float | None = _knob(
        DEFAULT_THRESHOLD, "Threshold τ",
        "fill every mask whose entropy + λ·d is under τ (else the single lowest); "
        "none = one slot per step (most cautious)", 0.0, None, 0.05)
    penalty: float = _knob(DEFAULT_PENALTY, "Penalty λ",
                           "score = entropy + λ·d, d = slots after the first mask", 0.0, None, 0.01)
    temperature: float = _knob(0.0, "Temperature", "0 = greedy (argmax)", 0.0, None, 0.1)
    top_k: int = _knob(0, "Top-k", "sample among the k likeliest tokens; 0 = off", 0, None, 1)
    top_p: float = _knob(1.0, "Top-p", "sample within this probability mass; 1 = off", 0.0, 1.0, 0.01)
    seed: int = _knob(0, "Seed", "random seed for sampling", 0, 2**63 - 1, 1)
    max_new_tokens: int = _knob(128, "Max new tokens", "tokens a decode may commit at most",
                                1, MAX_NEW_TOKENS_CAP, 1)
    block_size: int = _knob(16, "Block size", "block decoder only: masks decoded before a commit",
                            1, MAX_WINDOW, 1)
    top_candidates: int = _knob(5, "Top candidates", "candidates recorded per filled slot in the trace",
                                1, MAX_TOP_CANDIDATES, 1)

    def __post_init__(self):
        validate_config(self)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "DecodeConfig":
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValidationError(f"unknown decoding option(s): {', '.join(unknown)}")
        return cls(**data)


KNOBS: dict[str, Knob] = {f.name: f.metadata["knob"] for f in fields(DecodeConfig)}
DEFAULTS: dict = {f.name: f.default for f in fields(DecodeConfig)}


def knob(name: str) -> tuple[object, Knob]:
    """(default, Knob) of a DecodeConfig field: the one source for CLI options and app widgets."""
    return DEFAULTS[name], KNOBS[name]


def is_int(value) -> bool:
    """A whole number, and not a bool (True is an int to Python). Traces use this check too."""
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value) -> bool:
    return (is_int(value) or isinstance(value, float)) and math.isfinite(value)


def _check_int(name: str, value, low: int, high: int | None = None) -> None:
    if not is_int(value):
        raise ValidationError(f"{name} must be a whole number, got {value!r}")
    if value < low or (high is not None and value > high):
        bound = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise ValidationError(f"{name} must be {bound}, got {value}")


def _check_number(name: str, value, low: float) -> None:
    if not _is_number(value):
        raise ValidationError(f"{name} must be a finite number, got {value!r}")
    if value < low:
        raise ValidationError(f"{name} must be at least {low}, got {value}")


def validate_config(cfg: DecodeConfig) -> None:
    """Every field against its Knob's range (one rule for the CLI, the app and the API)."""
    for name, k in KNOBS.items():
        value = getattr(cfg, name)
        if name == "threshold" and value is None:
            continue
        if name == "top_p":  # (0, 1]: zero would keep no token at all
            if not _is_number(value) or not 0.0 < value <= 1.0:
                raise ValidationError(f"top_p must be in (0, 1], got {value!r}")
        elif isinstance(DEFAULTS[name], int) and not isinstance(DEFAULTS[name], bool):
            _check_int(name, value, int(k.low), None if k.high is None else int(k.high))
        else:
            _check_number(name, value, k.low)


def validate_prompt(prompt) -> str:
    if not isinstance(prompt, str):
        raise ValidationError("prompt must be text")
    if not prompt.strip():
        raise ValidationError("prompt is empty")
    return prompt
