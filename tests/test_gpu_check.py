"""tools/gpu_check.py, the first GPU run's check, run in CI on the CPU through the same code, so
the first GPU run is not its first run."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "HF_HUB_OFFLINE": "1", "GRADIO_ANALYTICS_ENABLED": "False"}


def gpu_check_cli(*args: str, timeout: int = 1800) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tools.gpu_check", *args], capture_output=True,
                          text=True, timeout=timeout, cwd=ROOT, env=ENV)


def test_the_check_runs_on_the_bundled_model_and_reports_both_dtypes():
    """The Done-when command, as CI runs it."""
    proc = gpu_check_cli("assets/models/wedlm-tiny", "--device", "cpu", "--limit", "3")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    out = proc.stdout
    fp32, bf16 = out.index("## float32"), out.index("## bfloat16")
    assert fp32 < bf16  # the device's dtype first, each report printed when done
    assert out[fp32:bf16].split("\n\n")[1].splitlines()[2].startswith("| 3/3 |")  # fp32: the oracle
    for section in (out[fp32:bf16], out[bf16:]):
        assert "streaming ≡ reference" in section and "— ok" in section.splitlines()[0]
        assert "max abs Δlogit" in section and "margin abs(H − τ)" in section and "top-two gap" in section
        assert len([line for line in section.splitlines() if line.startswith("| count")]) >= 2
    assert "float32 vs bfloat16 (streaming)" in out


def test_limit_zero_exits_cleanly_and_a_negative_limit_is_refused():
    proc = gpu_check_cli("assets/models/wedlm-tiny", "--device", "cpu", "--limit", "0", timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "no prompts to check" in proc.stdout and "Traceback" not in proc.stderr
    refused = gpu_check_cli("assets/models/wedlm-tiny", "--device", "cpu", "--limit", "-1", timeout=300)
    assert refused.returncode == 2 and "must be 0 or more" in refused.stderr


def jsonl(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def test_a_real_difference_between_the_paths_fails_the_check(tiny_dir, capsys, monkeypatch):
    """A reference whose logits really differ (here: one token pushed up at every mask slot)
    diverges with |Δlogit| far beyond 1e-3: FAIL in fp32; rounding-sized differences do not."""
    from tools import gpu_check
    from wedlm.decoders import reference
    argv = [str(tiny_dir), "--device", "cpu", "--limit", "2", "--max-new-tokens", "8", "--json"]
    assert gpu_check.main(argv) == 0
    lines = jsonl(capsys.readouterr().out)
    fp32, bf16 = lines[0]["run"], lines[1]["run"]
    assert (fp32["dtype"], bf16["dtype"]) == ("float32", "bfloat16")
    assert fp32["streaming_equals_reference"] == fp32["prompts"] == 2 and not fp32["failed"]
    assert all(0 <= r["max_delta"] <= gpu_check.FAIL_DELTA for r in fp32["rows"])
    assert "ar_tokens_per_s" in fp32["rows"][0] and "ar_tokens_per_s" not in bf16["rows"][0]
    assert 0.0 <= lines[2]["dtype_agreement"]["token_agreement"] <= 1.0

    real = reference.RecomputeForward.forward

    def skewed(self, window, order, start):
        logits, rows = real(self, window, order, start)
        logits = logits.clone()
        logits[:, 7] += 30.0
        return logits, rows
    monkeypatch.setattr(reference.RecomputeForward, "forward", skewed)
    assert gpu_check.main(argv[:-1] + ["--no-compare"]) == 1
    out = capsys.readouterr().out
    assert "— FAIL" in out and "| FAIL |" in out and "differs from the reference" in out


def test_verdicts_weigh_the_difference_against_the_tolerance():
    from tools.gpu_check import verdict
    row = {"same_as_reference": False, "max_delta": 5e-4}
    assert verdict({"dtype": "float32"}, row) == "rounding"
    assert verdict({"dtype": "float32"}, {**row, "max_delta": 2e-3}) == "FAIL"
    assert verdict({"dtype": "float32"}, {**row, "max_delta": float("inf")}) == "FAIL"
    assert verdict({"dtype": "bfloat16"}, {**row, "max_delta": 0.2}) == "rounding"  # reported only
    assert verdict({"dtype": "float32"}, {**row, "same_as_reference": True, "max_delta": 1e-5}) == "same"


def test_decision_margins_measure_the_closest_call(tiny_lm):
    from tools.gpu_check import decision_margins
    from wedlm import DecodeConfig, decode
    config = DecodeConfig(window=4, max_new_tokens=8, threshold=1.0, penalty=0.0)
    trace = decode(tiny_lm, "Count from 1 to 9:", "streaming", config)
    step = trace.steps[0]
    # two mask slots: entropies ln 2 (two tied tokens) and ln 4
    logits = torch.full((4, 6), -1e9)
    logits[0, :2] = 0.0
    logits[1, :4] = 0.0
    logits[2:, :] = 0.0
    chosen = {step.start}
    margins = decision_margins(trace, 0, logits, chosen, config)
    h = [0.6931, 1.3863, 1.7918, 1.7918]
    assert margins["threshold"] == pytest.approx(min(abs(x - 1.0) for x in h), abs=1e-3)
    assert margins["top_two"] == pytest.approx(0.0)  # the filled slot's two best tied


def test_fp32_is_skipped_when_the_gpu_cannot_hold_it(tiny_dir, capsys, monkeypatch):
    from tools import gpu_check
    assert not gpu_check.fits_in_memory(8_190_000_000, torch.float32, 24e9)  # 32.8 GB on a 24 GB card
    assert gpu_check.fits_in_memory(8_190_000_000, torch.bfloat16, 24e9)
    monkeypatch.setattr(gpu_check, "free_device_bytes", lambda device: 1e6)
    argv = [str(tiny_dir), "--device", "cpu", "--limit", "1", "--max-new-tokens", "4"]
    assert gpu_check.main(argv) == 0
    out = capsys.readouterr().out
    assert "## float32" in out and "## bfloat16: skipped" in out and "do not fit" in out
