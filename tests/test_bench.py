import json
import os

import pytest
import subprocess
import sys

ENV = {**os.environ, "HF_HUB_OFFLINE": "1"}


def test_bench_json_runs_every_decoder_side_by_side(tiny_dir, tmp_path):
    prompts = tmp_path / "p.jsonl"
    prompts.write_text('{"id": "c", "class": "counting", "prompt": "Count from 1 to 9:"}\n'
                       '{"id": "r", "class": "plays", "prompt": "ROMEO:"}\n')
    out_dir = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "wedlm", "bench", "--model", str(tiny_dir),
                           "--prompts", str(prompts), "--repeats", "1", "--max-new-tokens", "12",
                           "--no-sweep", "--json", "--out", str(out_dir)],
                          capture_output=True, text=True, env=ENV, timeout=600)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    rows = report["results"]
    assert {(r["prompt_id"], r["decoder"]) for r in rows} == {
        (p, d) for p in ("c", "r") for d in ("streaming", "streaming-adaptive", "verified", "block", "ar", "generate")}
    for r in rows:
        for key in ("prompt_id", "class", "decoder", "tokens_per_forward", "p_cache", "tokens_per_s",
                    "decode_s", "generated_tokens", "text", "exact_match", "token_agreement",
                    "rows_per_forward", "exact_match_generate"):
            assert key in r
        # an AR forward carries one row; a window forward at least as many rows as it commits tokens
        if r["decoder"] in ("ar", "generate"):
            assert r["rows_per_forward"] == 1.0
        elif r["decoder"] == "verified":  # at least the AR token per forward, at least one row
            assert r["tokens_per_forward"] >= 1.0 and r["rows_per_forward"] >= 1.0
            assert r["exact_match_generate"]  # lossless: generate()'s text on the same weights
        else:
            assert r["rows_per_forward"] >= r["tokens_per_forward"] and r["rows_per_forward"] > 1
    # with no AR parent given, the yardstick is this model's own AR output: ar and generate agree
    for r in rows:
        if r["decoder"] in ("ar", "generate"):
            assert r["exact_match"] and r["token_agreement"] == 1.0
    assert set(report["summary"]) == {"counting", "plays"}
    assert (report["device"], report["dtype"]) == ("cpu", "float32")  # auto: fp32 on a CPU
    # the cost model comes from the decodes' own forwards: every forward of every run is counted
    cost = report["forward_cost"]
    assert cost["ratio_vs_1_row"]["1"] == 1.0
    ours = [r for r in rows if r["decoder"] not in ("generate",)]
    assert sum(cost["forwards_by_rows"].values()) == sum(r["forwards"] for r in ours)
    # one-row forwards: every AR forward, and verified's AR steps (zero masks)
    assert cost["forwards_by_rows"]["1"] >= sum(r["forwards"] for r in rows if r["decoder"] == "ar")
    for cls, per in report["ceiling"].items():
        assert set(per) == {"streaming", "streaming-adaptive", "verified", "block"}
        # ceiling = TPF × cost(1 row) / cost(rows per forward). The report rounds each to 3 decimals, so
        # a small ceiling (a tiny model whose rows cost much, on a loaded machine: 0.022 against
        # 0.0215 recomputed from the rounded parts) is checked to its rounding, not to 1 % of itself
        for c in per.values():
            assert c["ceiling_vs_ar"] == pytest.approx(c["tokens_per_forward"] / c["cost_ratio"], rel=0.01, abs=1e-3)
            assert c["share_of_ceiling"] == pytest.approx(c["measured_vs_ar"] / c["ceiling_vs_ar"], rel=0.01,
                                                          abs=1e-3 * (1 + (1 + c["share_of_ceiling"]) / c["ceiling_vs_ar"]))
    assert set(report["best_wedlm"]) == {"counting", "plays"}
    assert (out_dir / "forward_cost.html").is_file()
    assert (out_dir / "bench.md").read_text().startswith("| class | decoder |")
    assert (out_dir / "speed.html").is_file()


def test_bench_runs_both_models_in_the_dtype_asked(tiny_dir, tmp_path):
    prompts = tmp_path / "p.jsonl"
    prompts.write_text('{"id": "c", "class": "counting", "prompt": "Count from 1 to 9:"}\n')
    proc = subprocess.run([sys.executable, "-m", "wedlm", "bench", "--model", str(tiny_dir),
                           "--ar-model", str(tiny_dir), "--dtype", "bfloat16", "--compare-dtype", "float32",
                           "--prompts", str(prompts),
                           "--repeats", "1", "--max-new-tokens", "8", "--no-sweep", "--json"],
                          capture_output=True, text=True, env=ENV, timeout=600)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["dtype"] == "bfloat16"
    assert {r["decoder"] for r in report["results"]} == {"streaming", "streaming-adaptive", "verified", "block",
                                                         "ar", "generate"}
    # the other dtype ran side by side: agreement and speed of its streaming and generate() runs
    cmp = report["dtype_comparison"]
    assert cmp["dtype"] == "float32" and set(cmp["classes"]["counting"]) == {"streaming", "generate"}
    assert all(0 <= v["token_agreement"] <= 1 and v["speed_ratio"] > 0 for v in cmp["classes"]["counting"].values())
    assert all(r["generated_tokens"] == 8 for r in report["results"] if r["decoder"] in ("ar", "generate"))


def test_bench_rejects_a_bad_prompt_file(tiny_dir, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x"}\n')
    proc = subprocess.run([sys.executable, "-m", "wedlm", "bench", "--model", str(tiny_dir),
                           "--prompts", str(bad)], capture_output=True, text=True, env=ENV, timeout=300)
    assert proc.returncode == 2 and "missing class, prompt" in proc.stderr
    assert "Traceback" not in proc.stderr
