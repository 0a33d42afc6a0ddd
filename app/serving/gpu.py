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
  - the work stops itself within `work.time_limit_s` (pass it on as `time_limit_s`; every event
    does): the GPU lease (`work.lease_s`) is cut at that duration. The lease starts before the
    work does: ZeroGPU forks a worker and copies every registered weight to the GPU first
    (16.4 GB for the 8B). So `work.time_limit_s` is a `TimeLimit`, which the call replaces,
    where the work starts, by the seconds the lease really has left (`Work.time_left_s`).
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

from .errors import catalog_error, worded
from .settings import Limits, on_zero_gpu

GPU_STARTUP_S = 10.0   # a ZeroGPU call's worker start and weight move, planned into its lease
FINISH_S = 3.0         # after the time limit: the forward under way, the trace, the result's pickle
DECODE_SETUP_S = 1.0   # per decode: tokenizing, prefill, the trace's token texts
# Upper bound of one forward of the released 8B model in bf16 on a ZeroGPU slice (memory-bound:
# ~16 GB of weights read per forward, plus the decoder's per-step Python); a reference-decoder
# forward recomputes prompt + output + window rows. Measure with tools/gpu_check.py.
# verified: at most a streaming forward, and its first decode per process times ~40 forwards
# for its cost curve (wedlm/decoders/window_policy.py).
SECONDS_PER_FORWARD = {"streaming": 0.08, "block": 0.08, "ar": 0.06, "reference": 0.15, "verified": 0.08}


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


class TimeLimit(float):
    """The planned seconds of an event's work (a float like any other); `run_on_gpu` and
    `stream_on_gpu` replace it, as an argument of the work, by `Work.time_left_s()`."""


_FORKED_AT: float | None = None  # set in a forked child: when it was forked (time.monotonic)


def _mark_fork() -> None:
    global _FORKED_AT
    _FORKED_AT = time.monotonic()


os.register_at_fork(after_in_child=_mark_fork)


def _startup_s() -> float:
    """Seconds since this process was forked, on its first call only: a ZeroGPU worker is
    forked right after its lease is granted and spends this on its start-up (its weight copy)
    before the task runs; a worker reused for a later call starts its task at once."""
    global _FORKED_AT
    if _FORKED_AT is None:
        return 0.0
    elapsed, _FORKED_AT = time.monotonic() - _FORKED_AT, None
    return elapsed


@dataclass(frozen=True)
class Work:
    """What one event may cost: its GPU lease and the time its forwards may take."""
    lease_s: int              # asked of ZeroGPU; never above limits.decode_seconds
    time_limit_s: TimeLimit   # the work stops itself by then (as planned; see time_left_s)

    def time_left_s(self) -> float:
        """The time limit where the work starts: on ZeroGPU the lease less the worker's measured
        start-up and FINISH_S; elsewhere (no lease) the planned limit."""
        if not on_zero_gpu():
            return float(self.time_limit_s)
        return max(0.0, self.lease_s - _startup_s() - FINISH_S)

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
            return cls(lease_s=lease, time_limit_s=TimeLimit(limits.decode_seconds))
        return cls(lease_s=lease, time_limit_s=TimeLimit(max(1.0, lease - GPU_STARTUP_S)))


def _resolve(value, time_left_s: float):
    if isinstance(value, ModelRef):
        return _SERVED[value.key]
    return time_left_s if isinstance(value, TimeLimit) else value


def _lease(fn, args, kwargs, work: Work, *_) -> int:
    """spaces.GPU's duration: called with the decorated function's own arguments."""
    return work.lease_s


def _decorate(fn):
    return fn if spaces is None else spaces.GPU(duration=_lease)(fn)


def _start(fn, args, kwargs, work: Work):
    """fn called where the work runs (in the ZeroGPU worker): models and time limit resolved."""
    left = work.time_left_s()
    return fn(*(_resolve(a, left) for a in args), **{k: _resolve(v, left) for k, v in kwargs.items()})


@_decorate
def _call(fn, args, kwargs, work):
    with worded(kinds=(ValueError,)):  # ValidationError, ModelLoadError: ZeroGPU only passes gr.Error on
        return _start(fn, args, kwargs, work)


@_decorate
def _stream(fn, args, kwargs, work, every_s):
    """Yields at most one value per every_s seconds, and always the last one: on ZeroGPU each
    value is pickled through a pipe, and a live view does not need every step."""
    last, pending, held = float("-inf"), None, False
    with worded(kinds=(ValueError,)):
        for value in _start(fn, args, kwargs, work):
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


# How `spaces` (0.51.3, spaces/zero/client.py `schedule`) refuses a call before it runs: a gr.Error
# with one of these titles. A class on one network shares one quota; say so, and offer what
# costs no GPU time: the recorded examples replay without a model.
QUOTA_TITLES = ("ZeroGPU quota exceeded", "ZeroGPU pending credits exceeded")
NO_GPU_TITLES = ("ZeroGPU queue timeout", "ZeroGPU client error")
RECORDED_EXAMPLE = "1-counting-streaming.json"  # assets/traces/: the Decode tab opens on it


def plain_words(err: gr.Error) -> gr.Error:
    """spaces' refusal of a GPU call, reworded for a visitor (in English here; the page's
    language when an event's `errors.in_language` reframes it); any other error unchanged."""
    title = getattr(err, "title", "")
    if title not in QUOTA_TITLES + NO_GPU_TITLES:
        return err
    key = "gpu.quota" if title in QUOTA_TITLES else "gpu.no_gpu"
    return catalog_error(key, example=RECORDED_EXAMPLE)


def run_on_gpu(fn, *args, work: Work, **kwargs):
    """fn(*args, **kwargs) on the GPU (or here, off ZeroGPU), ModelRefs replaced by models."""
    fn, args, kwargs = _check_pickle((fn, args, kwargs))
    try:
        return _check_pickle(_call(fn, args, kwargs, work))
    except gr.Error as err:
        raise plain_words(err) from None


def stream_on_gpu(fn, *args, work: Work, every_s: float = 0.0, **kwargs):
    """The same for a generator function: yields what fn yields (at most one value per every_s
    seconds, always the last). Closing this generator (the user pressed Stop) closes fn's
    generator too, on ZeroGPU at its next yield."""
    fn, args, kwargs = _check_pickle((fn, args, kwargs))
    stream = _stream(fn, args, kwargs, work, every_s)
    try:
        for value in stream:
            yield _check_pickle(value)
    except gr.Error as err:
        raise plain_words(err) from None
    finally:
        stream.close()
