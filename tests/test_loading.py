import json

import pytest
import torch
from safetensors.torch import load_file

from tiny import write_tiny_checkpoint
from wedlm import ModelLoadError, load_model
from wedlm.loading import RELEASED_MASK_TOKEN_ID


@pytest.mark.parametrize("layout,cls", [("wedlm-qwen3", "Qwen3ForCausalLM"),
                                        ("wedlm-qwen2", "Qwen2ForCausalLM")])
def test_wedlm_configs_load_into_stock_classes_with_their_weights(tmp_path, layout, cls):
    folder = write_tiny_checkpoint(tmp_path, layout, seed=3)
    assert json.loads((folder / "config.json").read_text())["model_type"] == "wedlm"
    lm = load_model(str(folder), device="cpu")
    assert type(lm.model).__name__ == cls
    saved = load_file(str(folder / "model.safetensors"))
    params = dict(lm.model.named_parameters())
    assert set(saved) <= set(params)  # every saved tensor found a home ...
    for name, tensor in saved.items():  # ... and was loaded, not re-initialised
        assert torch.equal(params[name].detach(), tensor), name
    if layout == "wedlm-qwen2":
        assert lm.model.model.layers[0].self_attn.q_proj.bias is not None
    else:
        assert hasattr(lm.model.model.layers[0].self_attn, "q_norm")
    assert lm.mask_token_id == lm.tokenizer.mask_token_id
    assert lm.stop_ids == (lm.tokenizer.eos_token_id,)
    assert lm.dtype == torch.float32 and lm.device.type == "cpu"


def test_mask_token_id_fallbacks(tmp_path):
    folder = write_tiny_checkpoint(tmp_path / "a", "wedlm-qwen3")
    config = json.loads((folder / "config.json").read_text())
    config["mask_token_id"] = 7
    (folder / "config.json").write_text(json.dumps(config))
    assert load_model(str(folder)).mask_token_id == 7           # config wins
    del config["mask_token_id"]
    (folder / "config.json").write_text(json.dumps(config))
    lm = load_model(str(folder))
    assert lm.mask_token_id == lm.tokenizer.mask_token_id       # then the tokenizer's mask


def test_released_vocabulary_falls_back_to_151665():
    from types import SimpleNamespace
    from wedlm.loading import _resolve_mask_token_id
    config = SimpleNamespace(vocab_size=151936)
    tokenizer = SimpleNamespace(mask_token_id=None)
    assert _resolve_mask_token_id(config, tokenizer, "x") == RELEASED_MASK_TOKEN_ID
    with pytest.raises(ModelLoadError, match="no mask token"):
        _resolve_mask_token_id(SimpleNamespace(vocab_size=500), tokenizer, "x")


def test_chat_template_and_im_end_stop(tmp_path):
    folder = write_tiny_checkpoint(tmp_path, "wedlm-qwen3")
    tok_cfg_file = folder / "tokenizer_config.json"
    tok_cfg = json.loads(tok_cfg_file.read_text())
    tok_cfg["chat_template"] = ("{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}"
                                "<|im_end|>\n{% endfor %}{% if add_generation_prompt %}"
                                "<|im_start|>assistant\n{% endif %}")
    tok_cfg_file.write_text(json.dumps(tok_cfg))
    lm = load_model(str(folder))
    assert lm.has_chat_template
    ids = lm.encode("hello", chat=True)
    assert lm.decode(ids).endswith("assistant\n")
    assert lm.decode(lm.encode("hello", chat=False)) == "hello"
    assert lm.encode("hello") == ids  # the default uses the template when there is one


def test_stop_ids_include_im_end_when_in_vocab(tmp_path):
    from wedlm.loading import _resolve_stop_ids
    from types import SimpleNamespace

    class Tok:
        eos_token_id = 5
        def get_vocab(self):
            return {"<|im_end|>": 9}
        def convert_tokens_to_ids(self, token):
            return 9
    assert _resolve_stop_ids(SimpleNamespace(eos_token_id=[5, 6]), Tok()) == (5, 6, 9)


def test_clear_errors_for_bad_checkpoints(tmp_path):
    with pytest.raises(ModelLoadError, match="does not exist"):
        load_model(str(tmp_path / "missing"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(ModelLoadError, match="no config.json"):
        load_model(str(tmp_path / "empty"))
    folder = write_tiny_checkpoint(tmp_path / "noweights", "qwen3")
    (folder / "model.safetensors").unlink()
    with pytest.raises(ModelLoadError, match="cannot load model"):
        load_model(str(folder))
    folder = write_tiny_checkpoint(tmp_path / "corrupt", "qwen3")
    (folder / "model.safetensors").write_bytes(b"\x00garbage" * 10)
    with pytest.raises(ModelLoadError, match="cannot load model"):
        load_model(str(folder))
    folder = write_tiny_checkpoint(tmp_path / "badjson", "qwen3")
    (folder / "config.json").write_text("{not json")
    with pytest.raises(ModelLoadError, match="not valid JSON"):
        load_model(str(folder))
    with pytest.raises(ModelLoadError, match="hub"):
        load_model("nobody/not-a-real-model")  # HF_HUB_OFFLINE=1 in tests
