"""The shipped checkpoints and example traces, through the same code as everything else."""
import json
import os
import subprocess
import sys

import pytest
import torch

from wedlm import DecodeConfig, Trace, decode, load_model
from wedlm.paths import BUNDLED_AR_MODEL, BUNDLED_MODEL, TRACES_DIR


@pytest.fixture(scope="module")
def bundled():
    return load_model(device="cpu")


def test_bundled_models_are_complete_hf_folders():
    for folder in (BUNDLED_MODEL, BUNDLED_AR_MODEL):
        config = json.loads((folder / "config.json").read_text())
        assert config["mask_token_id"] >= 0
        assert (folder / "model.safetensors").stat().st_size < 40 * 1024 * 1024
        assert (folder / "tokenizer.json").is_file() and (folder / "README.md").is_file()


def test_streaming_matches_reference_on_the_bundled_model(bundled):
    for prompt in ("Count from 12 to 31:", "Question: Ben has 3 boxes of 4 eggs. How many eggs?\nAnswer:"):
        cfg = DecodeConfig(max_new_tokens=48)
        stream = decode(bundled, prompt, "streaming", cfg)
        ref = decode(bundled, prompt, "reference", cfg)
        assert stream.token_ids == ref.token_ids
        assert [[(f.pos, f.token) for f in s.filled] for s in stream.steps] == \
            [[(f.pos, f.token) for f in s.filled] for s in ref.steps]


def test_bundled_ar_parent_matches_generate():
    lm = load_model(str(BUNDLED_AR_MODEL), device="cpu")
    prompt_ids = lm.encode("ROMEO:\n")
    ours = decode(lm, "ROMEO:\n", "ar", DecodeConfig(max_new_tokens=40)).token_ids
    with torch.inference_mode():
        out = lm.model.generate(torch.tensor([prompt_ids]), max_new_tokens=40, do_sample=False,
                                eos_token_id=list(lm.stop_ids), pad_token_id=lm.tokenizer.pad_token_id)
    assert ours == out[0, len(prompt_ids):].tolist()


def test_cli_uses_the_bundled_model_by_default():
    proc = subprocess.run([sys.executable, "-m", "wedlm", "generate", "Count from 5 to 12:", "--json"],
                          capture_output=True, text=True, timeout=300, env={**os.environ, "HF_HUB_OFFLINE": "1"})
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["model"].endswith("wedlm-tiny")
    assert out["text"].startswith(" 5, 6, 7, 8")


def test_example_traces_load_and_replay():
    files = sorted(TRACES_DIR.glob("*.json"))
    assert files
    for f in files:
        trace = Trace.load(f)
        assert trace.steps and trace.result is not None
        assert trace.result.forwards == len(trace.steps)


def test_example_traces_match_the_bundled_model(bundled):
    """The shipped examples are what the shipped model decodes today (re-record them with
    tools/record_traces.py after retraining)."""
    for f in sorted(TRACES_DIR.glob("*.json")):
        trace = Trace.load(f)
        again = decode(bundled, trace.prompt, trace.decoder, DecodeConfig(**trace.config))
        assert again.token_ids == trace.token_ids, f.name
        assert again.prompt_ids == trace.prompt_ids, f.name
