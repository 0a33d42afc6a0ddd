"""The first run on a GPU: is the CUDA path right, and how fast is it?

Loads a checkpoint (a hub id such as tencent/WeDLM-8B-Instruct, or a local folder), decodes the
project's suite (assets/bench/prompts.jsonl, greedy) with the streaming decoder (KV cache,
reordered window) and the reference decoder (no cache, explicit mask), and compares them token
for token; the AR decoder gives the speed baseline. It does this in the device's dtype (bf16 on
CUDA) and again in the other one (fp32 on CUDA, bf16 on a CPU) and reports how far the two
dtypes agree. Prints a Markdown report (or JSON); exits 1 when streaming and reference differ in
fp32, where they must agree exactly (DESIGN §1.3), 0 otherwise. In bf16 rounding may split them
late in a decode: reported, not failed.

    python -m tools.gpu_check tencent/WeDLM-8B-Instruct            # on the GPU machine
    python -m tools.gpu_check assets/models/wedlm-tiny --device cpu # the same logic, here

Needs about 3x the model's bf16 size in GPU memory for the fp32 pass (8B: 16 GB bf16, then
32 GB fp32; the bf16 copy is freed first); --no-compare skips it.
"""
from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys

import torch

from wedlm import DecodeConfig, decode, load_model
from wedlm.suite import read_prompts
from wedlm.paths import SUITE_FILE


def run_dtype(model: str, device: str, dtype: str, prompts: list[dict], config: DecodeConfig) -> dict:
    """Streaming, reference and AR decodes of every prompt in one dtype (plain data only)."""
    lm = load_model(model, device=device, dtype=dtype)
    rows = []
    for p in prompts:
        traces = {d: decode(lm, p["prompt"], d, config) for d in ("streaming", "reference", "ar")}
        s, r, a = (traces[d] for d in ("streaming", "reference", "ar"))
        rows.append({"id": p["id"], "class": p["class"],
                     "streaming_ids": s.token_ids, "same_as_reference": s.token_ids == r.token_ids,
                     "first_difference": first_difference(s.token_ids, r.token_ids),
                     "tpf": s.stats()["tokens_per_forward"],
                     "streaming_tokens_per_s": s.stats()["tokens_per_s"],
                     "streaming_s_per_forward": s.result.decode_s / max(1, s.result.forwards),
                     "ar_tokens_per_s": a.stats()["tokens_per_s"]})
    info = {"dtype": str(lm.dtype).removeprefix("torch."), "device": str(lm.device),
            "attention": lm.attn_implementation, "model": lm.name, "rows": rows}
    del lm, traces
    gc.collect()
    if torch.cuda.is_available():
        torch.cuda.empty_cache()
    return info


def first_difference(a: list[int], b: list[int]) -> int | None:
    """The first position where two token lists differ (None when equal)."""
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return None if len(a) == len(b) else min(len(a), len(b))


def dtype_agreement(first: dict, second: dict) -> dict:
    """How far the streaming outputs of two dtypes agree: exact matches, and the share of
    positions (of the longer output) holding the same token."""
    same, agree, total = 0, 0, 0
    for a, b in zip(first["rows"], second["rows"]):
        x, y = a["streaming_ids"], b["streaming_ids"]
        same += x == y
        agree += sum(i == j for i, j in zip(x, y))
        total += max(len(x), len(y))
    return {"exact_match": same, "prompts": len(first["rows"]),
            "token_agreement": agree / total if total else 1.0}


def summary(info: dict) -> dict:
    rows = info["rows"]
    median = lambda key: statistics.median(r[key] for r in rows)  # noqa: E731
    return {"dtype": info["dtype"], "streaming_equals_reference": sum(r["same_as_reference"] for r in rows),
            "prompts": len(rows), "median_tpf": median("tpf"),
            "median_streaming_tokens_per_s": median("streaming_tokens_per_s"),
            "median_streaming_s_per_forward": median("streaming_s_per_forward"),
            "median_ar_tokens_per_s": median("ar_tokens_per_s")}


def markdown(runs: list[dict], agreement: dict | None) -> str:
    head = runs[0]
    lines = [f"# GPU check: {head['model']} on {head['device']} ({head['attention']} attention)", "",
             "| dtype | streaming ≡ reference | median TPF | streaming tokens/s | streaming s/forward "
             "| AR tokens/s |", "|---|---|---|---|---|---|"]
    for run in runs:
        s = summary(run)
        lines.append(f"| {s['dtype']} | {s['streaming_equals_reference']}/{s['prompts']} | "
                     f"{s['median_tpf']:.2f} | {s['median_streaming_tokens_per_s']:.1f} | "
                     f"{s['median_streaming_s_per_forward']:.4f} | "
                     f"{s['median_ar_tokens_per_s']:.1f} |")
    for run in runs:
        for r in run["rows"]:
            if not r["same_as_reference"]:
                lines.append(f"- {run['dtype']}: {r['id']} differs from the reference at output "
                             f"token {r['first_difference']}")
    if agreement:
        lines += ["", f"{runs[0]['dtype']} vs {runs[1]['dtype']} (streaming): "
                      f"{agreement['exact_match']}/{agreement['prompts']} identical outputs, "
                      f"token agreement {agreement['token_agreement']:.3f}"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", help="hub id or local folder")
    parser.add_argument("--device", default="auto", help="auto, cuda or cpu")
    parser.add_argument("--prompts", default=str(SUITE_FILE), help="JSONL: id, class, prompt")
    parser.add_argument("--limit", type=int, default=None, help="only the first N prompts")
    parser.add_argument("--max-new-tokens", type=int, default=128)
    parser.add_argument("--window", type=int, default=16)
    parser.add_argument("--no-compare", action="store_true", help="skip the second dtype")
    parser.add_argument("--json", action="store_true", help="print JSON instead of Markdown")
    args = parser.parse_args(argv)
    prompts = read_prompts(args.prompts)[:args.limit]
    config = DecodeConfig(window=args.window, max_new_tokens=args.max_new_tokens)
    runs = [run_dtype(args.model, args.device, "auto", prompts, config)]
    if not args.no_compare:
        other = "float32" if runs[0]["dtype"] != "float32" else "bfloat16"
        runs.append(run_dtype(args.model, args.device, other, prompts, config))
    agreement = dtype_agreement(runs[0], runs[1]) if len(runs) == 2 else None
    if args.json:
        print(json.dumps({"runs": [{**summary(r), **r} for r in runs], "dtype_agreement": agreement}))
    else:
        print(markdown(runs, agreement))
    fp32_mismatch = any(not r["same_as_reference"] for run in runs if run["dtype"] == "float32"
                        for r in run["rows"])
    return 1 if fp32_mismatch else 0


if __name__ == "__main__":
    sys.exit(main())
