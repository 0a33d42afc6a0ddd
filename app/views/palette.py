"""The explorer's one visual language: a colour per token state, a colour per decoder and one
fixed entropy scale. CSS reads these through variables (css_variables), Plotly figures and the
exported HTML read them from here, so every view speaks the same colours."""
from __future__ import annotations

from html import escape

from .. import i18n

# Token states: colours, labels, edges and marks live in the library (wedlm/palette.py), which
# draws them too (wedlm/animate.py); one source.
from wedlm.palette import (STATE_COLOURS, STATE_EDGES, STATE_LABELS, STATE_MARKS,  # noqa: F401 (re-exported)
                           VERIFY_COLOURS, VERIFY_LABELS, VERIFY_MARKS)

# Decoders: the same colour in every lane, line and badge.
DECODER_COLOURS = {
    "ar": "#6b7280",          # grey
    "streaming": "#2563eb",   # blue
    "block": "#d97706",       # dark amber
    "reference": "#7c3aed",   # violet
    "verified": "#0f766e",    # dark teal (beyond the paper: lossless)
}
DECODER_COLOURS_FALLBACK = ["#0891b2", "#db2777", "#65a30d"]

THRESHOLD_COLOUR = "#dc2626"  # τ line and the current-step marker
PENALTY_COLOUR = "#94a3b8"    # the λ·d part of a score
ATTEND_COLOUR = "#2563eb"     # attention grid: row sees column
PREFIX_COLOUR = "#1e3a8a"     # attention grid: the cached prefix
NO_ATTEND_COLOUR = "#f3f4f6"
LATER_COLOUR = "#f97316"      # attention grid: a mask sees a filled token logically after it
BRANCH_COLOUR = "#db2777"     # a branched decode's line beside the decode it branched from
PACE_COLOUR = "#9ca3af"       # the dotted one-token-per-forward line
RIGHT_COLOUR = "#166534"      # right answers (the tour's τ sweep); its word is "dark green", so it is one (#16a34a read medium)

# One entropy scale everywhere (nats): 0 is green, ENTROPY_MAX and above red.
ENTROPY_MAX = 6.0
ENTROPY_STOPS = [(0.0, (26, 152, 80)), (0.5, (254, 224, 139)), (1.0, (215, 48, 39))]
ENTROPY_SCALE = [[x, "#%02x%02x%02x" % rgb] for x, rgb in ENTROPY_STOPS]  # Plotly colorscale


# Every colour a sentence may name, by role: narration and titles say colour_word(role), so a
# word on the page is always the colour of the thing it names (tests/test_tour.py checks it).
ROLE_COLOURS = {
    **{f"state-{k}": v for k, v in STATE_COLOURS.items()},
    **{f"decoder-{k}": v for k, v in DECODER_COLOURS.items()},
    **{f"verify-{k}": v for k, v in VERIFY_COLOURS.items()},
    "threshold": THRESHOLD_COLOUR, "penalty": PENALTY_COLOUR, "attend": ATTEND_COLOUR,
    "attend-prefix": PREFIX_COLOUR, "attend-later": LATER_COLOUR, "branch": BRANCH_COLOUR,
    "pace": PACE_COLOUR, "right": RIGHT_COLOUR,
}
COLOUR_WORDS = {  # hex -> the word for it (one word per hex, no two hexes share a word)
    "#d1d5db": "grey", "#fde68a": "yellow", "#fdba74": "orange", "#86efac": "green",
    "#c4b5fd": "violet", "#f3f4f6": "pale grey", "#6b7280": "dark grey", "#2563eb": "blue",
    "#d97706": "amber", "#7c3aed": "purple", "#dc2626": "red", "#94a3b8": "slate",
    "#1e3a8a": "navy", "#f97316": "bright orange", "#db2777": "pink", "#9ca3af": "light grey",
    "#166534": "dark green", "#047857": "emerald", "#b91c1c": "dark red", "#0369a1": "sky blue",
    "#0f766e": "teal", "#bbf7d0": "light green",
}


def colour_word(role: str, lang: str = i18n.DEFAULT) -> str:
    """The word a sentence uses for a role's colour ("orange" for state-new; in Chinese "橙色")."""
    word = COLOUR_WORDS[ROLE_COLOURS[role]]
    return word if lang == i18n.DEFAULT else i18n.text(lang, "views.colour." + word.replace(" ", "_"))


def state_label(state: str, lang: str = i18n.DEFAULT) -> str:
    """A token state's legend label (STATE_LABELS, the library's English) in `lang`."""
    return STATE_LABELS[state] if lang == i18n.DEFAULT else i18n.text(lang, "views.state." + state)


def verify_label(kind: str, lang: str = i18n.DEFAULT) -> str:
    """A verified check's legend label (VERIFY_LABELS) in `lang`."""
    return VERIFY_LABELS[kind] if lang == i18n.DEFAULT else i18n.text(lang, "views.verify." + kind)


def decoder_colour(name: str, index: int = 0) -> str:
    return DECODER_COLOURS.get(name, DECODER_COLOURS_FALLBACK[index % len(DECODER_COLOURS_FALLBACK)])


def entropy_colour(h: float | None) -> str:
    """The colour of entropy `h` (nats) on the fixed scale, lightened for text on top."""
    if h is None:
        return STATE_COLOURS["mask"]
    x = max(0.0, min(1.0, h / ENTROPY_MAX))
    for (x0, c0), (x1, c1) in zip(ENTROPY_STOPS, ENTROPY_STOPS[1:]):
        if x <= x1:
            t = (x - x0) / (x1 - x0)
            rgb = [a + (b - a) * t for a, b in zip(c0, c1)]
            break
    light = [round(255 - (255 - v) * 0.55) for v in rgb]  # 55 % strength: dark text stays readable
    return "#%02x%02x%02x" % tuple(light)


def nats_html(lang: str = i18n.DEFAULT) -> str:
    """The word "nats" with what it means on hover (the explorer's tabs have no glossary panel)."""
    return f'<abbr class="nats" title="{escape(i18n.text(lang, "views.nats_title"))}">{i18n.text(lang, "views.nats")}</abbr>'


def entropy_legend_html(lang: str = i18n.DEFAULT) -> str:
    """The scale's legend, shown beside every view coloured by entropy."""
    stops = ", ".join(f"{entropy_colour(ENTROPY_MAX * x)} {round(100 * x)}%" for x in (0, 0.25, 0.5, 0.75, 1))
    tr = i18n.Texts(lang)
    return (f'<div class="entropy-legend"><span>{tr("views.entropy_zero")}</span>'
            f'<span class="ramp" style="background:linear-gradient(to right, {stops})"></span>'
            f'<span>{tr("views.entropy_max", max=f"{ENTROPY_MAX:g}", nats=nats_html(lang))}</span></div>')


def css_variables() -> str:
    """:root variables the stylesheet uses (app/static/style.css), so CSS and figures share colours;
    and --wedlm-words, the scripts' words in every language (app/views/script_words.py)."""
    from .script_words import css as script_words_css  # here, not at the top: it is words, not colours
    lines = [f"--state-{k}: {v};" for k, v in STATE_COLOURS.items()]
    lines += [f"--decoder-{k}: {v};" for k, v in DECODER_COLOURS.items()]
    lines += [f"--verify-{k}: {v};" for k, v in VERIFY_COLOURS.items()]
    lines += [f"--attend: {ATTEND_COLOUR};", f"--attend-prefix: {PREFIX_COLOUR};",
              f"--attend-off: {NO_ATTEND_COLOUR};", f"--threshold: {THRESHOLD_COLOUR};",
              f"--attend-later: {LATER_COLOUR};"]
    return ":root {\n  " + "\n  ".join(lines) + "\n}\n" + script_words_css()
