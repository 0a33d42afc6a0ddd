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


def load_tool(name: str):
    """A script of tools/ as a module (tests run from the repository's root)."""
    import importlib
    return importlib.import_module(f"tools.{name}")


def test_entropy_gap_pairs_the_frontier_mask_with_the_next_token_head_at_the_same_position(bundled):
    tool = load_tool("entropy_gap")
    prompt = "Count from 3 to 17:"
    cfg = DecodeConfig(max_new_tokens=64)
    pairs, tpf = tool.frontier_pairs(bundled, prompt, cfg)
    stream = decode(bundled, prompt, "streaming", cfg)
    assert tpf == stream.stats()["tokens_per_forward"] and 0 < len(pairs) <= len(stream.steps)
    # step 0's first mask sits right after the prompt: its partner is the head's prediction from
    # the prompt alone, which the AR decoder computes at prefill
    first_mask = next(m for m in stream.steps[0].masks if m.distance == 0)
    ar_first = decode(bundled, prompt, "ar", cfg).result.prefill_filled[0]
    assert pairs[0][0] == pytest.approx(first_mask.entropy, abs=1e-5)
    assert pairs[0][1] == pytest.approx(ar_first.entropy, abs=1e-4)
    assert all(mask < 0.4 and head < 0.4 for mask, head in pairs)  # counting: both heads are sure


def test_forced_decoder_given_the_greedy_output_replays_the_streaming_decode(bundled):
    """Teacher-forced on the model's own greedy output, every fill is the token greedy chose:
    the same steps, so the forced TPF is the real one (the ceiling tool's oracle)."""
    tool = load_tool("mask_ceiling")
    prompt = "Question: Ben has 3 boxes of 4 eggs. How many eggs?\nAnswer:"
    cfg = DecodeConfig(max_new_tokens=40)
    stream = decode(bundled, prompt, "streaming", cfg)
    forced = tool.ForcedStreamingDecoder(bundled, cfg, stream.token_ids)
    steps = list(forced.steps(bundled.encode(prompt)))
    assert forced.result.token_ids == stream.token_ids
    assert [[(f.pos, f.token) for f in s.filled] for s in steps] == \
        [[(f.pos, f.token) for f in s.filled] for s in stream.steps]
    # a different reference changes the tokens but never which slots the first step fills
    other = tool.ForcedStreamingDecoder(bundled, cfg, [7] * 40)
    first = next(iter(other.steps(bundled.encode(prompt))))
    assert [f.pos for f in first.filled] == [f.pos for f in stream.steps[0].filled]
    assert {f.token for f in first.filled} == {7}


def test_ceiling_entropies_at_the_first_position_are_the_first_steps(bundled):
    """Position 0's frontier and second mask are step 0's masks at distance 0 and 1 (a window
    of W masks after the prompt), and its head entropy is the AR decoder's prefill entropy."""
    tool = load_tool("mask_ceiling")
    prompt = "Count from 3 to 17:"
    cfg = DecodeConfig(max_new_tokens=16)
    prompt_ids = bundled.encode(prompt)
    head, first, second = tool.position_entropies(bundled, prompt_ids, [5, 6], cfg.window)[0]
    step0 = decode(bundled, prompt, "streaming", cfg).steps[0].masks
    assert first == pytest.approx(next(m.entropy for m in step0 if m.distance == 0), abs=1e-4)
    assert second == pytest.approx(next(m.entropy for m in step0 if m.distance == 1), abs=1e-4)
    assert head == pytest.approx(decode(bundled, prompt, "ar", cfg).result.prefill_filled[0].entropy, abs=1e-4)
