"""Issue 33: every event that runs a forward is in the one pool of decode slots.

The events are read from the built Blocks (every dependency Gradio registered, so an event
added later is checked too); an event "reaches the model" when its function can reach
app/serving/gpu.py's run_on_gpu or stream_on_gpu (the one door to the model), followed through
closures, functools.partial and the app's module-level functions."""
import functools
import types

import pytest

from app.serving import gpu

DOORS = {gpu.run_on_gpu, gpu.stream_on_gpu}


def _codes(code):
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _codes(const)


def _app_function(obj) -> bool:
    return isinstance(obj, types.FunctionType) and (obj.__module__ or "").startswith("app.")


def reaches_model(fn, seen=None) -> bool:
    """Whether fn can call a door, by the names its code (and nested code) uses."""
    seen = set() if seen is None else seen
    while isinstance(fn, functools.partial):
        if any(reaches_model(a, seen) for a in fn.args if callable(a)):
            return True
        fn = fn.func
    if fn in DOORS:
        return True
    if not _app_function(fn) or fn in seen:
        return False
    seen.add(fn)
    names = {n for code in _codes(fn.__code__) for n in code.co_names + code.co_freevars}
    modules = [m for m in fn.__globals__.values()
               if isinstance(m, types.ModuleType) and m.__name__.startswith("app.")]
    found = [fn.__globals__.get(n) for n in names]
    found += [getattr(m, n, None) for m in modules for n in names]
    found += [c.cell_contents for c in fn.__closure__ or () if _cell_set(c)]
    return any(obj in DOORS or reaches_model(obj, seen) for obj in found
               if callable(obj) and (obj in DOORS or _app_function(obj) or isinstance(obj, functools.partial)))


def _cell_set(cell) -> bool:
    try:
        cell.cell_contents
    except ValueError:
        return False
    return True


@pytest.fixture(scope="module")
def demo(tiny_dir):
    from app.ui import build_ui
    return build_ui(str(tiny_dir))


def forward_events(demo) -> dict:
    """api name (or function name) -> BlockFunction, for every event that reaches the model."""
    return {(f.api_name or getattr(f.fn, "__name__", "?")): f for f in demo.fns.values()
            if f.fn is not None and reaches_model(f.fn)}


def test_every_event_that_reaches_the_model_is_in_the_one_pool(demo):
    events = forward_events(demo)
    # the detector is not vacuous: the known forward events are all found ...
    known = {"decode", "run_live", "race", "tau_sweep", "lens", "entropy_suite", "tour_ar", "tour_branch",
             "tour_race", "tour_entropy", "tour_chapter_2", "tour_chapter_3", "tour_chapter_4"}
    assert known <= set(events), sorted(known - set(events))
    # ... and cheap ones are not (stepping through a trace, the training mask)
    assert "show_step" not in events and "tour_training_mask" not in events and "training_mask" not in events
    limit = demo.explorer_limits.concurrency
    outside = {name: (f.concurrency_id, f.concurrency_limit) for name, f in events.items()
               if f.concurrency_id != "forwards" or f.concurrency_limit != limit}
    assert not outside, f"events that run forwards outside the pool of {limit}: {outside}"


def test_the_detector_sees_a_forward_behind_a_helper():
    def helper():
        return gpu.run_on_gpu(print, work=None)

    def handler():
        return helper()

    handler.__module__ = helper.__module__ = "app.fake"
    assert reaches_model(handler) and reaches_model(functools.partial(handler))
    assert not reaches_model(lambda: None)
