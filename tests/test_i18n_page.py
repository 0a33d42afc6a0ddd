"""The Chinese page (/zh) in a real Chromium: every tab but the tour shows no English left but
token text and names (tests/i18n_check.py); the English page (/) keeps its English labels; a
link's ?lang=zh lands on the Chinese page, and its switch goes back to English keeping the query.
Also the tabs' words without a browser: the knobs' catalog is the library's metadata, a link's
notices, the tables and the error frame in Chinese."""
from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import gradio as gr
import pytest

from i18n_check import english_left
from test_browser import CHROMIUM_ARGS, CHROMIUM, browser  # noqa: F401 (the module's Chromium)

from app import i18n, links
from app.serving.context import rows_frame
from app.serving.errors import in_language, worded
from app.serving.settings import LOCAL
from app.tabs import knobs
from wedlm import ValidationError
from wedlm.config import KNOBS
from wedlm.paths import BUNDLED_AR_MODEL, BUNDLED_MODEL

EXAMPLE = "1-counting-streaming.json"  # the Decode tab opens on it
# What the page shows that is a name in every language, besides tests/i18n_check.py's NAMES: the
# switch names the other language in itself, the models (the recorded examples' and the served
# one's: the server line's <b> is left out below), the server line's device, dtype and attention.
PAGE_NAMES = ("English", BUNDLED_MODEL.name, BUNDLED_AR_MODEL.name, "cpu", "cuda", "float32", "float16",
              "bfloat16", "sdpa", "eager", "GIF", "MP4", "HTML", "Python")
FILE_NAME = re.compile(r"[\w.-]+\.(?:json|gif|mp4|html)\b")

# The visible text of the app's own content: every visible text node and placeholder, without
# Gradio's footer and status tracker, the model's text (token cells, lanes' text, prompts, a prompt quoted as <code>),
# form values (a prompt is model text) and data cells of a result table (ids, numbers, the model's output); the served
# model's name in the server line is a name.
VISIBLE_TEXT_JS = r"""() => {
  const skip = 'footer, .tok, .tokt, .lanetext, .prompt, .cursor, [translate="no"], code, textarea, input, ' +
               'tbody, .table-wrap td, #decode-examples table, #decode-examples .gallery, #server-line b, ' +
               'script, style, .sr-only, .progress-text, .meta-text, .meta-text-center, .eta-bar';
  const root = document.querySelector('gradio-app') || document.body;
  const out = [];
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    const el = node.parentElement;
    if (!el || !node.textContent.trim() || el.closest(skip)) continue;
    if (el.checkVisibility && !el.checkVisibility({visibilityProperty: true, opacityProperty: false})) continue;
    out.push(node.textContent.trim());
  }
  root.querySelectorAll('input[placeholder], textarea[placeholder]').forEach(el => {
    if (!el.closest('footer') && el.checkVisibility() && el.placeholder) out.push(el.placeholder); });
  return out.join('\n');
}"""


# Gradio's status tracker ("queue: 1/2 | 0.4s", "processing"): its words are Gradio's own and not
# translated; wait until no event is pending, so the page read is the page at rest.
PENDING_JS = ("() => ![...document.querySelectorAll('.progress-text, .meta-text, .meta-text-center, .eta-bar')]"
              ".some(e => e.checkVisibility())")


def english_on(page) -> list[str]:
    page.wait_for_function(PENDING_JS, timeout=60_000)
    text = FILE_NAME.sub(" ", page.evaluate(VISIBLE_TEXT_JS))
    return sorted(set(english_left(text, PAGE_NAMES, plain=True)))


# -- without a browser ------------------------------------------------------------------------

def test_the_checker_finds_an_english_label():
    assert english_left("运行 Run · 提示词", plain=True) == ["Run"]
    assert english_left("WeDLM 流式解码，W = 16，τ = 0.4，12 ms", plain=True) == []


def test_knob_words_are_the_librarys_metadata_in_english_and_chinese_in_zh():
    for name, k in KNOBS.items():
        assert (knobs.label(name), knobs.help_text(name)) == (k.label, k.help), name
        zh = knobs.label(name, "zh") + " " + knobs.help_text(name, "zh")
        assert re.search(r"[\u4e00-\u9fff]", zh) and not english_left(zh, plain=True), (name, zh)


def test_a_links_notices_in_the_pages_language():
    params = {"tab": "decode", "prompt": "Count:", "window": "abc", "decoder": "evil", "step": "-1"}
    en, zh = links.read(params, LOCAL, 2000), links.read(params, LOCAL, 2000, lang="zh")
    assert len(en.notices) == len(zh.notices) == 3
    assert en.notices[0].startswith("the link's step must be a whole number from 0, got '-1'")
    assert all(re.search(r"[\u4e00-\u9fff]", n) for n in zh.notices), zh.notices
    assert en.knobs == zh.knobs == {} and en.decoder == zh.decoder == "streaming"


def test_result_tables_name_their_columns_in_chinese():
    rows = [{"threshold": "none", "tokens_per_forward": 1.5, "output_changed": False},
            {"threshold": 0.4, "tokens_per_forward": 3.0, "output_changed": True}]
    assert list(rows_frame(rows).columns) == ["threshold", "tokens_per_forward", "output_changed"]
    zh = rows_frame(rows, "zh")
    assert list(zh.columns) == ["阈值 τ", "每次前向词元数", "输出有变化"]
    assert zh.iloc[0].tolist() == ["无", 1.5, "否"] and zh.iloc[1].tolist() == [0.4, 3.0, "是"]


def test_a_zh_pages_errors_are_framed_in_chinese_and_english_ones_unchanged():
    def refuse(x):
        raise gr.Error(f"window must be from 1 to 64, got {x}")

    def stream(x):
        yield 1
        with worded(lang="zh"):
            raise ValidationError("top_p must be in (0, 1]")

    with pytest.raises(gr.Error) as en:
        in_language(refuse, "en")(100)
    assert en.value.message == "window must be from 1 to 64, got 100"
    with pytest.raises(gr.Error) as zh:
        in_language(refuse, "zh")(100)
    assert zh.value.message == "出错了：window must be from 1 to 64, got 100"
    gen = in_language(stream, "zh")(1)
    assert next(gen) == 1
    with pytest.raises(gr.Error) as framed_once:
        next(gen)
    assert framed_once.value.message == "出错了：top_p must be in (0, 1]"  # framed once, not twice


# -- in the browser ---------------------------------------------------------------------------

def open_page(browser, url, width=1400):  # noqa: F811
    page = browser.new_page(viewport={"width": width, "height": 2400}, locale="en-US")
    page.goto(url, wait_until="domcontentloaded")
    page.wait_for_selector("a.lang-switch", timeout=90_000)
    return page


def show_decode_step(page, tab: str) -> None:
    """The Decode tab with its recorded example loaded (the page load shows it) at a step
    before the last, so the step's views and narration are drawn."""
    page.get_by_role("tab", name=tab).click(timeout=60_000)
    page.wait_for_selector("#canvas .prompt", timeout=90_000)
    page.click("#stepper button[data-act=prev]")
    page.wait_for_function("() => { const v = document.querySelector('#narration .wedlm-view'); "
                           "return v && v.innerText.trim().length > 0; }", timeout=30_000)


def open_folds(page) -> None:
    """Open every closed accordion of the shown tab, so that its labels are read too."""
    page.evaluate("""() => document.querySelectorAll('button.label-wrap:not(.open)').forEach(b => {
        if (b.checkVisibility()) b.click(); })""")
    page.wait_for_timeout(500)


def test_the_chinese_page_has_no_english_left_on_any_tab(browser, app_url):  # noqa: F811
    page = open_page(browser, app_url + "zh")
    left = {}
    show_decode_step(page, "解码")
    # Gradio's own words follow the page (app/static/lang.js), once its Chinese messages are loaded
    page.wait_for_function("() => /上传/.test(document.querySelector('#upload').innerText)", timeout=90_000)
    open_folds(page)
    left["decode"] = english_on(page)
    page.get_by_role("tab", name="赛跑").click()
    page.wait_for_selector("#race-run", timeout=30_000)
    page.fill("#race-prompt textarea", "Count from 1 to 9:")
    page.fill("#race-max-new input[type=number]", "8")
    page.press("#race-max-new input[type=number]", "Enter")
    page.get_by_label("快（每秒 10 拍）").check()
    page.click("#race-run")
    page.wait_for_function("() => [...document.querySelectorAll('#race-lanes .lane')].length === 4 && "
                           "document.querySelector('#race-lanes .racenote')", timeout=120_000)
    open_folds(page)
    left["race"] = english_on(page)
    page.get_by_role("tab", name="熵探索").click()
    page.click("#lens-run")  # the lens of the two example texts
    page.wait_for_function("() => document.querySelector('#lens-a').innerText.trim() && "
                           "document.querySelector('#lens-b').innerText.trim()", timeout=120_000)
    left["entropy"] = english_on(page)
    page.get_by_role("tab", name="原理").click()
    page.wait_for_function("() => document.querySelector('#pg-mask-logical .maskgrid g.gr')", timeout=30_000)
    left["lessons"] = english_on(page)
    page.close()
    assert not any(left.values()), {tab: words for tab, words in left.items() if words}


def test_the_english_page_keeps_its_english_labels(browser, app_url):  # noqa: F811
    page = open_page(browser, app_url)
    for name in ("Tour", "Decode", "Race", "Entropy explorer", "How it works"):
        assert page.get_by_role("tab", name=name, exact=True).count() == 1, name
    show_decode_step(page, "Decode")
    text = page.evaluate(VISIBLE_TEXT_JS)
    for label in ("Prompt", "Run", "Stop", "Decoder", "Window W", "Threshold τ", "Penalty λ", "Max new tokens",
                  "Copy link to this step", "Colour tokens by", "Recorded example traces",
                  "Examples, from very low to high entropy", "Fill rule:", "Load a trace (JSON)"):
        assert label in text, label
    assert page.locator("#decoder input").input_value() == "WeDLM streaming"
    page.get_by_role("tab", name="Race").click()
    assert page.get_by_label("slow (2 ticks/s)").count() == 1 and page.get_by_label("wall clock").count() == 1
    page.close()


def test_lang_zh_lands_on_the_chinese_page_and_the_switch_keeps_the_query(browser, app_url):  # noqa: F811
    page = open_page(browser, app_url + "?lang=zh&tab=race")
    assert urlparse(page.url).path.rstrip("/").endswith("/zh")
    page.wait_for_selector("#race-run", state="visible", timeout=60_000)  # the link's tab is open
    assert page.inner_text("#race-run").strip() == "开赛"
    assert page.get_by_role("tab", name="解码").count() == 1
    switch = page.locator("a.lang-switch")
    assert switch.inner_text().strip() == "English"
    page.wait_for_function("() => /lang=en/.test(document.querySelector('a.lang-switch').href)")
    href = urlparse(switch.get_attribute("href"))
    assert not href.path.rstrip("/").endswith("/zh")
    assert parse_qs(href.query) == {"lang": ["en"], "tab": ["race"]}
    switch.click()
    page.wait_for_url(re.compile(r".*lang=en.*"), timeout=60_000)
    page.wait_for_selector("#race-run", state="visible", timeout=60_000)
    assert page.inner_text("#race-run").strip() == "Race"
    assert not urlparse(page.url).path.rstrip("/").endswith("/zh")
    page.close()
