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


# ---------- walk: the recap's answers right at 85 % confidence (words3) ----------

def _page(data, lang: str = "en") -> dict[int, str]:
    """Each chapter's narration as it opens on the page, in chapter order (chapters 2 and 4 with their
    recorded greedy text, as their builders pass it)."""
    c, race = tour.CHAPTERS, data.picks["race"]
    out = {}
    for n, pick in ((1, "ar"), (2, "fill_rule"), (3, "reorder"), (4, "commit"), (10, "verified")):
        tl, step = data.at(pick)
        greedy = (data.greedy.get(data.picks[pick]["trace"]) or {}).get("text") if n in (2, 4) else None
        out[n] = c[n - 1].view(tl, step, lang=lang, **({"greedy": greedy} if greedy else {}))[0]
    out[5] = c[4].view(*data.at("stall"), data.timelines["stall-branch"], data.picks["stall"]["penalty"], lang=lang)[0]
    out[6] = c[5].view({"ar": data.timelines[race["ar"]], "streaming": data.timelines[race["streaming"]]},
                       race["tick"], lang=lang)[0]
    out[7] = c[6].view(data.law_rows, data.at("entropy_low"), data.at("entropy_high"), code=data.at("entropy_code"),
                       lang=lang)[0]
    table = data.at("fill_rule")[0].trace
    out[8] = c[7].view(data.tau_sweep, lang=lang, table=table,
                       greedy=(data.greedy.get(data.picks["fill_rule"]["trace"]) or {}).get("text"))[0]
    tl, step = data.at("reorder")
    out[9] = c[8].view([t is None for t in tl.trace.steps[step].window], 8, "a test pattern", lang=lang)[0]
    out[11] = c[10].view(data, lang=lang)[0]
    return dict(sorted(out.items()))


@pytest.mark.parametrize("lang", LANGS)
def test_final_is_said_in_both_senses_alike_in_chapter_4_and_the_recap_and_scoped_to_wedlm(data, lang):
    """"Which tokens become final?" was answered right but unsurely: "final" has two senses. The recap's
    answer and chapter 4 say both in one sentence, the same words (tour.final): a filled token never
    changes; it commits (output, KV kept) only in the leading filled run, a forward after its fill at
    the earliest. The recap scopes it to WeDLM (chapters 2–9: chapter 1 is the AR model), without chapter 10's rules. The
    record shows each part true."""
    from app.tabs.tour import ch4_commit, ch11_recap
    from app.tabs.tour.words import final_words
    final = plain(final_words(lang))
    tl, moment = data.at("commit")
    card = plain(next(c for c in ch11_recap.cards(data, lang) if c["chapter"] == 4)["answer"])
    ch4 = plain(ch4_commit.text(tl, moment, moment, lang=lang))
    two = {"en": "“final” has two senses: ", "zh": "“定稿”有两层意思："}[lang]
    assert (two + final) in card and (two[0] + two[1].upper() + two[2:] if lang == "en" else two) + final in ch4
    said = {"en": ("filled, a token never changes", "(is output, its KV kept) only in the leading filled run",
                   "a forward after its fill at the earliest"),
            "zh": ("填上后，词元就不会再改", "（被输出，KV 留在缓存中）", "最早在被填上后的下一次前向计算")}[lang]
    assert all(p in final for p in said)
    # scoped to WeDLM, and no word of chapter 10's rules in the answer (walk 24 read "chapter 10 can
    # replace a draft" there as the recap contradicting "a filled token never changes")
    scope = {"en": ("In WeDLM (chapters 2–9)", "Chapter 10"), "zh": ("在 WeDLM 中（第 2–9 章）", "第 10 章")}[lang]
    assert card.startswith(scope[0]) and scope[1] not in card and scope[0] not in ch4
    # the record: in chapter 4's streaming decode a filled slot keeps its token and commits a forward
    # after its fill at the earliest, in the leading filled run; chapter 10's verified decode replaced a draft
    steps, filled_at, token = tl.trace.steps, {}, {}
    for s in steps:
        for f in s.filled:
            filled_at.setdefault(f.pos, s.index)
            token.setdefault(f.pos, f.token)
        for i, t in enumerate(s.committed):
            p = s.start + i
            assert token.get(p, t) == t
            assert p not in filled_at or filled_at[p] < s.index, (p, s.index)
        assert len(s.committed) <= leading_filled(s.window) or s.finished
    assert any(s.committed and filled_at.get(s.start) == s.index - 1 for s in steps)   # "at the earliest" is met
    assert any(s.verify is not None and s.verify.replaced for s in data.at("verified")[0].trace.steps)


@pytest.mark.parametrize("lang", LANGS)
def test_chapter_8_says_why_right_answers_hold_flat_from_how_many_texts_are_greedys(data, lang):
    """Readers saw right answers flat from τ = 0.1 to 0.6 and not why. Chapter 8 says, from the record's
    `differs`, up to which τ no more texts differ from greedy's than at the smallest τ, how many are
    greedy's word for word there, and that above it more differ (and answers go wrong where fewer are
    right)."""
    rows = sorted(data.tau_sweep["rows"], key=lambda r: r["threshold"])
    low, total = rows[0], rows[0]["total"]
    k = 0
    while k + 1 < len(rows) and rows[k + 1]["differs"] <= low["differs"]:
        k += 1
    assert k > 0, "the record has no larger τ with as few texts unlike greedy's"
    flat, above = rows[k], rows[k + 1:]
    words = " ".join(plain(_page(data, lang)[8]).split())
    same = total - low["differs"]
    sentence = {"en": f"{same} of {total} texts are greedy's word for word; ",
                "zh": f"{total} 题中有 {same} 题的文本与贪心文本一字不差"}[lang]
    assert sentence in words
    # walk 25: "a mask that sure gets greedy's token" was not why; the others differ at every τ there, out of
    # order (the same questions when the record's outputs say so)
    assert "a mask that sure" not in words
    ids = {frozenset(o["id"] for o in r["outputs"] if o["differs"]) for r in rows[:k + 1]}
    differ = ({"en": f"the same {low['differs']} differ at each τ, filled out of order",
               "zh": f"每个 τ 下都是同样的 {low['differs']} 题不同，因为乱序填充"} if len(ids) == 1 else
              {"en": f"at most {low['differs']} differ, filled out of order", "zh": f"最多 {low['differs']} 题不同"})[lang]
    assert differ in words
    kept = ch8_tau.last_as_right(rows)
    if kept is not None and kept["threshold"] == flat["threshold"]:   # "In that range", after ch8.kept's τ
        assert {"en": "In that range", "zh": "在这个范围内"}[lang] in words
    else:
        assert {"en": f"Up to τ = {flat['threshold']:g}, {same}", "zh": f"直到 τ = {flat['threshold']:g}，"}[lang] in words
    assert bool(above) == ({"en": "above it more differ", "zh": "不同的文本就更多"}[lang] in words)
    wrong = any(r["right"] < flat["right"] for r in above)
    assert wrong == ({"en": "and answers go wrong", "zh": "答案也会出错"}[lang] in words)
    assert all(r["differs"] > low["differs"] for r in above[:1])   # where it stops


def test_chapter_8s_greedy_sentence_follows_the_record_it_is_given():
    """The sentence is computed: on other rows it names another τ and count, drops "answers go wrong"
    where they do not, and says nothing where the texts differ more from the second τ on."""
    tr = i18n.Texts("en")

    def rows(differs, right):
        return [{"threshold": t, "total": 10, "right": r, "differs": d, "tokens_per_forward": 1.0}
                for t, d, r in zip((0.1, 0.5, 1.0, 2.0), differs, right)]

    said = plain(ch8_tau.same_words(rows((1, 1, 1, 4), (9, 9, 9, 6)), tr, 10))
    assert "Up to τ = 1, 9 of 10 texts are greedy's word for word" in said and "answers go wrong" in said
    said = plain(ch8_tau.same_words(rows((2, 1, 3, 4), (9, 9, 9, 9)), tr, 10))
    assert "Up to τ = 0.5, 8 of 10" in said and "above it more differ" in said and "answers go wrong" not in said
    assert ch8_tau.same_words(rows((1, 2, 3, 4), (9, 9, 9, 6)), tr, 10) == ""
    assert "above it" not in ch8_tau.same_words(rows((1, 1, 1, 1), (9, 9, 9, 9)), tr, 10)
    assert ch8_tau.same_words([{k: v for k, v in r.items() if k != "differs"} for r in rows((1, 1, 1, 4), (9,) * 4)], tr, 10) == ""


def test_row_greedy_and_block_decoding_are_defined_where_the_tour_first_uses_them(data):
    """Walk: "row" was used from chapter 1 but defined in chapter 6; "the model's own one-at-a-time text"
    (chapters 2, 4, 8) and "greedy" (8, glossary) were two names for one text; "block decoding" first came
    in chapter 6's aside. Read in chapter order, each is defined where the tour first says it."""
    page = {n: " ".join(plain(html).split()) for n, html in _page(data).items()}
    html = _page(data)

    def first(pattern):
        return next((n, m) for n, text in page.items() for m in [re.search(pattern, text)] if m)

    n, m = first(r"\brows?\b")
    assert n == 1 and page[n][m.end():].startswith(" per forward (a row: one input position of a forward, one token fed)")
    assert "a row is one slot" not in page[6]   # chapter 6 no longer defines it a second time
    n, m = first(r"greedy|one-at-a-time text|left-to-right text")
    assert m.group(0) == "greedy" and page[n][m.end():].startswith(
        " (WeDLM's own left-to-right text, the likeliest token each time)"), (n, page[n][m.start():m.start() + 90])
    assert 'data-term="greedy"' in html[n]
    for k in (2, 4, 8):   # one name: the phrase is only ever greedy's definition
        assert "one-at-a-time text" not in page[k], k   # walk 25: "no τ" fills one at a time too, out of order
        for hit in re.finditer(r"(?:own left-to-right text|one token at a time)", page[k]):
            assert "greedy" in page[k][max(0, hit.start() - 30):hit.start()], (k, page[k][hit.start() - 40:hit.end()])
    n, m = first(r"block decoding")
    assert n == 6 and "fills a block of masks over several forwards and commits it only when all of it is filled" \
        in page[n][m.start():m.start() + 140]


@pytest.mark.parametrize("lang", LANGS)
def test_a_finished_times_table_with_every_line_right_says_so(data, lang):
    """Walk 22: a live re-decode in chapter 2 (τ = 1) never said whether 7 × 10 came out right. A
    finished times table with no wrong line says it checks, counting its lines; one with a wrong line
    says the slip instead, and a step before the end says neither."""
    import copy
    from app.tabs.tour import ch2_fill_rule, ch4_commit
    tl0, _ = data.at("fill_rule")
    lines = re.findall(r"(\d+) x (\d+) = (\d+)", tl0.trace.text)
    fixed = copy.deepcopy(tl0)
    text = fixed.trace.text
    for a, b, c in lines:
        text = text.replace(f"{a} x {b} = {c}", f"{a} x {b} = {int(a) * int(b)}")
    fixed.trace.text = text
    right = i18n.text(lang, "tour.table_right", n=len(lines), last=f"{lines[-1][0]} x {lines[-1][1]} = "
                      f"{int(lines[-1][0]) * int(lines[-1][1])}")
    last = tl0.num_steps - 1
    for chapter in (lambda tl, k: ch2_fill_rule.text(tl, k, k, lang=lang),
                    lambda tl, k: ch4_commit.text(tl, k, k, lang=lang)):
        assert plain(right) in plain(chapter(fixed, last))
        assert plain(right) not in plain(chapter(fixed, 0))          # not before the table is finished
        wrong = ch8_tau.wrong_products(tl0.trace.text)
        assert bool(wrong) != (plain(right) in plain(chapter(tl0, last)))   # the recorded slip: no "all right"


def test_a_decoders_mask_is_always_called_an_attention_mask():
    """Walk 29: chapter 3 said "the reference decoder's mask" and "a mask" (an [M] slot) in one
    sentence. Wherever the page names a decoder's mask of attention, it says "attention mask"; a bare
    "mask" is an [M] slot."""
    for key, msg in i18n.catalog().items():
        en = msg["en"]
        assert not re.search(r"(?:decoder|\{reference\})'s mask\b", en), (key, en)
    for key in ("ch3.example.logical_sees", "ch3.example.masks"):
        assert "attention mask" in i18n.text("en", key) and "注意力掩码" in i18n.text("zh", key), key
