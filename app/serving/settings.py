"""What the server serves and what one request may cost, read once from the environment.

A Space runs `python app.py` with no arguments, so everything a deployment chooses is an
environment variable (README "Spaces", docs/spaces.md):
  WEDLM_MODEL       the WeDLM checkpoint: a hub id or a local folder (default: the bundled model)
  WEDLM_AR_MODEL    the AR baseline of the race and the suite (default: the bundled model's AR
                    parent when the bundled model is served, else the WeDLM model's own head)
  WEDLM_SPACE_MODE  1 = the tighter public limits below, 0 = the local ones (default: 1 when
                    Hugging Face's SPACE_ID is set, i.e. on a Space)
`--model` / `--ar-model` on the command line win over the variables.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

DECODERS = ("streaming", "block", "reference", "ar", "verified")  # verified: beyond the paper
TRUE = ("1", "t", "true", "yes", "on")


@dataclass(frozen=True)
class Limits:
    """The most one request may ask for. Validation (app/serving/context.py) enforces them; the header
    shows them; the GPU lease (app/serving/gpu.py) is sized from them."""
    max_new_tokens: int       # per decode
    max_window: int           # W and the block size
    decoders: tuple[str, ...]  # decoders a request may choose
    concurrency: int          # events that run forwards, at once, over the whole app
    queue_size: int           # waiting events; more get "queue full"
    upload_bytes: int         # an uploaded trace file
    decode_seconds: float     # wall-clock budget of one event's forwards (and its GPU lease)

    def check(self, max_new_tokens: int, window: int, decoders) -> None:
        """Refuse a request over these limits (ValidationError, shown as is). The one place
        they are enforced: gpu.Work.of calls it for every event that runs a forward."""
        from wedlm import ValidationError
        where = "on this public Space" if self != LOCAL else "on this server"
        if max_new_tokens > self.max_new_tokens:
            raise ValidationError(f"max_new_tokens is at most {self.max_new_tokens} {where}, got {max_new_tokens}")
        if window > self.max_window:
            raise ValidationError(f"window and block size are at most {self.max_window} {where}, got {window}")
        for decoder in decoders:
            if decoder not in self.decoders:
                raise ValidationError(f"unknown decoder {str(decoder)[:40]!r} {where} "
                                      f"(choose from {', '.join(self.decoders)})")


# On this machine: the local limits the app always had.
LOCAL = Limits(max_new_tokens=512, max_window=64, decoders=DECODERS, concurrency=2,
               queue_size=64, upload_bytes=5 * 1024 * 1024, decode_seconds=120.0)
# A public Space (free: 2 vCPU, 16 GB). One decode at a time: a decode already uses both
# cores, so a second one only halves the speed of each. 256 tokens is a full answer of the
# 8B chat model and about 2.5 s of the bundled model's slowest decode here (~100 tokens/s);
# W <= 32 keeps a forward under 1.4x an AR forward (docs/bench, forward cost). 60 s is
# ZeroGPU's default lease: a request never asks a visitor's quota for more. 2 MB holds the
# largest trace these limits produce (about 4 KB a step at W = 32, at most 288 steps). Every
# decoder stays: each costs at most max_new_tokens + W forwards.
SPACE = Limits(max_new_tokens=256, max_window=32, decoders=DECODERS, concurrency=1,
               queue_size=64, upload_bytes=2 * 1024 * 1024, decode_seconds=60.0)


def flag(name: str, env=os.environ) -> bool | None:
    """An on/off variable: True, False, or None when unset or empty."""
    value = env.get(name, "").strip().lower()
    return None if not value else value in TRUE


def on_zero_gpu(env=os.environ) -> bool:
    """True on a ZeroGPU Space (the `spaces` package reads the same variable)."""
    return bool(flag("SPACES_ZERO_GPU", env))


def space_mode(env=os.environ) -> bool:
    forced = flag("WEDLM_SPACE_MODE", env)
    return bool(env.get("SPACE_ID")) if forced is None else forced


def limits(env=os.environ) -> Limits:
    if not space_mode(env):
        return LOCAL
    if on_zero_gpu(env) or _cuda():  # each ZeroGPU call leases its own GPU; a dedicated GPU
        return Limits(**{**SPACE.__dict__, "concurrency": 2})  # is mostly idle at batch 1
    return SPACE


def _cuda() -> bool:
    import torch
    return torch.cuda.is_available()


def model_names(model: str | None = None, ar_model: str | None = None,
                env=os.environ) -> tuple[str | None, str | None]:
    """(WeDLM model, AR baseline) from the arguments, else the variables; None = the default."""
    return (model or env.get("WEDLM_MODEL") or None, ar_model or env.get("WEDLM_AR_MODEL") or None)
