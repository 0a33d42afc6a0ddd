"""Resident memory over many decodes, or over many app sessions.

python -m tools.memory [--model PATH] [--decodes 200]       # the library: decode after decode
python -m tools.memory --sessions 200 [--model PATH]        # the app: 200 gradio_client sessions,
                                                              each one live decode (/run_live)

The sessions mode launches the app in this process on loopback, so the figures are the server's.
It also counts the trace files left in the app's temp folder and the /tmp/wedlm-explorer-*
folders (one per process at most). Prints one JSON object.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import shutil
import sys
import tempfile
import uuid
from pathlib import Path


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def settle() -> float:
    """RSS after a full collection and handing freed heap back to the system."""
    gc.collect()
    try:
        import ctypes
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass
    return rss_mb()


def files_under(folder: Path) -> int:
    return sum(1 for p in folder.rglob("*") if p.is_file())


def measure_decodes(args) -> dict:
    from wedlm import DecodeConfig, decode, decode_steps, load_model
    lm = load_model(args.model, device="cpu")
    decoders = ["streaming", "block", "ar", "reference"]
    decode(lm, "Count from 1 to 9:", "streaming", DecodeConfig(max_new_tokens=32))  # warm-up
    before = settle()
    for i in range(args.decodes):
        prompt = f"Count from {1 + i % 50} to {60 + i % 40}:"
        if i % 10 == 9:  # a stopped decode must free its state too
            it = decode_steps(lm, prompt, "streaming", DecodeConfig(max_new_tokens=64))
            next(it)
            it.close()
        else:
            decode(lm, prompt, decoders[i % len(decoders)], DecodeConfig(max_new_tokens=64, seed=i))
    after = settle()
    return {"decodes": args.decodes, "rss_before_mb": round(before, 1),
            "rss_after_mb": round(after, 1), "growth_mb": round(after - before, 1)}


def live_decode(client, i: int, max_new: int) -> None:
    """One new session (a new session hash: what a new visitor is) running one live decode."""
    client.session_hash = uuid.uuid4().hex
    client.predict(f"Count from {1 + i % 50} to {60 + i % 40}:", "streaming", 16, 0.4, False, 0.02,
                   0.0, 0, 1.0, max_new, i, 16, "entropy", api_name="/run_live")


def measure_sessions(args) -> dict:
    # a private temp folder, so that the files and folders counted are this server's only
    # (Gradio's cache lives under it too)
    private = Path(tempfile.mkdtemp(prefix="wedlm-memory-"))
    tempfile.tempdir = str(private)
    os.environ["GRADIO_TEMP_DIR"] = str(private / "gradio")
    from app.serving import sessions
    from app.ui import build_ui, launch
    sessions.MAX_SESSIONS = args.session_cap or sessions.MAX_SESSIONS
    demo = build_ui(args.model)
    launch(demo, prevent_thread_lock=True, server_name="127.0.0.1", quiet=True)  # loopback only
    try:
        from gradio_client import Client
        client = Client(demo.local_url, verbose=False)
        for i in range(3):  # warm-up: model loaded, first sessions' one-off costs paid
            live_decode(client, i, args.max_new_tokens)
        before = settle()
        for i in range(args.sessions):
            live_decode(client, 3 + i, args.max_new_tokens)
        after = settle()
        held = len(demo.state_holder.session_data)
        files = sessions.downloads.count()
        explorer_folders = len(list(private.glob("wedlm-explorer-*")))
        gradio_cache_files = files_under(private / "gradio")
    finally:
        demo.close()
        shutil.rmtree(private, ignore_errors=True)
    return {"sessions": args.sessions, "max_new_tokens": args.max_new_tokens,
            "rss_before_mb": round(before, 1), "rss_after_mb": round(after, 1),
            "growth_mb": round(after - before, 1), "sessions_held": held,
            "session_cap": sessions.MAX_SESSIONS, "temp_files_kept": files,
            "temp_files_cap": sessions.MAX_DOWNLOADS, "explorer_temp_folders": explorer_folders,
            "gradio_cache_files": gradio_cache_files}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default=None)
    parser.add_argument("--decodes", type=int, default=200)
    parser.add_argument("--sessions", type=int, default=0, help="measure app sessions instead")
    parser.add_argument("--max-new-tokens", type=int, default=64)
    parser.add_argument("--session-cap", type=int, default=0,
                        help="override app.serving.sessions.MAX_SESSIONS (to measure one session's cost)")
    parser.add_argument("--out", default=None, help="also write the JSON report to this file")
    args = parser.parse_args()
    report = measure_sessions(args) if args.sessions else measure_decodes(args)
    print(json.dumps(report))
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
