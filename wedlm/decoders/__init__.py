"""The decoders: streaming (WeDLM), reference (no cache), block (stop-and-wait), ar, and
verified (lossless drafts-and-verify, beyond the paper) with its no-cache oracle."""
from __future__ import annotations

from ..config import DecodeConfig, ValidationError
from ..loading import LoadedModel
from .ar import ARDecoder
from .block import BlockDecoder
from .core import Decoder
from .records import DecodeResult, FilledSlot, MaskSlot, StepRecord
from .reference import ReferenceDecoder
from .streaming import StreamingDecoder
from .verified import ReferenceVerifiedDecoder, VerifiedDecoder

DECODERS: dict[str, type[Decoder]] = {
    "streaming": StreamingDecoder,
    "reference": ReferenceDecoder,
    "block": BlockDecoder,
    "ar": ARDecoder,
    "verified": VerifiedDecoder,                      # beyond the paper: lossless (AR text)
    "reference-verified": ReferenceVerifiedDecoder,   # its no-cache oracle
}


def make_decoder(name: str, lm: LoadedModel, config: DecodeConfig | None = None) -> Decoder:
    if name not in DECODERS:
        raise ValidationError(f"unknown decoder {name!r} (choose from {', '.join(DECODERS)})")
    return DECODERS[name](lm, config)


__all__ = ["DECODERS", "make_decoder", "Decoder", "DecodeResult", "StepRecord", "MaskSlot",
           "FilledSlot", "StreamingDecoder", "ReferenceDecoder", "BlockDecoder", "ARDecoder",
           "VerifiedDecoder", "ReferenceVerifiedDecoder"]
