"""Load a WeDLM (or AR) checkpoint in Hugging Face format into stock transformers classes.

Released WeDLM checkpoints say ``model_type: wedlm`` and ship remote code, but their weights are
plain Qwen-style decoders: Qwen3 layout (q/k-norm) or Qwen2.5 layout (qkv bias). We map the
config onto Qwen3Config / Qwen2Config and load without remote code.
"""
from __future__ import annotations

import json
import os
import warnings
from dataclasses import dataclass
from pathlib import Path

import torch

from .config import validate_prompt
from .device import (is_flash_attention, loads_straight_to_device, resolve_attention, resolve_device,
                     resolve_dtype)
from .paths import BUNDLED_MODEL

RELEASED_MASK_TOKEN_ID = 151665  # <|mask|> of the released WeDLM checkpoints
RELEASED_VOCAB_MIN = 151666
STOP_TOKENS = ("<|im_end|>", "<|endoftext|>")
CONFIG_KEYS_TO_DROP = ("auto_map", "architectures", "model_type", "transformers_version")


class ModelLoadError(ValueError):
    """A model could not be loaded; the message says why in one line."""


def model_label(name_or_path: str | os.PathLike) -> str:
    """How traces and pages name a model: a hub id as given, a local folder by its folder name
    (never the server's absolute path, which a public Space must not disclose)."""
    path = Path(name_or_path).expanduser()
    return path.resolve().name if path.exists() else str(name_or_path)


@dataclass
class LoadedModel:
    model: torch.nn.Module
    tokenizer: object
    name: str    # model_label(source): what traces record
    mask_token_id: int
    stop_ids: tuple[int, ...]
    device: torch.device
    dtype: torch.dtype
    attn_implementation: str
    source: str = ""  # what it was loaded from: a hub id or a local path (server-side only)

    @property
    def max_context(self) -> int:
        return int(getattr(self.model.config, "max_position_embeddings", 2048))

    @property
    def has_chat_template(self) -> bool:
        return bool(getattr(self.tokenizer, "chat_template", None))

    def encode(self, prompt: str, chat: bool | None = None) -> list[int]:
        """Token ids of a prompt; with chat (default: when the tokenizer has a template) the
        prompt becomes one user turn of the chat template, ready for the assistant's reply."""
        validate_prompt(prompt, self.max_context)  # refused on its length before tokenizing
        use_chat = self.has_chat_template if chat is None else chat
        if use_chat:
            if not self.has_chat_template:
                raise ModelLoadError(f"{self.name} has no chat template")
            messages = [{"role": "user", "content": prompt}]
            ids = self.tokenizer.apply_chat_template(messages, add_generation_prompt=True,
                                                     tokenize=True)
            if hasattr(ids, "keys"):  # some tokenizers return a BatchEncoding
                ids = ids["input_ids"]
            return [int(i) for i in ids]
        return [int(i) for i in self.tokenizer.encode(prompt, add_special_tokens=False)]

    def decode(self, ids) -> str:
        return self.tokenizer.decode([int(i) for i in ids], skip_special_tokens=False)

    def token_text(self, token_id: int) -> str:
        """How one token reads on its own (special tokens keep their names)."""
        if token_id == self.mask_token_id:
            return "[MASK]"
        return self.tokenizer.decode([int(token_id)], skip_special_tokens=False)


def _read_config(name_or_path: str) -> tuple[dict, str]:
    """The checkpoint's config.json and where the files are (a folder, or a hub id)."""
    path = Path(name_or_path).expanduser()
    if path.exists():
        if not path.is_dir():
            raise ModelLoadError(f"model path {name_or_path!r} is not a folder")
        config_file = path / "config.json"
        if not config_file.is_file():
            raise ModelLoadError(f"model folder {name_or_path!r} has no config.json")
        try:
            return json.loads(config_file.read_text()), str(path)
        except json.JSONDecodeError as err:
            raise ModelLoadError(f"config.json in {name_or_path!r} is not valid JSON: {err}") from None
    looks_like_hub_id = name_or_path.count("/") == 1 and not name_or_path.startswith((".", "/", "~"))
    if not looks_like_hub_id:
        raise ModelLoadError(f"model path {name_or_path!r} does not exist")
    try:
        from huggingface_hub import hf_hub_download
        config_file = hf_hub_download(name_or_path, "config.json")
    except Exception as err:  # offline, unknown repo, gated: all one message for the user
        raise ModelLoadError(
            f"cannot fetch model {name_or_path!r} from the Hugging Face hub "
            f"({type(err).__name__}); give a local folder or check the name and network") from None
    return json.loads(Path(config_file).read_text()), name_or_path


def wedlm_to_stock_config(raw: dict):
    """Map a `model_type: wedlm` config onto Qwen3Config (q/k-norm) or Qwen2Config (qkv bias)."""
    from transformers import Qwen2Config, Qwen3Config

    data = {k: v for k, v in raw.items() if k not in CONFIG_KEYS_TO_DROP}
    if data.pop("qk_norm", False):
        return Qwen3Config(**data), "Qwen3ForCausalLM"
    if data.get("attention_bias", True):  # WeDLMConfig's default is the Qwen2.5 layout
        data.pop("attention_bias", None)
        return Qwen2Config(**data), "Qwen2ForCausalLM"
    raise ModelLoadError("unsupported wedlm config: neither qk_norm (Qwen3 layout) "
                         "nor attention_bias (Qwen2.5 layout) is set")


def _resolve_mask_token_id(config, tokenizer, name: str) -> int:
    mask_id = getattr(config, "mask_token_id", None)
    if mask_id is None:
        mask_id = getattr(tokenizer, "mask_token_id", None)
    if mask_id is None and getattr(config, "vocab_size", 0) >= RELEASED_VOCAB_MIN:
        mask_id = RELEASED_MASK_TOKEN_ID
    if mask_id is None:
        raise ModelLoadError(f"{name}: no mask token (config mask_token_id, tokenizer mask "
                             "token) and the vocabulary is not the released WeDLM one")
    return int(mask_id)


def _resolve_stop_ids(config, tokenizer) -> tuple[int, ...]:
    ids: list[int] = []
    for source in (getattr(config, "eos_token_id", None), getattr(tokenizer, "eos_token_id", None)):
        for i in source if isinstance(source, (list, tuple)) else [source]:
            if i is not None and int(i) not in ids:
                ids.append(int(i))
    # Qwen-style vocabularies: a turn ends at <|im_end|>, a document at <|endoftext|>; the
    # official WeDLM example and web demo stop on both, whichever eos the config names
    vocab = tokenizer.get_vocab()
    for token in STOP_TOKENS:
        if token in vocab and int(vocab[token]) not in ids:
            ids.append(int(vocab[token]))
    return tuple(ids)


def load_model(name_or_path: str | os.PathLike | None = None, device: str = "auto",
               dtype: str | torch.dtype = "auto", attn_implementation: str | None = None) -> LoadedModel:
    """Load a checkpoint (local folder or hub id); None loads the bundled tiny WeDLM model."""
    import transformers
    from transformers import AutoTokenizer

    transformers.logging.set_verbosity_error()  # a wedlm config into Qwen classes is expected
    transformers.logging.disable_progress_bar()

    if name_or_path is None:
        if not BUNDLED_MODEL.is_dir():
            raise ModelLoadError(f"the bundled model is missing at {BUNDLED_MODEL}; pass --model")
        name_or_path = BUNDLED_MODEL
    name = str(name_or_path)
    raw, location = _read_config(name)
    try:
        torch_device = resolve_device(device)
        torch_dtype = resolve_dtype(dtype, torch_device, estimated_parameters(raw))
    except ValueError as err:
        raise ModelLoadError(str(err)) from None
    attn = attn_implementation or resolve_attention(torch_device, torch_dtype)

    try:
        try:
            model = _load_weights(raw, location, name, torch_dtype, attn, torch_device)
        except ModelLoadError:
            raise
        except Exception as err:
            if attn_implementation or os.environ.get("WEDLM_ATTN") or not is_flash_attention(attn):
                raise
            # flash_attn imports but transformers refuses it (its version, this GPU): SDPA
            # computes the same attention, so the app starts anyway
            warnings.warn(f"{attn} was refused ({type(err).__name__}: {str(err)[:200]}); using sdpa")
            attn = "sdpa"
            model = _load_weights(raw, location, name, torch_dtype, attn, torch_device)
        tokenizer = AutoTokenizer.from_pretrained(location, trust_remote_code=False)
    except ModelLoadError:
        raise
    except Exception as err:
        first_line = (str(err).strip().splitlines() or [type(err).__name__])[0]
        raise ModelLoadError(f"cannot load model {name!r}: {first_line[:300]}") from None
    model.eval()
    return LoadedModel(
        model=model, tokenizer=tokenizer, name=model_label(name), source=name,
        mask_token_id=_resolve_mask_token_id(model.config, tokenizer, name),
        stop_ids=_resolve_stop_ids(model.config, tokenizer),
        device=torch_device, dtype=torch_dtype, attn_implementation=attn)


def estimated_parameters(raw: dict) -> int | None:
    """About how many parameters a Qwen-style decoder config describes (embeddings, LM head,
    attention with grouped KV heads, MLP), or None when the config lacks the sizes."""
    try:
        h, layers, vocab = int(raw["hidden_size"]), int(raw["num_hidden_layers"]), int(raw["vocab_size"])
        inner = int(raw.get("intermediate_size", 4 * h))
        heads = int(raw.get("num_attention_heads", 1))
        head_dim = int(raw.get("head_dim") or h // heads)
        kv_heads = int(raw.get("num_key_value_heads") or heads)
    except (KeyError, TypeError, ValueError, ZeroDivisionError):
        return None
    attention = 2 * h * heads * head_dim + 2 * h * kv_heads * head_dim
    embeddings = vocab * h * (1 if raw.get("tie_word_embeddings", False) else 2)
    return embeddings + layers * (attention + 3 * h * inner)


def _load_weights(raw: dict, location: str, name: str, dtype: torch.dtype, attn: str,
                  device: torch.device):
    """The model on its device, every weight from the checkpoint (else ModelLoadError).

    Off ZeroGPU a CUDA model loads straight onto the GPU (device_map): loading into host RAM
    first would need the whole model there at once (16.4 GB for the 8B), more than a GPU
    Space's RAM. On ZeroGPU it must load on the CPU: `spaces` takes over `.to("cuda")` and
    moves the weights into each GPU worker itself.
    """
    import transformers
    from transformers import AutoConfig, AutoModelForCausalLM

    if raw.get("model_type") == "wedlm":
        config, class_name = wedlm_to_stock_config(raw)
        model_class = getattr(transformers, class_name)
    else:
        config = AutoConfig.from_pretrained(location, trust_remote_code=False)
        model_class = AutoModelForCausalLM
    placement = {"device_map": str(device)} if loads_straight_to_device(device) else {}
    model, info = model_class.from_pretrained(location, config=config, dtype=dtype,
                                              attn_implementation=attn, output_loading_info=True,
                                              **placement)
    # transformers fills a weight the checkpoint lacks with random values and only logs it
    missing = list(info.get("missing_keys", [])) + [str(k[0]) if isinstance(k, tuple) else str(k)
                                                    for k in info.get("mismatched_keys", [])]
    if missing:
        raise ModelLoadError(f"{name}: {len(missing)} weights are missing from the checkpoint or "
                             f"have the wrong shape (e.g. {', '.join(sorted(missing)[:3])})")
    return model if placement else model.to(device)
