"""Accessibility, measured: axe-core (bundled by axe-playwright-python) on every tab at 1024x768
fails on any serious or critical violation; animations honour prefers-reduced-motion; every
stepper (the Decode tab's and the tour chapters') says each step in one sentence to a screen reader."""
import pytest

from test_browser import CHROMIUM_ARGS, CHROMIUM, browser  # noqa: F401 (the module's Chromium)

TABS = ["Tour", "Decode", "Race", "Entropy explorer", "How it works"]
# The minimal, explicit exclusions: elements drawn by Gradio itself that our code cannot change.
GRADIO_INTERNALS = [
    # gr.Plot's empty placeholder: Gradio 6.31 puts aria-label="Empty value" on a role-less div
    # (aria-prohibited-attr); it holds only an icon until the figure is drawn
    ".block .empty.unpadded_box[aria-label]",
]


def serious(results) -> list[str]:
    return [f'{v["id"]} ({v["impact"]}): ' + "; ".join(str(n["target"]) for n in v["nodes"][:5])
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


@pytest.fixture()
def page(browser, app_url):  # noqa: F811
    page = browser.new_page(viewport={"width": 1024, "height": 768})
    page.goto(app_url, wait_until="domcontentloaded")
    page.wait_for_selector("#chapter-1 .wedlm-stepper[data-step]", timeout=60_000)
    yield page
    page.close()


def test_axe_finds_no_serious_violation_on_any_tab(page):
    from axe_playwright_python.sync_playwright import Axe
    axe = Axe()
    found = {}
    for tab in TABS:
        page.get_by_role("tab", name=tab).click()
        page.wait_for_function("t => [...document.querySelectorAll('[role=tab][aria-selected=true]')]"
                               ".some(e => e.innerText.trim() === t)", arg=tab)
        if tab == "Decode":
            page.wait_for_selector("#stepper .wedlm-stepper[data-step]", timeout=60_000)
        page.wait_for_timeout(500)  # the tab's content mounted
        results = axe.run(page, context={"exclude": [[s] for s in GRADIO_INTERNALS]})
        found[tab] = serious(results)
    assert not any(found.values()), found


def test_reduced_motion_stops_every_animation(browser, app_url):  # noqa: F811
    context = browser.new_context(viewport={"width": 1400, "height": 2000}, reduced_motion="reduce")
    page = context.new_page()
    page.goto(app_url, wait_until="domcontentloaded")
    page.get_by_role("tab", name="Decode").click(timeout=60_000)
    page.wait_for_selector("#orders .orders", timeout=60_000)
    # the reordering animation never starts, and its button is not offered
    assert page.evaluate("() => window.wedlmStepper.animateReorder(document.querySelector('#orders .orders'))") is None
    assert not page.is_visible("#orders .reorder-play")
    # CSS transitions (ours and Gradio's) are instant; stepping and playing start no animation
    assert page.evaluate("() => getComputedStyle(document.querySelector('#run')).transitionDuration"
                         ".split(',').every(d => parseFloat(d) <= 0.001)")
    page.click("#stepper button[data-act=prev]")
    assert page.evaluate("() => document.getAnimations().filter(a => a.playState === 'running' && "
                         "a.effect && a.effect.getComputedTiming().duration > 1).length") == 0
    context.close()


@pytest.mark.parametrize("where", ["#stepper"] + [f"#chapter-{n}" for n in range(1, 7)])
def test_every_stepper_says_each_step_in_a_sentence_to_screen_readers(page, where):
    if where == "#stepper":
        page.get_by_role("tab", name="Decode").click()
    else:
        page.goto(page.url.split("?")[0] + f"?chapter={where.split('-')[1]}", wait_until="domcontentloaded")
    page.wait_for_selector(f"{where} .wedlm-stepper[data-step]", timeout=60_000)
    live = page.locator(f"{where} .wedlm-stepper .stepper-summary[aria-live=polite]")
    first = live.inner_text().strip()
    assert first.endswith(".") and len(first.split()) >= 4, first
    page.click(f"{where} .wedlm-stepper button[data-act=first]")
    page.wait_for_function("w => document.querySelector(w + ' .wedlm-stepper').dataset.step === "
                           "document.querySelector(w + ' .wedlm-stepper input[type=range]').min", arg=where)
    assert live.inner_text().strip() != first or page.evaluate(
        "w => document.querySelector(w + ' .wedlm-stepper').dataset.start", where) == page.evaluate(
        "w => document.querySelector(w + ' .wedlm-stepper').dataset.step", where)
