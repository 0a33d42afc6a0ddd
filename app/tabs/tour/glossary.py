"""The tour's glossary: every term a chapter uses, defined once. A chapter links a term where it
first uses it (words.term); the glossary panel opens from the tour's nav in every chapter."""
from __future__ import annotations

from html import escape

from ... import i18n

# key -> (the term as the glossary heads it, its definition as plain text)
TERMS = {
    "forward": ("forward pass", "One run of the network over the rows it is given. Decoding speed is "
                "counted in forwards: AR makes one token per forward, WeDLM can make several."),
    "kv-cache": ("KV cache", "The keys and values (KV) each attention layer computed for earlier tokens, "
                 "kept so the next forward does not recompute them. A token's KV can be kept only if it "
                 "was computed exactly as an AR pass would."),
    "position-id": ("position id / RoPE", "The number a token carries for its place in the text. RoPE "
                    "(rotary position embedding) is how the model reads it: attention sees position ids, "
                    "not where a row sits in the tensor, so rows can be reordered without changing what "
                    "the model computes."),
    "mask": ("mask [M]", "A placeholder slot whose token is not known yet. WeDLM appends a window of masks "
             "after the text; one forward predicts a token for every mask."),
    "entropy": ("entropy (nats)", "How unsure a prediction is: 0 nats = certain; ln 2 ≈ 0.69 nats = a coin "
                "flip between two tokens; higher = more spread out."),
    "tau": ("τ (threshold)", "A mask is filled when its score is under τ. Larger τ fills more masks per "
            "forward (faster) but accepts less certain tokens (more mistakes)."),
    "lambda": ("λ (distance penalty)", "Added to a mask's score per slot of distance from the first open "
               "mask: score = entropy + λ·d. It pulls fills toward the front, where they can commit."),
    "distance": ("d (distance)", "How many slots after the first open mask a slot is; the first open mask "
                 "has d = 0."),
    "commit": ("commit", "A filled token is final when it is in the leading filled run (no mask before "
               "it): its KV stays in the cache and it is output. Filled tokens behind a mask wait."),
    "p-cache": ("p_cache", "The share of the rows a decode computed whose KV was kept in the cache "
                "(1 = nothing was recomputed)."),
    "tpf": ("tokens per forward", "Output tokens divided by forward passes. AR makes 1; WeDLM more where "
            "the text is predictable. Below 1 means forwards that commit nothing (see chapter 7)."),
    "block": ("block decoding", "The older way to decode with masks: fill a block of masks over several "
              "forwards and commit only when the whole block is filled (stop-and-wait). WeDLM streams "
              "instead: it commits the leading filled run every forward."),
    "draft": ("draft", "A token the fill rule wrote into a mask slot before the text reaches it. Verified "
              "decoding checks each draft before it may commit."),
    "verified": ("verified decoding", "Beyond the WeDLM paper (this explorer's own): every forward also "
                 "gives the model's own next-token (AR) prediction at each row, and each draft in the leading "
                 "filled run is checked against the prediction from the row before it. Drafts that agree "
                 "commit; the first that does not is replaced by the AR token, so the text is exactly greedy "
                 "AR decoding (lossless). The paper's algorithm, streaming, stays the default."),
    "forward-ratio": ("forward_ratio", "AR's forwards divided by WeDLM's forwards on the same prompt: how "
                      "many fewer forwards WeDLM needed."),
}


def terms(lang: str = i18n.DEFAULT) -> dict[str, tuple[str, str]]:
    """TERMS in `lang`: key -> (term, definition)."""
    return TERMS


def glossary_html(lang: str = i18n.DEFAULT) -> str:
    """The glossary panel (hidden until opened; app/static/present.js opens it on a term link)."""
    items = "".join(f'<dt id="glossary-{k}">{escape(title)}</dt><dd>{escape(text)}</dd>'
                    for k, (title, text) in terms(lang).items())
    return (f'<div id="glossary" class="glossary" role="dialog" aria-label="Glossary" hidden>'
            f'<div class="glossary-head"><b>Glossary</b> <button type="button" class="glossary-close" '
            f'aria-label="Close the glossary">✕</button></div><dl>{items}</dl></div>')
