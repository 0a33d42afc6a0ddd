"""Benchmark: WeDLM streaming vs block decoding, the verified decoder (lossless, beyond the
paper), our AR decoder and transformers' generate(), across prompt entropy, side by side in one run.

python -m wedlm bench [--model M] [--ar-model M] [--prompts FILE.jsonl] [--repeats N]
                      [--json] [--out DIR] [--device cpu|cuda] [--dtype auto|float32|bfloat16]
                      [--compare-dtype bfloat16] [--max-new-tokens N] [--min-window N]
"""
from __future__ import annotations

import json
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

import torch
from tqdm import tqdm

from .config import KNOBS, DecodeConfig
from .decoders import make_decoder
from .device import cpu_has_native_bf16, device_clock
from .loading import LoadedModel
from .paths import BUNDLED_AR_MODEL
from .suite import THRESHOLD_GRID, in_class_order, read_prompts
from .trace import without_stop
from .training.corpus import final_answer

# "streaming-adaptive" is streaming with DecodeConfig.adaptive_window (beyond the paper);
# "verified" checks its drafts with the same forward (lossless, beyond the paper).
DECODERS = ("streaming", "streaming-adaptive", "verified", "block", "ar", "generate")
WEDLM_DECODERS = ("streaming", "streaming-adaptive", "verified", "block")
SWEEP_DECODERS = ("streaming", "verified")  # the τ sweep: verified's text should not move with τ


def run_generate(lm: LoadedModel, prompt_ids: list[int], max_new_tokens: int) -> dict:
    """transformers' own generate(): greedy, same stop ids, same budget."""
    ids = torch.tensor([prompt_ids], device=lm.device)
    t0, cpu0 = time.perf_counter(), time.process_time()
    with torch.inference_mode():
        out = lm.model.generate(ids, max_new_tokens=max_new_tokens, do_sample=False,
                                eos_token_id=list(lm.stop_ids),
                                pad_token_id=lm.tokenizer.pad_token_id or lm.stop_ids[0])
    seconds = device_clock(lm.device) - t0
    cpu_s = time.process_time() - cpu0
    tokens = out[0, len(prompt_ids):].tolist()
    forwards = max(len(tokens) - 1, 0)
    return {"token_ids": tokens, "forwards": forwards, "tokens_per_forward": len(tokens) / max(forwards, 1),
            "p_cache": 1.0, "rows_per_forward": 1.0, "decode_s": seconds, "prefill_s": 0.0,
            "tokens_per_s": len(tokens) / seconds if seconds else 0.0,
            "tokens_per_cpu_s": len(tokens) / cpu_s if cpu_s > 0 else 0.0,
            "decode_tokens_per_s": len(tokens) / seconds if seconds else 0.0}  # prefill inside


def decoder_and_config(decoder: str, config: DecodeConfig) -> tuple[str, DecodeConfig]:
    """A bench row's decoder name and config: streaming-adaptive is streaming with the adaptive window."""
    if decoder == "streaming-adaptive":
        return "streaming", replace(config, adaptive_window=True)
    return decoder, config


def run_one(lm: LoadedModel, decoder: str, prompt_ids: list[int], config: DecodeConfig) -> dict:
    """One decode. Besides its stats it returns `forward_log`: (rows, seconds) of every forward,
    the time the model forward alone took: the bench's cost model is built from these."""
    if decoder == "generate":
        return run_generate(lm, prompt_ids, config.max_new_tokens)
    name, cfg = decoder_and_config(decoder, config)
    dec = make_decoder(name, lm, cfg)
    cpu0 = time.process_time()
    forward_log = [(rec.rows, rec.forward_seconds) for rec in dec.steps(prompt_ids)]
    cpu_s = time.process_time() - cpu0
    result = dec.result
    stats = result.stats()
    # rows per forward: what a forward costs (streaming carries W masks plus the tokens it commits)
    rows = stats["rows_processed"] / max(stats["forwards"], 1)
    return {"token_ids": result.token_ids, "rows_per_forward": rows, "forward_log": forward_log,
            "forward_s": sum(sec for _, sec in forward_log),
            "decode_tokens_per_s": len(result.token_ids) / result.decode_s if result.decode_s else 0.0,
            # CPU time of this process (prefill and decode): on a shared machine other work
            # stretches wall time but not this, so it is the steadier yardstick of the two
            "tokens_per_cpu_s": len(result.token_ids) / cpu_s if cpu_s > 0 else 0.0,
            **{k: v for k, v in stats.items() if k not in ("stop_reason", "rows_processed")}}


def is_correct(prompt: dict, text: str) -> bool | None:
    """For a prompt with an `answer` (the arithmetic class): does the text end `#### answer`?"""
    return None if "answer" not in prompt else final_answer(text) == str(prompt["answer"])


def accuracy(marks: list) -> float | None:
    marks = [m for m in marks if m is not None]
    return round(statistics.mean(marks), 3) if marks else None


def agreement(ours: list[int], reference: list[int]) -> float:
    """Share of positions (over the longer output) where the two outputs hold the same token."""
    if not ours and not reference:
        return 1.0
    same = sum(a == b for a, b in zip(ours, reference))
    return same / max(len(ours), len(reference))


def forward_cost(runs: dict) -> dict:
    """The cost of a forward as the bench's own decodes paid it: per row count, the median time
    of the model forward alone over every forward of every WeDLM and AR run of this bench
    (interleaved in one process, so the machine's load is shared alike)."""
    by_rows: dict[int, list[float]] = {}
    for rs in runs.values():
        for r in rs:
            for rows, sec in r.get("forward_log", ()):
                by_rows.setdefault(rows, []).append(sec)
    ms = {rows: statistics.median(secs) * 1000 for rows, secs in sorted(by_rows.items())}
    base = ms.get(1)
    return {"source": "model forwards inside the bench's decodes (1 row: the AR decoder's, and "
                      "verified's forwards without masks)",
            "ms_by_rows": {str(k): round(v, 4) for k, v in ms.items()},
            "forwards_by_rows": {str(k): len(by_rows[k]) for k in ms},
            "ratio_vs_1_row": {str(k): round(v / base, 3) for k, v in ms.items()} if base else {}}


def ceilings(results: list[dict], summary: dict) -> dict:
    """Per class and WeDLM decoder: the speedup over AR its forwards allow, and what it got.

    ceiling = TPF × cost(1 row) / cost(its rows per forward), the costs measured in its own runs
    (cost(1 row): the AR runs' mean forward; cost(its rows): its runs' mean forward). measured =
    its decode tokens/s over the AR decoder's, same prompts, same process. The gap between the two
    is the decoding work outside the forward (selection, bookkeeping) against AR's."""
    out = {}
    for cls in summary:
        rows = [r for r in results if r["class"] == cls]
        ar = [r for r in rows if r["decoder"] == "ar"]
        if not ar:
            continue
        c1 = statistics.mean(r["forward_s"] / max(r["forwards"], 1) for r in ar)
        ar_speed = statistics.mean(r["decode_tokens_per_s"] for r in ar)
        per = {}
        for dec in WEDLM_DECODERS:
            sel = [r for r in rows if r["decoder"] == dec]
            if not sel:
                continue
            tpf = statistics.mean(r["tokens_per_forward"] for r in sel)
            cost = statistics.mean(r["forward_s"] / max(r["forwards"], 1) for r in sel)
            ceiling = tpf * c1 / cost
            measured = statistics.mean(r["decode_tokens_per_s"] for r in sel) / ar_speed
            per[dec] = {"tokens_per_forward": round(tpf, 3),
                        "rows_per_forward": round(statistics.mean(r["rows_per_forward"] for r in sel), 2),
                        "cost_ratio": round(cost / c1, 3), "ceiling_vs_ar": round(ceiling, 3),
                        "measured_vs_ar": round(measured, 3), "share_of_ceiling": round(measured / ceiling, 3)}
        out[cls] = per
    return out


def best_case_forwards(tokens: int, masks: int) -> list[int]:
    """Rows of each forward of a `verified` decode of `tokens` tokens carrying up to `masks`
    masks per forward when every draft agrees. The first token comes from prefill (as in AR);
    each forward checks the drafts the last one made (its masks but the first, whose slot the AR
    token takes) and yields them plus the AR token; masks stop where the budget ends (as in the
    decoder, whose window never reaches past max_new_tokens)."""
    made, drafts, rows = 1, 0, []
    while made < tokens:
        m = max(0, min(masks, tokens - made - drafts))
        rows.append(1 + drafts + m)
        made += drafts + 1
        drafts = max(m - 1, 0)
    return rows


def window_ceiling(tokens: int, window: int, cost, generate_s_per_token: float | None = None) -> dict:
    """An upper bound on what any window policy lets `verified` gain over AR decoding for a
    decode of `tokens` tokens at window W, `cost(rows)` the measured forward cost: every draft
    agrees and prefill is left out (it costs both the same); the best fixed mask count m <= W
    (`best_case_forwards`), or AR steps (1×). AR pays tokens - 1 one-row forwards.
    steady: the bound for long decodes, max over m <= W of m tokens per 2m-row forward.
    With generate()'s measured seconds per token (its prefill and overhead inside), the same
    bounds against generate(): verified's prefill and work outside the forward are left out,
    so they stay upper bounds."""
    window = max(window, 1)
    ar = (tokens - 1) * cost(1)
    plans = {m: best_case_forwards(tokens, m) for m in range(2, window + 1)}
    best = max(plans, key=lambda m: ar / sum(map(cost, plans[m])), default=None)
    ceiling = ar / sum(map(cost, plans[best])) if best else 1.0
    steady = max([m * cost(1) / cost(2 * m) for m in range(2, window + 1)], default=1.0)
    rows = plans[best] if best and ceiling > 1 else [1] * (tokens - 1)
    out = {"tokens": tokens, "window": window, "masks": best if ceiling > 1 else 0,
           "forwards": len(rows), "rows": rows, "tokens_per_forward": round(tokens / max(len(rows), 1), 3),
           "ceiling_vs_ar": round(max(ceiling, 1.0), 3), "steady_vs_ar": round(max(steady, 1.0), 3)}
    if generate_s_per_token:
        plan_s = sum(map(cost, rows))
        out["ceiling_vs_generate"] = round(tokens * generate_s_per_token / plan_s, 3)
        # m = 0 is an AR step: one token per one-row forward
        out["steady_vs_generate"] = round(max([generate_s_per_token / cost(1)] + [
            m * generate_s_per_token / cost(2 * m) for m in range(2, window + 1)]), 3)
    return out


def forward_cost_curve(forward: dict):
    """The bench's forward cost table (median ms per row count) as a monotone curve: weighted
    isotonic regression by how many forwards each row count had, so a row count seen in three
    lucky forwards cannot pull every smaller count below what hundreds of forwards cost."""
    from .decoders.window_policy import CostCurve, isotonic
    ms = {int(r): v for r, v in forward["ms_by_rows"].items()}
    if 1 not in ms:
        return None
    rows = sorted(ms)
    counts = forward.get("forwards_by_rows", {})
    weights = [counts.get(str(r), 1) for r in rows]
    return CostCurve(dict(zip(rows, isotonic([ms[r] for r in rows], weights))),
                     source="this bench's forwards (isotonic, weighted by forwards)")


def verified_ceilings(results: list[dict], forward: dict, window: int) -> dict:
    """Per class: `window_ceiling` for verified's median output length, from this bench's own
    forward cost table (`forward_cost_curve`), against AR and against generate()'s measured pace."""
    cost = forward_cost_curve(forward)
    if cost is None:
        return {}
    out = {}
    for cls in in_class_order({r["class"] for r in results}):
        sel = [r for r in results if r["class"] == cls and r["decoder"] == "verified"]
        gen = [r for r in results if r["class"] == cls and r["decoder"] == "generate" and r["generated_tokens"]]
        if sel:
            tokens = int(statistics.median(r["generated_tokens"] for r in sel))
            # generate()'s ms per token (cost is in ms): its whole decode over its tokens
            per_token = statistics.median(r["decode_s"] * 1000 / r["generated_tokens"] for r in gen) if gen else None
            out[cls] = window_ceiling(max(tokens, 2), window, cost, per_token)
    return out


def summarize(results: list[dict]) -> dict:
    """Per class and decoder: medians of TPF, tokens/s; speedups; agreement with the AR parent."""
    summary = {}
    classes = in_class_order({r["class"] for r in results})
    for cls in classes:
        rows = [r for r in results if r["class"] == cls]
        per = {}
        for dec in sorted({r["decoder"] for r in rows}, key=lambda d: (DECODERS + ("ar-parent", d)).index(d)):
            sel = [r for r in rows if r["decoder"] == dec]
            per[dec] = {
                "tokens_per_forward": round(statistics.mean(r["tokens_per_forward"] for r in sel), 3),
                "min_tokens_per_forward": round(min(r["tokens_per_forward"] for r in sel), 3),
                "tokens_per_s": round(statistics.mean(r["tokens_per_s"] for r in sel), 2),
                "tokens_per_cpu_s": round(statistics.mean(r["tokens_per_cpu_s"] for r in sel), 2),
                "p_cache": round(statistics.mean(r["p_cache"] for r in sel), 3),
                "rows_per_forward": round(statistics.mean(r["rows_per_forward"] for r in sel), 1),
                "exact_match": round(statistics.mean(r["exact_match"] for r in sel), 3),
                "exact_match_generate": round(statistics.mean(r["exact_match_generate"] for r in sel), 3),
                "token_agreement": round(statistics.mean(r["token_agreement"] for r in sel), 3),
                "accuracy": accuracy([r.get("correct") for r in sel]),
            }
        for dec, stats in per.items():
            if "generate" in per and per["generate"]["tokens_per_s"]:
                stats["speedup_vs_generate"] = round(stats["tokens_per_s"] / per["generate"]["tokens_per_s"], 2)
            if "generate" in per and per["generate"]["tokens_per_cpu_s"]:
                stats["cpu_speedup_vs_generate"] = round(
                    stats["tokens_per_cpu_s"] / per["generate"]["tokens_per_cpu_s"], 2)
        if "streaming" in per and "block" in per and per["block"]["tokens_per_s"]:
            per["streaming"]["speedup_vs_block"] = round(
                per["streaming"]["tokens_per_s"] / per["block"]["tokens_per_s"], 2)
        summary[cls] = per
    return summary


def bench(lm: LoadedModel, ar_lm: LoadedModel | None, prompts: list[dict], repeats: int = 3,
          config: DecodeConfig | None = None, sweep: bool = True,
          other_dtype_lm: LoadedModel | None = None) -> dict:
    """Every decoder on every prompt, interleaved and repeated. `other_dtype_lm` (the same model
    in another dtype) adds its streaming and generate() runs to the same rounds, for a side-by-side
    dtype comparison: speed and greedy agreement with this dtype's outputs."""
    config = config or DecodeConfig()
    encoded = {p["id"]: lm.encode(p["prompt"]) for p in prompts}
    reference = {}  # the AR parent's greedy output: the quality yardstick
    parent = ar_lm or lm
    for p in prompts:
        reference[p["id"]] = make_decoder("ar", parent, config).run(parent.encode(p["prompt"])).token_ids

    plan = [(dec, lm) for dec in DECODERS]
    if other_dtype_lm is not None:
        plan += [(dec, other_dtype_lm) for dec in ("streaming", "generate")]
    runs: dict[tuple, list[dict]] = {}
    with tqdm(total=repeats * len(prompts) * len(plan), desc="bench", unit="run", file=sys.stderr) as bar:
        for _ in range(repeats):                     # interleaved: every decoder in every round
            for p in prompts:
                for dec, model in plan:
                    key = (p["id"], dec, model is lm)
                    runs.setdefault(key, []).append(run_one(model, dec, encoded[p["id"]], config))
                    bar.update()
    results = []
    for p in prompts:
        same_weights = runs[(p["id"], "generate", True)][0]["token_ids"]  # generate() on this model
        for dec in DECODERS:
            rs = runs[(p["id"], dec, True)]
            med = {k: statistics.median(r[k] for r in rs)
                   for k in ("tokens_per_s", "decode_s", "prefill_s", "tokens_per_forward", "p_cache",
                             "rows_per_forward", "decode_tokens_per_s", "tokens_per_cpu_s")}
            if dec != "generate":
                med["forward_s"] = statistics.median(r["forward_s"] for r in rs)
            ids = rs[0]["token_ids"]
            text = lm.decode(without_stop(ids, lm.stop_ids))
            results.append({
                "prompt_id": p["id"], "class": p["class"], "decoder": dec, **med,
                "forwards": rs[0]["forwards"], "generated_tokens": len(ids),
                "exact_match": ids == reference[p["id"]], "token_agreement": agreement(ids, reference[p["id"]]),
                "exact_match_generate": ids == same_weights,
                "text": text, "correct": is_correct(p, text), "repeats": len(rs)})

    summary = summarize(results)
    report = {"model": lm.name, "ar_model": parent.name, "device": str(lm.device),
              "dtype": str(lm.dtype).removeprefix("torch."), "cpu_native_bf16": cpu_has_native_bf16(),
              "torch_threads": torch.get_num_threads(),
              "config": config.to_dict(), "repeats": repeats, "results": results,
              "summary": summary, "best_wedlm": best_wedlm(summary),
              "forward_cost": forward_cost({k: v for k, v in runs.items() if k[2]}),
              "ceiling": ceilings(results, summary)}
    report["verified_ceiling"] = verified_ceilings(results, report["forward_cost"], config.window)
    if other_dtype_lm is not None:
        report["dtype_comparison"] = dtype_comparison(prompts, runs, other_dtype_lm)
    if sweep:
        report["tau_sweep"] = tau_sweep(lm, prompts, encoded, reference, config)
        same_weights = {p["id"]: runs[(p["id"], "generate", True)][0]["token_ids"] for p in prompts}
        report["tau_sweep_verified"] = tau_sweep(lm, prompts, encoded, reference, config, "verified",
                                                 same_weights)
    return report


def best_wedlm(summary: dict) -> dict:
    """Per class: the fastest WeDLM configuration, with fixed-W streaming's figure beside it."""
    out = {}
    for cls, per in summary.items():
        options = [d for d in WEDLM_DECODERS if d in per and "speedup_vs_generate" in per[d]]
        if not options:
            continue
        best = max(options, key=lambda d: per[d]["tokens_per_s"])
        out[cls] = {"decoder": best, "speedup_vs_generate": per[best]["speedup_vs_generate"],
                    "streaming_speedup_vs_generate": per.get("streaming", {}).get("speedup_vs_generate")}
    return out


def dtype_comparison(prompts: list[dict], runs: dict, other: LoadedModel) -> dict:
    """Per class: the other dtype's streaming and generate() against this dtype's, same rounds:
    token agreement of the greedy outputs, exact matches and the tokens/s ratio."""
    out = {"dtype": str(other.dtype).removeprefix("torch."), "classes": {}}
    for cls in in_class_order({p["class"] for p in prompts}):
        ids = [p["id"] for p in prompts if p["class"] == cls]
        row = {}
        for dec in ("streaming", "generate"):
            base = [runs[(i, dec, True)] for i in ids]
            alt = [runs[(i, dec, False)] for i in ids]
            speed = statistics.mean(statistics.median(r["tokens_per_s"] for r in a) /
                                    statistics.median(r["tokens_per_s"] for r in b) for a, b in zip(alt, base))
            row[dec] = {"token_agreement": round(statistics.mean(agreement(a[0]["token_ids"], b[0]["token_ids"])
                                                                 for a, b in zip(alt, base)), 3),
                        "exact_match": round(statistics.mean(a[0]["token_ids"] == b[0]["token_ids"]
                                                             for a, b in zip(alt, base)), 3),
                        "speed_ratio": round(speed, 3)}
        out["classes"][cls] = row
    return out


def tau_sweep(lm, prompts, encoded, reference, config, decoder: str = "streaming",
              same_weights: dict | None = None) -> dict:
    """Per class, for each tau: mean TPF, tokens/s and agreement with the AR parent (and, given
    `same_weights` outputs, exact matches with greedy AR decoding of the same model)."""
    out = {}
    classes = in_class_order({p["class"] for p in prompts})
    with tqdm(total=len(classes) * len(THRESHOLD_GRID), desc=f"tau sweep ({decoder})", unit="tau",
              file=sys.stderr) as bar:
        for cls in classes:
            sel = [p for p in prompts if p["class"] == cls]
            rows = []
            for threshold in THRESHOLD_GRID:
                cfg = replace(config, threshold=threshold)
                rs = [(p, run_one(lm, decoder, encoded[p["id"]], cfg)) for p in sel]
                rows.append({
                    "threshold": threshold,
                    "tokens_per_forward": round(statistics.mean(r["tokens_per_forward"] for _, r in rs), 3),
                    "tokens_per_s": round(statistics.mean(r["tokens_per_s"] for _, r in rs), 2),
                    "token_agreement": round(statistics.mean(agreement(r["token_ids"], reference[p["id"]]) for p, r in rs), 3),
                    "exact_match": round(statistics.mean(r["token_ids"] == reference[p["id"]] for p, r in rs), 3),
                    **({"exact_match_same_weights": round(statistics.mean(
                        r["token_ids"] == same_weights[p["id"]] for p, r in rs), 3)} if same_weights else {}),
                    "accuracy": accuracy([is_correct(p, lm.decode(without_stop(r["token_ids"], lm.stop_ids)))
                                          for p, r in rs])})
                bar.update()
            out[cls] = rows
    return out


def markdown_table(report: dict) -> str:
    lines = ["| class | decoder | TPF | rows/forward | tokens/s | speedup vs generate() | p_cache | exact match "
             "| token agreement | exact match generate() |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for cls, per in report["summary"].items():
        for dec, s in per.items():
            lines.append(f"| {cls} | {dec} | {s['tokens_per_forward']:.2f} | {s['rows_per_forward']:.1f} | "
                         f"{s['tokens_per_s']:.1f} | "
                         f"{s.get('speedup_vs_generate', float('nan')):.2f}× | {s['p_cache']:.2f} | "
                         f"{s['exact_match']:.2f} | {s['token_agreement']:.2f} | "
                         f"{s.get('exact_match_generate', float('nan')):.2f} |")
    lines += ["", "Exact match and token agreement: against the AR parent's greedy output; exact match "
              "generate(): against transformers' generate() on the same weights (verified's goal: 1.00)."]
    best = report.get("best_wedlm", {})
    if best:
        lines += ["", "Best WeDLM configuration per class (tokens/s against generate()), fixed-W streaming beside it:", "",
                  "| class | best | its speedup vs generate() | fixed-W streaming |", "|---|---|---|---|"]
        for cls, b in best.items():
            lines.append(f"| {cls} | {b['decoder']} | {b['speedup_vs_generate']:.2f}× | "
                         f"{b['streaming_speedup_vs_generate']:.2f}× |")
    verified = {cls: per["verified"] for cls, per in report["summary"].items() if "verified" in per}
    if verified:
        lines += ["", "Verified (lossless, beyond the paper): its text should equal generate() on the same weights "
                  "on every prompt; speedup is tokens/s over generate()'s (wall clock); in CPU time: tokens per "
                  "CPU-second of this process over generate()'s (steadier on a shared machine); TPF: mean and "
                  "lowest prompt.", "",
                  "| class | speedup vs generate() | in CPU time | TPF (lowest) | rows/forward | exact match generate() |",
                  "|---|---|---|---|---|---|"]
        for cls, v in verified.items():
            lines.append(f"| {cls} | {v.get('speedup_vs_generate', float('nan')):.2f}× | "
                         f"{v.get('cpu_speedup_vs_generate', float('nan')):.2f}× | "
                         f"{v['tokens_per_forward']:.2f} ({v['min_tokens_per_forward']:.2f}) | "
                         f"{v['rows_per_forward']:.1f} | {v['exact_match_generate']:.2f} |")
    cost = report["forward_cost"]
    lines += ["", f"Forward cost as the decodes paid it ({report['device']}, {report['dtype']}, "
              f"{report.get('torch_threads', '?')} torch threads; median ms of the "
              "model forward alone, per row count; 1 row = the AR decoder's forwards and verified's AR steps; "
              "chart: forward_cost.png):", "",
              "| rows | " + " | ".join(cost["ms_by_rows"]) + " |", "|---|" + "---|" * len(cost["ms_by_rows"]),
              "| ms | " + " | ".join(f"{v:.2f}" for v in cost["ms_by_rows"].values()) + " |",
              "| × 1 row | " + " | ".join(f"{v:.2f}" for v in cost["ratio_vs_1_row"].values()) + " |",
              "| forwards | " + " | ".join(str(v) for v in cost["forwards_by_rows"].values()) + " |"]
    lines += ["", "Ceiling against AR: TPF × cost(1 row) / cost(rows per forward), both costs measured in these "
              "runs; measured: decode tokens/s over the AR decoder's (same prompts, same rounds).", "",
              "| class | decoder | TPF | rows/forward | forward cost × 1 row | ceiling | measured | share of ceiling |",
              "|---|---|---|---|---|---|---|---|"]
    for cls, per in report["ceiling"].items():
        for dec, c in per.items():
            lines.append(f"| {cls} | {dec} | {c['tokens_per_forward']:.2f} | {c['rows_per_forward']:.1f} | "
                         f"{c['cost_ratio']:.2f}× | {c['ceiling_vs_ar']:.2f}× | {c['measured_vs_ar']:.2f}× | "
                         f"{c['share_of_ceiling']:.2f} |")
    vc = report.get("verified_ceiling", {})
    if vc:
        lines += ["", "Verified's ceiling at W, an upper bound for any window policy: every draft agrees, prefill "
                  "left out, the best fixed mask count m <= W (each forward checks the last one's m - 1 drafts and "
                  "yields them plus the AR token: m tokens for 2m rows), costs from the forward cost table above "
                  "made non-decreasing (isotonic, weighted by forwards). Against AR decoding, and against "
                  "generate()'s measured time per token (its prefill and overhead inside; verified's left out); "
                  "steady: the bound for long decodes, max over m of m tokens per 2m-row forward.", "",
                  "| class | tokens | W | best masks | forwards (rows) | TPF at best | ceiling vs AR | "
                  "steady ceiling vs AR | ceiling vs generate() | steady vs generate() | "
                  "verified measured vs AR | verified measured vs generate() |",
                  "|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for cls, c in vc.items():
            measured = report["ceiling"].get(cls, {}).get("verified", {}).get("measured_vs_ar", float("nan"))
            vs_gen = report["summary"].get(cls, {}).get("verified", {}).get("speedup_vs_generate", float("nan"))
            shown = ", ".join(map(str, c["rows"])) if len(c["rows"]) <= 8 else f"{len(c['rows'])} forwards"
            lines.append(f"| {cls} | {c['tokens']} | {c['window']} | {c['masks']} | {c['forwards']} ({shown}) | "
                         f"{c['tokens_per_forward']:.2f} | {c['ceiling_vs_ar']:.2f}× | {c['steady_vs_ar']:.2f}× | "
                         f"{c.get('ceiling_vs_generate', float('nan')):.2f}× | "
                         f"{c.get('steady_vs_generate', float('nan')):.2f}× | {measured:.2f}× | {vs_gen:.2f}× |")
    if "dtype_comparison" in report:
        cmp = report["dtype_comparison"]
        native = "native bf16 units" if report.get("cpu_native_bf16") else "no native bf16 units: bf16 is emulated"
        lines += ["", f"{cmp['dtype']} against {report['dtype']} (same rounds; this CPU: {native}): greedy token "
                  f"agreement / exact matches / tokens/s ratio", "",
                  "| class | streaming | generate() |", "|---|---|---|"]
        for cls, row in cmp["classes"].items():
            lines.append(f"| {cls} | " + " | ".join(
                f"{row[d]['token_agreement']:.2f} / {row[d]['exact_match']:.2f} / {row[d]['speed_ratio']:.2f}×"
                for d in ("streaming", "generate")) + " |")
    answered = {cls: per for cls, per in report["summary"].items()
                if any(s.get("accuracy") is not None for s in per.values())}
    if answered:  # classes whose prompts carry an answer: final `#### n` right, per decoder
        lines += ["", "| class | " + " | ".join(f"{dec} accuracy" for dec in DECODERS) + " |",
                  "|---|" + "---|" * len(DECODERS)]
        for cls, per in answered.items():
            lines.append(f"| {cls} | " + " | ".join(f"{per[dec]['accuracy']:.0%}" if dec in per else "" for dec in DECODERS) + " |")
    for key, dec in (("tau_sweep", "streaming"), ("tau_sweep_verified", "verified")):
        if key not in report:
            continue
        lines += ["", f"τ sweep ({dec}): TPF / tokens/s / token agreement with the AR parent", "",
                  "| class | " + " | ".join(f"τ={t}" for t in THRESHOLD_GRID) + " |",
                  "|---|" + "---|" * len(THRESHOLD_GRID)]
        for cls, rows in report[key].items():
            lines.append(f"| {cls} | " + " | ".join(
                f"{r['tokens_per_forward']:.1f} / {r['tokens_per_s']:.0f} / {r['token_agreement']:.2f}"
                + (f" / {r['accuracy']:.0%} right" if r.get("accuracy") is not None else "") for r in rows) + " |")
    return "\n".join(lines) + "\n"


def charts(report: dict):
    """Plotly figures: tokens/s per class and decoder; TPF against tau."""
    import plotly.graph_objects as go
    speed = go.Figure()
    classes = list(report["summary"])
    for dec in DECODERS:
        speed.add_bar(name=dec, x=classes, y=[report["summary"][c].get(dec, {}).get("tokens_per_s") for c in classes])
    speed.update_layout(title="Tokens per second by prompt class", yaxis_title="tokens/s", height=420,
                        barmode="group", template="plotly_white")
    sweep = go.Figure()
    for cls, rows in report.get("tau_sweep", {}).items():
        sweep.add_scatter(name=cls, x=[r["threshold"] for r in rows], y=[r["tokens_per_forward"] for r in rows],
                          mode="lines+markers")
    for cls, rows in report.get("tau_sweep_verified", {}).items():
        sweep.add_scatter(name=f"{cls} (verified)", x=[r["threshold"] for r in rows],
                          y=[r["tokens_per_forward"] for r in rows], mode="lines+markers", line_dash="dot")
    sweep.update_layout(title="TPF against τ (solid: streaming; dotted: verified, beyond the paper)", xaxis_title="τ", yaxis_title="tokens per forward",
                        height=420, template="plotly_white")
    cost = go.Figure()
    fc = report["forward_cost"]
    cost.add_scatter(x=[int(k) for k in fc["ms_by_rows"]], y=list(fc["ms_by_rows"].values()), mode="lines+markers",
                     name="median ms", text=[f"{n} forwards" for n in fc["forwards_by_rows"].values()])
    cost.update_layout(title=f"Forward cost as the decodes paid it ({report['device']}, {report['dtype']})",
                       xaxis_title="rows in the forward (1 = AR)", yaxis_title="ms (median, forward alone)",
                       height=420, template="plotly_white", yaxis_rangemode="tozero")
    figures = {"speed": speed, "forward_cost": cost}
    if report.get("tau_sweep"):  # --no-sweep leaves an earlier sweep chart alone
        figures["tau_sweep"] = sweep
    return figures


def write_outputs(report: dict, out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "bench.json").write_text(json.dumps(report, indent=1, ensure_ascii=False))
    (out_dir / "bench.md").write_text(markdown_table(report))
    for name, fig in charts(report).items():
        html = out_dir / f"{name}.html"
        fig.write_html(str(html), include_plotlyjs="cdn")
        png = out_dir / f"{name}.png"
        if not save_png(fig, png):
            print(f"note: {png.name} not written (needs Debian chromium + playwright)", file=sys.stderr)


def save_png(fig, png: Path) -> bool:
    """Render a figure to PNG in headless Chromium (no kaleido needed)."""
    import plotly.io as pio
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return False
    if not Path("/usr/bin/chromium").exists():
        return False
    html = pio.to_html(fig, include_plotlyjs=True, full_html=True)
    try:  # a chart is a convenience: a busy machine or a broken browser must not lose the bench
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                         args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
            page = browser.new_page(viewport={"width": 900, "height": int(fig.layout.height or 450) + 20})
            page.set_content(html, timeout=180_000)
            page.wait_for_selector(".main-svg", timeout=180_000)
            page.screenshot(path=str(png), full_page=True, timeout=180_000)
            browser.close()
    except Exception as err:  # noqa: BLE001 - reported, not raised
        print(f"note: {png.name}: {err.__class__.__name__}", file=sys.stderr)
        return False
    return True


def main_bench(args) -> int:
    from .loading import load_model
    prompts = read_prompts(args.prompts) if args.prompts else read_prompts()
    lm = load_model(args.model, device=args.device, dtype=args.dtype)
    ar_name = args.ar_model or (str(BUNDLED_AR_MODEL) if args.model is None and BUNDLED_AR_MODEL.is_dir() else None)
    ar_lm = load_model(ar_name, device=args.device, dtype=args.dtype) if ar_name else None
    other = load_model(args.model, device=args.device, dtype=args.compare_dtype) if args.compare_dtype else None
    config = DecodeConfig.from_dict({k: v for k, v in vars(args).items() if k in KNOBS})
    report = bench(lm, ar_lm, prompts, repeats=args.repeats, config=config, sweep=not args.no_sweep,
                   other_dtype_lm=other)
    if args.out:
        write_outputs(report, Path(args.out))
    if args.json:
        keys = ("device", "dtype", "results", "summary", "best_wedlm", "forward_cost", "ceiling",
                "verified_ceiling", "dtype_comparison", "tau_sweep", "tau_sweep_verified")
        print(json.dumps({k: report.get(k) for k in keys}, ensure_ascii=False))
    else:
        print(markdown_table(report))
    return 0
