"""The tour's chapters 6-10 in Chinese (app/i18n/tour_late.py): drawn from the recorded tour, their
words and views leave no English but token text and names, they state the same steps and numbers
as the English, and chapter 10 still says it goes beyond the paper."""
from __future__ import annotations

import re
from html import escape, unescape

import pytest

from app import i18n
from app.tabs import tour
from app.tabs.tour import ch6_race, ch7_entropy, ch8_tau, ch9_training, ch10_verified
from app.tabs.tour.frame import drawn
from i18n_check import english_left, figure_words
from test_browser import browser  # noqa: F401 (the headless Chromium fixture)

LATE = {6: ch6_race, 7: ch7_entropy, 8: ch8_tau, 9: ch9_training, 10: ch10_verified}


@pytest.fixture(scope="module")
def data():
    return tour.load_tour()


def late_views(data, lang: str) -> dict[int, tuple]:
    """Chapters 6-10's outputs as each opens in `lang` (the calls its build makes)."""
    race = data.picks["race"]
    tl, first = data.at("reorder")
    step = ch9_training.example_step(tl, first)
    pattern = [t is None for t in tl.trace.steps[step].window]
    source = i18n.text(lang, "ch9.source_ch3", step=step, slots=len(pattern))
    return {6: ch6_race.view({"ar": data.timelines[race["ar"]], "streaming": data.timelines[race["streaming"]]},
                             race["tick"], lang=lang),
            7: ch7_entropy.view(data.law_rows, data.at("entropy_low"), data.at("entropy_high"),
                                code=data.at("entropy_code"), lang=lang),
            8: ch8_tau.view(data.tau_sweep, lang=lang),
            9: ch9_training.view(pattern, 8, source, lang=lang),
            10: ch10_verified.view(*data.at("verified"), lang=lang)}


def plain(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", " ", html))


def leftovers(outputs) -> list[str]:
    return [w for o in outputs for w in english_left(o if isinstance(o, str) else figure_words(o))]


def drawn_steps(outputs) -> set[int]:
    """The steps a chapter's views draw (data-step on HTML, layout.meta.step on a figure)."""
    steps = set()
    for o in outputs:
        if isinstance(o, str):
            steps |= {int(x) for x in re.findall(r'class="tour-step[\w -]*" data-step="(-?\d+)"', o)}
            steps |= {int(x) for x in re.findall(r'class="at-step now" data-at-step="(-?\d+)"', o)}
        elif getattr(o.layout, "meta", None):
            steps.add(o.layout.meta["step"])
    return steps


def test_every_late_chapter_has_a_chinese_title():
    for n, module in LATE.items():
        zh, en = module.title("zh"), module.title("en")
        assert en == module.TITLE and zh != en and zh.startswith(f"{n} · "), n
        assert re.search(r"[\u4e00-\u9fff]", zh) and not english_left(zh), (n, zh)


def test_chinese_chapters_leave_no_english_but_tokens_and_names(data):
    for n, outputs in late_views(data, "zh").items():
        if n == 7:   # the suite's entropy figure: its own test below
            outputs = outputs[:1] + outputs[2:]
        assert not leftovers(outputs), (n, leftovers(outputs))
        assert re.search(r"[\u4e00-\u9fff]", outputs[0]), n


def test_chapter_7s_entropy_figure_in_chinese(data):
    law = late_views(data, "zh")[7][1]
    assert not english_left(figure_words(law)), english_left(figure_words(law))


def test_english_chapters_stay_english(data):
    """The check sees English where there is English: the same chapters in English fail it."""
    for n, outputs in late_views(data, "en").items():
        assert len(english_left(outputs[0])) > 20, n
        assert not re.search(r"[\u4e00-\u9fff]", plain(outputs[0])), n


def test_chinese_words_name_every_step_their_views_draw(data):
    for n, outputs in late_views(data, "zh").items():
        words = plain(outputs[0])
        for step in drawn_steps(outputs[1:]):
            assert f"第 {step} 步" in words, (n, step)
    zh = late_views(data, "zh")
    (_, lstep), (_, hstep) = data.at("entropy_low"), data.at("entropy_high")
    assert f"第 {lstep} 步" in plain(zh[7][0]) and f"第 {hstep} 步" in plain(zh[7][0])
    assert f"第 {data.picks['race']['tick'] - 1} 步" in plain(zh[6][0])


def test_chinese_verified_chapter_steps_through_every_step(data):
    """Chapter 10's stepper in Chinese: at every step its words name the step, say what the
    check did, and leave no English (the steps with no rejection read the Decode tab's narration)."""
    tl, moment = data.at("verified")
    views = ch10_verified.views(moment, lang="zh")
    for k in range(tl.num_steps):
        outputs = drawn(views, tl, k)
        assert f'class="tour-text" data-step="{k}"' in outputs[0], k
        assert f"第 {k} 步" in plain(outputs[0]), k
        assert not leftovers(outputs), (k, leftovers(outputs))


def test_chinese_narration_carries_the_recorded_numbers(data):
    zh = late_views(data, "zh")
    rows = data.tau_sweep["rows"]
    worst = min(rows, key=lambda r: (r["right"], -r["threshold"]))
    assert (f"τ = {worst['threshold']:g} 时：每次前向计算 {worst['tokens_per_forward']:.2f} 个，"
            f"但 {rows[0]['total']} 道题只答对 {worst['right']} 道") in plain(zh[8][0])
    for o in worst["outputs"]:
        assert (unescape(o["question"]) in unescape(zh[8][2])) == (not o["right"])
    tl, step = data.at("verified")
    s = tl.trace.steps[step]
    v = s.verify
    words = plain(zh[10][0])
    assert "超出论文的部分" in words and "流式" in words
    assert f"{v.rejected_pos} 处的草稿" in words and "被拒绝 ✗" in words
    assert f"{s.cache_before} → {s.cache_after}" in words and f"共检验了 {v.accepted + 1} 个草稿" in words   # the ✓ and the ✗ (render.verify_marks)
    st = data.timelines[data.picks["race"]["streaming"]].trace.stats()
    assert f"{st['tokens_per_forward']:.2f}" in plain(zh[6][0])


def test_a_chinese_fallback_sums_up_the_live_run(data):
    tl = data.timelines["verified"]
    k, note = ch10_verified.fallback(tl, lang="zh")
    st = tl.trace.stats()
    assert k == tl.num_steps - 1 and f"第 {k} 步" in note and str(st["forwards"]) in note
    assert not english_left(note), english_left(note)


def test_english_is_the_default_and_unchanged_by_the_catalog(data):
    """Every chapter's view without a language is its English view."""
    en = late_views(data, "en")
    race = data.picks["race"]
    assert ch6_race.view({"ar": data.timelines[race["ar"]], "streaming": data.timelines[race["streaming"]]},
                         race["tick"])[0] == en[6][0]
    assert ch8_tau.view(data.tau_sweep)[0] == en[8][0] and ch8_tau.view(data.tau_sweep)[2] == en[8][2]
    assert ch10_verified.view(*data.at("verified"))[0] == en[10][0]


# ---------- in a real browser, on the Chinese page ----------

# The visible text of one chapter: every visible text node (the figures' SVG text too), without
# the model's text (token cells, the KV strip, lanes' text, prompts, form values, code).
CHAPTER_TEXT_JS = r"""n => {
  const skip = '.tok, .tokt, .kv, .rowt, .lanetext, .prompt, .cursor, [translate="no"], textarea, input, code, ' +
               'script, style, .sr-only';
  const root = document.querySelector('#chapter-' + n);
  const out = [];
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    const el = node.parentElement;
    if (!el || !node.textContent.trim() || el.closest(skip)) continue;
    if (el.checkVisibility && !el.checkVisibility({visibilityProperty: true, opacityProperty: false})) continue;
    out.push(node.textContent.trim());
  }
  return out.join('\n');
}"""


def test_the_chinese_page_walks_chapters_6_to_10(browser, app_url):  # noqa: F811
    """Each chapter as the /zh page draws it (words, views, try-it box, knobs, buttons): no
    English left but tokens and names, its title in the chapter picker, its step named."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(app_url.rstrip("/") + "/zh?chapter=6", wait_until="domcontentloaded")
        page.wait_for_selector("#tour-text-6 .tour-text", state="visible", timeout=180_000)
        for n, module in LATE.items():
            page.wait_for_selector(f"#tour-viz-{n}", state="visible", timeout=60_000)
            page.wait_for_selector(f"#tour-text-{n} .tour-text", state="visible", timeout=60_000)
            assert module.title("zh") in page.input_value("#tour-pick input"), n
            shown = page.evaluate(CHAPTER_TEXT_JS, n)
            left = english_left(escape(shown))
            assert not left, (n, left)
            assert re.search(r"[\u4e00-\u9fff]", page.inner_text(f"#tour-try-{n}")), n
            if n in (6, 7, 10):
                assert re.search(r"第 \d+ 步", page.inner_text(f"#tour-text-{n}")), n
            if n < 10:
                page.click("#tour-next")
    finally:
        page.close()


# a catalog string that says what W is: "W is …", "W: …" (an abbr's title), "(W = 16, …)", "W 是…", "W：…"
DEFINES_W = {"en": re.compile(r"\bW (?:is|means)\b|\bW: |\(W = [^)]*\)"), "zh": re.compile(r"W ?(?:是|：)|（W = [^）]*）")}
SLOTS = {"en": "slot", "zh": "槽位"}
MASKS = {"en": "mask", "zh": "掩码"}
VERIFIED = {"en": re.compile(r"verified decod", re.I), "zh": re.compile("验证解码")}
W_KEY = {"views.present.pane_key", "views.present.pane_key_title", "views.js.pane_title"}   # the keyboard's W key (presenting), not the window
W_AS_MASKS = {"en": re.compile(r"\bW (?:is|means) the (?:most|number of|largest number of) masks"),
              "zh": re.compile(r"W 是[^。；]*掩码数")}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_catalog_string_that_defines_w_says_slots(lang):
    """W is what each decoder makes of it (wedlm/decoders/core.py: streaming keeps W slots after the
    run it commits; verified.py + window_policy.py: this explorer's verified decoding carries m <= W
    masks, its rows are more). Every catalog string that says what W is says it in slots, none makes
    W a count of masks outright, and one that names verified decoding beside W says masks for it
    (walk 18: chapter 10 called W slots "always kept" beside a 14-row window of 7 masks)."""
    cat = i18n.catalog()
    defining = {key: texts[lang] for key, texts in cat.items()
                if DEFINES_W[lang].search(unescape(texts.get(lang, ""))) and key not in W_KEY}
    assert {"ch2.p1", "server.line"} <= set(defining), sorted(defining)
    for key, said in defining.items():
        assert SLOTS[lang] in said, (key, said)
        assert not W_AS_MASKS[lang].search(said), (key, said)
    both = {key for key, texts in cat.items()
            if re.search(r"\bW\b", texts.get(lang, "")) and VERIFIED[lang].search(texts.get(lang, ""))
            and key not in W_KEY}
    assert {"server.line", "gloss.window.def", "ch10.window", "ch10.window_short"} <= both, sorted(both)
    for key in both:
        assert MASKS[lang] in cat[key][lang], (key, cat[key][lang])


def test_the_verified_decoder_caps_masks_at_w_not_rows(data):
    """What chapter 10 says W is, the record bears out: no forward carries more than W masks, and
    some read more than W rows (slot 0 and the drafts ride beside the masks)."""
    tl, _ = data.at("verified")
    w = tl.trace.config["window"]
    assert all(sum(t is None for t in s.window) <= w for s in tl.trace.steps)
    assert any(s.rows > w for s in tl.trace.steps)


def test_chapter_10_says_w_caps_its_masks_not_its_rows(data):
    """Chapter 10's window words, at its moment and at a step outside it, say W caps the masks (at its
    moment: "carries at most W masks", beside chapter 2's W slots)."""
    tl, step = data.at("verified")
    for k in (step, 0, tl.num_steps - 1):
        for lang in ("en", "zh"):
            said = " ".join(unescape(re.sub(r"<[^>]+>", "", ch10_verified.text(tl, k, step, lang=lang))).split())
            assert re.search(r"carries at most W masks|counts W in masks, not rows|"
                             r"最多带 W 个掩码|用掩码数而不是行数来算 W", said), (k, lang, said)
            assert "always keeps W" not in said and "始终保留 W" not in said


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_chapter_10_rows_and_masks_words_match_the_trace_at_every_step(data, lang):
    """Walk 18: chapter 10 said the window "always keeps W" slots beside inputs of 14, 17 and 9 rows.
    At every step of the recorded verified decode, the rows and masks its words give (the order
    view's caption, and the narration's window paragraph at the steps that carry it) are that
    step's: rows = 1 + drafts to check + masks + drafts after the first mask, counted from the input."""
    from app.views import render
    from wedlm.reorder import leading_filled
    tl, moment = data.at("verified")
    w = tl.trace.config["window"]
    caption = {"en": re.compile(r"Rows in this forward: (\d+) = 1 \(the model's next token\)"
                                r"(?: \+ (\d+) drafts? to check)? \+ (\d+) masks?(?: \+ (\d+) drafts? after the first mask)?"
                                r"; verified decoding caps the masks at W = (\d+), not the rows"),
               "zh": re.compile(r"这次前向计算的行数：(\d+) = 1（模型的下一词元）(?: \+ (\d+) 个待检验的草稿)? \+ (\d+) 个掩码"
                                r"(?: \+ 第一个掩码之后的 (\d+) 个草稿)?；验证解码限制的是掩码数（最多 W = (\d+) 个）")}[lang]
    paragraph = {"en": re.compile(r"step (\d+)'s (\d+) rows: 1 \(the model's next token\)(?: \+ (\d+) drafts? to check)?"
                                  r" \+ (\d+) masks?(?: \+ (\d+) drafts? after the first mask)?\)"),
                 "zh": re.compile(r"第 (\d+) 步的 (\d+) 行：1（模型的下一词元）(?: \+ (\d+) 个待检验的草稿)? \+ (\d+) 个掩码"
                                  r"(?: \+ 第一个掩码之后的 (\d+) 个草稿)?）")}[lang]
    said_in_paragraph = 0
    for k, s in enumerate(tl.trace.steps):
        masks = sum(t is None for t in s.window)
        drafts = leading_filled(s.window) - 1
        among = len(s.window) - 1 - drafts - masks
        note = " ".join(unescape(re.sub(r"<[^>]+>", " ", render.order_view(tl, k, lang=lang))).split())
        m = caption.search(note)
        assert m, (k, note)
        assert (int(m[1]), int(m[2] or 0), int(m[3]), int(m[4] or 0), int(m[5])) == (s.rows, drafts, masks, among, w), (k, m[0])
        assert int(m[1]) == 1 + int(m[2] or 0) + int(m[3]) + int(m[4] or 0)
        words = " ".join(unescape(re.sub(r"<[^>]+>", "", ch10_verified.text(tl, k, moment, lang=lang))).split())
        p = paragraph.search(words)
        if k != moment:   # the moment's own words are short (a projector): they give the masks
            assert p, (k, words)
            assert (int(p[1]), int(p[2]), int(p[3] or 0), int(p[4]), int(p[5] or 0)) == (k, s.rows, drafts, masks, among), (k, p[0])
            said_in_paragraph += 1
        else:
            assert re.search({"en": rf"Here {masks} masks, fewer than chapter 2's W = {w} slots",
                              "zh": rf"这里带 {masks} 个掩码，少于第 2 章的 W = {w} 个槽位"}[lang], words), words
    assert said_in_paragraph == tl.num_steps - 1


def test_chapter_10_mask_counts_are_the_step_lines_at_every_step(data):
    """Every mask count chapter 10's narration states at a step is one of that step's line's counts
    (narration.mask_account: read, newly filled, taken by the AR token, left), and a count said to
    stay / be left is the line's "left": a walker read "Its 15 masks all stay masks" beside
    "15 masks read: 0 newly filled, 1 taken by the AR token, 14 left"."""
    from app.views import narration as plain_narration
    from app.views import render
    tl, moment = data.at("verified")
    counts = {"en": r"(?<![–\d])(\d+) masks?\b( (?:all )?(?:stay|left))?",
              "zh": r"(?<![–\d])(\d+) 个掩码(仍|不再)?"}
    stated = 0
    for k in range(tl.num_steps):
        acc = plain_narration.mask_account(tl.trace.steps[k])
        line = {acc.read, acc.filled, acc.taken, acc.left}
        assert {acc.read, acc.filled, acc.taken, acc.left} <= {int(x) for x in
                                                               re.findall(r"\d+", render.step_summary(tl, k))}
        for lang, pattern in counts.items():
            said = unescape(re.sub(r"<[^>]+>", "", ch10_verified.text(tl, k, moment, lang=lang)))
            for n, stays in re.findall(pattern, said):
                stated += 1
                assert int(n) in line, (lang, k, n, said)
                if stays:
                    assert int(n) == acc.left, (lang, k, n, stays, said)
            if acc.read and not acc.filled and tl.trace.steps[k].verify is not None and acc.taken:
                # the step line's "1 taken by the AR token": the words must not say every mask stays
                assert str(acc.left) in said, (lang, k, said)
    assert stated > tl.num_steps


def test_chapter_10_picture_heading_says_when_a_step_has_no_drafts(data):
    """The window picture's heading says "its drafts checked ✓ / ✗" only at a step whose record holds
    drafts (verify.checked); a step with none says so."""
    from app.views import render
    tl, _ = data.at("verified")
    kinds = set()
    for k in range(tl.num_steps):
        has = bool(tl.trace.steps[k].verify.checked)
        kinds.add(has)
        for lang in ("en", "zh"):
            title = re.search(r'class="viewtitle">([^<]*)', render.order_view(tl, k, lang=lang)).group(1)
            assert ("✓ / ✗" in title) == has, (lang, k, title)
            none = i18n.text(lang, "views.verified.title_none.many", step=k, n=0, forward=0).split("；" if lang == "zh" else "; ")[-1]
            assert (none in title) == (not has), (lang, k, title)
    assert kinds == {True, False}


# "AR" named two things: the parent autoregressive model (chapters 1 and 6, the Race) and, in
# chapter 10, "the model's one AR token" (WeDLM's own next-token prediction). A newcomer read the
# second as the first. AR now only ever names autoregressive decoding or its model.
AR_AS_TOKEN = {"en": re.compile(r"\bAR token\b(?!s/s)|\bAR prediction|\(AR\) prediction|next token \(AR\)|"
                                r"agrees with AR\b|one AR\b|AR step"),
               "zh": re.compile(r"AR ?词元|下一词元（AR）|下一个词元（AR）|AR ?预测|与 ?AR ?一致|AR ?步")}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_ar_never_names_the_verified_decoders_own_next_token(data, lang):
    """Every page word (the catalog, the verified legend and its tile mark) and chapter 10 at every
    step: no "AR token", "(AR)" prediction or "agrees with AR"; the chapter names the model's own
    next token instead, and says what an AR decoder has to do with it."""
    from wedlm import palette as lib_palette
    from app.views import palette
    said = {key: unescape(texts.get(lang, "")) for key, texts in i18n.catalog().items()}
    said.update({f"legend.{k}": palette.verify_label(k, lang) for k in lib_palette.VERIFY_LABELS})
    bad = {k: t for k, t in said.items() if AR_AS_TOKEN[lang].search(t)}
    assert not bad, bad
    assert "AR" not in lib_palette.VERIFY_MARKS.values()   # the tile mark beside the token, too
    tl, moment = data.at("verified")
    for k in range(tl.num_steps):
        words = unescape(re.sub(r"<[^>]+>", "", drawn(ch10_verified.views(moment, lang=lang), tl, k)[0]))
        assert not AR_AS_TOKEN[lang].search(words), (k, AR_AS_TOKEN[lang].search(words).group(0))
    at = unescape(re.sub(r"<[^>]+>", "", ch10_verified.text(tl, moment, moment, lang=lang)))
    assert {"en": "the model's own next token, as an AR decoder would",
            "zh": "像 AR 解码器那样预测模型自己的下一词元"}[lang] in " ".join(at.split()), at
    assert {"en": "model's next token", "zh": "模型的下一词元"}[lang] in at


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_chapter_9_says_training_block_never_a_bare_block(data, lang):
    """"Block" named two things: the Race's block decoding (chapter 6) and the training mask's blocks
    (chapter 9). Chapter 9's words, its figure's title and its knob say "training block" every time;
    block decoding appears there only as its glossary link, named as chapter 6's."""
    outputs = late_views(data, lang)[9]
    html = outputs[0]
    link = re.search(r'<a class="gloss"[^>]*data-term="block"[^>]*>([^<]*)</a>', html)
    assert link and link.group(1) == i18n.text(lang, "gloss.block.term"), html
    words = unescape(re.sub(r"<[^>]+>", "", html.replace(link.group(0), "")))
    words += " " + outputs[1].layout.title.text + " " + i18n.text(lang, "ch9.block")
    bare = {"en": r"(?<!training )\bblocks?\b", "zh": r"(?<!训练)块"}[lang]
    assert not re.search(bare, words, flags=re.I), re.findall(r".{30}" + bare + r".{0,10}", words, flags=re.I)
    assert {"en": "training block", "zh": "训练块"}[lang] in words


def test_chapter_9s_closing_caveat_is_short_sentences():
    """A teacher found chapter 9's closing caveat dense: one parenthesis of 60 words. It is said in
    short sentences now, none over 30 words, and shorter than before (under 75 words)."""
    said = unescape(re.sub(r"<[^>]+>", "", i18n.text("en", "ch9.source_ch3", step=5, slots=24)))
    sentences = [t for t in re.split(r"(?<=[.;])\s", said) if t]
    assert len(said.split()) < 75 and max(len(t.split()) for t in sentences) <= 30, sentences
