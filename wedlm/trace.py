"""Traces: a whole decode (prompt, model, config, decoder, steps, result) as JSON.

A trace carries the text of every token id it mentions, so it replays with no model.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from .config import DecodeConfig
from .decoders import DecodeResult, StepRecord, make_decoder
from .loading import LoadedModel
from .trace_schema import TraceFormatError, validate_trace_dict

TRACE_FORMAT = "wedlm-trace"
# 2: steps may carry `verify` (the verified decoder, beyond the paper). Version 1 traces load as
# they are (no step of theirs has it).
TRACE_VERSION = 2
READABLE_VERSIONS = (1, 2)


@dataclass
class Trace:
    prompt: str
    model: str
    decoder: str
    config: dict
    prompt_ids: list[int]
    mask_token_id: int
    stop_ids: list[int]
    steps: list[StepRecord] = field(default_factory=list)
    result: DecodeResult | None = None
    tokens: dict[int, str] = field(default_factory=dict)  # token id -> its text
    text: str = ""  # generated text without a final stop token, decoded as a whole

    @property
    def token_ids(self) -> list[int]:
        return list(self.result.token_ids) if self.result else []

    def output_ids(self) -> list[int]:
        """Generated ids without a final stop token."""
        return without_stop(self.token_ids, self.stop_ids)

    def stats(self) -> dict:
        return self.result.stats() if self.result else {}

    def to_dict(self) -> dict:
        return {
            "format": TRACE_FORMAT, "version": TRACE_VERSION,
            "prompt": self.prompt, "model": self.model, "decoder": self.decoder,
            "config": self.config, "prompt_ids": self.prompt_ids,
            "mask_token_id": self.mask_token_id, "stop_ids": self.stop_ids,
            "text": self.text, "token_ids": self.token_ids,
            "steps": [s.to_dict() for s in self.steps],
            "result": self.result.to_dict() if self.result else None,
            "stats": self.stats(),
            "tokens": {str(k): v for k, v in sorted(self.tokens.items())},
        }

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json(indent=1), encoding="utf-8")

    @classmethod
    def from_dict(cls, data: dict) -> "Trace":
        if not isinstance(data, dict) or data.get("format") != TRACE_FORMAT:
            raise ValueError("not a WeDLM trace (missing format: wedlm-trace)")
        if data.get("version") not in READABLE_VERSIONS:
            raise ValueError(f"unsupported trace version {data.get('version')!r}")
        validate_trace_dict(data)
        return cls(
            prompt=data["prompt"], model=data["model"], decoder=data["decoder"],
            config=data["config"], prompt_ids=list(data["prompt_ids"]),
            mask_token_id=int(data["mask_token_id"]), stop_ids=list(data["stop_ids"]),
            steps=[StepRecord.from_dict(s) for s in data["steps"]],
            result=DecodeResult.from_dict(data["result"]) if data.get("result") else None,
            tokens={int(k): v for k, v in data["tokens"].items()}, text=data.get("text", ""))

    @classmethod
    def from_json(cls, text: str) -> "Trace":
        try:
            data = json.loads(text)
        except RecursionError:  # e.g. 100,000 nested brackets: not a ValueError in Python
            raise TraceFormatError("trace: nested too deeply to be a trace") from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | Path) -> "Trace":
        return cls.from_json(Path(path).read_text(encoding="utf-8"))


def _mentioned_ids(trace: Trace, step: StepRecord | None) -> set[int]:
    ids: set[int] = set()
    records = [step] if step else trace.steps
    for s in records:
        ids.update(t for t in s.window if t is not None)
        for f in s.filled:
            ids.add(f.token)
            ids.update(int(c[0]) for c in f.candidates)
        if s.verify is not None:  # the AR token of a verified step, even when it was not needed
            ids.add(s.verify.ar_token)
    if trace.result:
        for f in trace.result.prefill_filled:
            ids.add(f.token)
            ids.update(int(c[0]) for c in f.candidates)
        ids.update(trace.result.token_ids)
    return ids


def without_stop(ids: list[int], stop_ids) -> list[int]:
    """The ids without a final stop token (what the user reads as the output)."""
    return ids[:-1] if ids and ids[-1] in stop_ids else ids


def add_token_texts(trace: Trace, lm: LoadedModel, step: StepRecord | None = None) -> None:
    for i in _mentioned_ids(trace, step) - trace.tokens.keys():
        trace.tokens[i] = lm.token_text(i)


def decode_steps(lm: LoadedModel, prompt: str, decoder: str = "streaming",
                 config: DecodeConfig | None = None, chat: bool | None = None,
                 time_limit_s: float | None = None) -> Iterator[Trace]:
    """Decode step by step, yielding the growing trace after every forward (live views).
    The last trace yielded has its result set. Closing the iterator stops the decode; so does
    the wall-clock budget `time_limit_s` (stop reason "time_limit")."""
    config = config or DecodeConfig()
    prompt_ids = lm.encode(prompt, chat=chat)  # validates the prompt (validate_prompt)
    runner = make_decoder(decoder, lm, config)
    trace = Trace(prompt=prompt, model=lm.name, decoder=decoder, config=config.to_dict(),
                  prompt_ids=prompt_ids, mask_token_id=lm.mask_token_id,
                  stop_ids=list(lm.stop_ids))
    for i in prompt_ids:
        trace.tokens[i] = lm.token_text(i)
    steps = runner.steps(prompt_ids)
    started = time.perf_counter()
    out_of_time = False
    try:
        for step in steps:
            trace.steps.append(step)
            add_token_texts(trace, lm, step)
            yield trace
            if time_limit_s is not None and time.perf_counter() - started > time_limit_s:
                out_of_time = True
                break
    finally:
        steps.close()
        trace.result = runner.result
        if out_of_time and trace.result is not None and trace.result.stop_reason == "stopped":
            trace.result.stop_reason = "time_limit"
        if trace.result is not None:
            add_token_texts(trace, lm)
            trace.text = lm.decode(trace.output_ids())
    yield trace


def decode(lm: LoadedModel, prompt: str, decoder: str = "streaming",
           config: DecodeConfig | None = None, chat: bool | None = None,
           time_limit_s: float | None = None) -> Trace:
    """Run a whole decode and return its trace."""
    trace = None
    for trace in decode_steps(lm, prompt, decoder, config, chat, time_limit_s):
        pass
    return trace
