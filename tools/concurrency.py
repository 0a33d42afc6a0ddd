"""20 concurrent gradio_client sessions decoding on one app, on loopback only, bounded.

python -m tools.concurrency [--model PATH] [--sessions 20] [--max-new-tokens 64]

Each session decodes its own prompt/seed through /decode. The same requests are first run one
at a time; every concurrent result must equal its lone run token for token and carry its own
prompt (no session sees another's trace). Prints JSON: completions, p50/p95 latency.

--cancel-loop N then submits N long /decode requests, cancelling each once it runs, and reports
the CPU-seconds the server (this process) burns in the 5 s after the last cancel: a cancelled
decode must stop, not run on in the background (issue 25).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor, wait
from pathlib import Path

PROMPTS = ["Count from {a} to {b}:", "Count down from {b} to {a}:", "Times table of {a} up to 10:",
           "Question: Ana has {a} stickers and buys {b} more. How many stickers does she have?\nAnswer:",
           "ROMEO:\n"]


def requests(n: int, max_new: int) -> list[dict]:
    out = []
    for i in range(n):
        a, b = 2 + i, 30 + 2 * i
        out.append({"prompt": PROMPTS[i % len(PROMPTS)].format(a=a, b=b), "decoder": "streaming",
                    "temperature": 0.7 if i % 3 == 0 else 0.0, "seed": i, "max_new_tokens": max_new})
    return out


def cancel_loop(url: str, n: int) -> dict:
    """Submit-and-cancel n long decodes; CPU-seconds of this process in the 5 s after."""
    from gradio_client import Client
    from gradio_client.utils import Status
    client = Client(url, verbose=False)
    for i in range(n):
        # a count that outlasts the budget: the decode runs ~480 forwards unless cancelled
        job = client.submit(prompt="Count from 1 to 400:", decoder="reference", threshold=None,
                            max_new_tokens=480, seed=i, api_name="/decode")
        deadline = time.monotonic() + 120
        # /decode is a generator (stream_on_gpu): a running one reports ITERATING
        while (job.status().code not in (Status.PROCESSING, Status.ITERATING)
               and time.monotonic() < deadline):
            time.sleep(0.05)
        time.sleep(0.5)
        job.cancel()
    time.sleep(2.0)  # a cancelled decode stops at its next step
    cpu = time.process_time()
    time.sleep(5.0)
    return {"cancelled": n, "cpu_s_in_5_s_after": round(time.process_time() - cpu, 2)}


def main() -> int:
    from gradio_client import Client
    from app.ui import build_ui, launch

    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default=None)
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--max-new-tokens", type=int, default=64)
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--cancel-loop", type=int, default=0)
    parser.add_argument("--out", default=None, help="also write the JSON report to this file")
    args = parser.parse_args()
    demo = build_ui(args.model)
    launch(demo, prevent_thread_lock=True, server_name="127.0.0.1", quiet=True)  # loopback only
    reqs = requests(args.sessions, args.max_new_tokens)
    alone = [Client(demo.local_url, verbose=False).predict(**r, api_name="/decode") for r in reqs]

    def session(r: dict):
        t0 = time.perf_counter()
        out = Client(demo.local_url, verbose=False).predict(**r, api_name="/decode")
        return out, time.perf_counter() - t0

    with ThreadPoolExecutor(max_workers=args.sessions) as pool:
        futures = [pool.submit(session, r) for r in reqs]
        done, not_done = wait(futures, timeout=args.timeout)
    results = [f.result() if f in done and f.exception() is None else None for f in futures]
    latencies = sorted(r[1] for r in results if r)
    same = sum(1 for r, a, q in zip(results, alone, reqs)
               if r and r[0]["token_ids"] == a["token_ids"] and r[0]["prompt"] == q["prompt"])
    report = {"sessions": args.sessions, "completed": len(latencies), "equal_to_lone_run": same,
              "p50_s": round(statistics.median(latencies), 2) if latencies else None,
              "p95_s": round(latencies[max(0, int(0.95 * len(latencies)) - 1)], 2) if latencies else None,
              "max_s": round(latencies[-1], 2) if latencies else None}
    if args.cancel_loop:
        report.update(cancel_loop(demo.local_url, args.cancel_loop))
    demo.close()
    print(json.dumps(report))
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(report, indent=1) + "\n")
    return 0 if same == args.sessions else 1


if __name__ == "__main__":
    sys.exit(main())
