"""Chapter 3's worked example: one mask's first-layer attention, computed by hand (wedlm.attention),
must be the model's own attention (eager, output_attentions=True) in both orders the chapter compares,
and the recorded table (tools/record_tour.py reorder_attention) must add up as it says."""
from __future__ import annotations

import re
from dataclasses import replace

import pytest
import torch
from transformers import DynamicCache

from app import i18n
from app.tabs.tour import ch3_reordering
from app.tabs.tour.data import load_tour
from app.tabs.tour.words import span
from app.views import glyphs
from tiny import write_tiny_checkpoint
from tools.record_tour import reorder_attention
from wedlm import DecodeConfig, decode, load_model
from wedlm.attention import final_prediction, first_layer_attention, layer_rows, reorder_example, step_orders
from wedlm.decoders.reference import RecomputeForward, logical_attention_mask
from wedlm.decoders.streaming import CachedForward
from wedlm.reorder import physical_order
from wedlm.training.objective import block_visibility

# a window with filled slots behind its first mask (slot 1): what reordering moves
WINDOW = [None, 17, None, 23, 41, None, 9]


@pytest.fixture(scope="module", params=["wedlm-qwen3", "wedlm-qwen2"])
def eager_lm(request, tmp_path_factory):
    """A tiny model (Qwen3 has q_norm/k_norm, Qwen2 has not) whose attention can return its weights."""
    folder = write_tiny_checkpoint(tmp_path_factory.mktemp(request.param), request.param, seed=3)
    return load_model(str(folder), device="cpu", dtype="float32", attn_implementation="eager")


def model_attention(lm, ids, positions, mask=None, cache=None):
    """The model's own layer-0 attention: its weights (H, q, keys) and each head's output (H, q, d),
    read where it enters o_proj."""
    seen = {}
    attn = lm.model.model.layers[0].self_attn
    hook = attn.o_proj.register_forward_pre_hook(lambda mod, args: seen.setdefault("x", args[0].detach()))
    try:
        with torch.no_grad():
            out = lm.model(input_ids=torch.tensor([ids]), position_ids=torch.tensor([positions]),
                           attention_mask=mask, output_attentions=True, past_key_values=cache,
                           use_cache=cache is not None)
    finally:
        hook.remove()
    heads = out.attentions[0].shape[1]
    return out.attentions[0][0].double(), seen["x"][0].view(len(ids), heads, -1).transpose(0, 1).double()


def streaming_attention(lm, prefix, phys):
    """Layer 0's attention as the streaming decoder runs it: the prefix prefilled into a KV cache,
    then the window's rows in physical order over it (transformers builds the causal mask)."""
    cache = DynamicCache(config=lm.model.config)
    w0, o0 = model_attention(lm, prefix, list(range(len(prefix))), cache=cache)
    w1, o1 = model_attention(lm, phys["ids"][len(prefix):], phys["positions"][len(prefix):], cache=cache)
    size = len(phys["ids"])
    w0 = torch.nn.functional.pad(w0, (0, size - w0.shape[-1]))
    return torch.cat([w0, w1], dim=1), torch.cat([o0, o1], dim=1)


def test_first_layer_attention_is_the_models_own_in_both_orders(eager_lm):
    lm = eager_lm
    prefix = [5, 11, 29, 31, 7, 13, 3, 19]
    start = len(prefix)
    orders = step_orders(prefix, WINDOW, physical_order(WINDOW), start, lm.mask_token_id)
    # physical order: the cached prefix then the window reordered, a plain causal triangle
    phys = orders["physical"]
    weights, outputs = streaming_attention(lm, prefix, phys)
    # logical order: the reference decoder's input and its explicit mask
    logi = orders["logical"]
    mask = logical_attention_mask(start, WINDOW, torch.float32, "cpu")
    lweights, loutputs = model_attention(lm, logi["ids"], logi["positions"], mask)
    checked = 0
    for o, w, out in ((phys, weights, outputs), (logi, lweights, loutputs)):
        for row in range(len(o["ids"])):
            mine = first_layer_attention(lm, o["ids"], o["positions"], row, o["seen"](row))
            assert torch.allclose(mine["weights"], w[:, row, mine["seen"]], atol=1e-5)
            unseen = [j for j in range(len(o["ids"])) if j not in mine["seen"]]
            assert float(w[:, row, unseen].abs().sum()) < 1e-6   # the model gives them nothing either
            assert torch.allclose(mine["output"], out[:, row], atol=1e-5)
            checked += 1
    assert checked == 2 * (len(prefix) + len(WINDOW))
    # what a wrong position would give is not the model's: RoPE reads the ids
    shifted = [p + 3 for p in phys["positions"]]
    row = len(phys["ids"]) - 1
    wrong = first_layer_attention(lm, phys["ids"], shifted[:-1] + [phys["positions"][-1]], row)
    assert not torch.allclose(wrong["weights"], weights[:, row, :row + 1], atol=1e-4)


def test_the_example_of_a_mask_is_the_same_sum_in_both_orders(eager_lm):
    lm = eager_lm
    prefix = [5, 11, 29, 31, 7, 13, 3, 19]
    ex = reorder_example(lm, prefix, WINDOW, physical_order(WINDOW), len(prefix), len(prefix) + 2, shown=3)
    assert ex["pos"] == 10 and ex["seen"] == len(prefix) + 4 + 2   # the prefix, 4 filled, masks 8 and 10
    assert ex["later"] == [11, 12, 14]
    assert abs(ex["physical_sum"] - ex["logical_sum"]) < 1e-6 and ex["max_weight_diff"] < 1e-6
    assert any(r["after"] and r["physical_row"] != r["logical_row"] for r in ex["rows"])
    assert len(ex["rows"]) == 3 and ex["others"]["count"] == ex["seen"] - 3
    total = sum(r["product"] for r in ex["rows"]) + ex["others"]["product"]
    assert abs(total - ex["physical_sum"]) < 1e-9
    assert abs(sum(r["weight"] for r in ex["rows"]) + ex["others"]["weight"] - 1) < 1e-9
    for r in ex["rows"]:
        assert abs(r["weight"] * r["value"] - r["product"]) < 1e-12
        assert r["logical_row"] == r["pos"]   # in logical order a token's row is its position id
    # the head named is the one giving the later tokens (after the mask in the text) most weight
    phys = step_orders(prefix, WINDOW, physical_order(WINDOW), len(prefix), lm.mask_token_id)["physical"]
    row = phys["positions"].index(10)
    att = first_layer_attention(lm, phys["ids"], phys["positions"], row)
    later = [i for i, r in enumerate(att["seen"]) if phys["positions"][r] > 10]
    assert ex["head"] == int(att["weights"][:, later].sum(dim=1).argmax())
    # every head's share on them, recorded for the caption (chapter 3 says it)
    assert ex["after_shares"] == pytest.approx(att["weights"][:, later].sum(dim=1).tolist(), abs=1e-9)
    assert ex["coordinate"] == int(att["output"][ex["head"]].abs().argmax())


def test_record_tour_keeps_the_example_at_the_chapters_moment(tiny_lm):
    trace = decode(tiny_lm, "Count: 1 2 3", "streaming", DecodeConfig(max_new_tokens=16, threshold=0.9))
    step = next(k for k, s in enumerate(trace.steps) if s.first_mask_pos is not None)
    ex = reorder_attention(tiny_lm, trace, step)
    assert ex["step"] == step and ex["pos"] == trace.steps[step].first_mask_pos
    assert abs(ex["physical_sum"] - ex["logical_sum"]) < 1e-6


def numbers(cell: str) -> float:
    return float(re.sub(r"<[^>]+>", "", cell).replace("−", "-"))


def shown_table(html: str) -> tuple[list[list[str]], list[list[str]]]:
    body = re.search(r"<tbody>(.*?)</tbody>", html).group(1)   # the Σ table (the layers table follows it)
    foot = re.search(r"<tfoot>(.*)</tfoot>", html).group(1)
    cells = lambda part: [re.findall(r"<td[^>]*>(.*?)</td>", row) for row in re.findall(r"<tr[^>]*>.*?</tr>", part)]
    return cells(body), cells(foot)


def test_the_recorded_example_adds_up_as_shown():
    data = load_tour()
    tl, step = data.at("reorder")
    ex = data.picks["reorder"]["attention"]
    s = tl.trace.steps[ex["step"]]
    assert ex["step"] == step and ex["pos"] == s.first_mask_pos
    assert ex["later"] == s.filled_behind_mask
    assert abs(ex["physical_sum"] - ex["logical_sum"]) < 1e-6
    assert abs(sum(r["product"] for r in ex["rows"]) + ex["others"]["product"] - ex["physical_sum"]) < 1e-6
    html = ch3_reordering.example_view(ex, tl, step)
    rows, foot = shown_table(html)
    assert len(rows) == len(ex["rows"]) + 1 and len(foot) == 2
    products = [numbers(r[-1]) for r in rows]
    weights = [numbers(r[-4]) for r in rows]
    logical_weights = [numbers(r[-3]) for r in rows]
    sums = [numbers(r[-1]) for r in foot]
    # what a reader adds by hand: the rounded products make the rounded sum, the weights 1
    assert abs(sum(products) - sums[0]) <= 0.0005 * len(rows) + 1e-9, (products, sums)
    assert abs(sum(weights) - 1) <= 0.005 * len(rows) + 1e-9, weights
    # the weights computed in logical order, shown beside the physical ones: the same numbers
    assert logical_weights == weights
    assert [round(r["logical_weight"], 2) for r in ex["rows"]] == weights[:-1]
    # each sum row puts its 1.00 under its own order's weight column
    assert [numbers(c) if c else None for c in foot[0][1:3]] == [1.0, None]
    assert [numbers(c) if c else None for c in foot[1][1:3]] == [None, 1.0]
    assert sums[0] == sums[1] == round(ex["logical_sum"], 3)
    # a filled token after the mask in the text: fed before it in physical order, after it in logical order
    later = [r for r in rows if numbers(r[1]) > ex["pos"]]
    assert later and all(r[2] == "after" for r in later)
    assert all(r[2] == "before" for r in rows[:-1] if numbers(r[1]) < ex["pos"])
    assert len(re.findall(r'<tr class="later">', html)) == len(later)


def test_the_example_shows_only_at_its_step_and_never_on_a_live_run():
    data = load_tour()
    tl, step = data.at("reorder")
    ex = data.picks["reorder"]["attention"]
    other = step + 1
    note = ch3_reordering.example_view(ex, tl, other)
    assert "<table" not in note and f"step {step}" in note
    assert ch3_reordering.example_view(None, tl, step) == ""
    assert ch3_reordering.example_pop(ex, tl, other) == "" and "<table" in ch3_reordering.example_pop(ex, tl, step)
    # the page draws it in the chapter's views, the orders view carrying the presenting button
    views = ch3_reordering.views(step, check=data.picks["reorder"]["check"], example=ex)
    assert '<table class="attn-table">' in views.step["attention"](tl, step)
    assert 'class="attn-pop"' in views.step["orders"](tl, step)
    assert ch3_reordering.views(step).step["attention"](tl, step).count("<table") == 0
    # the example's end (the prediction after the last layer) in a slot of its own under the table (a pane
    # of its own when presenting flips), inside the presenting button's copy, nowhere at another step
    assert "attn-final" not in views.step["attention"](tl, step)
    assert "attn-final" in views.step["attention_end"](tl, step) and "attn-final" not in views.step["attention_end"](tl, other)
    assert "attn-final" in ch3_reordering.example_pop(ex, tl, step)
    assert "attn-final" not in ch3_reordering.views(step).step["attention_end"](tl, step)


def test_the_example_speaks_chinese():
    data = load_tour()
    tl, step = data.at("reorder")
    ex = data.picks["reorder"]["attention"]
    html = ch3_reordering.example_view(ex, tl, step, lang="zh")
    for words in ("算一个例子", "查询", "键", "值", "权重", "物理顺序", "逻辑顺序", "其余"):
        assert words in html, words
    text = re.sub(r"<[^>]+>|RoPE", "", html)
    for english in ("weight", "query", "sum", "the other", "row"):
        assert english not in text, english


def caption_of(html: str) -> str:
    """The example's title (bold) and its caption (the text's weight: walk 32 read one dense bold paragraph)."""
    title = re.search(r'<p class="attn-title"><b>(.*?)</b>', html).group(1)
    caption = re.search(r'<span class="attn-caption">(.*?)</span> ', html)
    return re.sub(r"<[^>]+>", "", title + (caption.group(1) if caption else ""))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_caption_says_what_the_recorded_numbers_show(lang):
    """A newcomer read "this head looks most at the tokens after the mask" beside a table giving 0.67 of
    its weight to tokens before it: the caption's numbers are the record's per-head shares after the mask,
    "most" only when this head's is the largest, and they agree with the table."""
    data = load_tour()
    tl, step = data.at("reorder")
    ex = data.picks["reorder"]["attention"]
    shares, h = ex["after_shares"], ex["head"]
    assert len(shares) == ex["heads"]
    # the table's after-tokens are part of this head's share, the rest of it inside "the other tokens"
    shown_after = sum(r["weight"] for r in ex["rows"] if r["after"])
    assert shown_after - 1e-9 <= shares[h] <= shown_after + ex["others"]["weight"] + 1e-9
    html = ch3_reordering.example_view(ex, tl, step, lang)
    caption = caption_of(html)
    # only the title in bold: the caption in the text's weight (walk 32 read one dense bold paragraph)
    where = i18n.text(lang, "ch3.example.where", head=h + 1, heads=ex["heads"])
    title = re.search(r'<p class="attn-title"><b>(.*?)</b>', html).group(1)
    # the layer and head link to the glossary's "layer / attention head", the query to "query, key, value"
    linked = re.sub(r'<a class="gloss" href="#glossary-layer"[^>]*>(.*?)</a>', r"\1", title)
    assert linked != title and linked == i18n.text(lang, "ch3.example.title", pos=ex["pos"], step=ex["step"], where=where)
    assert 'href="#glossary-qkv"' in html
    said = [float(x) for x in re.findall(r"\d\.\d\d", caption)]
    heads = [round(shares[h], 2)] + [round(x, 2) for k, x in enumerate(shares) if k != h]
    assert said[:len(heads)] == heads, caption
    # the share split as the table shows it: the after-token's own row, the rest inside "the other tokens"
    (top,) = [r for r in ex["rows"] if r["after"]]
    share, own, rest = said[len(heads):]
    assert share == heads[0] and own == round(top["weight"], 2) and round(own + rest, 2) == share, caption
    assert f"{ex['others']['count']}" in caption and str(top["pos"]) in caption
    assert f"{ex['later'][0]}–{ex['later'][-1]}" in caption
    most = {"en": "the most", "zh": "最多"}[lang]
    assert (most in caption) == (shares[h] == max(shares)) and most in caption
    assert "looks most" not in caption and "最关注" not in caption
    # were another head's share larger, the caption would not call this one the most
    other = dict(ex, after_shares=[x if k == h else x + 1 for k, x in enumerate(shares)])
    assert most not in caption_of(ch3_reordering.example_view(other, tl, step, lang))
    # a record without the shares: only what the table shows, the after-token's own weight
    bare = {k: v for k, v in ex.items() if k != "after_shares"}
    caption = caption_of(ch3_reordering.example_view(bare, tl, step, lang))
    top = max((r for r in ex["rows"] if r["after"]), key=lambda r: r["weight"])
    assert [float(x) for x in re.findall(r"\d\.\d\d", caption)] == [round(top["weight"], 2)]
    assert str(top["pos"]) in caption and most not in caption


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_logical_column_says_the_mask_still_sees_the_filled_slots_after_it(lang):
    """In logical order the reference decoder's attention mask lets the mask see the filled slots after it
    (wedlm.attention.step_orders: the logical run sees what visibility gives); the caption says so."""
    data = load_tour()
    tl, step = data.at("reorder")
    ex = data.picks["reorder"]["attention"]
    window = tl.trace.steps[step].window
    start = tl.trace.steps[step].start
    orders = step_orders(list(range(start)), window, tl.trace.steps[step].order, start, -1)
    logical = orders["logical"]
    seen = [logical["positions"][r] for r in logical["seen"](logical["positions"].index(ex["pos"]))]
    assert ex["later"] and set(ex["later"]) <= set(seen)
    caption = caption_of(ch3_reordering.example_view(ex, tl, step, lang))
    said = [t for t in caption.split({"en": ". ", "zh": "。"}[lang]) if t.strip()][-1]
    assert {"en": "logical order", "zh": "逻辑顺序"}[lang] in said
    assert f"{ex['later'][0]}–{ex['later'][-1]}" in said
    assert len(said.split()) <= 12 if lang == "en" else len(said) <= 36   # ≤ 12 words


def test_the_final_prediction_is_each_decoders_own_in_both_orders(tiny_lm):
    """The end of the worked example's chain (wedlm.attention.final_prediction): the mask's prediction
    after the last layer, fed in physical order (the streaming decoder's forward) and in logical order
    (the reference decoder's), is what those decoders recorded for that mask at that step."""
    config = DecodeConfig(max_new_tokens=16, threshold=0.9)
    trace = decode(tiny_lm, "Count: 1 2 3", "streaming", config)
    ref = decode(tiny_lm, "Count: 1 2 3", "reference", config)
    assert ref.result.token_ids == trace.result.token_ids
    steps = [k for k, s in enumerate(trace.steps) if s.filled_behind_mask] or \
            [k for k, s in enumerate(trace.steps) if s.first_mask_pos is not None]
    for step in steps[:2]:
        ex = reorder_attention(tiny_lm, trace, step)
        final, s = ex["final"], trace.steps[step]
        assert final["layers"] == tiny_lm.model.config.num_hidden_layers
        assert final["physical"]["row"] == ex["physical_row"] and final["logical"]["row"] == ex["logical_row"]
        mine = {m.pos: m.entropy for m in s.masks}[ex["pos"]]
        theirs = {m.pos: m.entropy for m in ref.steps[step].masks}[ex["pos"]]
        assert abs(final["physical"]["entropy"] - mine) < 1e-5 and abs(final["logical"]["entropy"] - theirs) < 1e-5
        # the two orders predict the same: the same top token, its probability and entropy up to rounding
        assert final["physical"]["token"] == final["logical"]["token"]
        assert final["physical"]["text"] == tiny_lm.token_text(final["physical"]["token"])
        assert abs(final["physical"]["probability"] - final["logical"]["probability"]) < 1e-5
        filled = {f.pos: f for f in s.filled}.get(ex["pos"])
        if filled is not None:   # filled at this step: the decoder's own top candidate and its probability
            assert filled.candidates[0][0] == final["physical"]["token"]
            assert abs(filled.candidates[0][1] - final["physical"]["probability"]) < 1e-5


def final_shown(html: str) -> list[list[str]]:
    table = re.search(r'<table class="attn-table attn-final">(.*?)</table>', html).group(1)
    return [[re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
            for row in re.findall(r'<tr class="final">.*?</tr>', table)]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_worked_example_ends_on_the_recorded_final_prediction(lang):
    """A newcomer read layer 1 worked out, then "and so on to the same prediction", and could not see
    the end of the chain: the example shows the same mask's prediction after the last layer in both
    orders, the numbers the record's, and says "the same" only when they are."""
    data = load_tour()
    tl, step = data.at("reorder")
    ex = data.picks["reorder"]["attention"]
    final = ex["final"]
    # the record: the two orders' predictions agree, and agree with the decode's own numbers for that mask
    assert final["physical"]["token"] == final["logical"]["token"]
    assert abs(final["physical"]["entropy"] - final["logical"]["entropy"]) < 1e-4
    assert abs(final["physical"]["probability"] - final["logical"]["probability"]) < 1e-4
    at = data.picks["reorder"]["check"]["at_step"]   # the narration's pair: the same step and mask
    assert (at["step"], at["pos"]) == (ex["step"], ex["pos"])
    assert abs(final["physical"]["entropy"] - at["entropy"]) < 1e-5
    assert abs(final["logical"]["entropy"] - at["reference"]) < 1e-5
    filled = {f.pos: f for f in tl.trace.steps[step].filled}.get(ex["pos"])
    assert filled is None or filled.token == final["physical"]["token"]
    html = ch3_reordering.example_view(ex, tl, step, lang)
    rows = final_shown(html)
    assert len(rows) == 2
    for row, order in zip(rows, ("physical", "logical")):
        f = final[order]
        assert row[1:] == [glyphs.visible(f["text"]), f"{f['probability']:.3f}",
                           f"{f['entropy']:.{ch3_reordering.ENTROPY_PLACES}f}"], (order, row)
        # named by its order and decoder, never by a row counted from the prompt's start (on no picture)
        assert {"en": f"fed in {order} order", "zh": {"physical": "物理", "logical": "逻辑"}[order]}[lang] in row[0]
        assert not re.search(r"\d", row[0]), row[0]
    same = {"en": "The same prediction", "zh": "同样的预测"}[lang]
    assert same in html and f"{final['layers']}" in re.search(r'attn-final">(.*?)</th>', html).group(1)
    # numbers not the record's are not what it shows; two orders that disagree are not called the same
    other = dict(ex, final=dict(final, logical=dict(final["logical"], entropy=final["logical"]["entropy"] + 0.01,
                                                    token=final["logical"]["token"] + 1, text="zz")))
    changed = ch3_reordering.example_view(other, tl, step, lang)
    assert final_shown(changed)[1][1:] != rows[1][1:] and final_shown(changed)[1][1] == "zz"
    assert same not in changed
    # an older record without it: the chain in words, no table
    bare = ch3_reordering.example_view({k: v for k, v in ex.items() if k != "final"}, tl, step, lang)
    assert "attn-final" not in bare and "<table" in bare


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_example_says_why_a_mask_seeing_earlier_masks_is_harmless(lang):
    """In physical order a mask also sees the masks before it; the example says so on a mask of the step,
    naming the masks it sees, which are the same in the physical causal triangle, the reference decoder's
    mask (reorder.visibility) and training's reordered blocks (training.objective.block_visibility)."""
    data = load_tour()
    tl, step = data.at("reorder")
    s = tl.trace.steps[step]
    ex = data.picks["reorder"]["attention"]
    masks = [s.start + i for i, t in enumerate(s.window) if t is None]
    second = masks[1] - s.start
    physical = [s.start + j for j in s.order[:s.order.index(second)] if s.window[j] is None]
    trained = block_visibility(torch.tensor([t is None for t in s.window]))[second].tolist()
    assert physical == [s.start + j for j, seen in enumerate(trained) if seen and s.window[j] is None and j != second]
    html = ch3_reordering.example_view(ex, tl, step, lang)
    said = re.search(r'<p class="attn-masks">(.*?)</p>', html).group(1)
    assert f"{masks[1]}" in said and span(physical, lang=lang) in said
    for words in {"en": ("mask embedding", "position id", "chapter 9", "reference decoder"),
                  "zh": ("掩码嵌入", "位置编号", "第 9 章", "参考解码器")}[lang]:
        assert words in said, words
    # a window with one mask: no mask sees another, nothing to say
    one = replace(s, window=[t if t is not None or i == masks[0] - s.start else 0 for i, t in enumerate(s.window)])
    assert ch3_reordering.masks_seen(one, lang) == ""


def test_chapter_3_links_the_words_it_uses_before_explaining_them():
    """"leading filled run" (the orders view's title) and "reference decoder" (the worked example's
    caption) came before the chapter said what they are: both link to the glossary where they appear."""
    data = load_tour()
    tl, step = data.at("reorder")
    pick = data.picks["reorder"]
    for lang in ("en", "zh"):
        views = ch3_reordering.views(step, lang=lang, check=pick["check"], example=pick["attention"])
        assert 'data-term="leading-run"' in views.step["orders"](tl, step), lang
        title = re.search(r'<p class="attn-title">(.*?)</p>', views.step["attention"](tl, step)).group(1)
        assert 'data-term="reference"' in title, lang


def grid_rows(html: str) -> list[int]:
    """A grid's rows top to bottom, by the position id each is labelled with ("65:[M]")."""
    return [int(p) for p in re.findall(r'<g class="gr" data-pos="(\d+)"', html)]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_worked_example_names_every_row_as_the_grids_label_it(lang):
    """Walk 32: the example said "the mask in row 72" and "row in physical order: 67" for '·x' at 68, rows
    counted from the prompt's start, while the grids beside it label a row by its position id ("65:[M]";
    72 is another token's row there). Every row the example names is a grid row's label; where a token is
    fed is said as the grids draw it: above (before) or below (after) the mask's row, in each grid."""
    from app.views import render
    data = load_tour()
    tl, step = data.at("reorder")
    ex = data.picks["reorder"]["attention"]
    s = tl.trace.steps[step]
    physical = grid_rows(render.mask_grid(tl, step, logical=False, lang=lang))
    logical = grid_rows(render.mask_grid(tl, step, logical=True, lang=lang))
    assert sorted(physical) == logical == list(range(s.start, s.start + len(s.window)))
    html = ch3_reordering.example_view(ex, tl, step, lang)
    words = re.sub(r"<[^>]+>", "", html)
    # the rows counted from the prompt's start, where they differ from the id: said nowhere
    moved = [(r["physical_row"], r["pos"]) for r in ex["rows"] if r["physical_row"] != r["pos"]]
    assert moved and ex["physical_row"] != ex["pos"]
    for row, pos in moved + [(ex["physical_row"], ex["pos"])]:
        for said in {"en": (f"row {row}", f"rows {row}"), "zh": (f"第 {row} 行",)}[lang]:
            assert said not in words, said
    # every row named is a grid row's label
    named = re.findall({"en": r"\brows? (\d+)(?:–(\d+))?", "zh": r"第 (\d+)(?:–(\d+))? 行"}[lang], words)
    assert named
    for first, last in named:
        assert all(p in physical for p in range(int(first), int(last or first) + 1)), (first, last)
    # the table's ids: a grid row's label or inside the cached prefix (the grids' first column)
    rows, _ = shown_table(html)
    before, after = {"en": ("before", "after"), "zh": ("之前", "之后")}[lang]
    head = re.findall(r"<th[^>]*>(.*?)</th>", html)[2]
    assert {"en": "(fed: all before)", "zh": "（送入：都在之前）"}[lang] in head
    for r in rows[:-1]:
        pos = int(r[1])
        assert pos in physical or pos < s.start, pos
        # fed before the mask, as the first grid draws it (its row above the mask's, or in the prefix)
        assert pos < s.start or physical.index(pos) < physical.index(ex["pos"]), pos
        # in the text before / after it, as the second grid draws it
        assert r[2] == (before if pos < s.start or logical.index(pos) < logical.index(ex["pos"]) else after), (pos, r[2])
    assert any(r[2] == after for r in rows[:-1])   # the point: fed before it, after it in the text
    # a row fed after the mask (impossible: causal) is not called anything
    assert ch3_reordering.fed(ex, dict(ex["rows"][0], physical_row=ex["physical_row"] + 1), i18n.Texts(lang)) == ""
    # "first grid: rows 66–72 above row 65": the filled tokens after the mask sit above its row there
    assert all(physical.index(p) < physical.index(ex["pos"]) and logical.index(p) > logical.index(ex["pos"])
               for p in ex["later"])
    said = {"en": f"rows {span(ex['later'], lang=lang)} above row {ex['pos']}",
            "zh": f"第 {span(ex['later'], lang=lang)} 行在第 {ex['pos']} 行上面"}[lang]
    assert said in words, said


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_rope_reason_is_said_in_the_numbers_the_grids_label(lang):
    """Walk 32: "position ids, not rows" rested on a RoPE statement the app only asserted. The narration's
    third step and the example say it on the table's token after the mask: its id, the mask's and their
    difference (the score's only positional input), the same in both orders; a live run (no example)
    keeps the general words."""
    data = load_tour()
    tl, step = data.at("reorder")
    pick = data.picks["reorder"]
    ex = pick["attention"]
    (r,) = [r for r in ex["rows"] if r["after"]]
    gap = r["pos"] - ex["pos"]
    assert gap > 0 and r["pos"] in ex["later"]
    said = f"{r['pos']} − {ex['pos']} = {gap}"
    example = re.sub(r"<[^>]+>", "", ch3_reordering.example_view(ex, tl, step, lang))
    views = ch3_reordering.views(step, lang=lang, check=pick["check"], example=ex)
    narration = re.sub(r"<[^>]+>", "", views.step["text"](tl, step))
    for words in (example, narration):
        assert said in words and glyphs.visible(r["text"]) in words
        assert {"en": "in both orders", "zh": "两种顺序"}[lang] in words
    # the numbers are the record's: another after-token would be named instead
    other = dict(ex, rows=[dict(x, pos=x["pos"] + 1) if x["after"] else x for x in ex["rows"]])
    assert f"{r['pos'] + 1} − {ex['pos']} = {gap + 1}" in re.sub(r"<[^>]+>", "", ch3_reordering.example_view(other, tl, step, lang))
    # a live run, or another step of the decode: no numbers it does not draw
    live = re.sub(r"<[^>]+>", "", ch3_reordering.views(step, lang=lang).step["text"](tl, step))
    assert said not in live and "RoPE" not in live
    bare = dict(ex, rows=[x for x in ex["rows"] if not x["after"]])
    assert " − " not in re.sub(r"<[^>]+>", "", ch3_reordering.example_view(bare, tl, step, lang))


def test_every_layer_is_measured_in_both_orders_from_the_decoders_own_forwards(tiny_lm):
    """Chapter 3 said "the same sums, layer after layer" without showing it: final_prediction measures the
    mask's hidden state after every layer in both orders (a hook on each decoder layer, during the streaming
    decoder's cached window forward and the reference decoder's recompute). The two agree up to float
    rounding, and the rows read are the mask's: the last layer's, through the model's norm and LM head,
    gives the logits each forward returns for it."""
    lm = tiny_lm
    prefix = [5, 11, 29, 31, 7, 13, 3, 19]
    start, order, pos = len(prefix), physical_order(WINDOW), len(prefix) + 2
    final = final_prediction(lm, prefix, WINDOW, order, start, pos)
    layers = lm.model.config.num_hidden_layers
    assert final["layers"] == layers and final["hidden"] == lm.model.config.hidden_size
    assert [r["layer"] for r in final["by_layer"]] == list(range(1, layers + 1))
    for r in final["by_layer"]:
        assert r["size"] > 0 and r["diff"] <= 1e-5 * r["size"], r
    # the rows hooked are the mask's: its last hidden state gives the logits its forward returns
    base = lm.model.model
    k = [start + i for i, t in enumerate(WINDOW) if t is None].index(pos)
    for forward, row in ((CachedForward(lm), order.index(pos - start)), (RecomputeForward(lm), start + pos - start)):
        forward.prefill(list(prefix))
        with torch.no_grad():
            states, (logits, _) = layer_rows(lm, lambda: forward.forward(list(WINDOW), list(order), start), row)
            mine = lm.model.lm_head(base.norm(states[-1].float()[None]))[0]
        assert len(states) == layers
        assert torch.allclose(mine, logits[k], atol=1e-4), type(forward).__name__
    # a row the forward does not have is an error, not a silent wrong number
    forward = CachedForward(lm)
    forward.prefill(list(prefix))
    with pytest.raises(ValueError):
        layer_rows(lm, lambda: forward.forward(list(WINDOW), list(order), start), len(WINDOW))


def _causal(window: list) -> list[list[bool]]:
    return [[j <= i for j in range(len(window))] for i in range(len(window))]


def test_the_layer_check_catches_a_wrong_reordering(tiny_lm, monkeypatch):
    """The check would see a reordering gone wrong: the reference decoder's attention mask giving the mask a plain
    causal view (not the filled tokens after it), or the streaming forward numbering its rows by place
    instead of by position id (RoPE then reads the wrong distances): the layers' differences are far
    above float rounding, and chapter 3 would not call them rounding."""
    from wedlm.decoders import reference
    lm = tiny_lm
    prefix = [5, 11, 29, 31, 7, 13, 3, 19]
    args = (lm, prefix, WINDOW, physical_order(WINDOW), len(prefix), len(prefix) + 2)
    right = final_prediction(*args)["by_layer"]
    with monkeypatch.context() as m:
        m.setattr(reference, "visibility", _causal)
        blind = final_prediction(*args)
    real = lm.model.forward

    def by_row(*a, position_ids=None, past_key_values=None, **kw):
        if position_ids is not None and past_key_values is not None:   # the window over the cache
            done = past_key_values.get_seq_length()
            position_ids = torch.arange(done, done + position_ids.shape[-1])[None]
        return real(*a, position_ids=position_ids, past_key_values=past_key_values, **kw)

    with monkeypatch.context() as m:
        m.setattr(lm.model, "forward", by_row)
        rows = final_prediction(*args)
    tr = i18n.Texts("en")
    for wrong in (blind, rows):
        assert all(w["diff"] > 1e-3 * w["size"] for w in wrong["by_layer"]), wrong["by_layer"]
        assert all(w["diff"] > 100 * r["diff"] for w, r in zip(wrong["by_layer"], right))
        said = ch3_reordering.layers_view(wrong, tr)
        assert "more than float rounding" in said and "nothing more" not in said
    assert "nothing more" in ch3_reordering.layers_view(final_prediction(*args), tr)


def layers_shown(html: str) -> list[list[str]]:
    table = re.search(r'<table class="attn-table attn-layers">.*?<tbody>(.*?)</tbody>', html).group(1)
    return [re.findall(r"<td[^>]*>(.*?)</td>", row) for row in re.findall(r"<tr>.*?</tr>", table)]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_chapter_3_shows_the_recorded_difference_after_every_layer(lang):
    """Walk: "the same sums, layer after layer, up to layer N" was only asserted. Chapter 3's worked example
    shows, under the Σ table, one line per layer from the record: how far apart the mask's output is in the
    two orders (at most: rounded up) and its largest number; "float rounding" only when the numbers say so."""
    data = load_tour()
    tl, step = data.at("reorder")
    pick = data.picks["reorder"]
    ex = pick["attention"]
    final = ex["final"]
    by_layer = final["by_layer"]
    assert len(by_layer) == final["layers"] and final["hidden"] > 0
    # the record: the orders agree after every layer up to float rounding, and the end is the prediction's
    assert all(0 <= r["diff"] <= ch3_reordering.ROUNDING * r["size"] for r in by_layer), by_layer
    views = ch3_reordering.views(step, lang=lang, check=pick["check"], example=ex)
    # under the Σ table: the example's end, its own slot (a pane of its own when presenting flips)
    html = views.step["attention_end"](tl, step)
    assert "attn-layers" not in views.step["attention"](tl, step)
    assert "attn-layers" not in views.step["attention_end"](tl, step + 1)
    rows = layers_shown(html)
    assert [int(r[0]) for r in rows] == [r["layer"] for r in by_layer] == list(range(1, final["layers"] + 1))
    for cells, r in zip(rows, by_layer):
        shown = float(cells[1])
        assert r["diff"] <= shown <= max(r["diff"] * 10, 1e-12) and cells[1] == ch3_reordering.at_most(r["diff"])
        assert float(cells[2]) == round(r["size"], 1)
    words = re.sub(r"<[^>]+>", "", html)
    verdict = re.search(r'<p class="attn-verdict">(.*?)</p>', html).group(1)
    assert ch3_reordering.at_most(max(r["diff"] for r in by_layer)) in verdict
    assert f"{max(r['size'] for r in by_layer):.1f}" in verdict and str(final["layers"]) in verdict
    assert {"en": "float rounding, nothing more", "zh": "只是浮点舍入"}[lang] in verdict
    assert f"{final['hidden']}" in words
    # the layer's width beside one head's value, both from the record (walk 25: "a value is 64 numbers"
    # beside "256 numbers", never reconciled)
    width = {"en": f"{final['hidden']} numbers, the model's width: the layer mixes its {ex['heads']} heads' values "
                   f"of {ex['head_dim']} into it",
             "zh": f"{final['hidden']} 个数，即模型的宽度：该层把 {ex['heads']} 个注意力头各 {ex['head_dim']} 个数的值"}[lang]
    assert width in words, words[:400]
    # the two decoders of the prediction table, each linked to its glossary entry at this first use
    assert 'data-term="streaming"' in html and 'data-term="reference"' in html
    # the page's own slot and the presenting button's copy both carry it
    assert "attn-layers" in ch3_reordering.example_pop(ex, tl, step, lang)
    # the numbers are the record's: another record shows its own, and a large difference is not "rounding"
    worse = [dict(r, diff=r["size"] * 0.1) for r in by_layer]
    other = dict(ex, final=dict(final, by_layer=worse))
    changed = ch3_reordering.example_view(other, tl, step, lang)
    assert [c[1] for c in layers_shown(changed)] == [ch3_reordering.at_most(r["diff"]) for r in worse]
    assert {"en": "more than float rounding", "zh": "超出了浮点舍入"}[lang] in changed
    assert {"en": "nothing more", "zh": "别无其他"}[lang] not in changed
    # an older record without the layers measured: no table, and no claim about them either
    bare = ch3_reordering.example_view(dict(ex, final={k: v for k, v in final.items() if k != "by_layer"}), tl, step, lang)
    assert "attn-layers" not in bare and {"en": "layer after layer", "zh": "一层接一层"}[lang] not in bare


def test_the_example_names_its_value_number_and_the_after_tokens_without_a_row():
    """Walk: "the table follows number 57, this head's largest output in size" and "the other 6 (0.06) are
    in 'the other 68 tokens together'" read as impenetrable: the number followed is one of the value's,
    the largest this head outputs, and the filled tokens after the mask without a row are named."""
    data = load_tour()
    tl, step = data.at("reorder")
    ex = data.picks["reorder"]["attention"]
    words = re.sub(r"<[^>]+>", "", ch3_reordering.example_view(ex, tl, step))
    assert (f"A value is {ex['head_dim']} numbers; the table follows one of them (number {ex['coordinate'] + 1}, "
            "the largest this head outputs)") in words
    (top,) = [r for r in ex["rows"] if r["after"]]
    rest = [p for p in ex["later"] if p != top["pos"]]
    assert f"the {len(rest)} more filled tokens after the mask ({span(rest)})" in words
    assert f"inside “the other {ex['others']['count']} tokens together”" in words


def test_chapter_3_names_the_sum_table_only_on_the_step_that_draws_it():
    """Walk 26 read "(the Σ table adds one up by hand)" at step 5, where no Σ table is drawn: the words
    point at the table only on the worked example's step, the one step whose view draws it."""
    data = load_tour()
    tl, _ = data.at("reorder")
    pick = data.picks["reorder"]
    ex = pick["attention"]
    views = ch3_reordering.views(ex["step"], check=pick["check"], example=ex)
    said_at = []
    for k in range(len(tl.trace.steps)):
        words = ch3_reordering.text(tl, k, example=ex)
        drawn = "attn-table" in views.step["attention"](tl, k)
        assert ("Σ table" in words) == drawn, (k, drawn)
        said_at += [k] if drawn else []
    assert said_at == [ex["step"]]
