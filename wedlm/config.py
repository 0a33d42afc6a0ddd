"""Decoding knobs and their validation: the one place the CLI, the app and the API check input."""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields

# Official WeDLM defaults (DESIGN §1.2).
DEFAULT_WINDOW = 16
DEFAULT_THRESHOLD = 0.4
DEFAULT_PENALTY = 0.02
# The adaptive window (beyond the paper, opt-in; wedlm/decoders/adaptive.py) never goes below this.
DEFAULT_MIN_WINDOW = 2

MAX_WINDOW = 64
MAX_NEW_TOKENS_CAP = 1024  # a decode never asks for more; documented in README
MAX_TOP_CANDIDATES = 20


class ValidationError(ValueError):
    """Bad input from a user: the message is meant to be shown as is."""


@dataclass(frozen=True)
class DecodeConfig:
    window: int = DEFAULT_WINDOW          # W: uncommitted slots kept in the window
    threshold: float | None = DEFAULT_THRESHOLD  # tau; None = one slot per step (argmin)
    penalty: float = DEFAULT_PENALTY      # lambda: score = entropy + lambda * distance
    temperature: float = 0.0              # 0 = greedy
    top_k: int = 0                        # 0 = off
    top_p: float = 1.0                    # 1 = off
    seed: int = 0
    max_new_tokens: int = 128
    block_size: int = 16                  # block decoder only
    top_candidates: int = 5               # candidates recorded per filled slot in the trace
    adaptive_window: bool = False         # beyond the paper: size W from the last step's fills
    min_window: int = DEFAULT_MIN_WINDOW  # the adaptive window's smallest W (window is its largest)

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


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value) -> bool:
    return (_is_int(value) or isinstance(value, float)) and math.isfinite(value)


def _check_int(name: str, value, low: int, high: int | None = None) -> None:
    if not _is_int(value):
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
    _check_int("window", cfg.window, 1, MAX_WINDOW)
    if cfg.threshold is not None:
        _check_number("threshold", cfg.threshold, 0.0)
    _check_number("penalty", cfg.penalty, 0.0)
    _check_number("temperature", cfg.temperature, 0.0)
    _check_int("top_k", cfg.top_k, 0)
    if not _is_number(cfg.top_p) or not 0.0 < cfg.top_p <= 1.0:
        raise ValidationError(f"top_p must be in (0, 1], got {cfg.top_p!r}")
    _check_int("seed", cfg.seed, 0, 2**63 - 1)
    _check_int("max_new_tokens", cfg.max_new_tokens, 1, MAX_NEW_TOKENS_CAP)
    _check_int("block_size", cfg.block_size, 1, MAX_WINDOW)
    _check_int("top_candidates", cfg.top_candidates, 1, MAX_TOP_CANDIDATES)
    if not isinstance(cfg.adaptive_window, bool):
        raise ValidationError(f"adaptive_window must be true or false, got {cfg.adaptive_window!r}")
    _check_int("min_window", cfg.min_window, 1, MAX_WINDOW)
    if cfg.adaptive_window and cfg.min_window > cfg.window:
        raise ValidationError(f"min_window ({cfg.min_window}) must not exceed window ({cfg.window})")


def validate_prompt(prompt) -> str:
    if not isinstance(prompt, str):
        raise ValidationError("prompt must be text")
    if not prompt.strip():
        raise ValidationError("prompt is empty")
    return prompt
