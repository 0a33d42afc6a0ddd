"""The entropy lens and the law plot in the app, on the bundled model: views, the `lens` API
(gradio_client) and a real browser."""
import pytest

from test_browser import ARTIFACTS, CHROMIUM_ARGS, CHROMIUM

COUNTING = ("Count from 1 to 30:", " 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16")
PROSE = ("ROMEO:\n", " But soft, what light through yonder window breaks? It is the east, and Juliet")
HOSTILE = '<img src=x onerror="window.__xss=7"></div><script>window.__xss=8</script> and more'


@pytest.fixture(scope="module")
def bundled_url():
    """The explorer on the bundled model (the lens needs a trained model to show groups)."""
    from app.ui import build_ui, launch
    demo = build_ui()
    launch(demo, prevent_thread_lock=True, server_name="127.0.0.1", quiet=True)
    yield demo.local_url
    demo.close()


def test_view_escapes_and_marks_groups(tiny_lm):
    from app.views import lens
    from wedlm import DecodeConfig
    view = lens.compute(tiny_lm, "<b>p</b>", HOSTILE, DecodeConfig(threshold=None))
    html = lens.view_html(view, "fill", "<i>A</i>")
    assert "<img" not in html and "<script" not in html and "<b>p" not in html and "<i>A" not in html
    # one box per forward that committed something (no τ: a forward may commit nothing)
    # the hostile text comes back as text: the token spans, tags stripped and unescaped, spell it
    import html as htmllib
    import re
    tokens = re.search(r'<div class="tokens">(.*?)</div>', html, re.S).group(1)
    shown = htmllib.unescape(re.sub(r"<[^>]+>", "", tokens)).replace("·", " ")
    assert '<img src=x onerror="window.__xss=7">' in shown
    assert html.count('class="lgroup"') == len(set(view.lens.grouping.commit_step))
    assert lens.view_html(None) == ""


def test_law_figure_draws_the_tau_line_your_points_and_no_text_labels():
    from app.views import entropy
    rows = [{"id": "c", "class": "counting", "entropy": 0.01, "tokens_per_forward": 13.7, "speedup_tokens_per_s": 4.0},
            {"id": "p", "class": "plays", "entropy": 1.9, "tokens_per_forward": 1.0, "speedup_tokens_per_s": 0.7}]
    yours = [{"label": "your decode", "entropy": 0.2, "tokens_per_forward": 6.0}]
    fig = entropy.law_figure(rows, 0.4, yours)
    assert [s.x0 for s in fig.layout.shapes] == [0.4] and "cliff" in fig.layout.annotations[0].text
    assert all(t.mode == "markers" for t in fig.data)  # names on hover, never overlapping text
    assert fig.data[-1].name == "your decode" and fig.data[-1].marker.symbol == "star"
    assert not entropy.law_figure([], None).layout.shapes
    sweep = [{"threshold": "none", "tokens_per_forward": 1.0, "mean_fill_entropy": 0.5},
             {"threshold": 0.4, "tokens_per_forward": 3.0, "mean_fill_entropy": 0.1}]
    assert entropy.sweep_point(sweep, 0.4)["tokens_per_forward"] == 3.0
    assert entropy.sweep_point(sweep, 0.7) is None
    recorded = entropy.recorded_suite()
    if recorded is not None:  # recorded by tools/record_suite.py for the suite as it is now
        assert [r["id"] for r in recorded["rows"]] == [p["id"] for p in entropy.suite_prompts()]


def test_lens_api(bundled_url):
    from gradio_client import Client
    from wedlm import DecodeConfig, decode, load_model
    client = Client(bundled_url, verbose=False)
    out = client.predict(*COUNTING, 0.4, 0.02, api_name="/lens")
    n = len(out["token_ids"])
    assert out["stop"] and len(out["tokens"]) == n and "".join(out["tokens"][:-1]) == COUNTING[1]
    for key in ("head_entropy", "frontier_entropy", "fill_entropy", "fill_step", "commit_step"):
        assert len(out[key]) == n, key
    assert sum(out["groups"], []) == list(range(n))
    assert out["tokens_per_forward"] == pytest.approx(n / out["forwards"]) and out["tokens_per_forward"] > 3
    # the groups are those of a real streaming decode when the text is the model's own output
    lm = load_model(device="cpu")
    trace = decode(lm, COUNTING[0], "streaming", DecodeConfig(max_new_tokens=24))
    again = client.predict(COUNTING[0], trace.text, 0.4, 0.02, api_name="/lens")
    if again["token_ids"] == trace.token_ids:  # the text re-tokenizes to the same ids
        assert again["forwards"] == trace.result.forwards
    with pytest.raises(Exception, match="characters"):
        client.predict("hi", "x" * 5000, 0.4, 0.02, api_name="/lens")
    with pytest.raises(Exception, match="threshold must be from 0"):
        client.predict("hi", "there", -1.0, 0.02, api_name="/lens")


def test_browser_lens_counting_against_prose_and_hostile_text(bundled_url):
    from playwright.sync_api import sync_playwright

    from app.views import entropy
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 2400})
        dialogs = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.goto(bundled_url, wait_until="domcontentloaded")
        page.get_by_role("tab", name="Entropy explorer").click(timeout=180_000)
        for side, (prompt, text) in (("a", COUNTING), ("b", PROSE)):
            page.fill(f"#lens-prompt-{side} textarea", prompt)
            page.fill(f"#lens-text-{side} textarea", text)
        page.click("#lens-run")
        page.wait_for_selector("#lens-a .lens", timeout=120_000)
        page.wait_for_selector("#lens-b .lens", timeout=120_000)
        longest = {s: int(page.get_attribute(f"#lens-{s} .lens", "data-longest")) for s in "ab"}
        tpf = {s: float(page.get_attribute(f"#lens-{s} .lens", "data-tpf")) for s in "ab"}
        assert longest["a"] > longest["b"] and tpf["a"] > 2 * tpf["b"], (longest, tpf)
        page.screenshot(path=str(ARTIFACTS / "lens.png"), full_page=True)
        groups_before = page.locator("#lens-a .lgroup").count()
        page.fill("#lens-text-b textarea", HOSTILE)
        page.click("#lens-run")
        page.wait_for_function("() => document.querySelector('#lens-b .lens') && "
                               "document.querySelector('#lens-b .lens').innerText.includes('onerror')",
                               timeout=120_000)
        assert page.locator("#lens-b img, #lens-b script").count() == 0
        assert page.evaluate("() => window.__xss") is None and dialogs == []
        assert page.locator("#lens-a .lgroup").count() == groups_before
        # the suite opened already measured when recorded (else no table yet), no placeholder sweep table
        page.wait_for_function("() => document.querySelector('#entropy-law .js-plotly-plot')", timeout=60_000)
        if entropy.recorded_suite() is not None:
            assert "count-1-38" in page.inner_text("#suite-table")
        else:
            assert page.locator("#suite-table").count() == 0 or not page.locator("#suite-table").is_visible()
        assert page.locator("#sweep-table").count() == 0 or not page.locator("#sweep-table").is_visible()
        assert "common.complete" not in page.inner_text("body")
        browser.close()


def test_the_lens_counting_example_ends_where_its_prompt_says():
    """A walker saw "Count from 1 to 30:" beside a text that stops at 20."""
    import re
    from app.tabs.entropy import LENS_EXAMPLES
    prompt, text = LENS_EXAMPLES[0]
    asked = re.match(r"Count from (\d+) to (\d+):", prompt)
    numbers = re.findall(r"\d+", text)
    assert asked and (numbers[0], numbers[-1]) == (asked[1], asked[2])
