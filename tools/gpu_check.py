"""The first run on a GPU: is the CUDA path right, and how fast is it?

Loads a checkpoint (a hub id such as tencent/WeDLM-8B-Instruct, or a local folder), decodes the
project's suite (assets/bench/prompts.jsonl, greedy) with the streaming decoder (KV cache,
reordered window) and the reference decoder (no cache, explicit mask), and compares them token
for token; the AR decoder gives the speed baseline (in the first dtype only). It does this in
the device's dtype (bf16 on CUDA, fp32 for a small model and on a CPU) and again in the other
one, and prints each dtype's report the moment that dtype is done.

Streaming and reference compute the same logits with different kernels, GEMM shapes and key
orders, so on a GPU they differ by rounding (~1e-6 in fp32): where a decision is that close (an
entropy within that of τ, a near tie between the top two tokens) one choice flips and the rest
of the output differs. So where the outputs diverge, the step where they do is re-run on both
paths from the same state, and the report gives the largest logit difference there against that
step's decision margins. The check fails (exit 1) only where, in fp32, that difference exceeds
1e-3 (a real bug, not rounding), or a dtype's run crashed. In bf16 the same figures are reported,
never failed: bf16 rounding is ~1e-2.

    python -m tools.gpu_check tencent/WeDLM-8B-Instruct            # on the GPU machine
    python -m tools.gpu_check assets/models/wedlm-tiny --device cpu # the same logic, here (CI)

fp32 needs 4 bytes per parameter (32.8 GB for the 8B): on a GPU that cannot hold it the fp32
pass is skipped, and said so. docs/spaces.md#first-gpu-run explains every figure.
"""
from __future__ import annotations

import argparse
import gc
import json
import math
import statistics
import sys
import traceback

import torch

from wedlm import DecodeConfig, decode, load_model
from wedlm.branch import first_divergence
from wedlm.decoders.reference import RecomputeForward
from wedlm.decoders.streaming import CachedForward
from wedlm.paths import SUITE_FILE
from wedlm.selection import entropy
from wedlm.suite import read_prompts

FAIL_DELTA = 1e-3       # fp32: a larger logit difference between the two paths is a bug
HEADROOM_BYTES = 2e9    # besides the weights: activations, KV cache, the reference's L x L mask


def non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


def step_logits(lm, trace, step: int) -> tuple[torch.Tensor, torch.Tensor]:
    """The mask logits (m, V) of `step` of a window-decoder trace, computed again by the
    streaming forward (KV cache, reordered) and the reference forward (no cache, explicit mask)
    from the state the trace had before that step."""
    record = trace.steps[step]
    committed = [t for r in trace.steps[:step] for t in r.committed]
    prefix = list(trace.prompt_ids) + committed
    out = []
    with torch.inference_mode():
        for forward in (CachedForward(lm), RecomputeForward(lm)):
            forward.prefill(prefix)
            logits, _ = forward.forward(list(record.window), list(record.order), record.start)
            out.append(logits.float())
    return out[0], out[1]


def decision_margins(trace, step: int, logits: torch.Tensor, chosen_positions: set[int],
                     config: DecodeConfig) -> dict:
    """How close the step's decisions were. `threshold`: the smallest |score − τ| over the
    step's masks (score = entropy + λ·distance; a slot that close to τ flips in or out), and
    when no slot passes τ, the gap between the two lowest scores (which slot is the fallback).
    `top_two`: the smallest gap between the two largest logits over the slots filled (by
    either path) at that step: which token greedy picks."""
    record = trace.steps[step]
    masks = [k for k, t in enumerate(record.window) if t is None]
    ent = entropy(logits).tolist()
    scores = [h + config.penalty * (k - masks[0]) for h, k in zip(ent, masks)]
    margins = []
    passing = config.threshold is not None and any(s < config.threshold for s in scores)
    if config.threshold is not None:
        margins += [abs(s - config.threshold) for s in scores]
    if not passing and len(scores) > 1:
        low = sorted(scores)
        margins.append(low[1] - low[0])
    rows = [i for i, k in enumerate(masks) if record.start + k in chosen_positions]
    top = logits[rows].topk(2, dim=-1).values if rows and logits.size(-1) > 1 else None
    return {"threshold": min(margins) if margins else math.inf,
            "top_two": float((top[:, 0] - top[:, 1]).min()) if top is not None else math.inf}


def compare_paths(lm, streaming, reference, config: DecodeConfig) -> dict:
    """Where the two traces first differ (or step 0 when they do not), both forwards re-run:
    the largest |Δlogit| and that step's decision margins."""
    diverged = first_divergence(streaming, reference)
    step = 0 if diverged is None else diverged
    if step >= min(len(streaming.steps), len(reference.steps)):
        return {"step": step, "max_delta": math.inf, "threshold_margin": None, "top_two_margin": None}
    a, b = step_logits(lm, streaming, step)
    chosen = ({f.pos for f in streaming.steps[step].filled}
              | {f.pos for f in reference.steps[step].filled})
    margins = decision_margins(streaming, step, a, chosen, config)
    delta = float((a - b).abs().max()) if a.numel() else 0.0
    return {"step": step, "max_delta": delta, "threshold_margin": margins["threshold"],
            "top_two_margin": margins["top_two"]}


def parameter_count(lm) -> int:
    return sum(p.numel() for p in lm.model.parameters())


def fits_in_memory(parameters: int, dtype: torch.dtype, free_bytes: float) -> bool:
    """Whether a model of that size in that dtype (plus HEADROOM_BYTES) fits in free_bytes."""
    return parameters * torch.finfo(dtype).bits / 8 + HEADROOM_BYTES <= free_bytes


def free_device_bytes(device: torch.device) -> float:
    """Memory free on the device for the next model (a CPU: unbounded here)."""
    if device.type != "cuda":
        return math.inf
    gc.collect()
    torch.cuda.empty_cache()
    free, _total = torch.cuda.mem_get_info(device)
    return float(free)


def run_dtype(model: str, device: str, dtype: str, prompts: list[dict], config: DecodeConfig,
              with_ar: bool) -> dict:
    """Streaming and reference (and AR) decodes of every prompt in one dtype (plain data only)."""
    lm = load_model(model, device=device, dtype=dtype)
    rows = []
    for n, p in enumerate(prompts, 1):
        print(f"[{str(lm.dtype).removeprefix('torch.')}] {n}/{len(prompts)} {p['id']}",
              file=sys.stderr, flush=True)
        s = decode(lm, p["prompt"], "streaming", config)
        r = decode(lm, p["prompt"], "reference", config)
        forward_s = [step.forward_seconds for step in s.steps]
        row = {"id": p["id"], "class": p["class"], "streaming_ids": s.token_ids,
               "same_as_reference": s.token_ids == r.token_ids,
               "first_difference": first_difference(s.token_ids, r.token_ids),
               **compare_paths(lm, s, r, config),
               "tpf": s.stats()["tokens_per_forward"],
               "streaming_tokens_per_s": s.stats()["tokens_per_s"],
               "streaming_s_per_forward": statistics.median(forward_s) if forward_s else 0.0}
        if with_ar:
            row["ar_tokens_per_s"] = decode(lm, p["prompt"], "ar", config).stats()["tokens_per_s"]
        rows.append(row)
    info = {"dtype": str(lm.dtype).removeprefix("torch."), "device": str(lm.device),
            "attention": lm.attn_implementation, "model": lm.name,
            "parameters": parameter_count(lm), "rows": rows}
    del lm
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


def verdict(run: dict, row: dict) -> str:
    """same; rounding (diverged, Δ within FAIL_DELTA or bf16); FAIL (fp32, Δ beyond it)."""
    if row["same_as_reference"]:
        return "same"
    if run["dtype"] == "float32" and not row["max_delta"] <= FAIL_DELTA:
        return "FAIL"
    return "rounding"


def failed(run: dict) -> bool:
    return "error" in run or any(verdict(run, r) == "FAIL" for r in run["rows"])


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


def summary(run: dict) -> dict:
    rows = run["rows"]
    median = lambda key: statistics.median(r[key] for r in rows if key in r)  # noqa: E731
    return {"dtype": run["dtype"], "streaming_equals_reference": sum(r["same_as_reference"] for r in rows),
            "prompts": len(rows), "max_delta": max(r["max_delta"] for r in rows),
            "failed": failed(run), "median_tpf": median("tpf"),
            "median_streaming_tokens_per_s": median("streaming_tokens_per_s"),
            "median_streaming_s_per_forward": median("streaming_s_per_forward"),
            "median_ar_tokens_per_s": median("ar_tokens_per_s") if "ar_tokens_per_s" in rows[0] else None}


def _num(value, digits: str = ".2g") -> str:
    return "—" if value is None else ("∞" if value == math.inf else format(value, digits))


def markdown(run: dict) -> str:
    """One dtype's report."""
    if "error" in run:
        return f"## {run['dtype']}: FAILED to run\n\n{run['error']}\n"
    s = summary(run)
    ar = "—" if s["median_ar_tokens_per_s"] is None else f"{s['median_ar_tokens_per_s']:.1f}"
    lines = [f"## {s['dtype']}: {run['model']} on {run['device']} ({run['attention']} attention)"
             f" — {'FAIL' if s['failed'] else 'ok'}", "",
             "| streaming ≡ reference | max abs Δlogit | median TPF | streaming tokens/s "
             "| streaming s/forward | AR tokens/s |", "|---|---|---|---|---|---|",
             f"| {s['streaming_equals_reference']}/{s['prompts']} | {_num(s['max_delta'])} | "
             f"{s['median_tpf']:.2f} | {s['median_streaming_tokens_per_s']:.1f} | "
             f"{s['median_streaming_s_per_forward']:.4f} | {ar} |", "",
             "| prompt | verdict | step | max abs Δlogit | margin abs(H − τ) | top-two gap |",
             "|---|---|---|---|---|---|"]
    for r in run["rows"]:
        lines.append(f"| {r['id']} | {verdict(run, r)} | {r['step']} | {_num(r['max_delta'])} | "
                     f"{_num(r['threshold_margin'])} | {_num(r['top_two_margin'])} |")
    for r in run["rows"]:
        if not r["same_as_reference"]:
            lines.append(f"- {r['id']} differs from the reference at output token "
                         f"{r['first_difference']} (step {r['step']})")
    return "\n".join(lines) + "\n"


def emit(text: str) -> None:
    print(text, flush=True)  # each report the moment it is ready: a later crash loses nothing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", help="hub id or local folder")
    parser.add_argument("--device", default="auto", help="auto, cuda or cpu")
    parser.add_argument("--prompts", default=str(SUITE_FILE), help="JSONL: id, class, prompt")
    parser.add_argument("--limit", type=non_negative, default=None, help="only the first N prompts")
    parser.add_argument("--max-new-tokens", type=int, default=128)
    parser.add_argument("--window", type=int, default=16)
    parser.add_argument("--no-compare", action="store_true", help="skip the second dtype")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object per line (each dtype, then the agreement)")
    args = parser.parse_args(argv)
    prompts = read_prompts(args.prompts)[:args.limit]
    if not prompts:
        emit("no prompts to check (--limit 0 or an empty prompt file): nothing to do")
        return 0
    config = DecodeConfig(window=args.window, max_new_tokens=args.max_new_tokens)

    def report(run: dict) -> None:
        if args.json:
            emit(json.dumps({"run": {**(summary(run) if "error" not in run else {}), **run}}))
        else:
            emit(markdown(run))

    runs = []
    for dtype in ["auto"] if args.no_compare else ["auto", "other"]:
        if dtype == "other":
            if "error" in runs[0]:
                break
            dtype = "float32" if runs[0]["dtype"] != "float32" else "bfloat16"
            device = torch.device(runs[0]["device"])
            if not fits_in_memory(runs[0]["parameters"], getattr(torch, dtype), free_device_bytes(device)):
                emit(f"## {dtype}: skipped — {runs[0]['parameters'] / 1e9:.1f} B parameters in "
                     f"{dtype} do not fit in the {free_device_bytes(device) / 1e9:.1f} GB free on "
                     f"{device}\n")
                break
        try:
            run = run_dtype(args.model, args.device, dtype, prompts, config, with_ar=not runs)
        except Exception as err:  # noqa: BLE001 -- reported, and the check fails
            last = traceback.format_exception_only(type(err), err)[-1].strip()
            run = {"dtype": dtype, "rows": [], "error": last}
        runs.append(run)
        report(run)
    if len(runs) == 2 and not any("error" in r for r in runs):
        agreement = dtype_agreement(runs[0], runs[1])
        if args.json:
            emit(json.dumps({"dtype_agreement": agreement}))
        else:
            emit(f"{runs[0]['dtype']} vs {runs[1]['dtype']} (streaming): "
                 f"{agreement['exact_match']}/{agreement['prompts']} identical outputs, "
                 f"token agreement {agreement['token_agreement']:.3f}")
    return 1 if any(failed(r) for r in runs) else 0


if __name__ == "__main__":
    sys.exit(main())
