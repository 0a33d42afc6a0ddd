"""The entropy lens: a text coloured by entropy, grouped by the forwards that would commit it.

The work is wedlm.analysis (a forced streaming decode and the masks' entropy table); this module
turns a Lens into HTML. Every piece of text is escaped here.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from html import escape

from wedlm.analysis import MAX_TEXT_CHARS, MAX_TEXT_TOKENS, Lens, check_text, lens_at, lens_steps, regroup

from .. import i18n
from . import glyphs
from .palette import ENTROPY_MAX as ENTROPY_SCALE_MAX, entropy_colour, nats_html  # the one fixed entropy scale


# The English texts; the catalog (app/i18n/views.py) holds every language: colour_by_labels(lang),
# limits_note(lang), view_html(..., lang=lang)
COLOUR_BY = {i18n.text(i18n.DEFAULT, f"views.lens.by_{key}"): key for key in ("fill", "frontier", "head")}
EXACT_NOTE = i18n.text(i18n.DEFAULT, "views.lens.note_table")
RERUN_NOTE = i18n.text(i18n.DEFAULT, "views.lens.note_rerun")
DECODE_NOTE = i18n.text(i18n.DEFAULT, "views.lens.note_decode")


def colour_by_labels(lang: str = i18n.DEFAULT) -> dict[str, str]:
    """COLOUR_BY in `lang`: the radio's label -> the lens's colouring ("fill", "frontier", "head")."""
    return {i18n.text(lang, f"views.lens.by_{key}"): key for key in COLOUR_BY.values()}


def limits_note(lang: str = i18n.DEFAULT) -> str:
    """LIMITS_NOTE in `lang`."""
    return i18n.text(lang, "views.lens.limits", chars=MAX_TEXT_CHARS, tokens=MAX_TEXT_TOKENS)


@dataclass
class LensView:
    """What a lens panel keeps between events: the analysis and each token's text."""
    prompt: str
    lens: Lens
    texts: list[str]       # per forced token (the stop token last when lens.stop)


def compute(lm, prompt: str, text: str, config, time_limit_s: float | None = None) -> LensView:
    """Check the input's size before tokenizing, then run the lens (runs forwards: call it
    through app/serving/gpu.py, with the work's time limit)."""
    for view in compute_steps(lm, prompt, text, config, time_limit_s):
        pass
    return view


def compute_steps(lm, prompt: str, text: str, config, time_limit_s: float | None = None):
    """compute() one forward at a time: None after every forward, then the LensView (a
    generator for gpu.stream_on_gpu: closing it stops the work at its next forward)."""
    check_text(prompt, text)
    prompt_ids = lm.encode(prompt)
    text_ids = lm.tokenizer.encode(text, add_special_tokens=False)
    for result in lens_steps(lm, prompt_ids, text_ids, config, time_limit_s=time_limit_s):
        if result is None:
            yield None
    yield LensView(prompt, result, [lm.token_text(t) for t in result.token_ids])


def regrouped(view: LensView, threshold, penalty) -> LensView | None:
    """The same text at another τ and λ from the recorded entropies, no model; None where
    that is not exact (then `rerun`)."""
    grouping = regroup(view.lens.table, view.lens.window, threshold, penalty, view.lens.past_end)
    if grouping is None:
        return None
    return LensView(view.prompt, replace(view.lens, grouping=grouping), view.texts)


def rerun(lm, view: LensView, threshold, penalty, time_limit_s: float | None = None) -> LensView:
    """The same text at another τ and λ by a new forced decode (runs forwards)."""
    return LensView(view.prompt, lens_at(lm, view.lens, threshold, penalty, time_limit_s), view.texts)


def _shown(text: str, is_stop: bool) -> str:
    if is_stop:
        return "&lt;EOS&gt;"
    shown = glyphs.visible(text)
    return escape(shown) if shown else "∅"


def legend_html(lang: str = i18n.DEFAULT) -> str:
    stops = ", ".join(entropy_colour(ENTROPY_SCALE_MAX * x) for x in (0, 0.25, 0.5, 0.75, 1))
    tr = i18n.Texts(lang)
    return (f'<div class="lens-legend"><span>{tr("views.entropy_zero")}</span><span class="ramp" '
            f'style="background:linear-gradient(to right, {stops})"></span>'
            f'<span>{tr("views.entropy_max", max=f"{ENTROPY_SCALE_MAX:g}", nats=nats_html(lang))}</span>'
            f'<span class="lgroup sample">{tr("views.lens.box")}</span></div>')


def view_html(view: LensView | None, colour_by: str = "fill", title: str = "", lang: str = i18n.DEFAULT) -> str:
    if view is None:
        return ""
    lz, g = view.lens, view.lens.grouping
    values = {"fill": g.fill_entropy, "frontier": lz.frontier, "head": lz.head}[colour_by]
    n = len(lz.token_ids)
    tr = i18n.Texts(lang)
    groups = []
    for members in g.groups():
        cells = []
        for k in members:
            is_stop = lz.stop and k == n - 1
            tip = tr("views.lens.tip", k=k, token=repr(view.texts[k]), fill=g.fill_step[k], commit=g.commit_step[k],
                     entropy=f"{g.fill_entropy[k]:.2f}", frontier=f"{lz.frontier[k]:.2f}", head=f"{lz.head[k]:.2f}")
            cells.append(f'<span class="tok{" special" if is_stop else ""}" '
                         f'style="background:{entropy_colour(values[k])}" title="{escape(tip)}">'
                         f'{_shown(view.texts[k], is_stop)}</span>')
        groups.append(f'<span class="lgroup" data-size="{len(members)}">{"".join(cells)}</span>')
    tau = tr("views.none") if g.threshold is None else f"{g.threshold:g}"
    longest = max(len(m) for m in g.groups())
    note = tr(f"views.lens.note_{g.source}")
    head = (f'<div class="lens-head"><b>{escape(title)}</b> '
            + tr("views.lens.head", n=n, forwards=g.forwards, tpf=f"{g.tokens_per_forward:.2f}", tau=tau,
                 penalty=f"{g.penalty:g}", longest=longest, mean=f"{lz.mean_fill_entropy():.2f}") + '</div>')
    return (f'<div class="lens" data-tpf="{g.tokens_per_forward:.4f}" data-longest="{longest}">{head}'
            f'<div class="prompt" title="{tr("views.prompt")}">{escape(view.prompt)}</div>'
            f'<div class="tokens">{"".join(groups)}</div><div class="note">{escape(note)}</div></div>')


LIMITS_NOTE = limits_note()  # English
