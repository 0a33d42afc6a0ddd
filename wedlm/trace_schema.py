"""Checks a trace loaded from a file before anything uses it: traces come from users.

Every value is bounded by what a real decode can produce, because the views' cost follows the
values, not only the list lengths (a position of 10**6 draws a million-slot canvas; a 2048-slot
window a 2048 x 2048 mask grid). Every refusal names the field. Nothing from a trace ever
becomes a file name: `decoder` is one of the known decoder names.
"""
from __future__ import annotations

import math

from .config import MAX_NEW_TOKENS_CAP, MAX_TOP_CANDIDATES, MAX_WINDOW, DecodeConfig
from .config import is_int as _int

MAX_SLOTS = 2 * MAX_WINDOW     # a step's window: W uncommitted slots + the n about to commit
OVERHANG = 2 * MAX_WINDOW      # slots filled past max_new_tokens are never committed
MAX_STEPS = MAX_NEW_TOKENS_CAP + OVERHANG
MAX_PROMPT_TOKENS = 131_072    # the longest context of the models we load
MAX_TOKEN_ID = 10_000_000      # vocabularies are ~150k-260k ids
MAX_TEXT = 100_000
MAX_NAME = 300
MAX_STOP_IDS = 64
MAX_SECONDS = 86_400.0
MAX_ENTROPY = 50.0             # nats; ln(10**7) is about 16
ROUNDING = 1e-3                # float error: an entropy of -1e-7, a probability of 1 + 1e-7
KNOWN_STOP_REASONS = ("stop_token", "max_new_tokens", "stopped", "time_limit")


class TraceFormatError(ValueError):
    """The file is not a valid trace; the message names the first bad field."""


def _num(v) -> bool:  # NaN and Infinity parse as floats in Python's json: refused here
    return _int(v) or (isinstance(v, float) and math.isfinite(v))


def _check(cond: bool, path: str, what: str) -> None:
    if not cond:
        raise TraceFormatError(f"{path}: expected {what}")


def _integer(v, path: str, low: int, high: int) -> None:
    _check(_int(v) and low <= v <= high, path, f"a whole number from {low} to {high}")


def _number(v, path: str, low: float, high: float) -> None:
    _check(_num(v) and low <= v <= high, path, f"a finite number from {low} to {high}")


def _token(v, path: str) -> None:
    _integer(v, path, 0, MAX_TOKEN_ID)


def _tokens(v, path: str, most: int, nullable: bool = False) -> None:
    _check(isinstance(v, list) and len(v) <= most, path, f"a list of at most {most} token ids")
    for i, x in enumerate(v):
        if not (nullable and x is None):
            _check(_int(x) and 0 <= x <= MAX_TOKEN_ID, f"{path}[{i}]",
                   "a token id" + (" or null (a mask)" if nullable else ""))


def _text(v, path: str, most: int = MAX_TEXT) -> None:
    _check(isinstance(v, str) and len(v) <= most, path, f"text of at most {most} characters")


def _object(v, path: str, required: tuple, optional: tuple = ()) -> None:
    _check(isinstance(v, dict), path, "an object")
    for key in required:
        _check(key in v, f"{path}.{key}", "a value (missing)")
    unknown = sorted(set(v) - set(required) - set(optional))
    _check(not unknown, f"{path}.{unknown[0] if unknown else ''}", "no such field")


def _list(v, path: str, most: int) -> None:
    _check(isinstance(v, list) and len(v) <= most, path, f"a list of at most {most} items")


def _filled(f, path: str, low: int, high: int) -> None:
    """One filled slot; its position must lie in [low, high]."""
    _object(f, path, ("pos", "token", "entropy", "candidates"))
    _integer(f["pos"], f"{path}.pos", low, high)
    _token(f["token"], f"{path}.token")
    _number(f["entropy"], f"{path}.entropy", -ROUNDING, MAX_ENTROPY)
    _list(f["candidates"], f"{path}.candidates", MAX_TOP_CANDIDATES)
    for i, c in enumerate(f["candidates"]):
        _check(isinstance(c, list) and len(c) == 2 and _int(c[0]) and 0 <= c[0] <= MAX_TOKEN_ID
               and _num(c[1]) and 0 <= c[1] <= 1 + ROUNDING, f"{path}.candidates[{i}]",
               "[token id, probability from 0 to 1]")


STEP_FIELDS = ("index", "start", "window", "order", "position_ids", "committed", "masks", "filled",
               "threshold", "penalty", "cache_before", "cache_after", "rows", "seconds")


def _step(s, path: str, index: int, prompt_len: int, end: int) -> None:
    """One forward: every position within [prompt_len, end], every index within its window."""
    _object(s, path, STEP_FIELDS, ("finished", "stop_reason", "forward_seconds", "verify"))
    _check(s["index"] == index, f"{path}.index", f"{index} (its place in the list)")
    _integer(s["start"], f"{path}.start", prompt_len, end)
    _tokens(s["window"], f"{path}.window", MAX_SLOTS, nullable=True)
    start, size = s["start"], len(s["window"])
    _check(size >= 1, f"{path}.window", "at least one slot")
    _check(start + size <= end, f"{path}.window",
           f"to end by position {end} (prompt + {MAX_NEW_TOKENS_CAP} new tokens + {OVERHANG} slots)")
    order = s["order"]
    _check(isinstance(order, list) and all(_int(i) for i in order)
           and sorted(order) == list(range(size)), f"{path}.order", "a permutation of the window")
    pids = s["position_ids"]
    _check(isinstance(pids, list) and all(_int(p) for p in pids)
           and sorted(pids) == list(range(start, start + size)), f"{path}.position_ids",
           f"the window's positions {start} to {start + size - 1}")
    _tokens(s["committed"], f"{path}.committed", size)
    _list(s["masks"], f"{path}.masks", size)
    for i, m in enumerate(s["masks"]):
        mp = f"{path}.masks[{i}]"
        _object(m, mp, ("pos", "entropy", "distance", "score", "selected"))
        _integer(m["pos"], f"{mp}.pos", start, start + size - 1)
        _number(m["entropy"], f"{mp}.entropy", -ROUNDING, MAX_ENTROPY)
        _integer(m["distance"], f"{mp}.distance", 0, size - 1)
        _number(m["score"], f"{mp}.score", -ROUNDING, MAX_ENTROPY + 1000.0 * size)
        _check(isinstance(m["selected"], bool), f"{mp}.selected", "true or false")
    _list(s["filled"], f"{path}.filled", size)
    for i, f in enumerate(s["filled"]):  # AR fills the slot after its one-slot window
        _filled(f, f"{path}.filled[{i}]", start, start + size)
    if s["threshold"] is not None:
        _number(s["threshold"], f"{path}.threshold", 0.0, 1000.0)
    _number(s["penalty"], f"{path}.penalty", 0.0, 1000.0)
    for key in ("cache_before", "cache_after", "rows"):
        _integer(s[key], f"{path}.{key}", 0, end)
    _number(s["seconds"], f"{path}.seconds", 0.0, MAX_SECONDS)
    if "forward_seconds" in s:  # the model forward alone (optional: traces recorded before it)
        _number(s["forward_seconds"], f"{path}.forward_seconds", 0.0, MAX_SECONDS)
    if "finished" in s:
        _check(isinstance(s["finished"], bool), f"{path}.finished", "true or false")
    if s.get("stop_reason") is not None:
        _check(s["stop_reason"] in KNOWN_STOP_REASONS, f"{path}.stop_reason",
               f"one of {', '.join(KNOWN_STOP_REASONS)} or null")
    if s.get("verify") is not None:
        _verify(s["verify"], f"{path}.verify", start, size)


VERIFY_FIELDS = ("checked", "accepted", "rejected_pos", "ar_pos", "ar_token", "dropped", "masks")


def _verify(v, path: str, start: int, size: int) -> None:
    """A verified step (trace version 2, beyond the paper): the drafts after slot 0 it checked."""
    _object(v, path, VERIFY_FIELDS, ("probe",))
    _tokens(v["checked"], f"{path}.checked", size - 1)
    checked = len(v["checked"])
    _integer(v["accepted"], f"{path}.accepted", 0, checked)
    if v["rejected_pos"] is not None:
        _check(v["accepted"] < checked and v["rejected_pos"] == start + 1 + v["accepted"],
               f"{path}.rejected_pos", "the position after the accepted drafts (or null)")
    _check(v["ar_pos"] == start + 1 + v["accepted"], f"{path}.ar_pos", "the position after the accepted drafts")
    _token(v["ar_token"], f"{path}.ar_token")
    _list(v["dropped"], f"{path}.dropped", size)
    for i, p in enumerate(v["dropped"]):
        _integer(p, f"{path}.dropped[{i}]", start, start + size - 1)
    _integer(v["masks"], f"{path}.masks", 0, size)
    if "probe" in v:
        _check(isinstance(v["probe"], bool), f"{path}.probe", "true or false")


RESULT_FIELDS = ("prompt_ids", "token_ids", "stop_reason", "forwards", "rows_processed",
                 "rows_cached", "prefill_s", "decode_s")
RESULT_DERIVED = ("prefill_filled", "generated_tokens", "tokens_per_forward", "p_cache", "tokens_per_s")


def _result(r, path: str, prompt_ids: list, end: int) -> None:
    _object(r, path, RESULT_FIELDS, RESULT_DERIVED)
    _check(r["prompt_ids"] == prompt_ids, f"{path}.prompt_ids", "the trace's prompt_ids")
    _tokens(r["token_ids"], f"{path}.token_ids", MAX_NEW_TOKENS_CAP)
    _check(r["stop_reason"] in KNOWN_STOP_REASONS, f"{path}.stop_reason",
           f"one of {', '.join(KNOWN_STOP_REASONS)}")
    _integer(r["forwards"], f"{path}.forwards", 0, MAX_STEPS)
    for key in ("rows_processed", "rows_cached"):
        _integer(r[key], f"{path}.{key}", 0, MAX_STEPS * end)
    for key in ("prefill_s", "decode_s"):
        _number(r[key], f"{path}.{key}", 0.0, MAX_SECONDS)
    _list(r.get("prefill_filled", []), f"{path}.prefill_filled", 1)
    for i, f in enumerate(r.get("prefill_filled", [])):
        _filled(f, f"{path}.prefill_filled[{i}]", len(prompt_ids), len(prompt_ids))


def _config(v, path: str) -> None:
    _check(isinstance(v, dict), path, "an object")
    try:
        DecodeConfig.from_dict(v)
    except (TypeError, ValueError) as err:
        raise TraceFormatError(f"{path}: {err}") from None


TOP_FIELDS = ("prompt", "model", "decoder", "config", "prompt_ids", "mask_token_id", "stop_ids",
              "steps", "tokens")
TOP_OPTIONAL = ("format", "version", "text", "token_ids", "result", "stats")
MAX_STATS = 32  # Trace.stats(): ~10 numbers and a stop reason


def _top_level(data) -> None:
    """The fields around the steps: known names only (a 4 MB `pad` is refused), and the derived
    ones (token_ids, stats; recomputed on load) bounded like the rest."""
    _object(data, "trace", TOP_FIELDS, TOP_OPTIONAL)
    _tokens(data.get("token_ids", []), "trace.token_ids", MAX_NEW_TOKENS_CAP)
    stats = data.get("stats", {})
    _check(isinstance(stats, dict) and len(stats) <= MAX_STATS, "trace.stats",
           f"an object of at most {MAX_STATS} fields")
    for key, value in stats.items():
        _check(len(key) <= 40 and (value is None or _num(value) or (isinstance(value, str) and len(value) <= 40)),
               f"trace.stats.{key[:40]}", "a finite number, a short text or null")


def validate_trace_dict(data) -> None:
    from .decoders import DECODERS  # the decoder names; decoders import this package's config

    _top_level(data)
    _text(data["prompt"], "trace.prompt")
    _text(data["model"], "trace.model", MAX_NAME)
    _check(data["decoder"] in DECODERS, "trace.decoder", f"one of {', '.join(DECODERS)}")
    _text(data.get("text", ""), "trace.text")
    _config(data["config"], "trace.config")
    _tokens(data["prompt_ids"], "trace.prompt_ids", MAX_PROMPT_TOKENS)
    _token(data["mask_token_id"], "trace.mask_token_id")
    _tokens(data["stop_ids"], "trace.stop_ids", MAX_STOP_IDS)
    prompt_len = len(data["prompt_ids"])
    end = prompt_len + MAX_NEW_TOKENS_CAP + OVERHANG  # no position of a real decode lies past it
    steps = data["steps"]
    _check(isinstance(steps, list) and len(steps) <= MAX_STEPS, "trace.steps",
           f"a list of at most {MAX_STEPS} steps ({MAX_NEW_TOKENS_CAP} new tokens + {OVERHANG})")
    for i, step in enumerate(steps):
        _step(step, f"trace.steps[{i}]", i, prompt_len, end)
    tokens = data["tokens"]
    most = MAX_PROMPT_TOKENS + MAX_STEPS * MAX_SLOTS
    _check(isinstance(tokens, dict) and len(tokens) <= most, "trace.tokens",
           f"an object of at most {most} token id -> text")
    for k, text in tokens.items():
        _check(k.isascii() and k.isdigit() and int(k) <= MAX_TOKEN_ID, f"trace.tokens key {k[:20]!r}", "a token id")
        _text(text, f"trace.tokens[{k}]", 1000)
    if data.get("result") is not None:
        _result(data["result"], "trace.result", data["prompt_ids"], end)
