"""Checks a trace loaded from a file before anything uses it: traces come from users."""
from __future__ import annotations

from .config import is_int as _int

MAX_STEPS = 20_000
MAX_LIST = 4_096
MAX_TEXT = 100_000


class TraceFormatError(ValueError):
    """The file is not a valid trace; the message names the first bad field."""


def _num(v) -> bool:
    return (_int(v) or isinstance(v, float))


def _check(cond: bool, path: str, what: str) -> None:
    if not cond:
        raise TraceFormatError(f"{path}: expected {what}")


def _ints(v, path: str, nullable: bool = False) -> None:
    _check(isinstance(v, list) and len(v) <= MAX_LIST * 8, path, "a list of token ids")
    for i, x in enumerate(v):
        _check(_int(x) or (nullable and x is None), f"{path}[{i}]", "an integer" + (" or null" if nullable else ""))


def _fields(obj, path: str, spec: dict) -> None:
    _check(isinstance(obj, dict), path, "an object")
    for key, check in spec.items():
        _check(key in obj, f"{path}.{key}", "a value (missing)")
        check(obj[key], f"{path}.{key}")


def _text(v, path):
    _check(isinstance(v, str) and len(v) <= MAX_TEXT, path, "text")


def _number(v, path):
    _check(_num(v), path, "a number")


def _integer(v, path):
    _check(_int(v), path, "an integer")


def _opt_number(v, path):
    _check(v is None or _num(v), path, "a number or null")


def _candidates(v, path):
    _check(isinstance(v, list) and len(v) <= 64, path, "a list of [token id, probability]")
    for i, c in enumerate(v):
        _check(isinstance(c, list) and len(c) == 2 and _int(c[0]) and _num(c[1]), f"{path}[{i}]",
               "[token id, probability]")


def _list_of(spec):
    def check(v, path):
        _check(isinstance(v, list) and len(v) <= MAX_LIST, path, "a list")
        for i, item in enumerate(v):
            _fields(item, f"{path}[{i}]", spec)
    return check


MASK = {"pos": _integer, "entropy": _number, "distance": _integer, "score": _number,
        "selected": lambda v, p: _check(isinstance(v, bool), p, "true or false")}
FILLED = {"pos": _integer, "token": _integer, "entropy": _number, "candidates": _candidates}
STEP = {"index": _integer, "start": _integer, "window": lambda v, p: _ints(v, p, nullable=True),
        "order": lambda v, p: _ints(v, p), "position_ids": lambda v, p: _ints(v, p),
        "committed": lambda v, p: _ints(v, p), "masks": _list_of(MASK), "filled": _list_of(FILLED),
        "threshold": _opt_number, "penalty": _number, "cache_before": _integer,
        "cache_after": _integer, "rows": _integer, "seconds": _number}
RESULT = {"prompt_ids": lambda v, p: _ints(v, p), "token_ids": lambda v, p: _ints(v, p),
          "stop_reason": _text, "forwards": _integer, "rows_processed": _integer,
          "rows_cached": _integer, "prefill_s": _number, "decode_s": _number}


def _steps(v, path):
    _check(isinstance(v, list) and len(v) <= MAX_STEPS, path, f"a list of at most {MAX_STEPS} steps")
    for i, step in enumerate(v):
        _fields(step, f"{path}[{i}]", STEP)
        window, order = step["window"], step["order"]
        _check(sorted(order) == list(range(len(window))), f"{path}[{i}].order", "a permutation of the window")
        _check(len(step["committed"]) <= len(window), f"{path}[{i}].committed", "at most the window")


def _tokens(v, path):
    _check(isinstance(v, dict), path, "an object of token id -> text")
    for k, text in v.items():
        _check(isinstance(k, str) and k.lstrip("-").isdigit(), f"{path} key {k[:20]!r}", "a token id")
        _check(isinstance(text, str) and len(text) <= 1000, f"{path}[{k}]", "token text")


TRACE = {"prompt": _text, "model": _text, "decoder": _text,
         "config": lambda v, p: _check(isinstance(v, dict), p, "an object"),
         "prompt_ids": lambda v, p: _ints(v, p), "mask_token_id": _integer,
         "stop_ids": lambda v, p: _ints(v, p), "steps": _steps, "tokens": _tokens}


def validate_trace_dict(data) -> None:
    _fields(data, "trace", TRACE)
    if data.get("result") is not None:
        _fields(data["result"], "trace.result", RESULT)
        for i, f in enumerate(data["result"].get("prefill_filled", [])):
            _fields(f, f"trace.result.prefill_filled[{i}]", FILLED)
