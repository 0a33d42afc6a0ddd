"""A chapter's live "try it" in a real Chromium (Debian's): the live run is labelled as such with
its knobs, "Back to the recording" puts back the chapter exactly as the page loaded it (steps,
narration, views), chapter 8's note on the recorded times table is not shown beside a live run,
and a phone reads narration, then pictures, then the "try it"."""
import pytest

from app.tabs import tour
from app.tabs.tour import ch8_tau
from test_browser import ARTIFACTS, browser  # noqa: F401 (the headless Chromium fixture)
from test_tour import open_page, wait_plots

# what a chapter shows: its stepper's step and range, its narration, its first picture
SHOWN_JS = """n => { const root = document.querySelector('#chapter-' + n);
    const stepper = root.querySelector('.wedlm-stepper');
    const range = stepper && stepper.querySelector('input[type=range]');
    return {step: stepper ? stepper.dataset.step : null, last: range ? range.max : null,
            text: root.querySelector('#tour-text-' + n).innerText,
            view: root.querySelector('#tour-viz-' + n).innerHTML}; }"""


def live_bar(page, n: int) -> dict:
    return page.evaluate("""n => { const bar = document.querySelector('#tour-live-' + n);
        return {shown: !!bar && bar.offsetParent !== null, words: bar ? bar.innerText : ''}; }""", n)


def test_a_live_run_is_labelled_and_back_to_the_recording_restores_the_chapter(browser, app_url):
    """Chapter 2 re-decoded live at τ = 1000 (every mask fills: a short decode on the tiny model)."""
    page = open_page(browser, app_url, (1440, 900), "?chapter=2")
    try:
        page.wait_for_selector("#tour-viz-2 .chart", state="visible", timeout=180_000)
        wait_plots(page, 2)
        loaded = page.evaluate(SHOWN_JS, 2)
        assert loaded["step"] is not None and not live_bar(page, 2)["shown"]
        page.fill("#tour2-tau input", "1000")
        page.fill("#tour2-penalty input", "0.05")
        page.click("#tour-try-2")
        page.wait_for_function("() => document.querySelector('#tour-text-2').innerText.includes('Your run')",
                               timeout=120_000)
        page.wait_for_selector("#tour-live-2", state="visible", timeout=30_000)
        bar = live_bar(page, 2)
        assert "Your live run (τ = 1000, λ = 0.05)" in bar["words"] and "not the recording" in bar["words"]
        # the knobs were kept at the press (a knob turned while a run runs does not reword its bar)
        assert page.evaluate("() => window.wedlmTourPressed['tour-live-2']") == [1000, False, 0.05]
        assert page.evaluate(SHOWN_JS, 2)["text"] != loaded["text"]
        page.click("#tour-recorded-2")
        page.wait_for_selector("#tour-live-2", state="hidden", timeout=30_000)
        page.wait_for_function("t => document.querySelector('#tour-text-2').innerText === t",
                               arg=loaded["text"], timeout=30_000)
        wait_plots(page, 2)
        assert page.evaluate(SHOWN_JS, 2) == loaded
        # and the recording steps as before: one step on, every view follows
        page.click("#chapter-2 .wedlm-stepper button[data-act=next]")
        page.wait_for_function("s => document.querySelector('#chapter-2 .wedlm-stepper').dataset.step === s",
                               arg=str(int(loaded["step"]) + 1))
        views = page.eval_on_selector_all("#chapter-2 .wedlm-view", "vs => vs.map(v => v.dataset.step)")
        assert views == [str(int(loaded["step"]) + 1)] * len(views)
    finally:
        page.close()


def test_chapter_8s_times_table_note_is_not_current_beside_a_live_run(browser, app_url):
    """The note quotes the recorded times table ('7 x 10 = 60' at τ = 0.4): beside a live run it
    is gone, and back at the recording it returns."""
    note = "a sample, not a guarantee"
    data = tour.load_tour()
    assert ch8_tau.wrong_products(data.at("fill_rule")[0].trace.text)   # the recording has such a line
    page = open_page(browser, app_url, (1440, 900), "?chapter=8")
    try:
        page.wait_for_selector("#tour-viz-8", state="visible", timeout=180_000)
        wait_plots(page, 8)
        loaded = page.inner_text("#tour-text-8")
        assert note in loaded and "Your run" not in loaded   # the recording's words
        page.fill("#tour8-tau input", "1000")
        page.click("#tour-try-8")
        page.wait_for_function("() => document.querySelector('#tour-text-8').innerText.includes('Your run')",
                               timeout=180_000)
        page.wait_for_selector("#tour-live-8", state="visible", timeout=30_000)
        assert note not in page.inner_text("#tour-text-8")
        assert "Your live run (τ = 1000)" in live_bar(page, 8)["words"]
        page.click("#tour-recorded-8")
        page.wait_for_selector("#tour-live-8", state="hidden", timeout=30_000)
        page.wait_for_function("t => document.querySelector('#tour-text-8').innerText === t", arg=loaded,
                               timeout=30_000)
    finally:
        page.close()


def test_on_a_phone_a_finished_live_run_brings_its_bar_into_view(browser, app_url):
    """390 × 844: the "try it" sits under the pictures and the bar above them; after chapter 2's
    live run (τ = 1000: a short decode) the bar, "Back to the recording" with it, is on screen
    (it was a screen or more up, out of sight)."""
    page = open_page(browser, app_url, (390, 844), "?chapter=2")
    try:
        page.wait_for_selector("#tour-viz-2 .chart", state="visible", timeout=180_000)
        wait_plots(page, 2)
        page.fill("#tour2-tau input", "1000")
        page.locator("#tour-try-2").scroll_into_view_if_needed()
        page.click("#tour-try-2")
        page.wait_for_selector("#tour-live-2", state="visible", timeout=120_000)
        page.wait_for_function("""() => { const r = document.querySelector('#tour-recorded-2').getBoundingClientRect();
            return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }""", timeout=10_000)
        assert "Your live run (τ = 1000" in live_bar(page, 2)["words"]
        page.screenshot(path=str(ARTIFACTS / "tour-live-bar-phone.png"))
    finally:
        page.close()


@pytest.mark.parametrize("lang", ["", "zh"])
def test_a_phone_reads_narration_then_pictures_then_try_it(browser, app_url, lang):
    """390 × 844: in every chapter with a "try it", the narration is above the picture and the
    picture above the "try it" (it sat between them, pushing the pictures down)."""
    page = open_page(browser, app_url, (390, 844), lang)
    try:
        page.wait_for_selector("#tour-viz-1", state="visible", timeout=180_000)
        for n in range(1, len(tour.TITLES) + 1):
            if n > 1:
                page.click("#tour-next")
                page.wait_for_selector(f"#tour-viz-{n}", state="visible", timeout=60_000)
            if not page.locator(f"#chapter-{n} .tour-try").count():
                continue
            tops = page.evaluate("""n => [`#tour-text-${n}`, `#tour-viz-${n}`, `#chapter-${n} .tour-try`].map(s =>
                document.querySelector(s).getBoundingClientRect().top)""", n)
            assert tops[0] < tops[1] < tops[2], (n, tops)
    finally:
        page.close()


def test_the_wide_layout_keeps_the_try_it_under_the_words(browser, app_url):
    """1440 × 900: views left; the words and, under them, the "try it" right (unchanged)."""
    page = open_page(browser, app_url, (1440, 900), "?chapter=2")
    try:
        page.wait_for_selector("#tour-viz-2", state="visible", timeout=180_000)
        boxes = page.evaluate("""() => ['#tour-text-2', '#tour-viz-2', '#chapter-2 .tour-try'].map(s => {
            const r = document.querySelector(s).getBoundingClientRect(); return [r.left, r.top, r.bottom]; })""")
        text, view, try_it = boxes
        assert view[0] < text[0] and try_it[0] == pytest.approx(text[0], abs=20) and try_it[1] >= text[2]
    finally:
        page.close()


def test_a_second_live_run_s_bar_names_the_second_prompt(browser, app_url):
    """Chapter 1 run live with one prompt, then another: the bar names the run shown (it named
    the first prompt: the knobs were kept for it only after the run had been worded)."""
    page = open_page(browser, app_url, (1440, 900), "?chapter=1")
    try:
        page.wait_for_selector("#tour-viz-1", state="visible", timeout=180_000)
        wait_plots(page, 1)
        for prompt in ("Count from 3 to 7:", "Count from 4 to 8:"):
            page.fill("#chapter-1 .tour-try textarea", prompt)
            page.click("#tour-try-1")
            page.wait_for_function("""p => { const bar = document.querySelector('#tour-live-1');
                return bar && bar.offsetParent !== null && bar.innerText.includes(p); }""",
                                   arg=f"prompt “{prompt}”", timeout=120_000)
        page.wait_for_timeout(1000)   # nothing late rewords it
        assert "Count from 4 to 8:" in live_bar(page, 1)["words"]
        assert "Count from 3 to 7:" not in live_bar(page, 1)["words"]
    finally:
        page.close()


def test_back_to_the_recording_puts_the_try_it_knobs_back(browser, app_url):
    """Chapter 2 at τ = 1, λ = 0 live, then "Back to the recording": the boxes read the
    recording's τ and λ again (they kept the live run's beside the recording's chart and words)."""
    page = open_page(browser, app_url, (1440, 900), "?chapter=2")
    try:
        page.wait_for_selector("#tour-viz-2 .chart", state="visible", timeout=180_000)
        wait_plots(page, 2)
        recorded = page.input_value("#tour2-tau input"), page.input_value("#tour2-penalty input")
        assert recorded == ("0.4", "0.02")
        page.fill("#tour2-tau input", "1")
        page.fill("#tour2-penalty input", "0")
        page.click("#tour-try-2")
        page.wait_for_selector("#tour-live-2", state="visible", timeout=120_000)
        page.click("#tour-recorded-2")
        page.wait_for_selector("#tour-live-2", state="hidden", timeout=30_000)
        page.wait_for_function("() => document.querySelector('#tour2-tau input').value === '0.4'", timeout=30_000)
        assert (page.input_value("#tour2-tau input"), page.input_value("#tour2-penalty input")) == recorded
    finally:
        page.close()


def test_back_is_disabled_on_the_first_chapter_and_next_on_the_last(browser, app_url):
    """Next on chapter 11 looked active and did nothing: there it is disabled, as Back is on
    chapter 1; both work in between."""
    page = open_page(browser, app_url, (1440, 900), "?chapter=1")
    try:
        page.wait_for_selector("#tour-viz-1", state="visible", timeout=180_000)
        assert page.is_disabled("#tour-back") and page.is_enabled("#tour-next")
        page.click("#tour-next")
        page.wait_for_selector("#tour-viz-2", state="visible", timeout=60_000)
        assert page.is_enabled("#tour-back") and page.is_enabled("#tour-next")
        page.evaluate("() => document.querySelector('#tour-last').click()")   # the End key's (hidden) button
        last = len(tour.TITLES)
        page.wait_for_selector(f"#chapter-{last}", state="visible", timeout=60_000)
        page.wait_for_function("() => document.querySelector('#tour-next').disabled", timeout=30_000)
        assert page.is_enabled("#tour-back")
    finally:
        page.close()
    page = open_page(browser, app_url, (1440, 900), f"?chapter={len(tour.TITLES)}")
    try:   # a link to the last chapter opens it with Next disabled
        page.wait_for_selector(f"#chapter-{len(tour.TITLES)}", state="visible", timeout=180_000)
        page.wait_for_function("() => document.querySelector('#tour-next').disabled", timeout=30_000)
    finally:
        page.close()
