"""The page's languages (app/i18n): one catalog, every id in every language with the same
placeholders; a link's or a browser's language picks the page; unknown values fall back."""
from __future__ import annotations

import pytest

from app import i18n
from app.serving.language import cookie_lang, page_lang, preferred


def test_every_message_has_every_language_with_the_same_placeholders():
    catalog = i18n.catalog()
    assert len(catalog) > 10
    for key, texts in catalog.items():
        assert set(texts) == set(i18n.LANGS), key
        want = i18n.placeholders(texts[i18n.DEFAULT])
        for lang in i18n.LANGS:
            assert texts[lang].strip(), (key, lang)
            assert i18n.placeholders(texts[lang]) == want, (key, lang)


def test_no_catalog_module_writes_an_id_twice():
    """A dict literal keeps the last of two equal keys silently, so an id written twice in one
    module loses its first text without an error (catalog() checks ids across modules only)."""
    import ast
    import pathlib
    twice = []
    for path in sorted(pathlib.Path(i18n.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict):
                keys = [k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
                twice += [(path.name, k) for k in sorted(set(keys)) if keys.count(k) > 1]
    assert not twice, twice


def test_a_chinese_message_is_chinese():
    """A zh text that is only ASCII letters is an English text left untranslated (names and
    symbols aside)."""
    import re
    untranslated = [k for k, t in i18n.catalog().items()
                    if re.search(r"[A-Za-z]{4,}", t["zh"]) and not re.search(r"[\u4e00-\u9fff]", t["zh"])
                    and t["zh"] == t["en"] and k not in ALLOWED_SAME]
    assert not untranslated, untranslated


ALLOWED_SAME: set[str] = set()  # ids whose text is a name in every language


@pytest.mark.parametrize("value, lang", [("zh", "zh"), ("zh-CN", "zh"), ("ZH_tw", "zh"), ("en", "en"),
                                          ("xx-klingon", "en"), (None, "en"), ("", "en"), ("z" * 5000, "en")])
def test_a_language_code_from_untrusted_input(value, lang):
    assert i18n.lang_of(value) == lang


def test_the_browser_language_picks_the_page():
    assert preferred("zh-CN,zh;q=0.9,en;q=0.8") == "zh"
    assert preferred("en-US,en;q=0.9,zh;q=0.8") == "en"
    assert preferred("de-DE, zh;q=0.5") == "zh"
    assert preferred("fr, de") == "en" and preferred(None) == "en" and preferred("zh;q=bad") == "en"
    assert (page_lang("/"), page_lang("/zh"), page_lang("/zh/"), page_lang("/config")) == ("en", "zh", "zh", None)
    assert cookie_lang("a=1; wedlm_lang=zh") == "zh" and cookie_lang("wedlm_lang=evil") == "en"
    assert cookie_lang("other=zh") is None


def test_lang_in_a_link_and_the_browser_language_redirect(app_url):
    import requests
    get = lambda path, **h: requests.get(app_url.rstrip("/") + path, headers=h, allow_redirects=False, timeout=30)
    asked = get("/?lang=zh&chapter=3")
    assert asked.status_code == 302 and asked.headers["location"].endswith("/zh?lang=zh&chapter=3")
    assert "wedlm_lang=zh" in asked.headers["set-cookie"]
    assert get("/zh?lang=en").headers["location"].endswith("/?lang=en")
    assert get("/", **{"Accept-Language": "zh-CN,zh;q=0.9"}).headers["location"].endswith("/zh")
    assert get("/", **{"Accept-Language": "zh-CN", "Cookie": "wedlm_lang=en"}).status_code == 200
    assert get("/zh", **{"Accept-Language": "en"}).status_code == 200   # a language's own page is explicit
    assert get("/?lang=klingon").status_code == 200                     # unknown: English, no redirect
    # Gradio reads the browser's language before the page's own scripts run: the HTML says it first
    zh, en = get("/zh", **{"Accept-Language": "en-US"}), get("/", **{"Accept-Language": "zh-CN", "Cookie": "wedlm_lang=en"})
    assert zh.text.split("<head>", 1)[1].startswith('<script>try{Object.defineProperty(navigator,"language",{value:"zh-CN"})')
    assert en.text.split("<head>", 1)[1].startswith('<script>try{Object.defineProperty(navigator,"language",{value:"en"})')
    assert int(zh.headers["content-length"]) == len(zh.content) and "window.gradio_config" in zh.text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_language_switch_reads_without_a_cjk_font(lang):
    """The English page's switch read "中文" alone: two empty boxes where no CJK font is installed.
    Each page's switch says its other language with latin letters too (and still in itself)."""
    import re

    from app.ui import language_switch
    link = language_switch(lang)
    label = re.search(r">([^<]*)</a>$", link).group(1)
    other = next(code for code in i18n.LANGS if code != lang)
    assert re.search(r"[A-Za-z]{2,}", label), label          # readable with latin fonts alone
    assert i18n.NAMES[other] in label, label                 # the language named in itself
