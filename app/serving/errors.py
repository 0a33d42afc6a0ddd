"""One way to turn a bad input into words on the page: a gr.Error with the exception's own
message (a gr.Error already worded passes through; str() of one would quote it again).

The library words its ValidationErrors in English; a page in another language frames them in its
own words ("出错了：…", catalog id error.framed): `worded(..., lang=)` inside a handler, and
`in_language(handler, lang)` around a whole event handler, so that every refusal an event raises
(a knob's check, a server limit, a missing trace) reads in the page's frame. English: unchanged."""
from __future__ import annotations

import functools
import inspect
from contextlib import contextmanager

import gradio as gr

from wedlm import ValidationError
from wedlm.loading import ModelLoadError

from .. import i18n

INPUT_ERRORS = (ValidationError, ModelLoadError, KeyError, TypeError, ValueError)


def framed(message: str, lang: str = i18n.DEFAULT) -> str:
    """`message` in the page's frame (English: as is; a message already framed stays so)."""
    if lang == i18n.DEFAULT:
        return message
    frame = i18n.text(lang, "error.framed", message="")
    return message if message.startswith(frame) else i18n.text(lang, "error.framed", message=message)


def catalog_error(key: str, lang: str = i18n.DEFAULT, **values) -> gr.Error:
    """A gr.Error worded from the catalog (message `key`, title `key_title`), raised where the
    page's language is not known: it remembers its words, so `reframed` rewords it whole in
    the page's language instead of framing the English."""
    err = gr.Error(i18n.text(lang, key, **values), title=i18n.text(lang, f"{key}_title"))
    err.catalog = (key, values)
    return err


def reframed(err: gr.Error, lang: str) -> gr.Error:
    """The same gr.Error (title, duration, visibility) with its message in the page's frame
    (a catalog-worded error: its own words in the page's language)."""
    if lang == i18n.DEFAULT:
        return err
    if getattr(err, "catalog", None):
        key, values = err.catalog
        return catalog_error(key, lang, **values)
    again = gr.Error(framed(str(err.message), lang), duration=err.duration, visible=err.visible,
                     title=err.title, print_exception=getattr(err, "print_exception", True))
    return again


@contextmanager
def worded(prefix: str = "", kinds: tuple = INPUT_ERRORS, lang: str = i18n.DEFAULT):
    """with worded(): ...  raises gr.Error(prefix + message) for any of `kinds` (in the page's
    frame for another language than English)."""
    try:
        yield
    except gr.Error as err:
        if lang == i18n.DEFAULT:
            raise
        raise reframed(err, lang) from None
    except kinds as err:
        message = err.args[0] if isinstance(err, KeyError) and err.args else str(err)
        raise gr.Error(framed(f"{prefix}{message}", lang)) from None


def in_language(fn, lang: str = i18n.DEFAULT):
    """An event handler whose gr.Errors read in the page's frame. English: `fn` itself. Gradio
    reads the wrapper's signature and type hints through functools.wraps (__wrapped__), and
    streams it when `fn` is a generator function."""
    if lang == i18n.DEFAULT:
        return fn
    if inspect.isgeneratorfunction(fn) or inspect.isgeneratorfunction(getattr(fn, "func", None)):
        @functools.wraps(fn)
        def stream(*args, **kwargs):
            with worded(kinds=(), lang=lang):
                yield from fn(*args, **kwargs)
        return stream

    @functools.wraps(fn)
    def call(*args, **kwargs):
        with worded(kinds=(), lang=lang):
            return fn(*args, **kwargs)
    return call
