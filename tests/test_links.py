"""A link to any moment (app/links.py, stepper.js copyLink): a copied link restores the prompt,
decoder, knobs and step; a hostile link gets a worded notice and the defaults, never a crash and
never a decode past the limits."""
from urllib.parse import quote, urlencode

import pytest
import requests

from test_browser import CHROMIUM_ARGS, CHROMIUM, browser  # noqa: F401 (the module's Chromium)

from app import links
from app.serving.context import example_traces
from app.serving.settings import LOCAL, SPACE
from wedlm.config import DEFAULTS

EXAMPLE = "3-table-streaming.json"
CHARS = 2000  # a prompt box's max length, for the unit checks


def read(**params):
    return links.read(params, LOCAL, CHARS)


def test_a_good_link_reads_as_given():
    link = read(tab="decode", prompt="Count from 1 to 9:", decoder="block", window="16", threshold="0.4",
                max_new_tokens="24", block_size="8", step="7", lang="en")
    assert not link.notices
    assert (link.tab, link.live, link.decoder, link.step) == ("decode", True, "block", 7)
    assert link.knobs == {"window": "16", "threshold": "0.4", "max_new_tokens": "24", "block_size": "8"}
    assert read(tab="decode", example=EXAMPLE, step="4").example == EXAMPLE
    assert read(chapter="3", step="2").tab == "tour" and read(chapter="3").chapter == 3


@pytest.mark.parametrize("params, word", [
    ({"window": "1e400"}, "window"),
    ({"window": "1000000"}, "window"),
    ({"max_new_tokens": "100000"}, "max_new_tokens"),
    ({"threshold": "nan"}, "threshold"),
    ({"top_p": "7"}, "top_p"),
    ({"window": "9" * 500}, "window"),
    ({"decoder": "<script>x</script>"}, "decoder"),
])
def test_a_bad_knob_is_worded_and_falls_back_to_its_default(params, word):
    link = read(tab="decode", prompt="Count:", **params)
    assert link.notices and word in link.notices[0]
    assert word not in link.knobs and link.decoder in LOCAL.decoders
    from app.serving.context import make_config
    config = make_config(**link.knobs)  # what the decode would run: inside the limits
    LOCAL.check(config.max_new_tokens, config.window, [link.decoder])


def test_a_link_never_asks_past_this_servers_limits():
    link = links.read({"tab": "decode", "prompt": "Count:", "max_new_tokens": "500", "window": "64"}, SPACE, CHARS)
    assert link.knobs == {} and "at most" in link.notices[-1]  # fine locally, over the public Space's limits


@pytest.mark.parametrize("params, word", [
    ({"step": "-5"}, "step"), ({"step": "abc"}, "step"), ({"step": "1e400"}, "step"),
    ({"example": "../../etc/passwd"}, "example"), ({"example": "nope.json"}, "example"),
    ({"prompt": "x" * (CHARS + 1)}, "prompt"), ({"prompt": "   "}, "prompt"), ({"tab": "admin"}, "tab"),
    ({"chapter": "99"}, "chapter"),
])
def test_hostile_values_get_words_and_defaults(params, word):
    link = read(tab=params.pop("tab", "decode"), **params)
    assert any(word in n for n in link.notices), link.notices
    assert link.example in (None, *example_traces()) and not link.live and link.step is None
    assert "&lt;script&gt;" in links.notice_html(links.Link(notices=["<script>"]))  # every notice escaped


def test_unknown_lang_is_english_without_a_word():
    link = read(tab="decode", lang="xx-klingon")
    assert link.lang == "en" and not link.notices


# -- in the browser --------------------------------------------------------------------------

def fresh(browser, url):  # noqa: F811
    page = browser.new_page(viewport={"width": 1400, "height": 2000})
    page.goto(url, wait_until="domcontentloaded")
    return page


def stepper_at(page, where: str, step: int) -> None:
    page.wait_for_function(
        "([w, k]) => { const s = document.querySelector(w + ' .wedlm-stepper'); "
        "return s && !s.dataset.live && s.dataset.step === String(k); }", arg=[where, step], timeout=90_000)


def copied_link(page, button: str, field: str) -> str:
    page.click(button)
    page.wait_for_function("f => (document.querySelector(f) || {}).value", arg=field, timeout=10_000)
    return page.input_value(field)


def test_decode_links_restore_the_example_or_the_prompt_knobs_and_step(browser, app_url):  # noqa: F811
    page = fresh(browser, app_url + "?" + urlencode({"tab": "decode", "example": EXAMPLE, "step": 3}))
    stepper_at(page, "#stepper", 3)
    assert page.input_value("#examples input") == EXAMPLE
    assert page.get_attribute("#canvas .wedlm-view", "data-step") == "3"
    page.click("#stepper button[data-act=next]")
    url = copied_link(page, "#copy-link", "#link-field .link-url")
    assert "example=" + EXAMPLE in url and url.endswith("step=4")
    again = fresh(browser, url)
    stepper_at(again, "#stepper", 4)
    assert again.get_attribute("#orders .wedlm-view", "data-step") == "4"
    page.close(), again.close()

    # a live prompt: decoded once with the link's knobs, then shown at its step
    prompt = "Count from 1 to 9: <b>"
    page = fresh(browser, app_url + "?" + urlencode({"tab": "decode", "prompt": prompt, "decoder": "block",
                                                     "window": 6, "block_size": 6, "threshold": 0.7,
                                                     "max_new_tokens": 10, "step": 2}))
    stepper_at(page, "#stepper", 2)
    assert page.input_value("#prompt textarea") == prompt
    assert page.input_value("#max-new input[type=number]") == "10"
    url = copied_link(page, "#copy-link", "#link-field .link-url")
    for part in ("decoder=block", "window=6", "block_size=6", "threshold=0.7", "max_new_tokens=10", "step=2",
                 "prompt=" + quote(prompt, safe="").replace("%20", "+")):
        assert part in url, (part, url)
    again = fresh(browser, url)
    stepper_at(again, "#stepper", 2)
    assert again.input_value("#prompt textarea") == prompt
    assert again.input_value("#window input[type=number]") == "6"
    assert again.inner_text("#link-note").strip() == ""  # a good link: no notice
    page.close(), again.close()


def test_a_tour_chapter_link_restores_the_chapter_and_step(browser, app_url):  # noqa: F811
    page = fresh(browser, app_url + "?chapter=3&step=1")
    stepper_at(page, "#chapter-3", 1)
    page.click("#chapter-3 .wedlm-stepper button[data-act=next]")
    url = copied_link(page, "#chapter-3 button[data-link]", "#chapter-3 .link-url")
    assert url.endswith("?chapter=3&step=2")
    again = fresh(browser, url)
    stepper_at(again, "#chapter-3", 2)
    assert again.is_visible("#chapter-3") and not again.is_visible("#chapter-1")
    assert again.get_attribute("#tour-viz-3 .wedlm-view", "data-step") == "2"
    page.close(), again.close()


@pytest.mark.parametrize("query, word", [
    ("tab=decode&window=1e400&prompt=Count:&max_new_tokens=4", "window"),
    ("tab=decode&example=3-table-streaming.json&step=-5", "step"),
    ("tab=decode&example=3-table-streaming.json&step=abc", "step"),
    ("tab=decode&example=..%2F..%2Fapp.py", "example"),
    ("tab=decode&max_new_tokens=99999&prompt=" + quote("<script>window.__xss=1</script>"), "max_new_tokens"),
])
def test_hostile_links_are_worded_and_show_the_defaults(browser, app_url, query, word):  # noqa: F811
    page = fresh(browser, app_url + "?" + query)
    page.wait_for_selector("#link-note .link-notice", timeout=60_000)
    assert word in page.inner_text("#link-note")
    page.wait_for_function("() => { const s = document.querySelector('#stepper .wedlm-stepper'); "
                           "return s && s.dataset.step && !s.dataset.live; }", timeout=90_000)
    assert page.evaluate("() => window.__xss") is None
    assert page.input_value("#max-new input[type=number]") in (str(DEFAULTS["max_new_tokens"]), "4")
    page.close()


def test_an_oversized_link_prompt_is_refused_on_its_length(browser, app_url):  # noqa: F811
    page = fresh(browser, app_url + "?tab=decode")
    page.wait_for_selector("#prompt textarea", timeout=60_000)
    chars = int(page.get_attribute("#prompt textarea", "maxlength"))
    page.goto(app_url + "?tab=decode&prompt=" + "x" * (chars + 1), wait_until="domcontentloaded")
    page.wait_for_selector("#link-note .link-notice", timeout=60_000)
    assert "prompt" in page.inner_text("#link-note") and str(chars) in page.inner_text("#link-note")
    page.close()
    # a 1 MB prompt never reaches the app's decode: refused before (an HTTP error, not a crash)
    # (uvicorn drops a request line that long: "Invalid HTTP request received")
    try:
        status = requests.get(app_url + "?tab=decode&prompt=" + "x" * 1_000_000, timeout=60).status_code
    except (requests.ConnectionError, requests.exceptions.ChunkedEncodingError):  # reset by the server
        status = None
    assert status in (None, 400, 414, 431)
    assert requests.get(app_url, timeout=60).status_code == 200  # the server lives on
