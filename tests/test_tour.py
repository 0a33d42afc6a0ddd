"""The guided tour: its recorded moments are the ones its rules find, its narration states what the
recorded step did, and a real browser walks it at a laptop's and a projector's size."""
from html import unescape

import pytest

from app.tabs import tour
from app.views import render
from app.tabs import tour_moments as moments
from app.views.timeline import Timeline
from test_browser import ARTIFACTS, browser  # noqa: F401 (the headless Chromium fixture)

# chapter -> the pick whose step it lands on (chapter 6 lands on a race tick, 8 on a mask pattern)
STEP_CHAPTERS = {1: "ar", 2: "fill_rule", 3: "reorder", 4: "commit", 5: "stall", 7: "entropy_low"}
FINDERS = {"ar": moments.ar_step, "fill_rule": moments.fill_rule_step, "reorder": moments.reorder_step,
           "commit": moments.commit_step, "stall": moments.stall_step,
           "entropy_low": moments.busiest_step, "entropy_high": moments.fallback_step}


@pytest.fixture(scope="module")
def data():
    return tour.load_tour()


def expected_phrases(tl: Timeline, step: int) -> list[str]:
    """What the narration must say about a step, read straight from its record."""
    s = tl.trace.steps[step]
    fills = sorted(s.filled, key=lambda f: f.pos)[:tour.LISTED_FILLS]
    out = [f"‘{unescape(render.token_label(tl, f.token))}’ at {f.pos}" for f in fills]
    out.append(f"Filled {len(s.filled)}" if s.filled else "Nothing was filled")
    out.append(f"Committed {len(s.committed)} token")
    out.append(f"{s.cache_before} → {s.cache_after}" if s.committed else f"stays at {s.cache_after}")
    return out


def test_recorded_picks_are_what_the_rules_find(data):
    """No step is chosen by hand: each pick is its rule's answer on the recorded trace."""
    for name, finder in FINDERS.items():
        tl, step = data.at(name)
        assert finder(tl.trace) == step, name
    reorder = data.at("reorder")
    assert moments.waits_behind_mask(reorder[0].trace.steps[reorder[1]])
    assert reorder[0].trace.steps[reorder[1]].order != sorted(reorder[0].trace.steps[reorder[1]].order)
    tl, step = data.at("commit")
    assert tl.trace.steps[step].committed and moments.waits_behind_mask(tl.trace.steps[step])
    tl, step = data.at("stall")
    s = tl.trace.steps[step]
    assert not s.masks[0].selected and moments.flat_run(tl.trace, step) >= moments.FLAT_FORWARDS
    assert tl.committed_after[step + moments.FLAT_FORWARDS] == tl.committed_after[step]  # flat growth
    other = data.timelines[data.picks["stall"]["branch"]]
    assert other.trace.config["penalty"] == data.picks["stall"]["penalty"] > tl.trace.config["penalty"]
    assert moments.commit_step_of(other.trace, s.masks[0].pos) < moments.commit_step_of(tl.trace, s.masks[0].pos)
    race = data.picks["race"]
    assert race["tick"] == len(data.timelines[race["streaming"]].trace.steps)


def test_tour_assets_stay_small():
    assert tour.TOUR_FILE.stat().st_size < 400_000


@pytest.mark.parametrize("value, chapter", [("3", 3), (5.0, 5), ("8", 8), ("9", 1), ("0", 1), ("x", 1),
                                            (None, 1), ("-2", 1), ("1e9", 1)])
def test_link_chapter_accepts_only_real_chapters(value, chapter):
    assert tour.link_chapter(value) == chapter


def test_chapter_narration_states_the_steps_fills_and_commits(data):
    for chapter, pick in STEP_CHAPTERS.items():
        tl, step = data.at(pick)
        html = {1: tour.ch1, 2: tour.ch2, 3: tour.ch3, 4: tour.ch4, 7: None, 5: None}[chapter]
        if chapter == 5:
            text = tour.ch5(tl, step, data.timelines["stall-branch"], data.picks["stall"]["penalty"])[0]
        elif chapter == 7:
            text = tour.ch7(data.law_rows, data.at("entropy_low"), data.at("entropy_high"))[0]
        else:
            text = html(tl, step)[0]
        for phrase in expected_phrases(tl, step):
            assert phrase in unescape(text), (chapter, phrase)


# ---------- in a real browser ----------

def chapter_text(page, n: int) -> str:
    return page.inner_text(f"#tour-text-{n}")


def view_has_data(page, n: int) -> bool:
    return page.evaluate("""n => {
        const root = document.querySelector('#chapter-' + n);
        if (!root) return false;
        const plots = [...root.querySelectorAll('.js-plotly-plot')].filter(p => p.data && p.data.length);
        return plots.length > 0 || root.querySelectorAll('.tok, .slot, .lane').length > 0;
    }""", n)


def viz_top(page, n: int) -> float:
    """Page y of the chapter's first view (with the page scrolled to the top)."""
    return page.evaluate("""n => { window.scrollTo(0, 0);
        const el = document.querySelector('#tour-viz-' + n);
        return el ? el.getBoundingClientRect().top + window.scrollY : 1e9; }""", n)


@pytest.mark.parametrize("size", [(1440, 900), (1024, 768)])
def test_walk_the_whole_tour(browser, app_url, data, size):
    width, height = size
    page = browser.new_page(viewport={"width": width, "height": height})
    try:
        page.goto(app_url, wait_until="domcontentloaded")
        page.wait_for_selector("#tour-viz-1", state="visible", timeout=180_000)
        for n in range(1, len(tour.TITLES) + 1):
            page.wait_for_selector(f"#tour-viz-{n}", state="visible", timeout=60_000)
            page.wait_for_function("n => document.querySelector('#chapter-' + n + ' .js-plotly-plot') === null"
                                   " || [...document.querySelectorAll('#chapter-' + n + ' .js-plotly-plot')]"
                                   ".every(p => p.data)", arg=n, timeout=30_000)
            assert view_has_data(page, n), f"chapter {n} shows no data"
            text = chapter_text(page, n)
            if n in STEP_CHAPTERS:
                tl, step = data.at(STEP_CHAPTERS[n])
                for phrase in expected_phrases(tl, step):
                    assert phrase in text, (n, phrase)
            if n == 6:
                race = data.picks["race"]
                tick = race["tick"]
                n_ar = tour.race.tokens_after(data.timelines[race["ar"]], tick)
                n_wd = tour.race.tokens_after(data.timelines[race["streaming"]], tick)
                assert f"After {tick} forwards: AR has {n_ar} tokens, WeDLM {n_wd}" in text
            if width == 1024:
                assert viz_top(page, n) < height, f"chapter {n}: its view starts below the first screen"
            assert page.evaluate("n => location.hash", n) == ("" if n == 1 else f"#chapter-{n}")
            if n == 3 and width == 1024:
                page.screenshot(path=str(ARTIFACTS / "tour-chapter-3-1024.png"))
            if n < len(tour.TITLES):
                page.click("#tour-next")
                page.wait_for_function("n => location.hash === '#chapter-' + n", arg=n + 1, timeout=30_000)
        page.click("#tour-back")
        page.wait_for_selector("#tour-viz-7", state="visible", timeout=60_000)
    finally:
        page.close()


@pytest.mark.parametrize("link, chapter", [("?chapter=5", 5), ("#chapter-3", 3), ("?chapter=99", 1)])
def test_a_link_opens_its_chapter(browser, app_url, link, chapter):
    page = browser.new_page(viewport={"width": 1024, "height": 768})
    try:
        page.goto(app_url + ("/" if not app_url.endswith("/") else "") + link, wait_until="domcontentloaded")
        page.wait_for_selector(f"#tour-viz-{chapter}", state="visible", timeout=180_000)
        others = [n for n in range(1, len(tour.TITLES) + 1) if n != chapter]
        assert all(not page.locator(f"#tour-viz-{n}").is_visible() for n in others)
    finally:
        page.close()


def test_present_mode_hides_the_rest_and_try_it_runs_live(browser, app_url):
    page = browser.new_page(viewport={"width": 1024, "height": 768})
    try:
        page.goto(app_url.rstrip("/") + "/?chapter=7", wait_until="domcontentloaded")
        page.wait_for_selector("#tour-viz-7", state="visible", timeout=180_000)
        assert page.locator("#app-header").is_visible()
        page.click("#tour-present-btn")
        page.wait_for_function("() => document.body.classList.contains('tour-present')")
        assert not page.locator("#app-header").is_visible()
        assert page.locator("#tour-viz-7").is_visible()
        # try it: decode a prompt live on the app's model; it joins the plot as "your prompt"
        page.click("#tour-try-7")
        page.wait_for_function("""() => { const p = document.querySelector('#tour-viz-7 .js-plotly-plot');
            return p && p.data && p.data.some(t => t.name === 'your prompt'); }""", timeout=120_000)
        assert "Your prompt" in page.inner_text("#tour-text-7")
    finally:
        page.close()
