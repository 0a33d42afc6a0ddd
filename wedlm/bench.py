"""Benchmark: WeDLM streaming vs block decoding, our AR decoder and transformers' generate(),
across prompt entropy, measured side by side in one run.

python -m wedlm bench [--model M] [--ar-model M] [--prompts FILE.jsonl] [--repeats N]
                      [--json] [--out DIR] [--device cpu|cuda] [--dtype auto|float32|bfloat16]
                      [--max-new-tokens N]
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

from .config import DEFAULTS, KNOBS, DecodeConfig
from .decoders import make_decoder
from .loading import LoadedModel
from .paths import BUNDLED_AR_MODEL
from .suite import THRESHOLD_GRID, in_class_order, read_prompts
from .trace import without_stop

DECODERS = ("streaming", "block", "ar", "generate")


def run_generate(lm: LoadedModel, prompt_ids: list[int], max_new_tokens: int) -> dict:
    """transformers' own generate(): greedy, same stop ids, same budget."""
    ids = torch.tensor([prompt_ids], device=lm.device)
    t0 = time.perf_counter()
    with torch.inference_mode():
        out = lm.model.generate(ids, max_new_tokens=max_new_tokens, do_sample=False,
                                eos_token_id=list(lm.stop_ids),
                                pad_token_id=lm.tokenizer.pad_token_id or lm.stop_ids[0])
    seconds = time.perf_counter() - t0
    tokens = out[0, len(prompt_ids):].tolist()
    forwards = max(len(tokens) - 1, 0)
    return {"token_ids": tokens, "forwards": forwards, "tokens_per_forward": len(tokens) / max(forwards, 1),
            "p_cache": 1.0, "rows_per_forward": 1.0, "decode_s": seconds, "prefill_s": 0.0,
            "tokens_per_s": len(tokens) / seconds if seconds else 0.0}


def run_one(lm: LoadedModel, decoder: str, prompt_ids: list[int], config: DecodeConfig) -> dict:
    if decoder == "generate":
        return run_generate(lm, prompt_ids, config.max_new_tokens)
    result = make_decoder(decoder, lm, config).run(prompt_ids)
    stats = result.stats()
    # rows per forward: what a forward costs (streaming carries W masks plus the tokens it commits)
    rows = stats["rows_processed"] / max(stats["forwards"], 1)
    return {"token_ids": result.token_ids, "rows_per_forward": rows,
            **{k: v for k, v in stats.items() if k not in ("stop_reason", "rows_processed")}}


def agreement(ours: list[int], reference: list[int]) -> float:
    """Share of positions (over the longer output) where the two outputs hold the same token."""
    if not ours and not reference:
        return 1.0
    same = sum(a == b for a, b in zip(ours, reference))
    return same / max(len(ours), len(reference))


def measure_forward_cost(lm: LoadedModel, prefix: int = 64, window: int = DEFAULTS["window"],
                         repeats: int = 20) -> dict:
    """Seconds of one forward of q new rows over a cached prefix, for q = 1 (AR), W and 2W."""
    from transformers import DynamicCache
    vocab = lm.model.config.vocab_size
    gen = torch.Generator().manual_seed(0)
    prompt = torch.randint(0, vocab, (1, prefix), generator=gen).to(lm.device)
    costs = {}
    with torch.inference_mode():
        cache = DynamicCache(config=lm.model.config)
        lm.model(input_ids=prompt, past_key_values=cache, use_cache=True, logits_to_keep=1)
        for rows in (1, window, 2 * window):
            ids = torch.randint(0, vocab, (1, rows), generator=gen).to(lm.device)
            pos = torch.arange(prefix, prefix + rows, device=lm.device)[None]
            times = []
            for _ in range(repeats + 2):
                t0 = time.perf_counter()
                lm.model(input_ids=ids, position_ids=pos, past_key_values=cache, use_cache=True,
                         logits_to_keep=rows)
                if lm.device.type == "cuda":
                    torch.cuda.synchronize()
                times.append(time.perf_counter() - t0)
                cache.crop(-rows)
            costs[rows] = statistics.median(times[2:])
    return {"prefix": prefix, "seconds": {str(k): v for k, v in costs.items()},
            "ratio_vs_ar": {str(k): costs[k] / costs[1] for k in costs}}


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
                "tokens_per_s": round(statistics.mean(r["tokens_per_s"] for r in sel), 2),
                "p_cache": round(statistics.mean(r["p_cache"] for r in sel), 3),
                "rows_per_forward": round(statistics.mean(r["rows_per_forward"] for r in sel), 1),
                "exact_match": round(statistics.mean(r["exact_match"] for r in sel), 3),
                "token_agreement": round(statistics.mean(r["token_agreement"] for r in sel), 3),
            }
        for dec, stats in per.items():
            if "generate" in per and per["generate"]["tokens_per_s"]:
                stats["speedup_vs_generate"] = round(stats["tokens_per_s"] / per["generate"]["tokens_per_s"], 2)
        if "streaming" in per and "block" in per and per["block"]["tokens_per_s"]:
            per["streaming"]["speedup_vs_block"] = round(
                per["streaming"]["tokens_per_s"] / per["block"]["tokens_per_s"], 2)
        summary[cls] = per
    return summary


def bench(lm: LoadedModel, ar_lm: LoadedModel | None, prompts: list[dict], repeats: int = 3,
          config: DecodeConfig | None = None, sweep: bool = True) -> dict:
    config = config or DecodeConfig()
    encoded = {p["id"]: lm.encode(p["prompt"]) for p in prompts}
    reference = {}  # the AR parent's greedy output: the quality yardstick
    parent = ar_lm or lm
    for p in prompts:
        reference[p["id"]] = make_decoder("ar", parent, config).run(parent.encode(p["prompt"])).token_ids

    runs: dict[tuple, list[dict]] = {}
    total = repeats * len(prompts) * len(DECODERS)
    with tqdm(total=total, desc="bench", unit="run", file=sys.stderr) as bar:
        for _ in range(repeats):                     # interleaved: every decoder in every round
            for p in prompts:
                for dec in DECODERS:
                    runs.setdefault((p["id"], dec), []).append(run_one(lm, dec, encoded[p["id"]], config))
                    bar.update()
    results = []
    for p in prompts:
        for dec in DECODERS:
            rs = runs[(p["id"], dec)]
            med = {k: statistics.median(r[k] for r in rs)
                   for k in ("tokens_per_s", "decode_s", "prefill_s", "tokens_per_forward", "p_cache",
                             "rows_per_forward")}
            ids = rs[0]["token_ids"]
            results.append({
                "prompt_id": p["id"], "class": p["class"], "decoder": dec, **med,
                "forwards": rs[0]["forwards"], "generated_tokens": len(ids),
                "exact_match": ids == reference[p["id"]], "token_agreement": agreement(ids, reference[p["id"]]),
                "text": lm.decode(without_stop(ids, lm.stop_ids)), "repeats": len(rs)})

    report = {"model": lm.name, "ar_model": parent.name, "device": str(lm.device),
              "dtype": str(lm.dtype).removeprefix("torch."),
              "config": config.to_dict(), "repeats": repeats, "results": results,
              "summary": summarize(results),
              "forward_cost": measure_forward_cost(lm, window=config.window)}
    ratio = report["forward_cost"]["ratio_vs_ar"]
    report["ceiling"] = {
        cls: {"tokens_per_forward": per["streaming"]["tokens_per_forward"],
              "implied_speedup_at_W": round(per["streaming"]["tokens_per_forward"] / ratio[str(config.window)], 2),
              "implied_speedup_at_2W": round(per["streaming"]["tokens_per_forward"] / ratio[str(2 * config.window)], 2)}
        for cls, per in report["summary"].items() if "streaming" in per}
    if sweep:
        report["tau_sweep"] = tau_sweep(lm, prompts, encoded, reference, config)
    return report


def tau_sweep(lm, prompts, encoded, reference, config) -> dict:
    """Per class, for each tau: mean TPF, tokens/s and agreement with the AR parent."""
    out = {}
    classes = in_class_order({p["class"] for p in prompts})
    with tqdm(total=len(classes) * len(THRESHOLD_GRID), desc="tau sweep", unit="tau", file=sys.stderr) as bar:
        for cls in classes:
            sel = [p for p in prompts if p["class"] == cls]
            rows = []
            for threshold in THRESHOLD_GRID:
                cfg = replace(config, threshold=threshold)
                rs = [(p, run_one(lm, "streaming", encoded[p["id"]], cfg)) for p in sel]
                rows.append({
                    "threshold": threshold,
                    "tokens_per_forward": round(statistics.mean(r["tokens_per_forward"] for _, r in rs), 3),
                    "tokens_per_s": round(statistics.mean(r["tokens_per_s"] for _, r in rs), 2),
                    "token_agreement": round(statistics.mean(agreement(r["token_ids"], reference[p["id"]]) for p, r in rs), 3),
                    "exact_match": round(statistics.mean(r["token_ids"] == reference[p["id"]] for p, r in rs), 3)})
                bar.update()
            out[cls] = rows
    return out


def markdown_table(report: dict) -> str:
    lines = ["| class | decoder | TPF | tokens/s | speedup vs generate() | p_cache | exact match | token agreement |",
             "|---|---|---|---|---|---|---|---|"]
    for cls, per in report["summary"].items():
        for dec, s in per.items():
            lines.append(f"| {cls} | {dec} | {s['tokens_per_forward']:.2f} | {s['tokens_per_s']:.1f} | "
                         f"{s.get('speedup_vs_generate', float('nan')):.2f}× | {s['p_cache']:.2f} | "
                         f"{s['exact_match']:.2f} | {s['token_agreement']:.2f} |")
    cost = report["forward_cost"]["ratio_vs_ar"]
    lines += ["", f"Forward cost relative to one AR forward ({report['device']}, {report['dtype']}, prefix "
              f"{report['forward_cost']['prefix']}): " + ", ".join(f"{k} rows: {v:.2f}×" for k, v in cost.items())]
    lines += ["", "| class | streaming TPF | implied speedup at W rows | at 2W rows |", "|---|---|---|---|"]
    for cls, c in report["ceiling"].items():
        lines.append(f"| {cls} | {c['tokens_per_forward']:.2f} | {c['implied_speedup_at_W']:.2f}× | {c['implied_speedup_at_2W']:.2f}× |")
    if "tau_sweep" in report:
        lines += ["", "τ sweep (streaming): TPF / tokens/s / token agreement with the AR parent", "",
                  "| class | " + " | ".join(f"τ={t}" for t in THRESHOLD_GRID) + " |",
                  "|---|" + "---|" * len(THRESHOLD_GRID)]
        for cls, rows in report["tau_sweep"].items():
            lines.append(f"| {cls} | " + " | ".join(
                f"{r['tokens_per_forward']:.1f} / {r['tokens_per_s']:.0f} / {r['token_agreement']:.2f}" for r in rows) + " |")
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
    sweep.update_layout(title="Streaming TPF against τ", xaxis_title="τ", yaxis_title="tokens per forward",
                        height=420, template="plotly_white")
    return {"speed": speed, "tau_sweep": sweep}


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
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                     args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        page = browser.new_page(viewport={"width": 900, "height": int(fig.layout.height or 450) + 20})
        page.set_content(html)
        page.wait_for_selector(".main-svg")
        page.screenshot(path=str(png), full_page=True)
        browser.close()
    return True


def main_bench(args) -> int:
    from .loading import load_model
    prompts = read_prompts(args.prompts) if args.prompts else read_prompts()
    lm = load_model(args.model, device=args.device, dtype=args.dtype)
    ar_name = args.ar_model or (str(BUNDLED_AR_MODEL) if args.model is None and BUNDLED_AR_MODEL.is_dir() else None)
    ar_lm = load_model(ar_name, device=args.device, dtype=args.dtype) if ar_name else None
    config = DecodeConfig.from_dict({k: v for k, v in vars(args).items() if k in KNOBS})
    report = bench(lm, ar_lm, prompts, repeats=args.repeats, config=config, sweep=not args.no_sweep)
    if args.out:
        write_outputs(report, Path(args.out))
    if args.json:
        print(json.dumps({"device": report["device"], "dtype": report["dtype"],
                          "results": report["results"], "summary": report["summary"],
                          "forward_cost": report["forward_cost"], "ceiling": report["ceiling"],
                          "tau_sweep": report.get("tau_sweep")}, ensure_ascii=False))
    else:
        print(markdown_table(report))
    return 0
