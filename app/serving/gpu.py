"""The one door to the model: every event that runs a forward goes through `run_on_gpu` (a
function) or `stream_on_gpu` (a generator, for live views). Nothing else calls a model.

    work = gpu.Work.of(config.max_new_tokens, config.window, [decoder], ctx.limits)
    trace = gpu.run_on_gpu(decode, ctx.models.wedlm, prompt, decoder, config,
                           time_limit_s=work.time_limit_s, work=work)
    for trace in gpu.stream_on_gpu(decode_steps, ctx.models.wedlm, prompt, ..., work=work): ...
    button.click(handler, ..., **gpu.forward_event(ctx.limits))  # one pool of decode slots

Rules, because on a ZeroGPU Space the call runs in another process (a fork made after startup):
  - `fn` is a module-level function (it is pickled by name): never a lambda or a closure;
  - arguments and results are plain data (traces, configs, dicts, numbers; no tensors, no
    Gradio objects): they are pickled across the process boundary;
  - a model is passed as a `ModelRef` (e.g. `ctx.models.wedlm`), which the call replaces by the
    model loaded at startup; a LoadedModel itself must never be an argument (it would be
    pickled, weights and all);
  - the work stops itself within `work.time_limit_s` (pass it on as `time_limit_s`): the GPU
    lease (`work.lease_s`) is cut at that duration.
Off ZeroGPU (a CPU Space, a GPU machine, this machine) `spaces.GPU` returns the function
unchanged (spaces/zero/decorator.py: `if not Config.zero_gpu: return task`), so the calls are
plain calls; WEDLM_PICKLE_CHECK=1 makes them pickle their arguments and results the way
ZeroGPU does, so the tests catch what would break there.
"""
from __future__ import annotations

import io
import os
import pickle
import time
from dataclasses import dataclass

try:  # on a Space the package is preinstalled; anywhere else it is optional
    import spaces
except ImportError:
    spaces = None
import gradio as gr

from .errors import worded
from .settings import Limits, on_zero_gpu

GPU_STARTUP_S = 10.0   # a ZeroGPU call's worker start and weight move, counted in its lease
DECODE_SETUP_S = 1.0   # per decode: tokenizing, prefill, the trace's token texts
# Upper bound of one forward of the released 8B model in bf16 on a ZeroGPU slice (memory-bound:
# ~16 GB of weights read per forward, plus the decoder's per-step Python); a reference-decoder
# forward recomputes prompt + output + window rows. Measure with tools/gpu_check.py.
SECONDS_PER_FORWARD = {"streaming": 0.08, "block": 0.08, "ar": 0.06, "reference": 0.15}


def forward_event(limits: Limits) -> dict:
    """Event keyword arguments for every event that runs forwards: they share one pool of
    `limits.concurrency` slots, so the server never runs more decodes at once than its limit
    (per-event limits would each add their own)."""
    return {"concurrency_id": "forwards", "concurrency_limit": limits.concurrency}


@dataclass(frozen=True)
class ModelRef:
    """A served model by key; `run_on_gpu` replaces it by the model loaded at startup."""
    key: str


_SERVED: dict = {}  # ModelRef.key -> LoadedModel, filled at startup (Models in app/serving/context.py)


def serve(key: str, lm) -> ModelRef:
    _SERVED[key] = lm
    return ModelRef(key)


def served(ref: ModelRef):
    """The loaded model behind a ref, for work that runs no forward (tokenizing, token texts)."""
    return _SERVED[ref.key]


@dataclass(frozen=True)
class Work:
    """What one event may cost: its GPU lease and the time its forwards may take."""
    lease_s: int          # asked of ZeroGPU; never above limits.decode_seconds
    time_limit_s: float   # the work stops itself by then

    @classmethod
    def of(cls, max_new_tokens: int, window: int, decoders, limits: Limits) -> "Work":
        """decoders: the decoder names the event runs, one entry per decode (a race runs
        ("ar", "streaming", "block")). A decode runs at most max_new_tokens + window forwards:
        every forward fills at least one slot, and at most `window` filled slots are never
        committed. Over the limits (Limits.check), the request is refused here."""
        try:
            limits.check(max_new_tokens, window, decoders)
        except ValueError as err:  # shown as is, wherever the event calls this
            raise gr.Error(str(err)) from None
        forwards = max_new_tokens + window
        estimate = sum(DECODE_SETUP_S + forwards * SECONDS_PER_FORWARD.get(d, 0.15) for d in decoders)
        lease = int(min(limits.decode_seconds, GPU_STARTUP_S + estimate) + 0.999)
        if not on_zero_gpu():  # no lease: the app's own budget is the only clock
            return cls(lease_s=lease, time_limit_s=float(limits.decode_seconds))
        return cls(lease_s=lease, time_limit_s=max(1.0, lease - GPU_STARTUP_S))


def _resolve(value):
    return _SERVED[value.key] if isinstance(value, ModelRef) else value


def _lease(fn, args, kwargs, work: Work, *_) -> int:
    """spaces.GPU's duration: called with the decorated function's own arguments."""
    return work.lease_s


def _decorate(fn):
    return fn if spaces is None else spaces.GPU(duration=_lease)(fn)


def _start(fn, args, kwargs):
    return fn(*map(_resolve, args), **{k: _resolve(v) for k, v in kwargs.items()})


@_decorate
def _call(fn, args, kwargs, work):
    with worded(kinds=(ValueError,)):  # ValidationError, ModelLoadError: ZeroGPU only passes gr.Error on
        return _start(fn, args, kwargs)


@_decorate
def _stream(fn, args, kwargs, work, every_s):
    """Yields at most one value per every_s seconds, and always the last one: on ZeroGPU each
    value is pickled through a pipe, and a live view does not need every step."""
    last, pending, held = float("-inf"), None, False
    with worded(kinds=(ValueError,)):
        for value in _start(fn, args, kwargs):
            now = time.perf_counter()
            if now - last >= every_s:
                last, held = now, False
                yield value
            else:
                pending, held = value, True
    if held:
        yield pending


class _PlainDataPickler(pickle.Pickler):
    """Refuses tensors and modules: a CUDA tensor in a ZeroGPU result hangs the call, and a
    model as an argument would be pickled weights and all."""

    def reducer_override(self, obj):
        import torch
        if isinstance(obj, (torch.Tensor, torch.nn.Module)):
            raise pickle.PicklingError(f"a {type(obj).__name__} would cross the GPU boundary")
        return NotImplemented


def _check_pickle(value):
    """What ZeroGPU does at its process boundary: pickle, and use the copy (tests and
    WEDLM_PICKLE_CHECK=1 only; off ZeroGPU the call is a plain call)."""
    if os.environ.get("WEDLM_PICKLE_CHECK") != "1":
        return value
    buffer = io.BytesIO()
    _PlainDataPickler(buffer).dump(value)
    return pickle.loads(buffer.getvalue())


def run_on_gpu(fn, *args, work: Work, **kwargs):
    """fn(*args, **kwargs) on the GPU (or here, off ZeroGPU), ModelRefs replaced by models."""
    fn, args, kwargs = _check_pickle((fn, args, kwargs))
    return _check_pickle(_call(fn, args, kwargs, work))


def stream_on_gpu(fn, *args, work: Work, every_s: float = 0.0, **kwargs):
    """The same for a generator function: yields what fn yields (at most one value per every_s
    seconds, always the last). Closing this generator (the user pressed Stop) closes fn's
    generator too, on ZeroGPU at its next yield."""
    fn, args, kwargs = _check_pickle((fn, args, kwargs))
    stream = _stream(fn, args, kwargs, work, every_s)
    try:
        for value in stream:
            yield _check_pickle(value)
    finally:
        stream.close()
