"""The shared GPU quota (docs/spaces.md): on ZeroGPU a class behind one network shares one quota,
so the tour, the replays and the recorded examples must spend none of it. app/serving/gpu.py is
the one GPU door: these tests count who enters it (and every forward of the served models, in
case something went round it) while driving the real app's handlers; and a live decode refused
for quota says so in plain words and offers a recorded example."""
import pytest

from wedlm.paths import TRACES_DIR


def name_of(fn) -> str:
    return getattr(getattr(fn, "func", fn), "__name__", "")


def handlers(demo, *, name: str | None = None, elem_id: str | None = None, event: str | None = None):
    """The app's event functions by handler name, or by trigger (elem_id and/or event name)."""
    found = []
    for f in demo.fns.values():
        if f.fn is None:
            continue
        triggers = [(getattr(demo.blocks.get(bid), "elem_id", None), ev) for bid, ev in f.targets]
        if name is not None and name_of(f.fn) != name:
            continue
        if (elem_id or event) and not any((elem_id is None or e == elem_id) and (event is None or ev == event)
                                          for e, ev in triggers):
            continue
        found.append(f)
    assert found, f"no event handler {name or ''} {elem_id or ''} {event or ''}"
    return found


@pytest.fixture
def door(app_demo, monkeypatch):
    """Counts entries to the GPU door (gpu._call, gpu._stream) and forwards of every served model."""
    import torch  # noqa: F401 (the hooks are torch's)

    from app.serving import gpu
    counts = {"door": 0, "forwards": 0}
    real_call, real_stream = gpu._call, gpu._stream

    def call(*args, **kwargs):
        counts["door"] += 1
        return real_call(*args, **kwargs)

    def stream(*args, **kwargs):
        counts["door"] += 1
        yield from real_stream(*args, **kwargs)
    monkeypatch.setattr(gpu, "_call", call)
    monkeypatch.setattr(gpu, "_stream", stream)

    def forward(*_):
        counts["forwards"] += 1
    served = {id(lm): lm for lm in gpu._SERVED.values()}.values()
    hooks = [lm.model.register_forward_pre_hook(forward) for lm in served]
    yield counts
    for hook in hooks:
        hook.remove()


def outputs_of(f, result) -> dict:
    """An event's return value as {output component: value}."""
    if isinstance(result, dict):
        return result
    return dict(zip(f.outputs, result if isinstance(result, (list, tuple)) else [result]))


def test_the_tour_replays_and_recorded_examples_never_enter_the_gpu_door(app_demo, door):
    import gradio as gr

    from app.serving.context import example_traces
    from app.views.timeline import Timeline
    request = gr.Request()
    examples = example_traces()
    assert len(examples) >= 7
    # page load: the tour opens its linked chapter, the Decode tab its first example, the playgrounds draw
    for f in handlers(app_demo, event="load"):
        args = [getattr(block, "value", None) for block in f.inputs]
        if name_of(f.fn) == "on_page_load":
            args.append(request)
        f.fn(*args)
    # the tour: Back, Next and the chapter menu through all chapters (each a recorded step)
    from app.tabs.tour import CHAPTERS
    chapters = range(1, len(CHAPTERS) + 1)
    for n in chapters:
        for f in handlers(app_demo, elem_id="tour-next") + handlers(app_demo, elem_id="tour-back"):
            f.fn(n)
        for f in handlers(app_demo, elem_id="tour-pick"):
            f.fn(n)
        for f in handlers(app_demo, event="load", name="open_link"):
            f.fn(n)  # a link to chapter n
    # the recorded examples, picked and uploaded (a replay of a file); stepping, scrubbing and
    # playing happen in the page, in the tour too (app/static/stepper.js, no request: tests/test_browser.py)
    pick = handlers(app_demo, name="on_pick")[0]
    upload = handlers(app_demo, name="on_upload")[0]
    exports = handlers(app_demo, name="make_exports")[0]
    slides = handlers(app_demo, name="make_slides")[0]
    from_decode = handlers(app_demo, elem_id="lens-use-decode")[0]
    for name in examples:
        for f, args in ((pick, (name, "state", request)), (upload, (str(TRACES_DIR / name), "entropy", request))):
            out = outputs_of(f, f.fn(*args))
            timeline = next(v for v in out.values() if isinstance(v, Timeline))
            assert timeline.trace.prompt
        exports.fn(timeline, timeline.num_steps // 2)
        from_decode.fn(timeline)
    slides.fn(timeline)
    assert door == {"door": 0, "forwards": 0}

    # the count is live: a decode does enter the door and run forwards
    decode_api = handlers(app_demo, name="decode_api")[0]
    for _ in decode_api.fn("Count from 1 to 9:", max_new_tokens=4):
        pass
    assert door["door"] == 1 and door["forwards"] >= 1


@pytest.fixture
def quota_used_up(monkeypatch):
    """The GPU door refusing as `spaces` 0.51.3 does when the quota is spent: its own error
    (spaces/zero/gradio.py `error`), raised before the call runs (spaces/zero/client.py)."""
    from spaces.zero.gradio import error

    from app.serving import gpu
    refusal = error("ZeroGPU quota exceeded",
                    "You have exceeded your free ZeroGPU quota (35s requested vs. 12s left). Try again in 0:09:00. ")

    def refuse(*args, **kwargs):
        raise refusal

    def refuse_stream(*args, **kwargs):
        raise refusal
        yield  # a generator, as spaces' own wrapper of one

    monkeypatch.setattr(gpu, "_call", refuse)
    monkeypatch.setattr(gpu, "_stream", refuse_stream)
    return refusal


def test_a_decode_out_of_quota_says_so_and_offers_the_recorded_example(app_url, quota_used_up):
    from gradio_client import Client

    from app.serving import gpu
    assert (TRACES_DIR / gpu.RECORDED_EXAMPLE).is_file()
    client = Client(app_url, verbose=False)
    for call in (lambda: client.predict(prompt="Count from 1 to 9:", max_new_tokens=4, api_name="/decode"),
                 lambda: client.predict("Count from 1 to 9:", "streaming", 8, 3.0, False, 0.02, 0.0, 0, 1.0,
                                        4, 0, 16, "state", api_name="/run_live")):
        with pytest.raises(Exception) as info:
            call()
        message = str(info.value)
        assert "used up" in message and "shares one quota" in message, message
        assert gpu.RECORDED_EXAMPLE in message and "Recorded example traces" in message
    # a one-shot call (the branch, the tour's "try it") gets the same words
    with pytest.raises(Exception) as info:
        gpu.run_on_gpu(len, [1], work=gpu.Work(lease_s=10, time_limit_s=1.0))
    assert gpu.RECORDED_EXAMPLE in str(info.value)


def test_only_spaces_refusals_are_reworded():
    import gradio as gr

    from app.serving import gpu
    other = gr.Error("window must be at most 64")
    assert gpu.plain_words(other) is other
    queue = gpu.plain_words(gr.Error("No GPU was available after 60s", title="ZeroGPU queue timeout"))
    assert "No GPU was free" in queue.message and gpu.RECORDED_EXAMPLE in queue.message
    # an illegal duration is the app's own mistake (its lease), not the visitor's quota: left as spaces says it
    illegal = gr.Error("The requested GPU duration (999s) is larger than the maximum allowed",
                       title="ZeroGPU illegal duration")
    assert gpu.plain_words(illegal) is illegal


def test_gpu_refusals_read_in_the_page_language():
    """On /zh the same refusal arrives in Chinese, whole (an event's in_language reframes it),
    naming the recorded example; an English page keeps the English words."""
    import gradio as gr

    from app.serving import errors, gpu
    from tests.i18n_check import english_left
    for title, zh_title in (("ZeroGPU quota exceeded", "GPU 配额已用完"), ("ZeroGPU queue timeout", "没有空闲的 GPU")):
        refusal = gpu.plain_words(gr.Error("spaces' words", title=title))
        assert errors.reframed(refusal, "en") is refusal
        with pytest.raises(gr.Error) as info:
            with errors.worded(kinds=(), lang="zh"):
                raise refusal
        zh = info.value
        assert zh.title == zh_title and gpu.RECORDED_EXAMPLE in zh.message
        assert not english_left(zh.message.replace(gpu.RECORDED_EXAMPLE, ""), names=("Space",), plain=True), zh.message


def test_a_link_to_a_recorded_example_spends_no_gpu_time(app_demo, door):
    """Opening ?tab=decode&example=...&step=K restores the recorded trace at its step (app/links.py)
    with no decode: the page-load events and the chained run_link stay out of the GPU door."""
    import gradio as gr
    from starlette.requests import Request

    from app.serving.context import example_traces
    from app.views.timeline import Timeline
    for name in example_traces():
        query = f"tab=decode&example={name}&step=3".encode()
        request = gr.Request(request=Request({"type": "http", "query_string": query, "headers": []}))
        load = handlers(app_demo, name="on_page_load")[0]
        out = outputs_of(load, load.fn(None, request))
        timeline = next(v for v in out.values() if isinstance(v, Timeline))
        assert timeline.trace.prompt and any('data-start="3"' in str(v) for v in out.values())
        link = handlers(app_demo, name="run_link")[0]
        live = [getattr(block, "value", None) for block in link.inputs]
        for _ in link.fn(False, 3, *live[2:], request):  # the page's link_live: False for an example
            pass
    assert door == {"door": 0, "forwards": 0}
    # the same path with a live prompt does decode (the count is live)
    request = gr.Request(request=Request({"type": "http", "headers": [],
                                          "query_string": b"tab=decode&prompt=Count:&max_new_tokens=3"}))
    load = handlers(app_demo, name="on_page_load")[0]
    form = {k._id: v for k, v in outputs_of(load, load.fn(None, request)).items()}
    by_elem = {getattr(app_demo.blocks[i], "elem_id", None): v for i, v in form.items()}
    assert by_elem["prompt"] == "Count:" and by_elem["max-new"] == 3
    link = handlers(app_demo, name="run_link")[0]
    args = [True, None] + [form.get(b._id, getattr(b, "value", None)) for b in link.inputs[2:]]
    for _ in link.fn(*args, request):
        pass
    assert door["door"] == 1 and door["forwards"] >= 1
