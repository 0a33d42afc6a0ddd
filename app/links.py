"""A link to any moment: the query string of a page URL -> what to show, checked like the form.

A link is untrusted input. Every value goes through the same checks as the Decode tab's form
(make_config, validate_prompt, Limits.check): a bad value is dropped with a worded notice and
its default is used; nothing here decodes. The links the page copies (app/static/stepper.js
wedlmStepper.copyLink) look like
  ?tab=decode&example=1-counting-streaming.json&step=4        a recorded example (no decode)
  ?tab=decode&prompt=...&decoder=streaming&window=16&threshold=0.4&...&step=7   a live prompt
  ?chapter=3&step=2                                           a tour chapter at a step
"""
from __future__ import annotations

from dataclasses import dataclass, field

from wedlm import ValidationError
from wedlm.config import DEFAULTS, validate_prompt

from . import i18n
from .serving.context import example_traces, make_config
from .serving.settings import Limits

TABS = ("tour", "decode", "race", "entropy", "lessons")
KNOBS = ("window", "threshold", "penalty", "temperature", "top_k", "top_p", "max_new_tokens", "seed",
         "block_size")
MAX_VALUE_CHARS = 40  # a knob's text (a number) never needs more


@dataclass
class Link:
    tab: str | None = None
    chapter: int | None = None
    step: int | None = None              # None: the view's own default step
    example: str | None = None           # a recorded trace's file name (one of example_traces())
    prompt: str | None = None            # a live prompt to decode once
    decoder: str = "streaming"
    knobs: dict = field(default_factory=dict)  # make_config's keyword arguments, each checked
    lang: str = "en"
    notices: list[str] = field(default_factory=list)

    @property
    def live(self) -> bool:
        return self.prompt is not None


def short(value) -> str:
    return repr(str(value)[:MAX_VALUE_CHARS])


def whole(params, name: str, notices: list[str], low: int, high: int | None = None,
          lang: str = i18n.DEFAULT) -> int | None:
    """A whole number in [low, high] from the link, else None and a notice (in `lang`)."""
    text = params.get(name)
    if text is None:
        return None
    try:
        n = int(str(text).strip()) if len(str(text)) <= MAX_VALUE_CHARS else None
    except ValueError:
        n = None
    if n is None or n < low or (high is not None and n > high):
        notices.append(i18n.text(lang, "link.bad_whole_from" if high is None else "link.bad_whole_range",
                                 name=name, low=low, high=high, value=short(text)))
        return None
    return n


def read(params, limits: Limits, prompt_chars: int, context_tokens: int | None = None,
         chapters: int = 9, lang: str = i18n.DEFAULT) -> Link:
    """The link in `params` (a mapping of query values), every value checked; never raises. The
    notices are worded in `lang`, the page's language (the checks' own messages stay English)."""
    tr = i18n.Texts(lang)
    listed = tr("link.separator").join
    params = {str(k): str(v) for k, v in dict(params or {}).items()}
    link = Link()
    notes = link.notices
    link.lang = i18n.lang_of(params.get("lang"))  # any other `lang` falls back to English, silently
    tab = params.get("tab")
    if tab is not None:
        if tab in TABS:
            link.tab = tab
        else:
            notes.append(tr("link.bad_tab", value=short(tab), tabs=listed(TABS)))
    link.chapter = whole(params, "chapter", notes, 1, chapters, lang)
    if link.chapter is not None and link.tab is None:
        link.tab = "tour"
    link.step = whole(params, "step", notes, 0, lang=lang)
    if link.tab != "decode":
        return link
    if "example" in params:
        name = params["example"]
        if name in example_traces():  # only a listed file name: never a path from the link
            link.example = name
        else:
            notes.append(tr("link.bad_example", value=short(name)))
        return link
    if "prompt" not in params:
        return link
    prompt = params["prompt"]
    try:
        if len(prompt) > prompt_chars:  # the prompt box's own max length
            raise ValidationError(tr("link.long_prompt", n=len(prompt), chars=prompt_chars))
        validate_prompt(prompt, context_tokens)
    except ValidationError as err:
        notes.append(tr("link.bad_prompt", error=err))
        return link
    decoder = params.get("decoder", DEFAULTS.get("decoder", "streaming"))
    if decoder not in limits.decoders:
        notes.append(tr("link.bad_decoder", value=short(decoder), decoders=listed(limits.decoders)))
        decoder = "streaming"
    knobs: dict = {}
    for name in KNOBS:  # each knob alone through the form's check: a bad one falls back alone
        if name not in params:
            continue
        value = params[name]
        try:
            if len(value) > MAX_VALUE_CHARS:
                raise ValidationError(tr("link.long_knob", name=name, n=len(value)))
            make_config(**{name: value})
            knobs[name] = value
        except Exception as err:  # make_config words every bad value (ValidationError or gr.Error)
            notes.append(tr("link.bad_knob", name=name, error=str(err)[:120]))
    if params.get("no_threshold") in ("1", "true"):
        knobs["no_threshold"] = True
    try:  # together: the knobs' joint rules and this server's limits (the Run button's checks)
        config = make_config(**knobs)
        limits.check(config.max_new_tokens, config.block_size if decoder == "block" else config.window,
                     [decoder])
    except Exception as err:
        notes.append(tr("link.bad_knobs", error=str(err)[:160]))
        knobs = {}
    link.prompt, link.decoder, link.knobs = prompt, decoder, knobs
    return link


def notice_html(link: Link, lang: str = i18n.DEFAULT) -> str:
    """The worded line a page shows for a link's dropped values (empty when all were fine)."""
    from html import escape
    if not link.notices:
        return ""
    items = "".join(f"<li>{escape(n)}</li>" for n in link.notices)
    title = escape(i18n.text(lang, "link.unused", notes="")).rstrip(":： ")
    return f'<div class="link-notice" role="status"><b>{title}:</b><ul>{items}</ul></div>'


def query(request) -> dict:
    """The page's query values of an event's gr.Request ({} without one, e.g. an API call)."""
    try:
        return dict(request.query_params) if request is not None and request.query_params is not None else {}
    except Exception:  # a gr.Request made outside a request has none
        return {}
