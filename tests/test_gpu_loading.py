"""Loading for a GPU, checked on the CPU: stop ids of a Qwen-style vocabulary, weights that must
all come from the checkpoint, where the weights are loaded, the dtype a small model keeps, and
the fallback when transformers refuses flash-attn."""
from types import SimpleNamespace

import pytest
import torch

from tiny import write_tiny_checkpoint


def qwen_style_tokenizer():
    """A tokenizer with Qwen's special tokens, eos = <|im_end|> as in the instruct checkpoints."""
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast
    vocab = {"<|endoftext|>": 0, "<|im_start|>": 1, "<|im_end|>": 2, "<|mask|>": 3, "hello": 4, "world": 5}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="<|endoftext|>"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    return PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>")


def test_a_qwen_style_vocabulary_stops_on_im_end_and_endoftext():
    from wedlm.loading import _resolve_stop_ids
    tokenizer = qwen_style_tokenizer()
    assert _resolve_stop_ids(SimpleNamespace(eos_token_id=2), tokenizer) == (2, 0)
    assert _resolve_stop_ids(SimpleNamespace(eos_token_id=[2, 0]), tokenizer) == (2, 0)
    assert _resolve_stop_ids(SimpleNamespace(eos_token_id=None), tokenizer) == (2, 0)


def test_a_weight_missing_from_the_checkpoint_fails_the_load(tmp_path):
    from safetensors.torch import load_file, save_file
    from wedlm import load_model
    from wedlm.loading import ModelLoadError
    folder = write_tiny_checkpoint(tmp_path, "wedlm-qwen3", seed=0)
    weights = load_file(folder / "model.safetensors")
    del weights["model.layers.1.mlp.up_proj.weight"]
    save_file(weights, folder / "model.safetensors", metadata={"format": "pt"})
    with pytest.raises(ModelLoadError, match="missing.*up_proj"):
        load_model(str(folder), device="cpu")


def test_flash_refused_by_transformers_falls_back_to_sdpa(tiny_dir, monkeypatch):
    """flash_attn imports, transformers refuses it (here: no flash-attn package at all): the app
    still starts, on SDPA; asked for by name, the refusal is the error."""
    from wedlm import loading
    monkeypatch.delenv("WEDLM_ATTN", raising=False)
    monkeypatch.setattr(loading, "resolve_attention", lambda device, dtype: "flash_attention_2")
    with pytest.warns(UserWarning, match="flash_attention_2 was refused"):
        lm = loading.load_model(str(tiny_dir), device="cpu")
    assert lm.attn_implementation == "sdpa" == lm.model.config._attn_implementation
    with pytest.raises(loading.ModelLoadError):
        loading.load_model(str(tiny_dir), device="cpu", attn_implementation="flash_attention_2")


def test_a_small_model_keeps_fp32_on_a_gpu():
    from wedlm.device import resolve_dtype
    cuda = torch.device("cuda")
    assert resolve_dtype("auto", cuda, 5_476_352) == torch.float32        # the bundled model
    assert resolve_dtype("auto", cuda, 8_190_000_000) == torch.bfloat16   # the released 8B
    assert resolve_dtype("auto", cuda) == torch.bfloat16                  # size unknown
    assert resolve_dtype("bfloat16", cuda, 5_476_352) == torch.bfloat16   # asked for by name
    assert resolve_dtype("auto", torch.device("cpu"), 8_190_000_000) == torch.float32


def test_parameters_are_estimated_from_the_config():
    import json
    from wedlm.loading import estimated_parameters
    from wedlm.paths import BUNDLED_MODEL
    estimate = estimated_parameters(json.loads((BUNDLED_MODEL / "config.json").read_text()))
    assert 5_476_352 * 0.9 < estimate < 5_476_352 * 1.2
    qwen3_8b = {"hidden_size": 4096, "num_hidden_layers": 36, "vocab_size": 151936,
                "intermediate_size": 12288, "num_attention_heads": 32, "num_key_value_heads": 8,
                "head_dim": 128}
    assert 8.1e9 < estimated_parameters(qwen3_8b) < 8.3e9  # 8.19 B
    assert estimated_parameters({"hidden_size": 8}) is None


def test_off_zerogpu_a_cuda_model_loads_straight_onto_the_gpu(monkeypatch):
    from wedlm import device
    monkeypatch.delenv("SPACES_ZERO_GPU", raising=False)
    cuda, cpu = torch.device("cuda"), torch.device("cpu")
    found = {"accelerate": object()}
    monkeypatch.setattr(device.importlib.util, "find_spec", lambda name: found.get(name))
    assert device.loads_straight_to_device(cuda) and not device.loads_straight_to_device(cpu)
    monkeypatch.setenv("SPACES_ZERO_GPU", "true")  # spaces moves the weights itself
    assert not device.loads_straight_to_device(cuda)
    monkeypatch.delenv("SPACES_ZERO_GPU")
    found.clear()  # no accelerate: load, then move (warned)
    with pytest.warns(UserWarning, match="accelerate"):
        assert not device.loads_straight_to_device(cuda)


def test_the_load_asks_transformers_for_the_device_when_it_loads_straight(tiny_dir, monkeypatch):
    import transformers
    from wedlm import loading
    asked = []
    real = transformers.Qwen3ForCausalLM.from_pretrained.__func__

    def spy(cls, *args, **kwargs):
        asked.append(kwargs.pop("device_map", None))
        return real(cls, *args, **kwargs)  # this CPU has no GPU to load onto
    monkeypatch.setattr(transformers.Qwen3ForCausalLM, "from_pretrained", classmethod(spy))
    monkeypatch.setattr(loading, "loads_straight_to_device", lambda device: True)
    loading.load_model(str(tiny_dir), device="cpu")
    monkeypatch.setattr(loading, "loads_straight_to_device", lambda device: False)
    loading.load_model(str(tiny_dir), device="cpu")
    assert asked == ["cpu", None]
