"""The ZeroGPU lease counts the worker's start-up: the work's time limit is what the lease has
left where the work starts, and every event passes one."""
import ast
import multiprocessing
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run_to_the_limit(time_limit_s, log):
    """Stands for a suite or τ sweep: works until its time limit, then returns."""
    log.append(time_limit_s)
    end = time.monotonic() + time_limit_s
    while time.monotonic() < end:
        time.sleep(0.05)
    return time_limit_s


def worker(conn, startup_s, lease_s):
    """What spaces does per allocation: fork a worker (this process), copy the weights to the
    GPU (here: sleep), then run the task, twice in the same worker."""
    from app.serving import gpu
    forked = time.monotonic()
    time.sleep(startup_s)  # the weight copy
    work = gpu.Work(lease_s=lease_s, time_limit_s=gpu.TimeLimit(lease_s - gpu.GPU_STARTUP_S))
    log = []
    gpu.run_on_gpu(run_to_the_limit, work.time_limit_s, log, work=work)
    first_done = time.monotonic() - forked
    again = time.monotonic()
    gpu.run_on_gpu(run_to_the_limit, work.time_limit_s, log, work=work)  # a reused worker
    conn.send({"limits": log, "first_done": first_done, "second_done": time.monotonic() - again,
               "planned": float(work.time_limit_s)})


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="needs fork")
def test_a_worker_that_starts_slowly_still_ends_inside_its_lease(monkeypatch):
    from app.serving import gpu
    monkeypatch.setenv("SPACES_ZERO_GPU", "true")
    monkeypatch.setenv("WEDLM_PICKLE_CHECK", "0")
    monkeypatch.setattr(gpu, "GPU_STARTUP_S", 1.0)  # planned: 1 s; this worker takes 2.5 s
    monkeypatch.setattr(gpu, "FINISH_S", 1.0)
    lease, startup = 7, 2.5
    parent, child = multiprocessing.get_context("fork").Pipe()
    process = multiprocessing.get_context("fork").Process(target=worker, args=(child, startup, lease))
    process.start()
    assert parent.poll(60), "the worker did not answer"
    got = parent.recv()
    process.join(10)
    first, second = got["limits"]
    assert got["planned"] == lease - 1.0                      # what the plan alone would allow
    assert first <= lease - startup - 1.0 + 0.01              # the start-up was counted
    assert first >= lease - startup - 1.0 - 1.5               # ... and only the start-up
    assert got["first_done"] <= lease                         # the work ended inside its lease
    assert second == pytest.approx(lease - 1.0, abs=0.01)     # a reused worker starts at once
    assert got["second_done"] <= lease


def test_off_zerogpu_the_time_limit_is_the_apps_budget(monkeypatch):
    from app.serving import gpu
    from app.serving.settings import LOCAL
    monkeypatch.delenv("SPACES_ZERO_GPU", raising=False)
    work = gpu.Work.of(8, 4, ["streaming"], LOCAL)
    assert isinstance(work.time_limit_s, gpu.TimeLimit) and work.time_limit_s == LOCAL.decode_seconds
    log = []
    assert gpu.run_on_gpu(run_to_the_limit, 0.0, log, work=work) == 0.0  # plain numbers pass as is
    assert gpu.run_on_gpu(run_to_the_limit, gpu.TimeLimit(0.0), log, work=work) == work.time_left_s()


def test_every_event_passes_its_work_a_time_limit():
    """Each call through the GPU door gives the work `<work>.time_limit_s`: work without one
    could run past its lease and lose its whole result."""
    calls = []
    for path in sorted((ROOT / "app").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("run_on_gpu", "stream_on_gpu")):
                values = list(node.args) + [k.value for k in node.keywords]
                passes = any(isinstance(v, ast.Attribute) and v.attr == "time_limit_s" for v in values)
                calls.append((f"{path.relative_to(ROOT)}:{node.lineno}", passes))
    assert len(calls) >= 10
    assert [where for where, passes in calls if not passes] == []


def test_the_lens_stops_at_its_time_limit(tiny_lm):
    from wedlm import DecodeConfig
    from wedlm.analysis import OutOfTime, lens
    ids = tiny_lm.encode("Count from 1 to 9:")
    with pytest.raises(OutOfTime):
        lens(tiny_lm, ids, [11, 12, 13, 14, 15], DecodeConfig(), time_limit_s=0.0)
    assert lens(tiny_lm, ids, [11, 12, 13], DecodeConfig(), time_limit_s=600.0).token_ids


def test_a_branch_stops_at_its_time_limit(tiny_lm):
    from wedlm import DecodeConfig, decode
    from wedlm.branch import branch
    config = DecodeConfig(window=4, max_new_tokens=24, threshold=None)
    trace = decode(tiny_lm, "Count from 1 to 9:", "streaming", config)
    cut = branch(tiny_lm, trace, 0, config, time_limit_s=0.0)
    assert cut.result.stop_reason == "time_limit" and len(cut.steps) == 2
    assert branch(tiny_lm, trace, 0, config, time_limit_s=600.0).token_ids == trace.token_ids
