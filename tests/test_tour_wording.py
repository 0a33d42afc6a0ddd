"""Issue 32 (a newcomer walked the Tour): chapter 1 says how steps and forwards are numbered before
its first step number and names the forward beside the step, as every stepper's counter now does;
chapter 10 says why its window carries fewer masks than chapter 2's W; chapter 2's stop token's KV
is told in the order it happened; chapter 8's try-it box says where it starts and why."""
import re
from html import unescape

import pytest

from app import i18n
from app.tabs import tour
from app.tabs.tour import ch1_ar, ch8_tau, ch10_verified
from app.views import stepper
from wedlm.decoders.window_policy import leading_filled

LANGS = ("en", "zh")


@pytest.fixture(scope="module")
def data():
    return tour.load_tour()


def plain(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", html))


@pytest.mark.parametrize("lang", LANGS)
def test_chapter_1_says_the_numbering_rule_before_its_first_step_number(data, lang):
    """The rule came a paragraph after "at step 4" and "after 59 forwards"; now it opens the paragraph
    that first names a step, and that step's forward and the steps' range are named beside them."""
    tl, step = data.at("ar")
    said = plain(ch1_ar.text(tl, step, step, lang=lang))
    rule = plain(i18n.text(lang, "ch1.rule"))
    first_step = re.search(r"\bstep \d" if lang == "en" else r"第 \d+ 步", said)
    assert rule in said and first_step and said.index(rule) < first_step.start()
    assert said.index(rule) < said.index(str(tl.num_steps))   # before "After 59 forwards" too
    if lang == "en":
        assert f"at step {step} (forward {step + 1})" in said
        assert f"After {tl.num_steps} forwards (steps 0–{tl.num_steps - 1})" in said
    else:
        assert f"第 {step} 步（第 {step + 1} 次前向计算）" in said
        assert f"（第 0–{tl.num_steps - 1} 步）" in said


@pytest.mark.parametrize("lang", LANGS)
def test_a_steppers_counter_names_the_forward_beside_the_step(data, lang):
    """"step 4 of 0–58" sat beside "After 59 forwards": the counter names the step's forward too
    (stepper.js keeps it at the step + 1 as the slider moves)."""
    tl, step = data.at("ar")
    html = stepper.bundle_html(tl, "t", ch1_ar.views(step, lang), start=step, lang=lang)
    shown = re.search(r'<output class="stepper-forward">(\d+)</output>', html)
    assert shown and int(shown.group(1)) == step + 1
    counter = plain(html.split('<label class="stepper-range">', 1)[1].split("</label>", 1)[0])
    word = f"forward {step + 1}" if lang == "en" else f"第 {step + 1} 次前向计算"
    assert word in counter and f"0–{tl.num_steps - 1}" in counter


@pytest.mark.parametrize("lang", LANGS)
def test_chapter_10_says_why_its_window_carries_fewer_masks_than_w(data, lang):
    """"W caps the masks, not the rows" and a "cost-aware window" beside 7 masks read as a
    contradiction of chapter 2's "the window keeps W slots". The chapter's step says W is only a most
    and the cost-aware window picks the count by what agreeing drafts are expected to pay; and that
    is the reason here: neither the token budget nor a drafted stop token cut the window."""
    tl, step = data.at("verified")
    s, w = tl.trace.steps[step], tl.trace.config["window"]
    masks = sum(t is None for t in s.window)
    assert 0 < masks < w
    said = plain(ch10_verified.text(tl, step, step, lang=lang))
    assert plain(i18n.text(lang, "ch10.window_short", masks=masks, w=w)) in said
    if lang == "en":
        assert f"fewer than chapter 2's W = {w} slots" in said and "caps the masks, not the rows" not in said
        assert "at most W masks, as many as its cost-aware window expects agreeing drafts to pay for" in said
    else:
        assert f"少于第 2 章的 W = {w} 个槽位" in said and "由成本感知窗口按一致的草稿预计能抵多少开销来定" in said
    # the reason said is the one that held: room for more (budget) and no stop draft in the window
    room = tl.trace.config["max_new_tokens"] - s.start + len(tl.trace.prompt_ids)
    assert room > w
    assert not any(t in tl.trace.stop_ids for t in s.window[1:] if t is not None)


@pytest.mark.parametrize("lang", LANGS)
def test_chapter_2s_stop_token_kv_is_told_in_the_order_it_happened(data, lang):
    """"Here a later forward (step 13) read the stop token after step 8 wrote it" was hard to parse:
    the sentence says the filling step first, then the step whose forward read it with no mask
    before it, from the record."""
    tl, _ = data.at("fill_rule")
    last = tl.num_steps - 1
    stops = tl.trace.stop_ids
    end = tl.trace.steps[last]
    pos = next(end.start + i for i, t in enumerate(end.committed) if t in stops)
    wrote = max(s.index for s in tl.trace.steps for f in s.filled if f.pos == pos and f.token in stops)
    read = next(s.index for s in tl.trace.steps[wrote + 1:]
                if 0 <= pos - s.start < len(s.committed) and s.window[pos - s.start] in stops)
    # every forward in between that held it had a mask before it (so none cached its KV)
    for s in tl.trace.steps[wrote + 1:read]:
        i = pos - s.start
        if 0 <= i < len(s.window):
            assert i >= leading_filled(s.window)
    said = plain(tour.CHAPTERS[1].text(tl, last, lang=lang))
    if lang == "en":
        first, then = f"step {wrote} filled the stop token", f"step {read}'s forward read it with no mask before it"
    else:
        first, then = f"第 {wrote} 步把停止词元填进了一个掩码槽位", f"第 {read} 步的前向计算读入它时，它前面已没有掩码"
    assert first in said and then in said and said.index(first) < said.index(then)


@pytest.mark.parametrize("lang", LANGS)
def test_chapter_8s_try_box_says_where_it_starts_and_why(data, lang):
    """"answer the questions live at this τ" beside a box holding 2 read as the chapter's 0.4: the box
    starts at the record's worst τ (the wrong answers the chapter lists) and its label says so."""
    rows = data.tau_sweep["rows"]
    start, label = ch8_tau.try_start(data.tau_sweep, lang)
    fewest = min(r["right"] for r in rows)
    assert start == max(r["threshold"] for r in rows if r["right"] == fewest)
    assert f"{start:g}" in label
    assert ch8_tau.view(data.tau_sweep, lang=lang)[2].count(f"τ = {start:g}") >= 1   # the listed wrong answers
    # with no record it starts at the tour's τ and says that
    tour_tau, plain_label = ch8_tau.try_start({"rows": []}, lang)
    assert f"{tour_tau:g}" in plain_label and tour_tau == tl_tau(data)


def tl_tau(data) -> float:
    return data.at("fill_rule")[0].trace.config["threshold"]
