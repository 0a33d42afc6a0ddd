"""English left on a page that should be Chinese: english_left(html) lists the runs of three or
more Latin letters a visitor would read (text, titles, aria-labels, SVG <title>s) that are not
token text or a name. Shared by the i18n tests (tests/test_i18n_views.py; the /zh page walk).

What is not checked, because it is not translated: token elements (the canvas's tokens, the
window's slots, the KV strip, the attention grid's row labels, the prompt and output boxes, the
race lanes' text, <code>), anything quoted ('tok', "tok", “tok”: how sentences and tooltips quote
a token), <style>/<script> and the hidden drawn bundle, and NAMES (plus the caller's `names`,
e.g. a model's name)."""
from __future__ import annotations

import re
from html.parser import HTMLParser

NAMES = ("WeDLM", "AR", "KV", "RoPE", "Qwen", "Hugging Face", "p_cache", "EOS", "JSON", "MB", "Home", "End",
         "Esc", "PageUp", "PageDown", "Shift", "x0", "xt", "Spaces", "ZeroGPU", "GPU", "CPU",
         "arXiv", "Liu")   # the paper: its site and first author
SKIP_CLASSES = {"tokt", "kv", "rowt", "prompt", "outbox", "lanetext", "wedlm-steps", "link-url"}
SKIP_TAGS = {"style", "script", "code"}
VOID = {"input", "br", "img", "meta", "link", "hr", "area", "base", "col", "embed", "source", "track", "wbr"}
READ_ATTRS = ("title", "aria-label", "placeholder", "alt")
QUOTED = re.compile(r"'(?:[^'\\\n]|\\.)*'|\"[^\"\n]*\"|“[^”]*”|「[^」]*」")


class _Visible(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[bool] = []   # per open element: is it skipped?
        self.texts: list[str] = []

    def _skipping(self) -> bool:
        return any(self.stack)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in READ_ATTRS:
            if attrs.get(name):
                self.texts.append(attrs[name])
        classes = set((attrs.get("class") or "").split())
        skip = (tag in SKIP_TAGS or bool(classes & SKIP_CLASSES)
                or ("tok" in classes and "legend" not in classes))
        if tag not in VOID:
            self.stack.append(skip)

    def handle_startendtag(self, tag, attrs):
        for name in READ_ATTRS:
            value = dict(attrs).get(name)
            if value:
                self.texts.append(value)

    def handle_endtag(self, tag):
        if tag not in VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        if not self._skipping():
            self.texts.append(data)


def visible_text(html: str) -> str:
    """The words of `html` a visitor reads, token elements left out (one line per piece)."""
    parser = _Visible()
    parser.feed(html)
    parser.close()
    return "\n".join(parser.texts)


def english_left(html: str, names=(), plain: bool = False) -> list[str]:
    """Runs of ≥3 ASCII letters left in the readable text of `html` (plain=True: `html` is plain
    text already, e.g. a narration sentence or a tooltip), after quoted tokens and names."""
    text = html if plain else visible_text(html)
    text = QUOTED.sub(" ", text)
    for name in sorted((*NAMES, *names), key=len, reverse=True):
        text = re.sub(r"(?<![A-Za-z])" + re.escape(name) + r"(?![A-Za-z])", " ", text)
    return re.findall(r"[A-Za-z]{3,}", text)


def figure_words(fig) -> str:
    """A Plotly figure's visible words: title, axis titles, legend names, annotations, hover
    templates (their %{placeholders} and <extra> boxes left out). (From branch i18n-tourB.)"""
    lay = fig.layout
    words = [lay.title.text or ""]
    for axis in ("xaxis", "yaxis", "yaxis2"):
        ax = getattr(lay, axis, None)
        if ax is not None and ax.title is not None:
            words.append(ax.title.text or "")
    words += [a.text or "" for a in (lay.annotations or ())]
    for trace in fig.data:
        if getattr(trace, "showlegend", None) is not False:   # a name the legend shows
            words.append(getattr(trace, "name", None) or "")
        if "text" in (getattr(trace, "mode", None) or ""):   # text drawn on the markers
            words += [str(t) for t in (trace.text or ())]
        hover = getattr(trace, "hovertemplate", None) or ""
        words.append(re.sub(r"%\{[^}]*\}|<extra>.*?</extra>", " ", hover))
    return " ".join(words)
