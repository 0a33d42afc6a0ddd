"""Issue 33: every byte bounded. Request bodies and uploads through raw HTTP against the launched
app (in this process, so its memory is this process's), cancels through Gradio's routes, the
CLI by subprocess. The pool of forwards is tests/test_pool.py."""
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest

from wedlm import DecodeConfig, decode

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_HUB_DISABLE_TELEMETRY": "1"}
MB = 1024 * 1024


def rss_mb() -> float:
    import ctypes
    import gc
    gc.collect()
    ctypes.CDLL("libc.so.6").malloc_trim(0)
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024


def raw_post(url: str, path: str, size: int, chunked: bool = False, headers: str = "") -> int:
    """POST `size` bytes; the status the server answered (it may cut the body off with 413)."""
    host, port = url.split("//")[1].strip("/").split(":")
    sock = socket.create_connection((host, int(port)), timeout=60)
    length = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {size}"
    sock.sendall(f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n{length}\r\n"
                 f"{headers}\r\n".encode())
    piece, sent = b"x" * MB, 0
    try:
        while sent < size:
            n = min(MB, size - sent)
            sock.sendall(b"%x\r\n%s\r\n" % (n, piece[:n]) if chunked else piece[:n])
            sent += n
    except (BrokenPipeError, ConnectionResetError):
        pass
    try:
        return int(sock.recv(100).split()[1])
    finally:
        sock.close()


def call(url: str, api: str, body: str) -> tuple[str, object]:
    """Gradio's REST route (POST /gradio_api/call/<api>, then its event stream): the last event
    and its data, as a raw HTTP client sees them."""
    req = urllib.request.Request(f"{url}gradio_api/call/{api}", data=body.encode(),
                                 headers={"Content-Type": "application/json"})
    event_id = json.loads(urllib.request.urlopen(req, timeout=60).read())["event_id"]
    event = None
    for line in urllib.request.urlopen(f"{url}gradio_api/call/{api}/{event_id}", timeout=300):
        line = line.decode().strip()
        if line.startswith("event:"):
            event = line.split(":", 1)[1].strip()
        elif line.startswith("data:") and event in ("complete", "error"):
            return event, json.loads(line.split(":", 1)[1])
    return event, None


def fn_index(demo, api_name: str) -> int:
    return next(i for i, f in demo.fns.items() if f.api_name == api_name)


# 1. Request bodies -----------------------------------------------------------------------

def test_refused_bodies_are_not_kept(app_url, app_demo):
    from app.serving.guard import request_limit
    limit = request_limit(app_demo.explorer_context)
    raw_post(app_url, "/gradio_api/queue/join", 1 * MB)  # warm the server's paths
    before = rss_mb()
    statuses = [raw_post(app_url, "/gradio_api/queue/join", 40 * MB) for _ in range(5)]
    statuses.append(raw_post(app_url, "/gradio_api/call/lens", 40 * MB, chunked=True))  # no Content-Length
    statuses.append(raw_post(app_url, "/gradio_api/call/decode", limit + 1))
    grown = rss_mb() - before
    assert statuses == [413] * 7
    assert grown < 60, f"RSS grew {grown:.0f} MB after refusing 240 MB of bodies"


def test_the_longest_prompt_fits_the_body_limit(app_url, app_demo, tiny_lm):
    """The limit is sized from what an endpoint can need: the longest prompt the model takes,
    every character at its worst JSON escaping, reaches the app's own validation (not a 413)."""
    from wedlm.config import max_prompt_chars
    prompt = "\U0001F600" * max_prompt_chars(tiny_lm.max_context)  # 12 bytes each, JSON-escaped
    body = json.dumps({"data": [prompt, "streaming", 16, 0.4, 0.02, 0.0, 8, 0]})
    assert len(body) > 12 * len(prompt)
    event, data = call(app_url, "decode", body)
    assert event == "error" and "context" in data["error"], data  # the model's refusal, in words


# 2. Uploads: a per-visitor quota and a folder cap, oldest first ----------------------------

def upload(url: str, name: str, data: bytes, visitor: str):
    import requests
    return requests.post(f"{url}gradio_api/upload", files={"files": (name, data)},
                         headers={"X-Forwarded-For": visitor}, timeout=120)


def test_a_visitor_is_refused_past_the_upload_quota_saying_why(app_url):
    from app.serving.guard import VISITOR_UPLOADS
    visitor = f"10.1.{uuid.uuid4().int % 250}.1"
    answers = [upload(app_url, f"q{i}.json", os.urandom(5_000_000), visitor) for i in range(VISITOR_UPLOADS + 2)]
    assert [a.status_code for a in answers] == [200] * VISITOR_UPLOADS + [429, 429]
    assert "upload refused: you uploaded 19.1 MB in the last 10 minutes" in answers[-1].text
    assert upload(app_url, "other.json", b"{}", "10.2.0.1").status_code == 200  # others are not


def test_the_upload_folder_keeps_the_newest_uploads_under_its_cap(app_url):
    from app.serving.guard import UPLOAD_FOLDER_BYTES
    paths = []
    for i in range(30):  # 30 x 5 MB from 30 visitors: 150 MB offered
        answer = upload(app_url, f"cap{i}.json", os.urandom(5_000_000), f"10.3.{i}.{uuid.uuid4().int % 250}")
        assert answer.status_code == 200, answer.text
        paths += answer.json()
    for _ in range(100):  # Gradio moves the newest file into place just after its reply
        if Path(paths[-1]).exists():
            break
        time.sleep(0.05)
    held = [Path(p) for p in paths if Path(p).exists()]
    assert sum(p.stat().st_size for p in held) <= UPLOAD_FOLDER_BYTES
    assert Path(paths[-1]).exists() and not Path(paths[0]).exists()  # oldest first out
    assert held == [Path(p) for p in paths[-len(held):]]             # what stays is the newest run


# 3. Cancel and a closed tab stop the work at its next forward -------------------------------

def forwards_after_close(lm, steps, monkeypatch) -> int:
    calls = []
    real = lm.model.forward
    monkeypatch.setattr(lm.model, "forward", lambda *a, **k: calls.append(1) or real(*a, **k))
    next(steps), next(steps)
    before = len(calls)
    steps.close()
    return len(calls) - before


def test_race_sweep_and_lens_stop_when_closed(tiny_lm, monkeypatch):
    from app.tabs.race import race_steps
    from app.views import entropy, lens
    config = DecodeConfig(window=8, threshold=None, max_new_tokens=64)
    works = {"race": race_steps(tiny_lm, tiny_lm, "Count:", config, 60.0),
             "tau_sweep": entropy.tau_sweep_steps(tiny_lm, "Count:", config, 60.0),
             "lens": lens.compute_steps(tiny_lm, "Count:", " 1 2 3 4 5 6 7 8 9", config)}
    for name, steps in works.items():
        assert forwards_after_close(tiny_lm, steps, monkeypatch) == 0, name
        monkeypatch.undo()


def test_stepwise_work_gives_what_the_whole_call_gave(tiny_lm):
    from wedlm.analysis import lens as whole_lens
    from app.views import lens
    config = DecodeConfig(window=8, max_new_tokens=24)
    view = lens.compute(tiny_lm, "Count:", " 1 2 3 4 5 6", config)
    ids = tiny_lm.tokenizer.encode(" 1 2 3 4 5 6", add_special_tokens=False)
    assert view.lens.to_dict() == whole_lens(tiny_lm, tiny_lm.encode("Count:"), ids, config).to_dict()
    from app.tabs.race import race_traces
    traces = race_traces(tiny_lm, tiny_lm, "Count:", config, 60.0)
    assert traces["streaming"].token_ids == decode(tiny_lm, "Count:", "streaming", config).token_ids


def test_long_endpoints_stop_after_a_closed_tab(app_url, app_demo):
    """The tab closes (its event stream drops) mid-work: the server goes quiet. Before the fix
    /race, /tau_sweep and /lens ran on to their end (or the 120 s budget)."""
    long = {"race": ["Count:", 64, 0.4, True, 0.02, 64, 480, "same", "one forward per tick"],
            "tau_sweep": ["Count:", 256, 0.4],
            "lens": ["Count:", " " + " ".join("ab" for _ in range(120)), None, 0.02]}
    for api, args in long.items():
        session = uuid.uuid4().hex[:10]
        body = json.dumps({"data": args, "fn_index": fn_index(app_demo, api), "session_hash": session})
        req = urllib.request.Request(f"{app_url}gradio_api/queue/join", data=body.encode(),
                                     headers={"Content-Type": "application/json"})
        urllib.request.urlopen(req, timeout=60).read()
        stream = urllib.request.urlopen(f"{app_url}gradio_api/queue/data?session_hash={session}", timeout=60)
        for line in stream:
            if b"process_starts" in line:
                break
        time.sleep(0.5)  # working now
        stream.close()
    time.sleep(3.0)
    cpu = time.process_time()
    time.sleep(2.0)
    busy = time.process_time() - cpu
    assert busy < 0.5, f"{busy:.2f} CPU-s in 2 s after closing the tabs: work still running"


# 4. No reply is {"error": null} -------------------------------------------------------------

def test_every_probe_gets_a_worded_error(app_url, app_demo):
    replies = {
        "surrogate": call(app_url, "lens", json.dumps({"data": ["Count:", "1, 2\ud800", 0.4, 0.02]})),
        "1e400": call(app_url, "decode", '{"data": ["Count:", "streaming", 1e400, 0.4, 0.02, 0, 16, 0]}'),
        "too few": call(app_url, "race", '{"data": ["Count:", 16]}'),
    }
    assert all(event == "error" for event, _ in replies.values()), replies
    assert "text is not valid UTF-8" in replies["surrogate"][1]["error"]
    assert "window must be a whole number" in replies["1e400"][1]["error"]
    assert "race takes 9 inputs (prompt, window," in replies["too few"][1]["error"]
    # A NaN step, in a session that has a trace. Stepping happens in the page (app/static/stepper.js);
    # the step reaches the server only with the events that start from it (export, branch).
    session = uuid.uuid4().hex[:10]
    from app.serving.context import example_traces

    def queued(index: int, data: list) -> dict:
        body = json.dumps({"data": data, "fn_index": index, "session_hash": session})
        urllib.request.urlopen(urllib.request.Request(f"{app_url}gradio_api/queue/join", data=body.encode(),
                                                      headers={"Content-Type": "application/json"}), timeout=60)
        for line in urllib.request.urlopen(f"{app_url}gradio_api/queue/data?session_hash={session}", timeout=60):
            if b"process_completed" in line:
                return json.loads(line.decode().split(":", 1)[1])
        return {}

    queued(fn_index(app_demo, "load_example_1"), [example_traces()[0], "state"])
    export = next(i for i, f in app_demo.fns.items() if getattr(f.fn, "__name__", "") == "make_exports")
    reply = queued(export, [None, float("nan")])
    assert reply["success"] is False  # Gradio's number input refuses NaN before our step_number does
    assert "nan" in (reply["output"]["error"] or "").lower()


# 5. Traces: top-level fields ------------------------------------------------------------------

def test_trace_top_level_fields_are_validated(tiny_lm):
    from wedlm import Trace
    from wedlm.trace_schema import TraceFormatError
    good = decode(tiny_lm, "Count:", "streaming", DecodeConfig(window=4, max_new_tokens=6)).to_dict()
    Trace.from_dict(good)
    cases = {"token_ids": ({**good, "token_ids": [10 ** 30]}, "trace.token_ids[0]"),
             "pad": ({**good, "pad": "x" * (4 * MB)}, "trace.pad: expected no such field"),
             "stats": ({**good, "stats": {"k": "x" * 1000}}, "trace.stats.k")}
    for name, (data, field) in cases.items():
        with pytest.raises(TraceFormatError, match=field.replace("[", r"\[").replace("]", r"\]")):
            Trace.from_dict(data)


def test_hostile_top_level_fields_are_refused_through_the_upload(app_url, tiny_lm, tmp_path):
    from gradio_client import Client, handle_file
    client = Client(app_url, verbose=False)
    good = decode(tiny_lm, "Count:", "streaming", DecodeConfig(window=4, max_new_tokens=6)).to_dict()
    for name, data, field in (("ids", {**good, "token_ids": [10 ** 30]}, "trace.token_ids[0]"),
                              ("pad", {**good, "pad": "x" * (4 * MB)}, "trace.pad")):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(data))
        with pytest.raises(Exception) as info:
            client.predict(handle_file(str(path)), "entropy", api_name="/load_trace")
        msg = getattr(info.value, "message", None) or str(info.value)
        assert "not a valid WeDLM trace" in msg and field in msg, msg


# 6. The CLI: endless and huge files, bench --out ------------------------------------------

def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "wedlm", *args], capture_output=True, env=ENV,
                          timeout=120, cwd=ROOT)  # an endless read would run into the timeout


def assert_one_line_error(proc, needle: str):
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 2, err
    assert b"Traceback" not in proc.stderr and proc.stdout == b""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], err


def test_cli_refuses_endless_and_huge_files_before_reading(tmp_path):
    assert_one_line_error(run_cli("diff", "/dev/zero", "/dev/zero"), "not a regular file")
    assert_one_line_error(run_cli("bench", "--prompts", "/dev/zero"), "not a regular file")
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(300 * MB)  # sparse: no disk used
    assert_one_line_error(run_cli("diff", str(big), str(big)), "314,572,800 bytes; at most")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert_one_line_error(run_cli("bench", "--prompts", str(fifo)), "not a regular file")


def test_cli_bench_out_is_checked_before_any_work(tmp_path):
    existing = tmp_path / "bench.json"
    existing.write_text("{}")
    # a model that does not exist: had bench loaded it first, the error would name the model
    assert_one_line_error(run_cli("bench", "--out", str(existing), "--model", "/no/such/model"),
                          "is a file; name a folder")
    assert_one_line_error(run_cli("bench", "--out", str(existing / "deeper"), "--model", "/no/such/model"),
                          "is a file, not a folder")


def test_a_file_given_by_url_is_refused(app_url):
    """Gradio would download it into its cache, of any size, past the upload quota."""
    remote = {"path": "https://example.com/big.json", "meta": {"_type": "gradio.FileData"}, "orig_name": "t.json"}
    req = urllib.request.Request(f"{app_url}gradio_api/call/load_trace", data=json.dumps(
        {"data": [remote, "entropy"]}).encode(), headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(req, timeout=60)
    assert info.value.code == 400 and b"a file given by URL" in info.value.read()
