"""Device, dtype and attention implementation, chosen in one place.

CPU: float32 and SDPA. CUDA: bfloat16 (float32 for a model small enough that it costs nothing,
like the bundled one), and flash-attn 2 when a prebuilt flash_attn imports, else SDPA (PyTorch's own fused kernels; a decode step of a large model is bound by reading its
weights, not by attention). WEDLM_ATTN=kernels-community/flash-attn2 takes a prebuilt flash-attn
from the hub through the `kernels` package (requirements-gpu.txt) instead: no nvcc needed.
The decoders run the same math on every path; only the kernels differ.
"""
from __future__ import annotations

import importlib.util
import os
import time

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


# Below this many parameters "auto" keeps float32 on a GPU too: bf16 changes a small model's
# greedy outputs (the bundled one's, docs/bench/bench.md) and fp32 costs nothing at that size.
SMALL_MODEL_PARAMS = 100_000_000


def resolve_dtype(dtype: str | torch.dtype, device: torch.device,
                  parameters: int | None = None) -> torch.dtype:
    """`parameters`: the model's size, when known (`auto` keeps fp32 below SMALL_MODEL_PARAMS)."""
    if isinstance(dtype, torch.dtype):
        return dtype
    if dtype == "auto":
        if parameters is not None and parameters < SMALL_MODEL_PARAMS:
            return torch.float32
        # CPU stays float32 even where the CPU has native bf16 units (cpu_has_native_bf16): on
        # the bench's suite the bundled model's greedy outputs in bf16 do not all agree with fp32
        # (`wedlm bench --compare-dtype bfloat16`, docs/bench/bench.md), so bf16 is opt-in there.
        return torch.bfloat16 if device.type == "cuda" else torch.float32
    if dtype not in DTYPES:
        raise ValueError(f"unknown dtype {dtype!r} (use auto, {', '.join(sorted(DTYPES))})")
    return DTYPES[dtype]


def cpu_has_native_bf16() -> bool:
    """True when the CPU computes bf16 natively (avx512_bf16 or AMX); elsewhere PyTorch emulates
    bf16 and it runs slower than fp32. Linux only (reads /proc/cpuinfo); False when unknown."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            flags = next((line.split(":", 1)[1].split() for line in info if line.startswith("flags")), [])
    except OSError:
        return False
    return bool({"avx512_bf16", "amx_bf16"} & set(flags))


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
    """flash-attn 2, 3 or 4 from a package, or a flash-attn kernel from the hub (transformers
    5.23 runs them all through the same varlen wrapper, which takes no arbitrary mask)."""
    name = attn_implementation or ""
    return name.startswith("flash_attention_") or "flash-attn" in name or "flash_attn" in name


def loads_straight_to_device(device: torch.device) -> bool:
    """Whether a model is loaded onto the device directly (transformers' device_map, which
    needs the `accelerate` package) rather than on the CPU and then moved. CUDA only, and never
    on ZeroGPU (`spaces` moves the weights itself: SPACES_ZERO_GPU is its variable)."""
    if device.type != "cuda" or os.environ.get("SPACES_ZERO_GPU", "").strip().lower() in ("1", "t", "true", "yes", "on"):
        return False
    if importlib.util.find_spec("accelerate") is None:
        import warnings
        warnings.warn("`accelerate` is not installed: the model loads into host RAM first")
        return False
    return True


def resolve_attention(device: torch.device, dtype: torch.dtype) -> str:
    """'flash_attention_2' on CUDA in half precision when flash-attn is installed, else 'sdpa'.

    WEDLM_ATTN=sdpa|eager|flash_attention_2|3|4 (or a hub kernel) overrides the choice (for debugging a GPU path).
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


def explicit_mask_attention(attn_implementation: str) -> None:
    """Let a flash-attn model take an explicit 4-D mask (the reference decoder's) in a call.

    flash-attn takes no arbitrary mask, and switching the shared model's implementation around
    one forward races with any other decode on it. Instead, once, the name gets a dispatcher
    (in transformers' attention table, ahead of its own entry): given a 4-D mask it runs SDPA
    with that mask, otherwise whatever transformers registered under the name, as before.
    Nothing on the model changes; each call picks its kernel by what it passes.
    """
    if not is_flash_attention(attn_implementation):
        return
    from transformers.integrations.sdpa_attention import sdpa_attention_forward
    from transformers.modeling_utils import ALL_ATTENTION_FUNCTIONS

    table = ALL_ATTENTION_FUNCTIONS
    if getattr(table._local_mapping.get(attn_implementation), "takes_explicit_masks", False):
        return

    def flash_or_masked_sdpa(module, query, key, value, attention_mask, **kwargs):
        if isinstance(attention_mask, torch.Tensor) and attention_mask.dim() == 4:
            return sdpa_attention_forward(module, query, key, value, attention_mask, **kwargs)
        flash = table._global_mapping[attn_implementation]  # read now: a hub kernel may re-register
        return flash(module, query, key, value, attention_mask, **kwargs)

    flash_or_masked_sdpa.takes_explicit_masks = True
    table[attn_implementation] = flash_or_masked_sdpa  # this table's own entry, read first


def device_clock(device) -> float:
    """time.perf_counter() once the device's queued work is done: CUDA kernels run
    asynchronously, so an unsynchronised timer measures kernel launches, not the forward."""
    if torch.device(device).type == "cuda":
        torch.cuda.synchronize(device)
    return time.perf_counter()
