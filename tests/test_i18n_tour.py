"""The tour in Chinese (chapters 1–5, the glossary, the nav, projector mode): drawn from the
recorded tour data in zh, no English is left outside token text and names, the numbers each step's
words state are the step record's, and a real browser on /zh shows the same, presenting in Chinese."""
import re
from html import unescape
from pathlib import Path

import plotly.io as pio
import pytest

from app import i18n
from app.tabs import tour
from app.tabs.tour import ch1_ar, ch2_fill_rule, ch3_reordering, ch4_commit, ch5_stall, figs, glossary, present
from app.tabs.tour.frame import drawn
from app.views import render, script_words
from i18n_check import english_left as latin_left, figure_words
from test_browser import browser  # noqa: F401 (the headless Chromium fixture)

PICKS = {1: "ar", 2: "fill_rule", 3: "reorder", 4: "commit", 5: "stall"}
PRESENT_JS = Path(__file__).resolve().parents[1] / "app" / "static" / "present.js"
GLOSSARY_NAMES = ("forward_ratio",)   # a reported number's name, as the Race tab's table heads it


def english_left(html: str) -> list[str]:
    return latin_left(html, names=GLOSSARY_NAMES)


@pytest.fixture(scope="module")
def data():
    return tour.load_tour()


def chapter_views(data, n: int, moment, lang: str):
    """Chapter n's views (the stepper's Views, as its build makes them) in `lang`."""
    if n == 5:
        pick = data.picks["stall"]
        return ch5_stall.views(data.timelines[pick["branch"]], pick["penalty"], moment, lang)
    return (ch1_ar, ch2_fill_rule, ch3_reordering, ch4_commit)[n - 1].views(moment, lang=lang)


def plain(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", html))


def zh_phrases(tl, step: int, last: int | None = None) -> list[str]:
    """What the Chinese narration must state about a step, read straight from its record (last:
    chapter 5's, whose facts box gives the counted decode's own range 0–last)."""
    s = tl.trace.steps[step]
    out = [f"第 {step} 步（共 {tl.num_steps} 次前向计算中的第 {step + 1} 次）" if last is None
           else f"第 {step} 步（0–{last}）"]
    fills = sorted(s.filled, key=lambda f: f.pos)[:tour.words.LISTED_FILLS]
    out += [f"位置 {f.pos} 的 “{unescape(render.token_label(tl, f.token))}”" for f in fills]
    if tl.trace.decoder == "ar":   # AR predicts its one token (its step summary's word), it fills no mask
        out.append("预测了 1 个词元" if s.filled else "没有填充任何掩码")
    else:
        out.append(f"填充了 {len(s.filled)} 个" if s.filled else "没有填充任何掩码")
    out.append(f"提交了 {len(s.committed)} 个词元")
    out.append(f"{s.cache_before} → {s.cache_after}" if s.committed else f"KV 缓存仍是 {s.cache_after} 个")
    return out


def test_every_step_of_chapters_1_to_5_reads_in_chinese(data):
    """At every step a teacher can step to, each chapter's words are Chinese (tokens, symbols and
    names aside) and state that step's own numbers; the English of the same step is unchanged by
    the language switch (the same numbers, in English)."""
    for n, pick in PICKS.items():
        tl, moment = data.at(pick)
        zh, en = chapter_views(data, n, moment, "zh"), chapter_views(data, n, moment, "en")
        for k in range(tl.num_steps):
            words = drawn(zh, tl, k)[0]
            assert f'class="tour-text" data-step="{k}"' in words, (n, k)
            assert not english_left(words), (n, k, english_left(words))
            assert re.search(r"[\u4e00-\u9fff]", plain(words)), (n, k)
            text = plain(words)
            last = tl.num_steps - 1 if zh.steps else None  # chapter 5's box: the first decode's own range
            for phrase in zh_phrases(tl, k, last):
                assert phrase in text, (n, k, phrase)
            head = f"Step {k} (forward {k + 1} of {tl.num_steps})" if last is None else f"Step {k} of 0–{last}"
            assert head in plain(drawn(en, tl, k)[0]), (n, k)


def test_the_chapters_moments_state_their_numbers_in_chinese(data):
    """The step each chapter lands on: its own numbers (entropy, cache, the λ branch) in the Chinese words."""
    tl, step = data.at("ar")
    s = tl.trace.steps[step]
    text = plain(ch1_ar.view(tl, step, "zh")[0])
    assert f"缓存 {s.cache_before} → {s.cache_after} 个词元" in text
    assert f"熵为 {s.filled[0].entropy:.2f} 奈特" in text and f"写出了 {len(tl.trace.token_ids)} 个词元" in text

    tl, step = data.at("fill_rule")
    s = tl.trace.steps[step]
    text = plain(ch2_fill_rule.view(tl, step, "zh")[0])
    chosen = sum(m.selected for m in s.masks)
    assert f"{len(s.masks)} 个未填掩码中有 {chosen} 个被填充" in text
    assert f"W = {tl.trace.config['window']} 个槽位" in text and f"λ = {s.penalty:g}" in text

    tl, step = data.at("commit")
    s = tl.trace.steps[step]
    text = plain(ch4_commit.view(tl, step, "zh")[0])
    assert f"缓存 {s.cache_before} → {s.cache_after} 个词元" in text
    assert f"第 {min(step + 1, tl.num_steps - 1)} 步，即下一次前向计算" in text

    tl, step = data.at("stall")
    pick = data.picks["stall"]
    other = data.timelines[pick["branch"]]
    text = plain(ch5_stall.view(tl, step, other, pick["penalty"], "zh")[0])
    a, b = tl.trace.stats(), other.trace.stats()
    assert f"用 {b['forwards']} 次前向计算写出 {b['generated_tokens']} 个词元" in text
    assert f"原来是 {a['forwards']} 次写出 {a['generated_tokens']} 个" in text
    assert f"λ = {pick['penalty']:g}" in text and f"第 {step - 1} 步" in text


def test_a_live_run_without_the_moment_is_summed_up_in_chinese(data):
    """Chapters 2–4's note on a live run that never has the chapter's moment, in Chinese, with the
    run's own numbers."""
    for module in (ch2_fill_rule, ch3_reordering, ch4_commit):
        for tl in data.timelines.values():
            if tl.trace.decoder != "streaming":   # the re-decode is a streaming decode
                continue
            k, note = module.fallback(tl, "zh")
            assert k == module.fallback(tl)[0]
            st = tl.trace.stats()
            assert f"用 {st['forwards']} 次前向计算写出了 {st['generated_tokens']} 个词元" in plain(note)
            assert not english_left(note), (module.__name__, english_left(note))
            words = drawn(module.views(None, note, lang="zh"), tl, k)[0]
            assert plain(note) in plain(words) and not english_left(words)


def test_the_glossary_in_chinese(data):
    """Every term and definition in Chinese; a reported number's name (p_cache) is kept and marked."""
    zh, en = glossary.terms("zh"), glossary.terms("en")
    assert set(zh) == set(en) == set(glossary.TERMS) and en == glossary.TERMS
    for key, (title, definition) in zh.items():
        assert re.search(r"[\u4e00-\u9fff]", title + definition), key
        assert (title, definition) != en[key], key
    html = glossary.glossary_html("zh")
    assert not english_left(html), english_left(html)
    assert html.count("<dt ") == len(en) and 'aria-label="术语表"' in html
    assert '<span translate="no">p_cache</span>' in html and '<span translate="no">forward_ratio</span>' in html
    # a glossary link in a Chinese sentence carries the Chinese definition
    link = tour.words.term("kv-cache", lang="zh")
    assert ">KV 缓存</a>" in link and f'title="{zh["kv-cache"][1]}"' in link


def test_the_nav_titles_and_projector_mode_in_chinese():
    for key in ("tour.back", "tour.next", "tour.glossary", "tour.first", "tour.last"):
        assert not english_left(i18n.text("zh", key)), key
    titles = tour.titles("zh")
    assert titles[:5] == [m.title("zh") for m in (ch1_ar, ch2_fill_rule, ch3_reordering, ch4_commit, ch5_stall)]
    for n, title in enumerate(titles[:5], 1):
        assert title.startswith(f"{n} · ") and not english_left(title), title
    assert tour.titles("en") == tour.TITLES
    badge = present.badge("zh")
    assert not english_left(badge) and "演示中" in badge, english_left(badge)
    assert present.BADGE == present.badge("en") and "● Presenting" in present.BADGE
    assert not english_left(present.present_label("zh")) and not english_left(present.stop_label("zh"))
    # the button's labels are the words the script shows (--wedlm-words: one catalog id each), none in the script
    words = script_words.js_words("zh")
    assert (words["present"], words["stop_presenting"]) == (present.present_label("zh"), present.stop_label("zh"))
    script = PRESENT_JS.read_text(encoding="utf-8")
    assert present.STOP_LABEL not in script and present.PRESENT_LABEL not in script


def test_the_tours_own_figures_in_chinese(data):
    tl, step = data.at("fill_rule")
    bars = figs.score_bars(tl, step, lang="zh")
    assert not english_left(figure_words(bars)) and bars.layout.title.text == f"第 {step} 步：每个未填掩码的得分 = H + λ·d"
    assert figs.score_bars(tl, step).layout.title.text == f"Step {step}: score = H + λ·d of each open mask"
    rows = data.tau_sweep["rows"]
    tau = figs.tau_figure(rows, dict(rows[0]), lang="zh")
    assert not english_left(figure_words(tau)), english_left(figure_words(tau))
    total = max(r["total"] for r in rows)
    assert f"答对题数（共 {total} 题）" in [t.name for t in tau.data]
    tl, step = data.at("stall")
    growth = figs.growth({"自回归": (tl, "#2563eb")}, step, lang="zh")
    assert not english_left(growth), english_left(growth)
    assert f'class="at-step now" data-at-step="{step}"' in growth
    assert f">第 {step} 步（第 {step + 1} 次前向计算）</text>" in growth   # the marker names its forward too
    assert pio.to_json(bars)  # still a figure Plotly can send


# ---------- in a real browser, on the Chinese page ----------

def test_the_chinese_page_walks_chapters_1_to_5_and_presents_in_chinese(browser, app_url):  # noqa: F811
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        page.goto(app_url.rstrip("/") + "/zh?chapter=1", wait_until="domcontentloaded")
        page.wait_for_selector("#tour-text-1 .tour-text", state="visible", timeout=180_000)
        assert page.inner_text("#tour-next").strip() == i18n.text("zh", "tour.next")
        for n in range(1, 6):
            page.wait_for_selector(f"#tour-text-{n} .tour-text", state="visible", timeout=60_000)
            html = page.inner_html(f"#tour-text-{n}")
            assert not english_left(html), (n, english_left(html))
            assert re.search(r"第 \d+ 步", page.inner_text(f"#tour-text-{n}")), n
            if n < 5:
                page.click("#tour-next")
        page.click("#tour-present-btn")
        page.wait_for_function("() => document.body.classList.contains('tour-present')")
        # a 1280 px screen presents compact (<= 1366): the short stop label and badge, one line each (walk 18)
        assert page.inner_text("#tour-present-btn") == i18n.text("zh", "views.js.stop_short")
        assert page.inner_text("#presenting-badge").strip() == i18n.text("zh", "tour.presenting_badge_short")
        assert page.get_attribute("#presenting-badge", "title").startswith(i18n.text("zh", "tour.presenting_keys"))   # the keys
        page.keyboard.press("Escape")
        page.wait_for_function("() => !document.body.classList.contains('tour-present')")
        assert page.inner_text("#tour-present-btn") == present.present_label("zh")
        page.click("#tour-glossary-btn")
        page.wait_for_selector("#glossary", state="visible")
        assert not english_left(page.inner_html("#glossary"))
    finally:
        page.close()
