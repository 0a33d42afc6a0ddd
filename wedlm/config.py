"""Decoding knobs and their validation: the one place the CLI, the app and the API check input."""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, fields

# Official WeDLM defaults (the paper's streaming decoding; docs/design.md#knobs).
DEFAULT_WINDOW = 16
DEFAULT_THRESHOLD = 0.4
DEFAULT_PENALTY = 0.02
# The adaptive window (beyond the paper, opt-in; wedlm/decoders/adaptive.py) never goes below this.
DEFAULT_MIN_WINDOW = 2

MAX_WINDOW = 64
MAX_NEW_TOKENS_CAP = 1024  # a decode never asks for more; documented in README
MAX_TOP_CANDIDATES = 20
MAX_SCORE_KNOB = 1000.0   # tau and lambda: entropies are ~12 nats at most; keeps every score finite
MIN_TEMPERATURE = 0.01    # below it (but above 0) logits / T overflow float32: 0 means greedy
PROMPT_CHARS_PER_TOKEN = 8  # a prompt longer than 8 characters per context token is refused unread


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
        "none = one slot per step, still out of order", 0.0, MAX_SCORE_KNOB, 0.05)
    penalty: float = _knob(DEFAULT_PENALTY, "Penalty λ",
                           "score = entropy + λ·d, d = slots after the first mask", 0.0, MAX_SCORE_KNOB, 0.01)
    temperature: float = _knob(0.0, "Temperature", f"0 = greedy (argmax), else at least {MIN_TEMPERATURE}",
                               0.0, None, 0.1)
    top_k: int = _knob(0, "Top-k", "sample among the k likeliest tokens; 0 = off", 0, None, 1)
    top_p: float = _knob(1.0, "Top-p", "sample within this probability mass; 1 = off", 0.0, 1.0, 0.01)
    seed: int = _knob(0, "Seed", "random seed for sampling", 0, 2**63 - 1, 1)
    max_new_tokens: int = _knob(128, "Max new tokens", "tokens a decode may commit at most",
                                1, MAX_NEW_TOKENS_CAP, 1)
    block_size: int = _knob(16, "Block size", "block decoder only: masks decoded before a commit",
                            1, MAX_WINDOW, 1)
    top_candidates: int = _knob(5, "Top candidates", "candidates recorded per filled slot in the trace",
                                1, MAX_TOP_CANDIDATES, 1)
    adaptive_window: bool = _knob(
        False, "Adaptive window (beyond the paper)",
        "size W from the last step's fills: toward W while steps fill many slots, toward the "
        "minimum while they fill one (a CPU pays for every row; the paper's engine keeps W)")
    min_window: int = _knob(DEFAULT_MIN_WINDOW, "Minimum window",
                            "adaptive window only: the fewest uncommitted slots", 1, MAX_WINDOW, 1)

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


def _check_number(name: str, value, low: float, high: float | None = None) -> None:
    if not _is_number(value):
        raise ValidationError(f"{name} must be a finite number, got {value!r}")
    if value < low or (high is not None and value > high):
        bound = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise ValidationError(f"{name} must be {bound}, got {value}")


def validate_config(cfg: DecodeConfig) -> None:
    """Every field against its Knob's range (one rule for the CLI, the app and the API)."""
    for name, k in KNOBS.items():
        value = getattr(cfg, name)
        if name == "threshold" and value is None:
            continue
        if isinstance(DEFAULTS[name], bool):
            if not isinstance(value, bool):
                raise ValidationError(f"{name} must be true or false, got {value!r}")
            continue
        if name == "top_p":  # (0, 1]: zero would keep no token at all
            if not _is_number(value) or not 0.0 < value <= 1.0:
                raise ValidationError(f"top_p must be in (0, 1], got {value!r}")
        elif isinstance(DEFAULTS[name], int) and not isinstance(DEFAULTS[name], bool):
            _check_int(name, value, int(k.low), None if k.high is None else int(k.high))
        else:
            _check_number(name, value, k.low, k.high)
    if 0 < cfg.temperature < MIN_TEMPERATURE:  # ~1e-38 is 0 in float32 and crashes sampling
        raise ValidationError(f"temperature must be 0 (greedy) or at least {MIN_TEMPERATURE}, "
                              f"got {cfg.temperature}")
    if cfg.adaptive_window and cfg.min_window > cfg.window:
        raise ValidationError(f"min_window ({cfg.min_window}) must not exceed window ({cfg.window})")


def max_prompt_chars(context_tokens: int) -> int:
    """The longest prompt (characters) worth tokenizing for a model with this context."""
    return PROMPT_CHARS_PER_TOKEN * int(context_tokens)


def validate_prompt(prompt, context_tokens: int | None = None, name: str = "prompt") -> str:
    """Every prompt passes here before it is tokenized (LoadedModel.encode calls it). With the
    model's context (tokens), a prompt longer than max_prompt_chars(context) is refused on its
    length alone: tokenizing 50 MB of text costs tens of CPU-seconds and gigabytes first.
    `name` words the refusal for other text that is tokenized the same way (the lens's text)."""
    if not isinstance(prompt, str):
        raise ValidationError(f"{name} must be text")
    if context_tokens is not None and len(prompt) > max_prompt_chars(context_tokens):
        raise ValidationError(f"{name} is {len(prompt)} characters; at most "
                              f"{max_prompt_chars(context_tokens)} ({PROMPT_CHARS_PER_TOKEN} per token "
                              f"of the model's {context_tokens}-token context)")
    if not prompt.strip():
        raise ValidationError(f"{name} is empty")
    try:
        prompt.encode("utf-8")  # lone surrogates: a non-UTF-8 byte in argv, or "\ud800" in JSON
    except UnicodeEncodeError as err:
        raise ValidationError(f"{name} is not valid UTF-8 text (at character {err.start})") from None
    return prompt
