"""What a Chinese page may still show in Latin letters: token text (what the model reads and
writes), and names. `english_left(html)` lists every other run of 3+ Latin letters, so a test can
say "no English left" about any HTML a view draws, and `figure_words(fig)` gives a Plotly
figure's visible words (titles, axis titles, legend names, annotations, hover texts)."""
from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser

# names that stay as they are in every language (the brief's list, plus units and symbols)
NAMES = {"WeDLM", "AR", "KV", "RoPE", "Qwen", "Hugging", "Face", "Space", "Spaces", "ZeroGPU", "GPU", "CPU",
         "nats", "nat", "EOS", "English", "SVG", "PNG", "JSON", "CSV", "API", "TPF"}
# elements whose text is the model's (token text, a prompt, a decode's output)
MODEL_TEXT = {"tok", "tokt", "kv", "lanetext", "prompt", "cursor"}
VOID = {"br", "hr", "img", "input", "meta", "link", "wbr", "col", "area", "source", "track", "embed", "param"}
QUOTED_TOKEN = re.compile(r"‘[^’]*’")      # a token as the narration quotes it (words.tok)
LATIN = re.compile(r"[A-Za-z]{3,}")


class _Words(HTMLParser):
    """The visible text and the read attributes (title, aria-label, alt), model text left out."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.skipping = 0   # depth inside an element of model text

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        skip = (self.skipping or a.get("translate") == "no"
                or bool(MODEL_TEXT & set((a.get("class") or "").split())))
        if tag in VOID:
            return
        if skip:
            self.skipping += 1
        elif tag not in ("script", "style"):
            self.out += [a[k] for k in ("title", "aria-label", "alt") if a.get(k)]

    def handle_startendtag(self, tag, attrs):
        a = dict(attrs)
        if not self.skipping and a.get("translate") != "no":
            self.out += [a[k] for k in ("title", "aria-label", "alt") if a.get(k)]

    def handle_endtag(self, tag):
        if self.skipping and tag not in VOID:
            self.skipping -= 1

    def handle_data(self, data):
        if not self.skipping:
            self.out.append(data)


def visible_words(html: str) -> str:
    parser = _Words()
    parser.feed(html)
    parser.close()
    return " ".join(parser.out)


def english_left(html: str) -> list[str]:
    """Runs of 3+ Latin letters a reader of `html` sees that are not token text or names."""
    text = QUOTED_TOKEN.sub(" ", unescape(visible_words(html)))
    return [w for w in LATIN.findall(text) if w not in NAMES]


def figure_words(fig) -> str:
    """A Plotly figure's visible words: title, axis titles, legend names, annotations, hover
    templates (their %{placeholders} and <extra> boxes left out)."""
    lay = fig.layout
    words = [lay.title.text or ""]
    for axis in ("xaxis", "yaxis", "yaxis2"):
        ax = getattr(lay, axis, None)
        if ax is not None and ax.title is not None:
            words.append(ax.title.text or "")
    words += [a.text or "" for a in (lay.annotations or ())]
    for trace in fig.data:
        words.append(getattr(trace, "name", None) or "")
        if "text" in (getattr(trace, "mode", None) or ""):   # text drawn on the markers
            words += [str(t) for t in (trace.text or ())]
        hover = getattr(trace, "hovertemplate", None) or ""
        words.append(re.sub(r"%\{[^}]*\}|<extra>.*?</extra>", " ", hover))
    return " ".join(words)
