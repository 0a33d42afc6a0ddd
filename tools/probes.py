"""Issue 33's probes, re-run against a live `python app.py` on 127.0.0.1 (started and stopped here).

python -m tools.probes [--port 7899] [--model PATH]

Each probe is a bounded loop that stops by itself:
  bodies   the server's RSS after five refused 40 MB request bodies (and one chunked one)
  sessions a session's real size at its worst (a live decode and a prompt just under the limit)
  pool     tour events submitted while two long decodes hold the pool of 2: how many finish first
  uploads  the upload folder after 30 x 5 MB uploads, from one visitor and from 30 (forged) ones
  cancel   the server's CPU-seconds in the 10 s after cancelling (or closing the tab of) each
           long endpoint
  cli      the CLI's endless and huge files: exit status, seconds, lines on stderr
  errors   the replies that were {"error": null}: each must now carry words
Writes docs/reliability/probes.json and the "Measured" table of docs/security.md.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "reliability" / "probes.json"
SECURITY = ROOT / "docs" / "security.md"
HOST = "127.0.0.1"
MB = 1024 * 1024
COUNTING = " " + ", ".join(str(i) for i in range(1, 80))  # 236 tokens of the bundled tokenizer
# long work per endpoint (the inputs in API order)
LONG = {
    "decode": ["ROMEO:\n", "reference", 64, None, 0.02, 0.0, 480, 0],
    "race": ["ROMEO:\n", 64, 0.4, True, 0.02, 64, 480, "parent", "one forward per tick"],
    "tau_sweep": ["ROMEO:\n", 256, 0.4],
    "lens": ["Count from 1 to 80:", COUNTING, None, 0.02],
    "entropy_suite": [0.4, 256],
    "tour_race": [0.4, True],  # the tour's longest "try it" (its decodes are a few dozen tokens)
}


# -- the server ---------------------------------------------------------------------------------

class Server:
    def __init__(self, port: int, model: str | None):
        self.port, self.url = port, f"http://{HOST}:{port}"
        self.temp = Path(tempfile.mkdtemp(prefix="wedlm-probes-"))
        self.uploads = self.temp / "gradio"
        env = {**os.environ, "GRADIO_TEMP_DIR": str(self.uploads), "GRADIO_ANALYTICS_ENABLED": "False",
               "HF_HUB_OFFLINE": "1", "HF_HUB_DISABLE_TELEMETRY": "1"}
        env.pop("WEDLM_SPACE_MODE", None)
        cmd = [sys.executable, "app.py", "--host", HOST, "--port", str(port)] + (["--model", model] if model else [])
        self.log = open(self.temp / "server.log", "w")
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/config", timeout=5)
                break
            except OSError:
                if self.proc.poll() is not None:
                    raise SystemExit(f"app.py exited: see {self.temp / 'server.log'}")
                time.sleep(1)
        else:
            self.stop()
            raise SystemExit("app.py did not start in 300 s")
        config = json.loads(urllib.request.urlopen(self.url + "/config", timeout=30).read())
        self.fn = {d["api_name"]: d["id"] for d in config["dependencies"] if d.get("api_name")}
        # the export (no API name): the event whose output is the export's file list
        files = next(c["id"] for c in config["components"] if c.get("props", {}).get("elem_id") == "export-files")
        self.export_fn = next(d["id"] for d in config["dependencies"] if d.get("outputs") == [files])

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def cpu_s(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def folder_mb(self) -> float:
        return sum(p.stat().st_size for p in self.uploads.rglob("*") if p.is_file()) / MB

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()
        shutil.rmtree(self.temp, ignore_errors=True)


# -- raw HTTP -----------------------------------------------------------------------------------

def raw_post(server: Server, path: str, size: int, chunked: bool = False, headers: str = "") -> str:
    """POST `size` bytes of 'x' and read the status line; 'reset' if the server cut us off
    before we could read it (it answers 413 and closes while we still send)."""
    sock = socket.create_connection((HOST, server.port), timeout=30)
    length = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {size}"
    sock.sendall(f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
                 f"{length}\r\n{headers}\r\n".encode())
    piece, sent = b"x" * MB, 0
    try:
        while sent < size:
            n = min(MB, size - sent)
            sock.sendall(b"%x\r\n%s\r\n" % (n, piece[:n]) if chunked else piece[:n])
            sent += n
        if chunked:
            sock.sendall(b"0\r\n\r\n")
        status = sock.recv(200).split(b"\r\n")[0].decode()
    except (BrokenPipeError, ConnectionResetError):
        try:
            status = sock.recv(200).split(b"\r\n")[0].decode() or "reset"
        except OSError:
            status = "reset"
    finally:
        sock.close()
    return f"{status} after {sent // MB} MB sent"


def working():
    from gradio_client.utils import Status
    return (Status.PROCESSING, Status.ITERATING)


def call(server: Server, api: str, body: str, timeout: float = 120) -> tuple[str, object]:
    """Gradio's REST route: POST /gradio_api/call/<api>, then read its event stream; returns
    (event, data) of the last event (complete or error)."""
    req = urllib.request.Request(f"{server.url}/gradio_api/call/{api}", data=body.encode(),
                                 headers={"Content-Type": "application/json"})
    try:
        event_id = json.loads(urllib.request.urlopen(req, timeout=30).read())["event_id"]
    except urllib.error.HTTPError as err:
        return f"http {err.code}", err.read().decode()[:300]
    stream = urllib.request.urlopen(f"{server.url}/gradio_api/call/{api}/{event_id}", timeout=timeout)
    event, data = None, None
    for line in stream:
        line = line.decode().strip()
        if line.startswith("event:"):
            event = line.split(":", 1)[1].strip()
        elif line.startswith("data:") and event in ("complete", "error"):
            data = json.loads(line.split(":", 1)[1])
            break
    return event, data


def join(server: Server, api: str, data: list, session: str) -> None:
    body = json.dumps({"data": data, "fn_index": server.fn[api], "session_hash": session,
                       "event_data": None, "trigger_id": None})
    req = urllib.request.Request(f"{server.url}/gradio_api/queue/join", data=body.encode(),
                                 headers={"Content-Type": "application/json"})
    urllib.request.urlopen(req, timeout=30).read()


def open_stream(server: Server, session: str, until: str, timeout: float = 60):
    """The session's event stream, read until a message `until` arrives (then left open)."""
    stream = urllib.request.urlopen(f"{server.url}/gradio_api/queue/data?session_hash={session}", timeout=timeout)
    deadline = time.monotonic() + timeout
    for line in stream:
        if until.encode() in line or time.monotonic() > deadline:
            break
    return stream


# -- the probes ---------------------------------------------------------------------------------

def probe_bodies(server: Server) -> dict:
    time.sleep(2)
    before = server.rss_mb()
    answers = [raw_post(server, "/gradio_api/queue/join", 40 * MB) for _ in range(5)]
    answers.append(raw_post(server, "/gradio_api/call/lens", 40 * MB, chunked=True))
    time.sleep(2)
    return {"rss_before_mb": round(before, 1), "rss_after_mb": round(server.rss_mb(), 1),
            "rss_growth_mb": round(server.rss_mb() - before, 1), "answers": answers}


def probe_pool(server: Server) -> dict:
    from gradio_client import Client
    tours = {"tour_ar": ["Count from 1 to 9:"], "tour_entropy": ["Count by 3 from 3 to 60:"],
             "tour_race": [0.4, False], "tour_branch": [0.02], "tour_chapter_2": [0.4, False, 0.02],
             "tour_chapter_3": [0.4, False, 0.02], "tour_chapter_4": [0.4, False, 0.02]}
    clients = [Client(server.url, verbose=False) for _ in range(2 + 2 * len(tours))]  # ready first
    holders = [c.submit(*LONG["decode"], api_name="/decode") for c in clients[:2]]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not all(h.status().code in working() for h in holders):
        time.sleep(0.05)
    started = time.monotonic()
    jobs = [c.submit(*args, api_name=f"/{name}")
            for c, (name, args) in zip(clients[2:], list(tours.items()) * 2)]
    early = 0
    while time.monotonic() - started < 300 and not any(h.done() for h in holders):
        early = sum(j.done() for j in jobs)
        time.sleep(0.05)
    held_s = time.monotonic() - started
    for j in jobs:
        try:
            j.result(timeout=300)
        except Exception:
            pass
    return {"tour_events": len(jobs), "finished_while_pool_held": early,
            "pool_held_s": round(held_s, 1), "tour_events_finished": sum(j.done() for j in jobs)}


def probe_sessions(server: Server, count: int = 30) -> dict:
    """A session's real size, at its worst: `count` new sessions (under Gradio's cap of 32, so
    none is pushed out), each running one live decode and sending a prompt just under the body
    limit (refused by the prompt's own check). RSS growth / count."""
    from gradio_client import Client
    client = Client(server.url, verbose=False)
    longest = "\U0001F600" * 13_000  # 156 KB JSON-escaped: under the bundled model's 160 KB limit
    refusals = []

    def session(i: int) -> None:
        client.session_hash = uuid.uuid4().hex
        client.predict(f"Count from {1 + i} to {60 + i}:", "streaming", 16, 0.4, False, 0.02, 0.0, 0, 1.0,
                       64, i, 16, "entropy", api_name="/run_live")
        try:
            client.predict(longest, api_name="/decode")
        except Exception as err:
            refusals.append(str(getattr(err, "message", None) or err)[:100])
    for i in range(3):  # warm-up
        session(i)
    time.sleep(2)
    before = server.rss_mb()
    for i in range(count):
        session(100 + i)
    time.sleep(2)
    after = server.rss_mb()
    return {"sessions": count, "rss_before_mb": round(before, 1), "rss_after_mb": round(after, 1),
            "mb_per_session": round((after - before) / count, 2), "prompt_refusal": refusals[-1:]}


def probe_uploads(server: Server) -> dict:
    import requests
    out = {}
    for name, forged in (("one_visitor", False), ("30_visitors", True)):
        codes, why = {}, None
        for i in range(30):
            data = os.urandom(5_000_000)
            headers = {"X-Forwarded-For": f"10.9.{i}.1"} if forged else {}
            r = requests.post(f"{server.url}/gradio_api/upload", files={"files": (f"t{i}.json", data)},
                              headers=headers, timeout=60)
            codes[r.status_code] = codes.get(r.status_code, 0) + 1
            why = why or (r.text[:200] if r.status_code != 200 else None)
        out[name] = {"statuses": codes, "folder_mb": round(server.folder_mb(), 1), "refusal": why}
    return out


def quiet_after(server: Server, seconds: float = 10.0) -> float:
    start = server.cpu_s()
    time.sleep(seconds)
    return round(server.cpu_s() - start, 2)


def probe_cancel(server: Server) -> dict:
    from gradio_client import Client
    out = {}
    for api, args in LONG.items():
        job = Client(server.url, verbose=False).submit(*args, api_name=f"/{api}")
        deadline = time.monotonic() + 60
        while job.status().code not in working() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(1.0)
        job.cancel()
        cancelled = quiet_after(server)
        session = uuid.uuid4().hex[:10]  # the closed tab: the event stream is dropped mid-work
        join(server, api, args, session)
        stream = open_stream(server, session, "process_starts")
        time.sleep(1.0)
        stream.close()
        out[api] = {"cpu_s_in_10s_after_cancel": cancelled, "cpu_s_in_10s_after_closed_tab": quiet_after(server)}
    return out


def probe_cli() -> dict:
    big = Path(tempfile.mkdtemp(prefix="wedlm-probes-cli-")) / "big.json"
    with open(big, "wb") as f:
        f.truncate(300 * MB)  # sparse: 300 MB of zeros, no disk used
    cases = {"--help (the interpreter and imports alone)": ["--help"],
             "diff /dev/zero /dev/zero": ["diff", "/dev/zero", "/dev/zero"],
             "bench --prompts /dev/zero": ["bench", "--prompts", "/dev/zero"],
             "diff of a 300 MB file": ["diff", str(big), str(big)],
             "bench --out EXISTING_FILE": ["bench", "--out", str(ROOT / "README.md")]}
    out = {}
    for name, args in cases.items():
        started = time.monotonic()
        proc = subprocess.run([sys.executable, "-m", "wedlm", *args], capture_output=True, text=True,
                              cwd=ROOT, timeout=120)
        out[name] = {"rc": proc.returncode, "seconds": round(time.monotonic() - started, 1),
                     "stderr_lines": len(proc.stderr.strip().splitlines()), "stderr": proc.stderr.strip()[:200]}
    big.unlink()
    big.parent.rmdir()
    return out


def probe_errors(server: Server) -> dict:
    out = {
        "lens with a lone surrogate in its text": call(server, "lens", json.dumps(
            {"data": ["Count:", "1, 2\ud800", 0.4, 0.02]})),
        "decode with window=1e400": call(server, "decode",
                                                 '{"data": ["Count:", "streaming", 1e400, 0.4, 0.02, 0, 16, 0]}'),
        "race with too few arguments": call(server, "race", '{"data": ["Count:", 16]}'),
    }
    # A NaN step in a live session (a trace loaded). Stepping happens in the page; the step
    # reaches the server only with the events that start from it: the export is one.
    session = uuid.uuid4().hex[:10]
    trace_name = sorted(p.name for p in (ROOT / "assets" / "traces").glob("*.json"))[0]
    join(server, "load_example_1", [trace_name, "state"], session)
    stream = open_stream(server, session, "process_completed")
    stream.close()
    body = json.dumps({"data": [None, float("nan")], "fn_index": server.export_fn, "session_hash": session,
                       "event_data": None, "trigger_id": None})
    urllib.request.urlopen(urllib.request.Request(f"{server.url}/gradio_api/queue/join", data=body.encode(),
                                                  headers={"Content-Type": "application/json"}), timeout=30).read()
    message = None
    for line in urllib.request.urlopen(f"{server.url}/gradio_api/queue/data?session_hash={session}", timeout=60):
        if b"process_completed" in line:
            reply = json.loads(line.decode().split(":", 1)[1])
            message = (reply.get("output") or {}).get("error")
            out["export with a NaN step in a live session"] = (
                "error" if reply.get("success") is False else "complete", message)
            break
    return {name: {"event": event, "message": data} for name, (event, data) in out.items()}


# -- report -------------------------------------------------------------------------------------

def _words(message) -> str:
    return str(message.get("error") if isinstance(message, dict) else message)


def table(report: dict) -> str:
    b, p, u, c, cli, e, ss = (report[k] for k in ("bodies", "pool", "uploads", "cancel", "cli", "errors",
                                                   "sessions"))
    worst_cancel = max(max(v.values()) for v in c.values())
    rows = [
        ("RSS after five refused 40 MB bodies (and one chunked)", "within +60 MB",
         f"+{b['rss_growth_mb']} MB ({b['rss_before_mb']} → {b['rss_after_mb']} MB); answers: {b['answers'][0]}"),
        (f"A session at its worst ({ss['sessions']} sessions: a live decode and a refused prompt just "
         f"under the body limit each)", "bounded", f"{ss['mb_per_session']} MB a session "
         f"({ss['rss_before_mb']} → {ss['rss_after_mb']} MB); at most 32 sessions are kept"),
        ("Tour events finished while two long decodes hold the pool of 2", "0",
         f"{p['finished_while_pool_held']} of {p['tour_events']} (pool held {p['pool_held_s']} s; "
         f"all {p['tour_events_finished']} finished after)"),
        ("Upload folder after 30 × 5 MB, one visitor", "≤ 64 MB",
         f"{u['one_visitor']['folder_mb']} MB; statuses {u['one_visitor']['statuses']}"),
        ("Upload folder after 30 × 5 MB, 30 visitors", "≤ 64 MB",
         f"{u['30_visitors']['folder_mb']} MB; statuses {u['30_visitors']['statuses']}"),
        ("CPU in the 10 s after a cancel or a closed tab (worst of " + ", ".join(c) + ")", "< 2 CPU-s",
         f"{worst_cancel} CPU-s"),
        ("CLI: " + ", ".join(cli), "rc 2, one line, in seconds",
         "; ".join(f"rc {v['rc']}, {v['stderr_lines']} line, {v['seconds']} s" for v in cli.values())),
        ("Replies that were {\"error\": null}: " + ", ".join(e), "a worded error",
         "; ".join(repr(_words(v["message"]))[:90] for v in e.values())),
    ]
    lines = ["| Probe | Goal | Measured |", "|---|---|---|"]
    lines += [f"| {a} | {g} | {m.replace('|', '/')} |" for a, g, m in rows]
    return "\n".join(lines)


def write_docs(report: dict) -> None:
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    start, end = "<!-- probes: written by python -m tools.probes -->", "<!-- /probes -->"
    text = SECURITY.read_text()
    block = (f"{start}\nRe-run with `python -m tools.probes` ({report['measured']}, bundled models, "
             f"local limits; figures in docs/reliability/probes.json):\n\n{table(report)}\n{end}")
    if start in text:
        text = text[:text.index(start)] + block + text[text.index(end) + len(end):]
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    SECURITY.write_text(text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=7899)
    parser.add_argument("--model", default=None)
    parser.add_argument("--no-docs", action="store_true", help="print the JSON only")
    args = parser.parse_args()
    report = {"measured": time.strftime("%Y-%m-%d"), "cli": probe_cli()}
    server = Server(args.port, args.model)
    try:
        for name, probe in (("bodies", probe_bodies), ("errors", probe_errors), ("sessions", probe_sessions),
                            ("pool", probe_pool), ("cancel", probe_cancel), ("uploads", probe_uploads)):
            print(f"probe: {name}", file=sys.stderr)
            report[name] = probe(server)
    finally:
        server.stop()
    print(json.dumps(report, ensure_ascii=False))
    if not args.no_docs:
        write_docs(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
