"""Issue 25: every input bounded by what it costs, as a hostile visitor of a public Space would
try it. The CLI is driven by subprocess, the app by gradio_client against the launched app, the
trace probes through the real upload endpoint."""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from wedlm import DecodeConfig, Trace, ValidationError, decode
from wedlm.config import max_prompt_chars, validate_prompt
from wedlm.trace_schema import MAX_STEPS, TraceFormatError

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_HUB_DISABLE_TELEMETRY": "1"}


@pytest.fixture(scope="module")
def client(app_url):
    from gradio_client import Client
    return Client(app_url, verbose=False)


@pytest.fixture(scope="module")
def good_trace(tiny_lm) -> dict:
    return decode(tiny_lm, "Count from 1 to 9:", "streaming",
                  DecodeConfig(window=4, max_new_tokens=8)).to_dict()


def app_error(call) -> str:
    """The message the app sent for a refused call (what a visitor reads)."""
    with pytest.raises(Exception) as info:
        call()
    return getattr(info.value, "message", None) or str(info.value)


# 1. Prompt size, refused on its length before tokenizing --------------------------------

def test_long_prompt_is_refused_before_the_tokenizer_sees_it(tiny_lm, monkeypatch):
    limit = max_prompt_chars(tiny_lm.max_context)
    calls = []
    real_encode = tiny_lm.tokenizer.encode
    monkeypatch.setattr(tiny_lm.tokenizer, "encode", lambda *a, **k: calls.append(1) or real_encode(*a, **k))
    with pytest.raises(ValidationError, match=f"at most {limit}"):
        decode(tiny_lm, "x" * 10_000_000, "streaming", DecodeConfig())
    with pytest.raises(ValidationError, match="characters"):
        tiny_lm.encode("y" * (limit + 1))      # the one entry point every prompt goes through
    assert calls == []
    assert validate_prompt("z" * limit, tiny_lm.max_context)  # the limit itself is allowed
    with pytest.raises(ValidationError, match="not valid UTF-8"):
        validate_prompt("caf\udcff", tiny_lm.max_context)   # a lone surrogate (bad byte in argv)


def test_long_prompt_is_refused_by_every_app_entry(client, tiny_lm):
    long = "x" * (max_prompt_chars(tiny_lm.max_context) + 1)
    msgs = [app_error(lambda: client.predict(prompt=long, api_name="/decode")),
            app_error(lambda: client.predict(long, 8, 3.0, False, 0.02, 8, 12, "same",
                                             "one forward per tick", api_name="/race")),
            app_error(lambda: client.predict(long, 16, api_name="/tau_sweep"))]
    for msg in msgs:
        assert f"prompt is {len(long)} characters" in msg, msg


# 2. Trace uploads: every value bounded, every refusal names the field ------------------

def hostile_traces(good: dict) -> dict[str, tuple[dict, str]]:
    """The issue's probes: name -> (trace, the field the refusal must name)."""
    def copy():
        return json.loads(json.dumps(good))
    far = copy()
    far["steps"][0]["filled"][0]["pos"] = 10 ** 6
    wide = copy()
    step = wide["steps"][0]
    step.update(window=[None] * 2048, order=list(range(2048)),
                position_ids=list(range(step["start"], step["start"] + 2048)))
    many = copy()
    lean = {k: v for k, v in many["steps"][0].items() if k not in ("finished", "stop_reason")}
    lean.update(window=[None], order=[0], position_ids=[lean["start"]], masks=[], filled=[], committed=[])
    many["steps"] = [{**lean, "index": i} for i in range(20_000)]
    nan = copy()
    nan["steps"][0]["masks"][0]["entropy"] = float("nan")
    inf = copy()
    inf["result"]["decode_s"] = float("inf")
    slash = copy()
    slash["decoder"] = "../../etc/x"
    longname = copy()
    longname["decoder"] = "a" * 300
    misplaced = copy()
    misplaced["steps"][0]["index"] = 5
    big_id = copy()
    big_id["prompt_ids"][0] = 2 ** 40
    bad_config = copy()
    bad_config["config"]["window"] = 2048
    return {"pos 10**6": (far, r"steps[0].filled[0].pos"),
            "2048-slot window": (wide, "steps[0].window"),
            "20,000 steps": (many, "trace.steps"),
            "NaN": (nan, "steps[0].masks[0].entropy"),
            "Infinity": (inf, "result.decode_s"),
            "decoder with /": (slash, "trace.decoder"),
            "300-character decoder": (longname, "trace.decoder"),
            "index out of place": (misplaced, "steps[0].index"),
            "token id 2**40": (big_id, "prompt_ids[0]"),
            "window knob 2048": (bad_config, "trace.config: window")}


def test_hostile_traces_are_refused_naming_the_field(good_trace):
    Trace.from_dict(good_trace)  # the untouched trace loads
    for name, (data, field) in hostile_traces(good_trace).items():
        with pytest.raises(TraceFormatError) as info:
            Trace.from_json(json.dumps(data))  # Python writes NaN / Infinity, as an attacker would
        assert field in str(info.value), (name, str(info.value))
    with pytest.raises(TraceFormatError, match="nested too deeply"):
        Trace.from_json("[" * 100_000 + "]" * 100_000)
    assert MAX_STEPS < 20_000


def test_traces_of_every_decoder_pass_the_bounds(tiny_lm):
    for name in ("streaming", "block", "reference", "ar"):
        for cfg in (DecodeConfig(window=64, block_size=64, max_new_tokens=40, temperature=0.9, top_candidates=20),
                    DecodeConfig(window=2, threshold=None, max_new_tokens=12)):
            trace = decode(tiny_lm, "Count from 1 to 9:", name, cfg)
            assert Trace.from_json(trace.to_json()).to_dict() == trace.to_dict()


def test_hostile_uploads_are_refused_through_the_upload_endpoint(client, good_trace, tmp_path):
    from gradio_client import handle_file
    for k, (name, (data, field)) in enumerate(hostile_traces(good_trace).items()):
        path = tmp_path / f"hostile-{k}.json"
        path.write_text(json.dumps(data, separators=(",", ":")))
        assert path.stat().st_size < 5 * 1024 * 1024  # under the upload cap: the schema must refuse it
        started = time.perf_counter()
        msg = app_error(lambda: client.predict(handle_file(str(path)), "entropy", api_name="/load_trace"))
        assert "not a valid WeDLM trace" in msg and field in msg, (name, msg)
        assert time.perf_counter() - started < 60, name  # the probes took 138 s and 369 s
    good = tmp_path / "good.json"
    good.write_text(json.dumps(good_trace))
    out = client.predict(handle_file(str(good)), "entropy", api_name="/load_trace")
    assert out[1]  # the output text of the uploaded trace


# 3. A cancelled /decode stops decoding ------------------------------------------------

def test_cancelled_decodes_do_not_keep_decoding(client):
    """Submit-and-cancel long decodes: once cancelled, this process (which serves the app)
    must go quiet. Before the fix every cancelled /decode decoded on for up to 120 s."""
    from gradio_client.utils import Status
    for seed in range(4):
        job = client.submit(prompt="Count from 1 to 9:", decoder="reference", threshold=None,
                            max_new_tokens=480, seed=seed, api_name="/decode")
        deadline = time.monotonic() + 60
        while job.status().code != Status.PROCESSING and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)  # decoding now
        job.cancel()
    time.sleep(3.0)      # a cancelled decode stops at its next step
    cpu = time.process_time()
    time.sleep(2.0)
    busy = time.process_time() - cpu
    assert busy < 0.5, f"{busy:.2f} CPU-s in 2 s after cancelling: decodes still running"


# 4. Temperatures that are zero in float32 ---------------------------------------------

@pytest.mark.parametrize("t", [1e-38, 1e-40, 5e-324, 0.009])
def test_tiny_temperatures_are_refused_in_one_place(t):
    with pytest.raises(ValidationError, match="temperature must be 0 \\(greedy\\) or at least 0.01"):
        DecodeConfig(temperature=t)


def test_smallest_allowed_temperature_samples(tiny_lm, client):
    trace = decode(tiny_lm, "Count from 1 to 9:", "streaming", DecodeConfig(temperature=0.01, max_new_tokens=6))
    assert trace.result.generated_tokens > 0
    msg = app_error(lambda: client.predict(prompt="hi", temperature=1e-40, api_name="/decode"))
    assert msg.startswith("temperature must be 0 (greedy)")


# 5. CLI: exit 2 and one line, never a traceback ---------------------------------------

def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "wedlm", *args], capture_output=True, env=ENV,
                          timeout=900, cwd=ROOT)


def assert_one_line_error(proc, needle: str):
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 2, err
    assert b"Traceback" not in proc.stderr and proc.stdout == b""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], err


def test_cli_refuses_a_non_utf8_prompt_and_a_folder_as_trace_out(tiny_dir, tmp_path):
    assert_one_line_error(run_cli("generate", b"caf\xff", "--model", str(tiny_dir)), "not valid UTF-8")
    # checked before the model loads (a missing model would be reported otherwise)
    assert_one_line_error(run_cli("generate", "hi", "--model", "/no/such/model", "--trace-out", str(tmp_path)),
                          "is a folder")
    assert_one_line_error(run_cli("generate", "hi", "--model", "/no/such/model", "--trace-out",
                                  str(tmp_path / "no" / "t.json")), "does not exist")
    assert_one_line_error(run_cli("generate", "x" * 5000, "--model", str(tiny_dir)), "prompt is 5000 characters")


def test_cli_diff_and_bench_refuse_bad_files(tmp_path):
    nested = tmp_path / "nested.json"
    nested.write_text("[" * 100_000 + "]" * 100_000)
    assert_one_line_error(run_cli("diff", str(nested), str(nested)), "nested too deeply")
    cases = {"array.jsonl": (b"[1, 2]\n", "expected an object"),
             "number.jsonl": (b'{"id": "a", "class": "b", "prompt": 5}\n', "prompt must be text"),
             "latin1.jsonl": ('{"id": "a", "class": "b", "prompt": "caf\xe9"}\n'.encode("latin-1"), "not UTF-8")}
    for name, (content, needle) in cases.items():
        (tmp_path / name).write_bytes(content)
        assert_one_line_error(run_cli("bench", "--prompts", str(tmp_path / name)), needle)
    assert_one_line_error(run_cli("bench", "--prompts", str(tmp_path)), "cannot read")


# 6. Growth over time --------------------------------------------------------------------

def test_importing_the_app_makes_no_temp_folder(tmp_path):
    subprocess.run([sys.executable, "-c", "import app.ui, app.serving.context, app.tabs.decode"], check=True,
                   cwd=ROOT, env={**ENV, "TMPDIR": str(tmp_path)}, timeout=300)
    assert list(tmp_path.iterdir()) == []


def test_download_folder_keeps_the_newest_files_only(tmp_path, monkeypatch):
    import tempfile
    from app.serving.sessions import Downloads
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    downloads = Downloads(keep=3)
    paths = []
    for _ in range(5):
        paths.append(downloads.file("wedlm-trace-streaming.json"))
        paths[-1].write_text("{}")
    folder = downloads.folder()
    assert folder.is_dir() and downloads.count() == 3
    assert [p.exists() for p in paths] == [False, False, False, True, True]
    assert all(p.name.startswith("wedlm-trace-streaming-") and p.suffix == ".json" for p in paths)
    assert len(list(tmp_path.glob("wedlm-explorer-*"))) == 1   # one folder per process


def test_session_stores_are_capped_and_expire(app_demo, client):
    import gradio as gr
    from app.serving import sessions
    from app.serving.sessions import UserTraces
    users = UserTraces(capacity=3)
    for k in range(10):
        users.add(type("Request", (), {"session_hash": f"s{k}"})())
    assert len(users) == 3 and not users.has(type("Request", (), {"session_hash": "s0"})())
    # the launched app: Gradio's own per-session store is capped, states expire, cache is swept
    assert app_demo.state_holder.capacity == sessions.MAX_SESSIONS
    assert app_demo.delete_cache == (sessions.CACHE_SWEEP_S, sessions.CACHE_AGE_S)
    states = [b for b in app_demo.blocks.values() if isinstance(b, gr.State)]
    assert any(s.time_to_live == sessions.SESSION_TTL_S for s in states)


# 7. /decode errors arrive as written, not wrapped in quotes ------------------------------

def test_decode_errors_are_not_quoted(client):
    msg = app_error(lambda: client.predict(prompt="hi", threshold=-1.0, api_name="/decode"))
    assert msg.startswith("threshold must be") and not msg.startswith(("'", '"')), msg
    msg = app_error(lambda: client.predict(prompt="   ", api_name="/decode"))
    assert msg == "prompt is empty", msg
    msg = app_error(lambda: client.predict("hi", " there", -1.0, 0.02, api_name="/lens"))
    assert msg.startswith("threshold must be") and not msg.startswith(("'", '"')), msg


def _raises_worded_error(text):
    import gradio as gr
    raise gr.Error(text)


def _yields_then_raises_worded_error(text):
    import gradio as gr
    yield 1
    raise gr.Error(text)


def test_gpu_entry_points_pass_worded_errors_on_unquoted():
    """A gr.Error raised inside GPU work is a ValueError too: it must not be wrapped again."""
    import gradio as gr
    from app.serving import gpu
    from app.serving.settings import LOCAL
    work = gpu.Work.of(8, 4, ["streaming"], LOCAL)
    with pytest.raises(gr.Error) as caught:
        gpu.run_on_gpu(_raises_worded_error, "budget spent", work=work)
    assert str(caught.value.message) == "budget spent"
    with pytest.raises(gr.Error) as caught:
        list(gpu.stream_on_gpu(_yields_then_raises_worded_error, "stopped", work=work))
    assert str(caught.value.message) == "stopped"


# 8. Per-server limits (public Space mode), enforced in one place --------------------------

def test_space_limits_are_enforced_where_every_forward_starts():
    import gradio as gr
    from app.serving import gpu
    from app.serving.settings import SPACE, limits
    assert limits({"WEDLM_SPACE_MODE": "1"}) == SPACE and limits({"SPACE_ID": "a/b"}) == SPACE
    gpu.Work.of(SPACE.max_new_tokens, SPACE.max_window, ["streaming", "block"], SPACE)  # at the limits
    for args, needle in (((SPACE.max_new_tokens + 1, 16, ["streaming"]), "max_new_tokens is at most 256"),
                         ((64, SPACE.max_window + 1, ["block"]), "at most 32"),
                         ((64, 16, ["magic"]), "unknown decoder")):
        with pytest.raises(gr.Error, match=needle):
            gpu.Work.of(*args, SPACE)


def test_app_refuses_requests_over_its_limits(client):
    msg = app_error(lambda: client.predict(prompt="hi", max_new_tokens=1000, api_name="/decode"))
    assert msg.startswith("max_new_tokens is at most 512"), msg
