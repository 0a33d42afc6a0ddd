"""Device, dtype and attention implementation, chosen in one place.

CPU: float32 and SDPA. CUDA: bfloat16, and flash-attn 2 when a prebuilt flash_attn imports,
else SDPA (PyTorch's own fused kernels; a decode step of a large model is bound by reading its
weights, not by attention). WEDLM_ATTN=kernels-community/flash-attn2 takes a prebuilt flash-attn
from the hub through the `kernels` package (requirements-gpu.txt) instead: no nvcc needed.
The decoders run the same math on every path; only the kernels differ.
"""
from __future__ import annotations

import importlib.util
import os

import torch

DTYPES = {"float32": torch.float32, "fp32": torch.float32, "bfloat16": torch.bfloat16,
          "bf16": torch.bfloat16, "float16": torch.float16, "fp16": torch.float16,
          "float64": torch.float64}


def resolve_device(device: str = "auto") -> torch.device:
    if device == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise ValueError("device 'cuda' was asked for but no CUDA GPU is available")
    if device != "cpu" and not device.startswith("cuda"):
        raise ValueError(f"unknown device {device!r} (use auto, cpu or cuda)")
    return torch.device(device)


def resolve_dtype(dtype: str | torch.dtype, device: torch.device) -> torch.dtype:
    if isinstance(dtype, torch.dtype):
        return dtype
    if dtype == "auto":
        return torch.bfloat16 if device.type == "cuda" else torch.float32
    if dtype not in DTYPES:
        raise ValueError(f"unknown dtype {dtype!r} (use auto, {', '.join(sorted(DTYPES))})")
    return DTYPES[dtype]


def flash_attn_available() -> bool:
    """True when flash_attn is installed and imports (a wheel built for another torch or CUDA
    fails to import: then SDPA is used)."""
    if importlib.util.find_spec("flash_attn") is None:
        return False
    try:
        import flash_attn  # noqa: F401
    except Exception:
        return False
    return True


def is_flash_attention(attn_implementation: str) -> bool:
    """flash-attn 2 from the package, or a flash-attn kernel from the hub (transformers runs
    both through the same varlen wrapper, which takes no arbitrary mask)."""
    return attn_implementation == "flash_attention_2" or "flash-attn" in attn_implementation


def resolve_attention(device: torch.device, dtype: torch.dtype) -> str:
    """'flash_attention_2' on CUDA in half precision when flash-attn is installed, else 'sdpa'.

    WEDLM_ATTN=sdpa|eager|flash_attention_2 overrides the choice (for debugging a GPU path).
    """
    forced = os.environ.get("WEDLM_ATTN")
    if forced:
        return forced
    if device.type == "cuda" and dtype in (torch.bfloat16, torch.float16) and flash_attn_available():
        return "flash_attention_2"
    return "sdpa"


def window_forward_kwargs(attn_implementation: str, cached: int, rows: int, device) -> dict:
    """Extra model kwargs for a window forward of `rows` queries over `cached` cached tokens.

    transformers' flash-attn path reads non-contiguous position ids (our reordered window) as
    packed sequences. Passing explicit varlen lengths (one sequence: rows queries, cached + rows
    keys) makes it run one causal, bottom-right aligned attention: exactly the physical causal
    mask. SDPA and eager need nothing: with a cache, transformers builds the causal mask itself.
    """
    if not is_flash_attention(attn_implementation):
        return {}
    cu_q = torch.tensor([0, rows], dtype=torch.int32, device=device)
    cu_k = torch.tensor([0, cached + rows], dtype=torch.int32, device=device)
    return {"cu_seq_lens_q": cu_q, "cu_seq_lens_k": cu_k,
            "max_length_q": rows, "max_length_k": cached + rows}
