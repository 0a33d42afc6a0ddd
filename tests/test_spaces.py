"""The Space: settings from the environment, startup loading, the one GPU door (app/serving/gpu.py),
its lease, and models named by hub id or folder name (never a server path)."""
import importlib.util
import inspect
import json
import os
import pickle
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tiny import write_tiny_checkpoint

ROOT = Path(__file__).resolve().parent.parent


def test_settings_come_from_the_environment():
    from app.serving import settings
    assert settings.limits({}) is settings.LOCAL
    assert settings.limits({"SPACE_ID": "someone/wedlm"}) is settings.SPACE  # on a Space by default
    assert settings.limits({"SPACE_ID": "someone/wedlm", "WEDLM_SPACE_MODE": "0"}) is settings.LOCAL
    assert settings.limits({"WEDLM_SPACE_MODE": "1"}) is settings.SPACE
    assert settings.limits({"WEDLM_SPACE_MODE": "1", "SPACES_ZERO_GPU": "true"}).concurrency == 2
    env = {"WEDLM_MODEL": "tencent/WeDLM-8B-Instruct", "WEDLM_AR_MODEL": "Qwen/Qwen3-8B"}
    assert settings.model_names(None, None, env) == ("tencent/WeDLM-8B-Instruct", "Qwen/Qwen3-8B")
    assert settings.model_names("my/model", None, env) == ("my/model", "Qwen/Qwen3-8B")  # flags win
    assert settings.model_names(None, None, {}) == (None, None)
    space, local = settings.SPACE, settings.LOCAL
    for field in ("max_new_tokens", "max_window", "concurrency", "upload_bytes", "decode_seconds"):
        assert getattr(space, field) <= getattr(local, field), field


def test_model_label_is_a_hub_id_or_a_folder_name(tiny_dir, tiny_lm):
    from wedlm.loading import model_label
    assert model_label("tencent/WeDLM-8B-Instruct") == "tencent/WeDLM-8B-Instruct"
    assert model_label(tiny_dir) == tiny_dir.name
    assert model_label(f"{tiny_dir}/") == tiny_dir.name
    assert tiny_lm.name == tiny_dir.name and tiny_lm.source == str(tiny_dir)


@pytest.mark.parametrize("zero_gpu", [False, True])
def test_the_lease_covers_the_worst_request_the_limits_allow(monkeypatch, zero_gpu):
    from app.serving import gpu, settings
    from app.views import entropy
    if zero_gpu:
        monkeypatch.setenv("SPACES_ZERO_GPU", "true")
    else:
        monkeypatch.delenv("SPACES_ZERO_GPU", raising=False)
    suite = len(entropy.suite_prompts())
    for limits in (settings.SPACE, settings.LOCAL):
        n, w = limits.max_new_tokens, limits.max_window
        events = ([[d] for d in limits.decoders] + [("ar", "streaming", "block")]
                  + [["streaming"] * len(entropy.SWEEP), ["streaming", "ar"] * suite])
        for decoders in events:
            work = gpu.Work.of(n, w, decoders, limits)
            assert work.lease_s <= limits.decode_seconds  # never more than the app's own budget
            if zero_gpu:  # the work stops itself before ZeroGPU cuts the lease
                assert work.time_limit_s + gpu.GPU_STARTUP_S <= work.lease_s
            else:         # no lease: the app's budget is the clock
                assert work.time_limit_s == limits.decode_seconds
    # On a Space, the worst single decode of any decoder fits its lease without being cut short.
    space = settings.SPACE
    forwards = space.max_new_tokens + space.max_window  # each forward fills >= 1 slot
    for decoder in space.decoders:
        need = gpu.GPU_STARTUP_S + gpu.DECODE_SETUP_S + forwards * gpu.SECONDS_PER_FORWARD[decoder]
        assert need <= gpu.Work.of(space.max_new_tokens, space.max_window, [decoder], space).lease_s
    # A small request asks for less GPU time (quota) than a large one.
    assert (gpu.Work.of(16, 16, ["streaming"], space).lease_s
            < gpu.Work.of(space.max_new_tokens, space.max_window, ["streaming"], space).lease_s)


def test_spaces_calls_the_duration_with_the_decorated_functions_own_arguments():
    from app.serving import gpu
    from app.serving.settings import LOCAL
    work = gpu.Work.of(8, 4, ["streaming"], LOCAL)
    call = inspect.signature(gpu._call).bind(len, ("abc",), {}, work)  # what spaces passes on
    assert gpu._lease(*call.args, **call.kwargs) == work.lease_s
    stream = inspect.signature(gpu._stream).bind(len, ("abc",), {}, work, 0.25)
    assert gpu._lease(*stream.args, **stream.kwargs) == work.lease_s


def test_off_zerogpu_the_spaces_decorator_changes_nothing(monkeypatch):
    spaces = pytest.importorskip("spaces")  # requirements-dev.txt installs it
    from app.serving import gpu
    assert os.environ.get("SPACES_ZERO_GPU") is None
    assert gpu.spaces is spaces
    # spaces.GPU returned our own functions (on ZeroGPU it returns wrappers marked `zerogpu`).
    assert gpu._call.__name__ == "_call" and not hasattr(gpu._call, "zerogpu")
    assert inspect.isgeneratorfunction(gpu._stream) and not hasattr(gpu._stream, "zerogpu")


def make_tensor(n):
    import torch
    return torch.zeros(n)


def counting(n, log):
    try:
        for i in range(n):
            yield i
    finally:
        log.append("closed")


def test_the_gpu_boundary_passes_plain_data_only(monkeypatch, tiny_lm):
    from app.serving import gpu
    from app.serving.settings import LOCAL
    from wedlm import DecodeConfig, decode
    monkeypatch.setenv("WEDLM_PICKLE_CHECK", "1")
    work = gpu.Work.of(8, 4, ["streaming"], LOCAL)
    ref = gpu.serve(tiny_lm.source, tiny_lm)
    config = DecodeConfig(window=4, max_new_tokens=8)
    trace = gpu.run_on_gpu(decode, ref, "Count from 1 to 9:", "streaming", config, work=work)
    assert trace.model == tiny_lm.name and trace.result is not None
    pickle.dumps(trace)
    with pytest.raises(pickle.PicklingError, match="Tensor"):       # a tensor result
        gpu.run_on_gpu(make_tensor, 3, work=work)
    with pytest.raises(pickle.PicklingError, match="Qwen3ForCausalLM"):  # a model as an argument
        gpu.run_on_gpu(decode, tiny_lm, "Count from 1 to 9:", "streaming", config, work=work)
    with pytest.raises(Exception, match="prompt is empty"):         # a user error stays readable
        gpu.run_on_gpu(decode, ref, "   ", "streaming", config, work=work)


def test_stream_on_gpu_stays_a_generator_throttles_and_closes(monkeypatch, tiny_lm):
    from app.serving import gpu
    from app.serving.settings import LOCAL
    from wedlm import DecodeConfig, decode_steps
    monkeypatch.setenv("WEDLM_PICKLE_CHECK", "1")
    work = gpu.Work.of(8, 4, ["streaming"], LOCAL)
    ref = gpu.serve(tiny_lm.source, tiny_lm)
    config = DecodeConfig(window=4, threshold=None, max_new_tokens=6)
    stream = gpu.stream_on_gpu(decode_steps, ref, "Count:", "streaming", config, work=work)
    assert inspect.isgenerator(stream)
    every = list(stream)
    assert len(every) == every[-1].result.forwards + 1  # one per forward, then the finished trace
    few = list(gpu.stream_on_gpu(decode_steps, ref, "Count:", "streaming", config, work=work,
                                 every_s=3600))
    assert len(few) == 2 and few[-1].result is not None and few[-1].token_ids == every[-1].token_ids
    log = []
    monkeypatch.delenv("WEDLM_PICKLE_CHECK")  # the log must be shared to see the close
    stream = gpu.stream_on_gpu(counting, 100, log, work=work)
    assert next(stream) == 0 and not log
    stream.close()  # the user pressed Stop
    assert log == ["closed"]


@pytest.fixture(scope="module")
def served_app(tiny_dir, tmp_path_factory):
    """The explorer built on a WeDLM model and an AR baseline, counting model loads."""
    import app.serving.context
    from app.ui import build_ui, launch
    ar_dir = write_tiny_checkpoint(tmp_path_factory.mktemp("ar-parent"), "qwen3", seed=4)
    loads = []
    real = app.serving.context.load_model
    app.serving.context.load_model = lambda *a, **k: loads.append(a) or real(*a, **k)
    try:
        demo = build_ui(str(tiny_dir), str(ar_dir))
    finally:
        app.serving.context.load_model = real
    assert len(loads) == 2  # each served model, once, at startup
    launch(demo, prevent_thread_lock=True, server_name="127.0.0.1", quiet=True)
    yield demo
    demo.close()


def test_no_event_loads_a_model_and_every_gpu_value_pickles(served_app, monkeypatch, tiny_dir):
    import app.serving.context
    import wedlm
    import wedlm.loading
    from gradio_client import Client
    calls = []

    def refuse(*args, **kwargs):
        calls.append(args)
        raise AssertionError("an event loaded a model")
    for module in (app.serving.context, wedlm, wedlm.loading):
        monkeypatch.setattr(module, "load_model", refuse)
    assert os.environ["WEDLM_PICKLE_CHECK"] == "1"  # conftest: every call pickles, as on ZeroGPU
    client = Client(served_app.local_url, verbose=False)
    data = client.predict(prompt="Count from 1 to 9:", window=8, threshold=3.0, max_new_tokens=12,
                          api_name="/decode")
    assert data["model"] == tiny_dir.name and str(tiny_dir) not in json.dumps(data)
    job = client.submit("Count from 1 to 9:", "streaming", 8, 3.0, False, 0.02, 0.0, 0, 1.0, 12, 0,
                        16, "entropy", api_name="/run_live")
    assert job.result()[0] == data["text"]  # the live decode (a generator) ends on the same text
    lanes = client.predict("Count from 1 to 9:", 8, 3.0, False, 0.02, 8, 12, "parent",
                           "one forward per tick", api_name="/race")
    assert [o for o in lanes if isinstance(o, str) and o.count('class="lane ') == 4]  # ar, streaming, block, verified
    _, sweep, _ = client.predict("Count from 1 to 9:", 8, api_name="/tau_sweep")
    _, suite = client.predict(3.0, 8, api_name="/entropy_suite")
    from app.views import entropy
    from wedlm.suite import THRESHOLD_GRID
    assert len(sweep["data"]) == 1 + len(THRESHOLD_GRID)  # none, then each τ of the grid
    assert [row[0] for row in suite["data"]] == [p["id"] for p in entropy.suite_prompts()]
    name = lambda fn: getattr(getattr(fn, "func", fn), "__name__", "")  # noqa: E731 (bound handlers)
    run_branch = next(f.fn for f in served_app.fns.values() if name(f.fn) == "run_branch")
    from app.views.timeline import Timeline
    from wedlm import Trace
    timeline = Timeline(Trace.from_dict(data))
    out = run_branch(timeline, 1, 0.8, False, 0.02, None, "", None, "entropy")
    values = out.values() if isinstance(out, dict) else out
    assert any(isinstance(v, str) and "Branched after step 1" in v for v in values)
    assert calls == []
    forward_events = {"run_decode", "decode_api", "run_branch", "run_race", "run_suite", "run_sweep"}
    pools = {(f.concurrency_id, f.concurrency_limit) for f in served_app.fns.values()
             if name(f.fn) in forward_events}
    assert pools == {("forwards", 2)}  # one pool of LOCAL.concurrency slots for every forward


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.skipif(importlib.util.find_spec("spaces") is None,
                    reason="the `spaces` package is not installed (requirements-dev.txt)")
def test_python_app_py_serves_wedlm_model_with_spaces_installed_off_zerogpu(tmp_path):
    """What a Space does: `python app.py`, no arguments, settings from the environment."""
    from gradio_client import Client
    folder = write_tiny_checkpoint(tmp_path / "my-wedlm", "wedlm-qwen3", seed=5)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "SPACES_ZERO_GPU"}
    env.update(WEDLM_MODEL=str(folder), WEDLM_SPACE_MODE="1", WEDLM_PICKLE_CHECK="1",
               GRADIO_SERVER_PORT=str(port), HF_HUB_OFFLINE="1", GRADIO_ANALYTICS_ENABLED="False")
    server = subprocess.Popen([sys.executable, "app.py"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.time() + 600  # a loaded CI machine can be slow to import torch and gradio
        while True:
            assert server.poll() is None, server.stderr.read()[-2000:]
            try:
                page_config = urllib.request.urlopen(url + "config", timeout=5).read().decode()
                break
            except OSError:
                assert time.time() < deadline, "the app did not start in 600 s"
                time.sleep(1)
        assert "Model <b>my-wedlm</b>" in page_config and "public Space limits" in page_config
        assert "≤ 256 new tokens" in page_config and str(tmp_path) not in page_config
        data = Client(url, verbose=False).predict(prompt="Count from 1 to 9:", max_new_tokens=10,
                                                  api_name="/decode")
        assert data["model"] == "my-wedlm" and data["result"]["generated_tokens"] > 0
        assert str(tmp_path) not in json.dumps(data)
    finally:
        server.terminate()
        server.wait(timeout=30)
