"""The lesson in a real Chromium (Debian's): a race lane says what is true while the chapter plays,
presenting at 1024 px shows every chapter's title whole and steps with ↓/↑ (never from a text box),
a tapped token's story shows in a caption and its pin leaves with its chapter, the play button's
icons are never a missing glyph, and a phone reads a chapter's narration before its views with all
five tabs in the bar."""
import pytest

from app.tabs import tour
from test_browser import browser  # noqa: F401 (the headless Chromium fixture)
from test_tour import go_to, open_page, wait_plots

# a character no font draws: whatever draws exactly like it is a missing glyph (tofu)
TOFU_JS = """chars => { const font = getComputedStyle(document.querySelector('.wedlm-stepper button')).font;
    const c = document.createElement('canvas'); c.width = 48; c.height = 48; const g = c.getContext('2d');
    const draw = ch => { g.clearRect(0, 0, 48, 48); g.font = font; g.fillText(ch, 8, 32);
                         return g.getImageData(0, 0, 48, 48).data.join(); };
    const missing = draw(String.fromCodePoint(0x378));
    return chars.filter(ch => draw(ch) === missing); }"""
SHOWN_STEP = "n => +document.querySelector('#chapter-' + n + ' .wedlm-stepper').dataset.step"


def test_a_race_lane_says_decoding_while_playing_and_paused_when_held(browser, app_url):
    page = open_page(browser, app_url, (1440, 900), "?chapter=6")
    try:
        page.wait_for_selector("#tour-viz-6 .lane", state="visible", timeout=180_000)
        states = lambda: page.eval_on_selector_all(  # noqa: E731
            "#tour-viz-6 .lane:not(:has(.lanestate[data-state=done])) .lanestate", "es => es.map(e => e.innerText)")
        assert states() and set(states()) == {"paused"}
        page.click("#chapter-6 .wedlm-stepper button[data-act=first]")
        page.click("#chapter-6 .wedlm-stepper button[data-act=play]")
        page.wait_for_function("() => +document.querySelector('#chapter-6 .wedlm-stepper').dataset.step >= 2")
        assert set(states()) == {"decoding…"}, states()
        page.click("#chapter-6 .wedlm-stepper button[data-act=play]")
        assert set(states()) == {"paused"}, states()
        # and the play button's icons are drawn, not a glyph no font has (⏸ was an empty box)
        for state in ("play", "pause"):
            if state == "pause":
                page.click("#chapter-6 .wedlm-stepper button[data-act=play]")
            button = page.locator("#chapter-6 .wedlm-stepper button[data-act=play]")
            assert button.get_attribute("data-state") == state
            text = "".join(ch for ch in button.inner_text() if not ch.isspace())
            assert page.evaluate(TOFU_JS, list(text)) == [], (state, text)
            icon = page.evaluate("""() => { const s = getComputedStyle(document.querySelector(
                '#chapter-6 .wedlm-stepper button[data-act=play]'), '::before');
                return [s.content,
                        parseFloat(s.height) + parseFloat(s.borderTopWidth) + parseFloat(s.borderBottomWidth)]; }""")
            assert icon[0] == '""' and icon[1] >= 10, icon   # an icon drawn by the style
        controls = page.inner_text("#chapter-6 .wedlm-stepper .stepper-controls")
        assert page.evaluate(TOFU_JS, [ch for ch in controls if not ch.isspace()]) == []
    finally:
        page.close()


@pytest.mark.parametrize("lang", ["", "zh"])
def test_presenting_at_1024_titles_fit_and_step_keys_step_the_chapter(browser, app_url, lang):
    page = open_page(browser, app_url, (1024, 768), f"{lang}?present=1")
    try:
        page.wait_for_selector("#tour-viz-1", state="visible", timeout=180_000)
        page.wait_for_selector("#presenting-badge", state="visible", timeout=10_000)
        assert "↓/↑" in page.inner_text("#presenting-badge")
        for n in range(1, len(tour.TITLES) + 1):
            if n > 1:
                go_to(page, "ArrowRight", n)
            wait_plots(page, n)
            m = page.evaluate("""() => { const i = document.querySelector('#tour-pick input');
                return {sw: i.scrollWidth, cw: i.clientWidth, value: i.value}; }""")
            assert m["sw"] <= m["cw"], f"chapter {n}'s title is cut off in the dropdown: {m}"
        go_to(page, "Home", 1)
        wait_plots(page, 1)
        page.click("#chapter-1 .wedlm-stepper button[data-act=first]")
        page.evaluate("() => document.activeElement.blur()")
        page.keyboard.press("ArrowDown")
        page.wait_for_function(SHOWN_STEP + " === 1", arg=1)
        page.keyboard.press(".")
        page.wait_for_function(SHOWN_STEP + " === 2", arg=1)
        page.keyboard.press("ArrowUp")
        page.wait_for_function(SHOWN_STEP + " === 1", arg=1)
        page.keyboard.press(",")
        page.wait_for_function(SHOWN_STEP + " === 0", arg=1)
        page.keyboard.press("ArrowUp")   # the first step: nothing to go back to, and no chapter move
        page.wait_for_timeout(300)
        assert page.evaluate(SHOWN_STEP, 1) == 0 and page.evaluate("() => location.hash") == "#chapter-1"
        page.focus("#tour-pick input")   # a text box has the keys
        page.keyboard.press(".")
        page.wait_for_timeout(500)
        assert page.evaluate(SHOWN_STEP, 1) == 0
    finally:
        page.close()


def test_a_tap_shows_the_tokens_story_and_its_pin_leaves_with_the_chapter(browser, app_url):
    page = open_page(browser, app_url, (1440, 900))
    try:
        page.wait_for_selector("#tour-viz-1", state="visible", timeout=180_000)
        wait_plots(page, 1)
        token = page.locator("#chapter-1 .wedlm-view .tok[data-pos]").last
        pos = token.get_attribute("data-pos")
        story = page.evaluate("p => window.wedlmStepper.tip('tour-1', p)", pos)
        assert story
        token.click()
        caption = page.locator(".tap-caption")
        assert caption.is_visible() and caption.inner_text() == story
        assert page.locator(f"#chapter-1 .hl[data-pos='{pos}']").count() >= 1
        page.click("#tour-next")
        page.wait_for_function("() => location.hash === '#chapter-2'")
        page.wait_for_function("() => !document.querySelector('.hl') && !document.querySelector('.tap-caption')",
                               timeout=5_000)
        assert page.evaluate("() => window.wedlmHighlight.pinned()") is None
    finally:
        page.close()


@pytest.mark.parametrize("lang", ["", "zh"])
def test_a_phone_reads_the_narration_first_and_reaches_every_tab(browser, app_url, lang):
    page = open_page(browser, app_url, (390, 844), lang)
    try:
        page.wait_for_selector("#tour-viz-1", state="visible", timeout=180_000)
        for n in (1, 6):
            if n > 1:
                page.goto(app_url.rstrip("/") + f"/{lang}?chapter={n}")
                page.wait_for_selector(f"#tour-viz-{n}", state="visible", timeout=60_000)
            words, views = page.evaluate("""n => ['.tour-words', '.tour-view'].map(s =>
                document.querySelector('#chapter-' + n + ' ' + s).getBoundingClientRect().top)""", n)
            assert words < views, (n, words, views)
        page.wait_for_timeout(500)
        tabs = page.eval_on_selector_all("[role=tablist] button[role=tab]",
                                         "bs => bs.filter(b => b.offsetParent).length")
        assert tabs == 5 and not page.locator(".overflow-menu button").is_visible()
    finally:
        page.close()


def test_the_address_moves_the_tour_and_links_reach_the_last_chapter(browser, app_url):
    """Editing #chapter-N (or Back/Forward to it) opens that chapter; a link to the last chapter
    is a link like any other (it was refused as 'must be 1 to 9')."""
    last = len(tour.TITLES)
    page = open_page(browser, app_url, (1440, 900), f"?chapter={last}")
    try:
        page.wait_for_selector(f"#tour-viz-{last}", state="visible", timeout=180_000)
        page.wait_for_timeout(1500)
        assert page.inner_text("#link-note").strip() == ""
        assert not page.locator(".toast-body").count()
        page.evaluate("() => { location.hash = '#chapter-4'; }")
        page.wait_for_selector("#tour-viz-4", state="visible", timeout=180_000)
        assert page.evaluate("() => location.hash") == "#chapter-4"
    finally:
        page.close()
