"""Tiny random checkpoints written to temporary folders, in the layouts load_model must read."""
from __future__ import annotations

import json
from pathlib import Path

import torch

from wedlm.training.tokenizer import train_tokenizer

TOKENIZER_TEXTS = [
    "Count from 1 to 20: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20",
    "Question: Tom has 3 apples and buys 4 more. How many apples?\nAnswer: 3 + 4 = 7\n#### 7",
    "ROMEO:\nBut soft, what light through yonder window breaks?",
    "def add(a, b):\n    \"\"\"Return a + b.\"\"\"\n    return a + b\n",
] * 20


def write_tiny_checkpoint(folder: Path, layout: str = "qwen3", seed: int = 0,
                          logit_std: float = 4.0, vocab_size: int = 320,
                          max_positions: int = 512) -> Path:
    """Write tokenizer + random weights. layout: qwen3, qwen2, wedlm-qwen3, wedlm-qwen2."""
    from transformers import Qwen2Config, Qwen2ForCausalLM, Qwen3Config, Qwen3ForCausalLM

    folder = Path(folder)
    tok = train_tokenizer(TOKENIZER_TEXTS, vocab_size, folder)
    common = dict(vocab_size=len(tok), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                  num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=max_positions,
                  eos_token_id=tok.eos_token_id,
                  pad_token_id=tok.pad_token_id, tie_word_embeddings=False)
    torch.manual_seed(seed)
    if layout.endswith("qwen2"):
        model = Qwen2ForCausalLM(Qwen2Config(**common))
    else:
        model = Qwen3ForCausalLM(Qwen3Config(head_dim=8, **common))
    with torch.no_grad():  # sharper output distributions, so entropies spread across slots
        model.lm_head.weight.normal_(0.0, logit_std / common["hidden_size"] ** 0.5)
    model.save_pretrained(folder)
    config_file = folder / "config.json"
    config = json.loads(config_file.read_text())
    config["mask_token_id"] = tok.mask_token_id
    if layout.startswith("wedlm"):
        # What the released checkpoints say: a custom model type with remote code.
        config["model_type"] = "wedlm"
        config["architectures"] = ["WeDLMForCausalLM"]
        config["auto_map"] = {"AutoConfig": "configuration_wedlm.WeDLMConfig",
                              "AutoModelForCausalLM": "modeling_wedlm.WeDLMForCausalLM"}
        config["qk_norm"] = layout == "wedlm-qwen3"
        config["attention_bias"] = layout == "wedlm-qwen2"
    config_file.write_text(json.dumps(config, indent=1))
    return folder
