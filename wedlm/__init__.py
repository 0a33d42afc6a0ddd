"""WeDLM Explorer's library: load a model, decode with WeDLM or a baseline, record traces."""
from .config import DecodeConfig, ValidationError
from .decoders import DECODERS, make_decoder
from .loading import LoadedModel, ModelLoadError, load_model
from .trace import Trace, decode, decode_steps

__all__ = ["DecodeConfig", "ValidationError", "DECODERS", "make_decoder", "LoadedModel",
           "ModelLoadError", "load_model", "Trace", "decode", "decode_steps"]
