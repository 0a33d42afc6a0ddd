"""One way to turn a bad input into words on the page: a gr.Error with the exception's own
message (a gr.Error already worded passes through; str() of one would quote it again)."""
from __future__ import annotations

from contextlib import contextmanager

import gradio as gr

from wedlm import ValidationError
from wedlm.loading import ModelLoadError

INPUT_ERRORS = (ValidationError, ModelLoadError, KeyError, TypeError, ValueError)


@contextmanager
def worded(prefix: str = "", kinds: tuple = INPUT_ERRORS):
    """with worded(): ...  raises gr.Error(prefix + message) for any of `kinds`."""
    try:
        yield
    except gr.Error:
        raise
    except kinds as err:
        message = err.args[0] if isinstance(err, KeyError) and err.args else str(err)
        raise gr.Error(f"{prefix}{message}") from None
