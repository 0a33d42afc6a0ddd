"""Chapter 3: topological reordering, on a step where filled slots sit behind a mask."""
from __future__ import annotations

import math
from functools import partial
from html import escape

import gradio as gr

from wedlm.reorder import visibility

from ... import i18n
from ...views import glyphs, render
from ...views.stepper import Views
from . import moments
from .frame import at_step, body, drawn, live_bar, slot, stepper_html, window_try
from .words import colour, elsewhere, gap, link_first, narration, run_summary, some, span, term

TITLE = i18n.text(i18n.DEFAULT, "ch3.title")
KEY = "tour-3"


def title(lang: str = i18n.DEFAULT) -> str:
    return i18n.text(lang, "ch3.title")


def checked(check: dict | None, lang: str = i18n.DEFAULT) -> str:
    """The recorded proof that reordering changes nothing (tools/record_tour.py reorder_check), worded;
    "" when there is no proof (a live run) or it failed."""
    if not check or not check["same_tokens"] or check["max_entropy_diff"] is None:
        return ""
    diff = f"{check['max_entropy_diff']:.7f}".rstrip("0").rstrip(".")
    # (the moment's own mask, 0.3182 nats in both orders, is the worked example's end table)
    return i18n.text(lang, "ch3.check", reference=term("reference", lang=lang), rounding=term("float-rounding", lang=lang),
                     attention_mask=term("attention-mask", lang=lang), tokens=check["tokens"],
                     forwards=check["forwards"], slots=check["slots"],
                     diff=diff if diff != "0" else "0.0000001")


def seen_rows(s) -> tuple[list[int], list[int]]:
    """What the step's first mask sees in the window, read two ways: the positions of the rows before
    its row in physical order (the causal triangle that runs), and the positions its row marks in
    logical order (the §1.1 rule the second grid draws). Reordering is right when they agree."""
    slot = s.first_mask_pos - s.start
    physical = sorted(s.start + j for j in s.order[:s.order.index(slot)])
    logical = [s.start + j for j, seen in enumerate(visibility(s.window)[slot]) if seen and j != slot]
    return physical, logical


def _num(x: float, places: int) -> str:
    """A rounded number with a real minus sign (−0.28), never "−0.00"."""
    text = f"{x:.{places}f}"
    if float(text) == 0:
        text = text.lstrip("-")
    return text.replace("-", "−")


def after_caption(example: dict, tr, lang: str = i18n.DEFAULT) -> str:
    """What the worked example's head gives the filled tokens after the mask, from the record: every
    head's share (wedlm.attention "after_shares"), "the most" only when this head's is the largest;
    an older record without them: only the after-token the table shows."""
    shares, h = example.get("after_shares"), example["head"]
    shown = [r for r in example["rows"] if r["after"]]
    if shares:
        others = tr("tour.list_sep").join(_num(x, 2) for k, x in enumerate(shares) if k != h)
        key = "ch3.example.after_most" if shares[h] >= max(shares) else "ch3.example.after_share"
        caption = tr(key, heads=len(shares), later=span(example["later"], lang=lang), share=_num(shares[h], 2),
                     others=others)
        if len(shown) == 1 and len(example["later"]) > 1:   # the rest of the share is in the "others" row
            r, share = shown[0], round(shares[h], 2)
            own = round(r["weight"], 2)
            rest_at = [p for p in example["later"] if p != r["pos"]]   # the after-tokens without a row: named
            caption += tr("ch3.example.after_split", share=_num(share, 2), own=_num(own, 2),
                          token=escape(glyphs.visible(r["text"])), at=r["pos"], k=len(rest_at),
                          rest_at=span(rest_at, lang=lang), rest=_num(share - own, 2), n=example["others"]["count"])
        return caption
    if not shown:
        return ""
    r = max(shown, key=lambda r: r["weight"])
    return tr("ch3.example.after_shown", token=escape(glyphs.visible(r["text"])), at=r["pos"], share=_num(r["weight"], 2))


def rope_pair(example: dict | None) -> dict | None:
    """The worked example's filled token after the mask with the most weight in its table, as the
    RoPE words name it: its token, its id, the mask's, their difference (ids the grids label); None
    when the table has no such row."""
    after = [r for r in (example or {}).get("rows", []) if r["after"]]
    if not after:
        return None
    r = max(after, key=lambda r: r["weight"])
    return {"token": escape(glyphs.visible(r["text"])), "at": r["pos"], "pos": example["pos"],
            "gap": r["pos"] - example["pos"]}


def rope_words(example: dict, tr, lang: str = i18n.DEFAULT) -> str:
    """What RoPE does to a score, on the table's filled token after the mask (rope_pair), the same
    in both orders; in general without one."""
    rope, pair = term("position-id", "RoPE", lang=lang), rope_pair(example)
    return tr("ch3.example.rope_at", rope=rope, **pair) if pair else tr("ch3.example.rope", rope=rope)


def fed(example: dict, r: dict, tr) -> str:
    """Where a seen token is in the text, from the mask's row: before or after it (the second grid's
    rows above or below the mask's), read from the record's rows. Fed, every token a mask sees is
    before it (the causal triangle: the column's head says so); "" were one not (never claimed)."""
    if r["physical_row"] >= example["physical_row"]:
        return ""
    return tr("ch3.example.before" if r["logical_row"] < example["logical_row"] else "ch3.example.after")


def _belongs(example: dict | None, tl) -> bool:
    """The example is this decode's (a live run has none; another decode's step is not its)."""
    return bool(example) and example["step"] < len(tl.trace.steps) \
        and tl.trace.steps[example["step"]].first_mask_pos == example["pos"]


def example_view(example: dict | None, tl, step: int, lang: str = i18n.DEFAULT, end: bool = True) -> str:
    """Chapter 3's worked example (tools/record_tour.py reorder_attention): the first layer's attention
    of the moment's first mask, by hand, as a table a reader can add up; the same sum in physical and in
    logical order; then (`end`) the end of the chain, example_end. At another step of the decode: one
    line naming the step it belongs to. A live run (no example) shows nothing."""
    if not _belongs(example, tl):
        return ""
    tr = i18n.Texts(lang)
    if step != example["step"]:
        return f'<p class="attn-elsewhere">{tr("ch3.example.elsewhere", step=example["step"], pos=example["pos"])}</p>'
    later = span(example["later"], lang=lang) if example["later"] else ""   # no sentence on nothing
    where = term("layer", tr("ch3.example.where", head=example["head"] + 1, heads=example["heads"]), lang=lang)
    head = tr("ch3.example.title", pos=example["pos"], step=example["step"], where=where)
    # the title alone in bold; its caption (the heads' shares, what logical order sees) in the text's weight
    caption = ""
    for then in filter(None, (after_caption(example, tr, lang),
                              later and tr("ch3.example.logical_sees", later=later, reference=term("reference", lang=lang)))):
        caption = tr("tour.then", first=caption, then=then) if caption else then
    titled = tr("tour.then", first=f"<b>{head}</b>", then=f'<span class="attn-caption">{caption}</span>') \
        if caption else f"<b>{head}</b>"
    intro = tr("ch3.example.qkv", rope=rope_words(example, tr, lang),
               query=term("qkv", f'<i>{tr("ch3.example.query")}</i>', lang=lang))
    cols = "".join(f"<th scope=\"col\">{tr(f'ch3.example.col.{c}')}</th>"
                   for c in ("token", "pos", "physical", "weight", "logical_weight", "value", "product"))
    body = ""
    for r in example["rows"]:
        later = ' class="later"' if r["after"] else ""
        # a token named as the grids label its row, by its position id (a row counted from the prompt's
        # start, 72 for the mask at 65, is on no picture); spelled as the strips beside it spell it
        # (glyphs.visible: '·x', not ' x')
        body += (f"<tr{later}><td translate=\"no\">{escape(glyphs.visible(r['text']))}</td><td>{r['pos']}</td>"
                 f"<td>{fed(example, r, tr)}</td>"
                 f"<td>{_num(r['weight'], 2)}</td><td>{_num(r['logical_weight'], 2)}</td><td>{_num(r['value'], 2)}</td>"
                 f"<td>{_num(r['product'], 3)}</td></tr>")
    others = example["others"]
    body += (f'<tr class="others"><td colspan="3">{tr("ch3.example.others", n=others["count"])}</td>'
             f'<td>{_num(others["weight"], 2)}</td><td>{_num(others["logical_weight"], 2)}</td>'
             f'<td>…</td><td>{_num(others["product"], 3)}</td></tr>')
    # each order's sum under its own weight column: two computations, the same numbers
    total = "".join(f'<tr class="sum"><td colspan="3">{tr(f"ch3.example.sum_{order}")}</td>'
                    + ("<td>1.00</td><td></td>" if order == "physical" else "<td></td><td>1.00</td>")
                    + f'<td></td><td>{_num(example[f"{order}_sum"], 3)}</td></tr>'
                    for order in ("physical", "logical"))
    # the chain after layer 1: measured in the example's end (layers_view); an older record: in words only
    measured = bool((example.get("final") or {}).get("by_layer"))
    sums = tr("ch3.example.sums" if measured else "ch3.example.sums_short", later=colour("attend-later", lang),
              coord=example["coordinate"] + 1, dim=example["head_dim"],
              moved=span(example["later"], lang=lang), pos=example["pos"])
    return (f'<div class="attn-example"><p class="attn-title">{titled} {intro}</p>'
            f'<p class="attn-hint">{tr("ch3.example.scroll")}</p><table class="attn-table"><thead><tr>{cols}</tr></thead><tbody>{body}</tbody>'
            f'<tfoot>{total}</tfoot></table><p class="attn-sums">{sums}</p>'
            f'{example_end(example, tl, step, lang) if end else ""}</div>')


ROUNDING = 1e-4   # a difference below this share of the numbers' size is float rounding (fp32 keeps ~1e-7)


def at_most(x: float) -> str:
    """A small non-negative number to one significant digit, rounded up (so "at most" holds): 2.4e-7 ->
    "0.0000003", 0.0039 -> "0.004", 0 -> "0"."""
    if x <= 0:
        return "0"
    e = math.floor(math.log10(x))
    digit = math.ceil(round(x / 10 ** e, 9))
    if digit >= 10:
        digit, e = 1, e + 1
    return f"{digit * 10 ** e:.{max(0, -e)}f}"


def layers_agree(final: dict | None) -> str | None:
    """The largest per-layer difference (at_most) when every layer's is float rounding (ROUNDING of
    its size), else None (no record, or a difference past rounding): what the recap may say."""
    by_layer = (final or {}).get("by_layer")
    if not by_layer or not all(r["diff"] <= ROUNDING * r["size"] for r in by_layer):
        return None
    return at_most(max(r["diff"] for r in by_layer))


def layers_view(final: dict, tr, example: dict | None = None) -> str:
    """The chain after layer 1, measured (wedlm.attention.final_prediction "by_layer"): per layer, how far
    apart the mask's output is in the two orders (at most, rounded up) and its largest number, for scale;
    then "float rounding, nothing more" only when every layer's difference is below ROUNDING of its size.
    "" for a record without it."""
    by_layer = (final or {}).get("by_layer")
    if not by_layer:
        return ""
    example = example or {}
    width = (tr("ch3.example.layers.width", heads=example["heads"], head_dim=example["head_dim"])
             if example.get("heads") and example.get("head_dim") else "")
    intro = tr("ch3.example.layers.intro", hidden=final["hidden"], width=width)
    cols = "".join(f'<th scope="col">{tr(f"ch3.example.layers.col.{c}")}</th>' for c in ("layer", "diff", "size"))
    rows = "".join(f'<tr><td>{r["layer"]}</td><td>{at_most(r["diff"])}</td><td>{_num(r["size"], 1)}</td></tr>'
                   for r in by_layer)
    same = layers_agree(final)
    verdict = tr("ch3.example.layers.same" if same else "ch3.example.layers.differ",
                 diff=same or at_most(max(r["diff"] for r in by_layer)),
                 size=_num(max(r["size"] for r in by_layer), 1), layers=final["layers"])
    return (f'<div class="attn-measured"><p>{intro}</p>'
            f'<table class="attn-table attn-layers"><thead><tr>{cols}</tr></thead><tbody>{rows}</tbody></table>'
            f'<p class="attn-verdict">{verdict}</p></div>')


def example_end(example: dict | None, tl, step: int, lang: str = i18n.DEFAULT) -> str:
    """The worked example's end, at its step: the mask's output after every layer in both orders, measured
    (layers_view), its prediction after the last layer in both orders and why seeing earlier masks is
    harmless. Its own block: the page shows it under the table (its own slot, which presenting on a narrow
    screen shows as a picture of its own: beside the table the pane's zoom would read the table's type
    under 14 px; the layers' table there too); the presenting button's copy holds it inside."""
    if not _belongs(example, tl) or step != example["step"]:
        return ""
    tr = i18n.Texts(lang)
    inner = (layers_view(example.get("final"), tr, example) + final_view(example.get("final"), example["pos"], tr, lang)
             + masks_seen(tl.trace.steps[step], lang))
    return f'<div class="attn-end">{inner}</div>' if inner else ""


ENTROPY_PLACES = 4   # the check in the narration compares the decodes' own entropies to 7 places


def final_view(final: dict | None, pos: int, tr, lang: str = i18n.DEFAULT) -> str:
    """The end of the worked example's argument, from the record (wedlm.attention.final_prediction):
    what the same mask predicts after the last layer, fed in each order: its top token, that token's
    probability and the entropy. "The same prediction" is said only when the numbers shown agree."""
    if not final:
        return ""
    cols = "".join(f'<th scope="col">{tr(f"ch3.example.final.col.{c}", pos=pos, layers=final["layers"], nats=term("nats", lang=lang))}</th>'
                   for c in ("order", "token", "probability", "entropy"))
    rows, shown = "", []
    decoders = {order: term(key, tr(f"ch3.example.final.{key}"), lang=lang)
                for order, key in (("physical", "streaming"), ("logical", "reference"))}
    for order in ("physical", "logical"):
        f = final[order]
        cells = (escape(glyphs.visible(f["text"])), _num(f["probability"], 3), _num(f["entropy"], ENTROPY_PLACES))
        shown.append((f["token"],) + cells[1:])
        rows += (f'<tr class="final"><td>{tr(f"ch3.example.final.{order}", decoder=decoders[order])}</td>'
                 f'<td translate="no">{cells[0]}</td><td>{cells[1]}</td><td>{cells[2]}</td></tr>')
    same = f'<p class="attn-same">{tr("ch3.example.final.same")}</p>' if shown[0] == shown[1] else ""
    return (f'<table class="attn-table attn-final"><thead><tr>{cols}</tr></thead>{rows}</table>{same}')


def masks_seen(s, lang: str = i18n.DEFAULT) -> str:
    """Why a mask seeing the masks before it (in both orders: reorder.visibility) is harmless, on this
    step's second mask; "" when the window has one mask (no mask sees another)."""
    masks = [s.start + i for i, t in enumerate(s.window) if t is None]
    if len(masks) < 2:
        return ""
    window = visibility(s.window)
    second = masks[1] - s.start
    seen = [s.start + j for j in range(len(s.window)) if window[second][j] and s.window[j] is None and j != second]
    return (f'<p class="attn-masks">{i18n.text(lang, "ch3.example.masks", pos=masks[1], seen=span(seen, lang=lang))}</p>')


def example_pop(example: dict | None, tl, step: int, lang: str = i18n.DEFAULT) -> str:
    """The worked example folded behind a button, for presenting side by side (style.css shows it
    only there, at the orders view's lower right, opening over the grids): the picture fills the
    screen's height, so the table under the grids would shrink the chapter below the narration's
    20 px. "" where the table would say nothing (another step, a live run)."""
    table = example_view(example, tl, step, lang) if example and step == example["step"] else ""
    if not table:
        return ""
    return (f'<details class="attn-pop"><summary>{i18n.text(lang, "ch3.example.open")}</summary>'
            f'{table}</details>')


def _end_block(example: dict | None, tl, step: int, lang: str = i18n.DEFAULT) -> str:
    """example_end in a box of its own (the page's slot under the table), styled as the example."""
    end = example_end(example, tl, step, lang)
    return f'<div class="attn-example attn-end-slot">{end}</div>' if end else ""


def why(s, lang: str = i18n.DEFAULT, example: dict | None = None) -> str:
    """Why the move changes nothing, in three steps on the step's first mask: the rows it sees in
    physical order, the same positions in logical order, and RoPE reading ids, not rows: with the
    worked example of this mask (`example`), on its table's token after the mask, in numbers."""
    physical, logical = seen_rows(s)
    if physical != logical:  # cannot happen for a streaming trace; never claim what the grids do not show
        return ""
    tr = i18n.Texts(lang)
    later = [p for p in logical if p > s.first_mask_pos]
    steps = [tr("ch3.why.physical", attend=colour("attend", lang), pos=s.first_mask_pos,
                seen=span(physical, lang=lang), prefix_end=s.start - 1),
             tr("ch3.why.logical", later=span(later, lang=lang), attend_later=colour("attend-later", lang),
                pos=s.first_mask_pos),
             tr("ch3.why.rope", gap=tr("ch3.why.rope_gap", rope=term("position-id", "RoPE", lang=lang), **pair)
                if (pair := rope_pair(example)) and example["pos"] == s.first_mask_pos else "",
                table=tr("ch3.why.table") if example else "")]
    return tr("ch3.why") + '<ol class="tour-steps">' + "".join(f"<li>{step}</li>" for step in steps) + "</ol>"


def text(tl, step: int, moment: int | None = None, note: str = "", lang: str = i18n.DEFAULT,
         check: dict | None = None, example: dict | None = None) -> str:
    tr = i18n.Texts(lang)
    s = tl.trace.steps[step]
    waiting = s.filled_behind_mask
    if not waiting:
        return elsewhere(tl, step, (note + gap(lang) if note else "") + tr("ch3.same_order") + gap(lang)
                         + tr("ch3.idea"), moment, lang=lang)
    return narration(([note] if note else []) + [
        tr("ch3.p1", step=step, first_mask=s.first_mask_pos, waiting=some(waiting, lang=lang)),
        tr("ch3.p2", kv_cache=term("kv-cache", lang=lang),
           position_id=term("position-id", tr("tour.link.position_id"), lang=lang)),
        why(s, lang, example if _belongs(example, tl) and example["step"] == step else None),
    ] + [proof for proof in [checked(check, lang)] if proof], tl, step, lang=lang)


def views(moment: int | None, note: str = "", lang: str = i18n.DEFAULT, check: dict | None = None,
          example: dict | None = None) -> Views:
    """`check`: the recorded decode's proof (its pick's "check"); `example`: its worked attention
    example (its pick's "attention"); a live run has neither."""
    return Views(step={"text": lambda tl, k: text(tl, k, moment, note, lang, check, example),
                       # its title says "the leading filled run" before anything else in the chapter: linked there
                       "orders": lambda tl, k: at_step(link_first(render.order_view(tl, k, lang=lang), "leading-run", lang)
                                                       + example_pop(example, tl, k, lang), k),
                       # the first grid's title names the cached prefix: linked to the glossary there
                       "physical": lambda tl, k: at_step(link_first(render.mask_grid(tl, k, logical=False, lang=lang),
                                                                    "cached-prefix", lang), k),
                       "logical": lambda tl, k: at_step(render.mask_grid(tl, k, logical=True, lang=lang), k),
                       "attention": lambda tl, k: at_step(example_view(example, tl, k, lang, end=False), k),
                       "attention_end": lambda tl, k: at_step(_end_block(example, tl, k, lang), k)})


def view(tl, step: int, lang: str = i18n.DEFAULT):
    return drawn(views(step, lang=lang), tl, step)


def fallback(tl, lang: str = i18n.DEFAULT) -> tuple[int, str]:
    return 0, (i18n.text(lang, "tour.your_run", summary=run_summary(tl, lang=lang))
               + i18n.text(lang, "ch3.fallback"))


def build(ctx, data, lang: str = i18n.DEFAULT):
    tl, step = data.at("reorder")
    with body(3) as (cols, words):
        with cols:
            bar = live_bar(3, lang)
            pick = data.picks["reorder"]
            recorded = stepper_html(tl, KEY, views(step, lang=lang, check=pick.get("check"),
                                                   example=pick.get("attention")), step, lang=lang)
            steps = gr.HTML(recorded,
                            elem_id="tour-stepper-3", js_on_load=None)
            slot(KEY, "orders", "tour-viz-3", elem_classes=["tour-viz"])
            with gr.Row(elem_classes=["tour-grids"]):
                slot(KEY, "physical", elem_classes=["tour-grid"])
                slot(KEY, "logical", elem_classes=["tour-grid"])
            # under the grids; presenting side by side, the picture has no room for it: the orders
            # view's "Σ by hand" button shows the same table over the grids (style.css, example_pop)
            slot(KEY, "attention", "tour-attention-3", elem_classes=["tour-attention"])
            # the example's end (the prediction after the last layer): a pane of its own when presenting flips
            slot(KEY, "attention_end", "tour-attention-end-3", elem_classes=["tour-attention", "pane-alone"])
        with words:
            slot(KEY, "text", "tour-text-3")
            window_try(ctx, 3, data.picks["reorder"]["trace"], moments.reorder_step, KEY,
                       partial(views, lang=lang), partial(fallback, lang=lang), steps, recorded, bar, lang)
