import json
import os
import subprocess
import sys

import pytest

ENV = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_HUB_DISABLE_TELEMETRY": "1"}


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "wedlm", *args], capture_output=True, text=True,
                          env=ENV, timeout=300)


def test_generate_json_prints_one_object(tiny_dir, tmp_path):
    trace_file = tmp_path / "trace.json"
    proc = run_cli("generate", "Count from 1 to 20:", "--model", str(tiny_dir), "--json",
                   "--window", "8", "--threshold", "3.0", "--max-new-tokens", "16",
                   "--trace-out", str(trace_file))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1
    out = json.loads(lines[0])
    for key in ("text", "token_ids", "decoder", "forwards", "generated_tokens",
                "tokens_per_forward", "p_cache", "prefill_s", "decode_s"):
        assert key in out
    assert out["decoder"] == "streaming"
    assert out["generated_tokens"] == len(out["token_ids"]) > 0
    assert out["tokens_per_forward"] == pytest.approx(out["generated_tokens"] / out["forwards"])
    trace = json.loads(trace_file.read_text())
    assert trace["token_ids"] == out["token_ids"] and len(trace["steps"]) == out["forwards"]


def test_generate_same_tokens_as_library(tiny_dir, tiny_lm):
    from wedlm import DecodeConfig, decode
    proc = run_cli("generate", "ROMEO:", "--model", str(tiny_dir), "--json", "--decoder", "ar",
                   "--max-new-tokens", "10")
    assert proc.returncode == 0, proc.stderr
    expected = decode(tiny_lm, "ROMEO:", "ar", DecodeConfig(max_new_tokens=10)).token_ids
    assert json.loads(proc.stdout)["token_ids"] == expected


@pytest.mark.parametrize("args,needle", [
    (["generate", "   "], "prompt is empty"),
    (["generate", "hi", "--model", "/no/such/folder"], "does not exist"),
    (["generate", "hi", "--window", "0"], "window"),
    (["generate", "hi", "--threshold", "-0.5"], "threshold"),
    (["generate", "hi", "--threshold", "lots"], "threshold"),
    (["generate", "hi", "--penalty", "x"], "penalty"),
    (["generate", "hi", "--max-new-tokens", "ten"], "max-new-tokens"),
    (["generate", "hi", "--decoder", "magic"], "decoder"),
    (["generate", "hi", "--top-p", "0"], "top_p"),
])
def test_bad_input_exits_2_with_one_line(tiny_dir, args, needle):
    if "--model" not in args:
        args = args + ["--model", str(tiny_dir)]
    proc = run_cli(*args)
    assert proc.returncode == 2
    err = proc.stderr.strip().splitlines()
    assert len(err) == 1 and needle in err[0]
    assert "Traceback" not in proc.stderr and proc.stdout == ""


@pytest.mark.parametrize("args,needle", [
    (["--stages", "sft"], "--stages"),
    (["--wedlm-suffix-mask", "1.5"], "--wedlm-suffix-mask"),
    (["--wedlm-eos-label-only", "-0.1"], "--wedlm-eos-label-only"),
    (["--wedlm-suffix-families", "counting,poems"], "unknown poems"),
])
def test_bad_train_options_exit_2_before_training(tmp_path, args, needle):
    proc = run_cli("train", "--run-dir", str(tmp_path / "run"), *args)
    assert proc.returncode == 2
    err = proc.stderr.strip().splitlines()
    assert len(err) == 1 and needle in err[0] and "Traceback" not in proc.stderr
    assert not (tmp_path / "run").exists()                     # nothing was started


def test_diff_names_the_first_divergent_step(tiny_dir, tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    common = ["generate", "Count from 1 to 20:", "--model", str(tiny_dir), "--window", "8",
              "--max-new-tokens", "20"]
    assert run_cli(*common, "--threshold", "3.0", "--trace-out", str(a)).returncode == 0
    assert run_cli(*common, "--threshold", "none", "--trace-out", str(b)).returncode == 0
    same = run_cli("diff", str(a), str(a))
    assert same.returncode == 0 and "identical steps" in same.stdout
    diff = run_cli("diff", str(a), str(b))
    assert diff.returncode == 0 and "first divergence at step" in diff.stdout
    bad = run_cli("diff", str(a), str(tmp_path / "missing.json"))
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
