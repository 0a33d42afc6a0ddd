"""The views in Chinese (app/views, app/i18n/views.py): every view of the recorded example traces
drawn with lang="zh" leaves no English but token text and names (tests/i18n_check.english_left),
carries the step's own numbers, and the scripts take their words from the page."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app import i18n
from app.views import (charts, entropy, export, figures, lanes, lens, lessons, narration, palette, render,
                       script_words, stepper)
from app.views.timeline import Timeline
from tests.i18n_check import english_left, visible_text
from wedlm import Trace

ROOT = Path(__file__).parent.parent
TRACES = {p.stem: p for p in sorted((ROOT / "assets" / "traces").glob("*.json"))}
SHOWN = ("1-counting-streaming", "2-counting-ar", "7-plays-streaming", "8-arithmetic-verified")


@pytest.fixture(scope="module", params=SHOWN)
def timeline(request):
    return Timeline(Trace.load(TRACES[request.param]))


def steps_of(tl: Timeline) -> list[int]:
    n = tl.num_steps
    return sorted({0, 1 % n, n // 2, n - 1})


def names_of(tl: Timeline) -> tuple[str, ...]:
    return (tl.trace.model.split("/")[-1],)


def test_english_left_finds_english_and_skips_tokens_and_names():
    assert english_left('<div title="position 3">位置</div>') == ["position"]
    assert english_left("<p>填入 'hello'、“world” 和 WeDLM 的 KV 缓存</p>") == []
    assert english_left('<span class="tok st-new" data-pos="3">ROMEO</span><span class="tok legend">mask</span>') == ["mask"]
    assert english_left("<svg><text class='rowt'>12:Once</text><title>sees later</title></svg>") == ["sees", "later"]
    assert english_left("<p>模型 wedlm-tiny</p>", names=("wedlm-tiny",)) == []


def test_every_view_of_every_example_is_chinese(timeline):
    names = names_of(timeline)
    for k in steps_of(timeline):
        views = {
            "narration": render.narration_html(timeline, k, lang="zh"),
            "canvas": render.token_canvas(timeline, k, lang="zh"),
            "canvas-entropy": render.token_canvas(timeline, k, colour_by="entropy", lang="zh"),
            "output": render.output_view(timeline, k, lang="zh"),
            "orders": render.order_view(timeline, k, lang="zh"),
            "badge": render.badge(timeline, k, lang="zh"),
            "mask-logical": render.mask_grid(timeline, k, logical=True, lang="zh"),
            "mask-physical": render.mask_grid(timeline, k, logical=False, lang="zh"),
            "bars": charts.entropy_bars(timeline, k, lang="zh"),
        }
        for name, html in views.items():
            assert re.search(r"[\u4e00-\u9fff]", visible_text(html)), (name, k)
            assert english_left(html, names) == [], (name, k, english_left(html, names), html[:400])
        summary = render.step_summary(timeline, k, lang="zh")
        assert english_left(summary, names, plain=True) == [], summary
    for name, html in {"table": render.step_table(timeline, 1, lang="zh"),
                       "growth": charts.prefix_growth(timeline, lang="zh"),
                       "heatmap": charts.entropy_heatmap(timeline, lang="zh")}.items():
        assert english_left(html, names) == [], (name, english_left(html, names))
    for pos, tip in render.position_tips(timeline, lang="zh").items():
        assert english_left(tip, names, plain=True) == [], (pos, tip)


def test_chinese_narration_and_summary_carry_the_steps_numbers(timeline):
    for s in timeline.trace.steps:
        summary = render.step_summary(timeline, s.index, lang="zh")
        assert f"第 {s.index} 步" in summary and f"第 {timeline.num_steps - 1} 步" in summary
        # the last step, when it filled nothing, counts its unscored masks instead (one line in the page)
        # verified decoding says its AR token apart from the masks the forward filled
        fills = [f for f in s.filled if s.verify is None or f.pos != s.verify.ar_pos]
        assert (f"填充 {len(fills)} 个" in summary or (not s.filled and "个掩码未打分" in summary)
                or (timeline.trace.decoder == "ar" and f"预测 {len(s.filled)} 个词元" in summary))
        assert f"提交 {len(s.committed)} 个" in summary
        assert (f"从 {s.cache_before} 个词元变为 {s.cache_after} 个" in summary   # AR, the last step
                or f"KV 缓存 {s.cache_before} → {s.cache_after} 个词元" in summary)     # as the narration says it
        text = narration.joined(narration.narrate(timeline.trace, s.index, lang="zh"), "zh")
        if timeline.trace.decoder == "ar":
            assert f"位置 {s.filled[0].pos}" in text if s.filled else True
            assert f"{s.cache_before} → {s.cache_after} 个词元" in text
            continue
        assert f"第 {s.index + 1} 次前向计算" in text and f"（共 {s.rows} 行）" in text
        if s.committed:
            assert f"{s.cache_before} → {s.cache_after} 个词元" in text
        elif s.verify is None:
            assert f"停在 {s.cache_before} 个词元" in text
        chosen = [m.pos for m in s.masks if m.selected]
        if chosen and s.verify is None and not s.finished:
            assert narration.positions_text(chosen, "zh") in text
        still_open = [m.pos for m in s.masks if not m.selected]
        if still_open and s.verify is None and not s.finished:
            assert f"位置 {narration.positions_text(still_open, 'zh')} 的掩码仍未填" in text
        if s.verify is not None and s.verify.checked:
            assert f"{len(s.verify.checked)} 个草稿" in text


def test_chinese_lists_and_quotes():
    assert narration.positions_text([59, 56, 57, 58, 62], "zh") == "56–59、62"
    trace = Trace.load(TRACES["1-counting-streaming"])
    tok = trace.steps[0].committed[0] if trace.steps[0].committed else trace.token_ids[0]
    assert narration.token_text(trace, tok, "zh") == "“" + trace.tokens[tok].replace(" ", "·") + "”"
    assert narration.joined(["一。", "二。"], "zh") == "一。二。" and narration.joined(["A.", "B."]) == "A. B."


def test_the_stepper_speaks_the_pages_language(timeline):
    html = stepper.bundle_html(timeline, "decode", keys=True, link="tab=decode", lang="zh")
    assert 'lang="zh-CN"' in html
    assert english_left(html, names_of(timeline)) == [], english_left(html, names_of(timeline))
    data = stepper.bundle_data(html)
    for k, summary in enumerate(data["summaries"]):   # the aria-live sentence of every step
        s = timeline.trace.steps[data["first"] + k]
        assert summary == render.step_summary(timeline, s.index, lang="zh") and f"提交 {len(s.committed)} 个" in summary
    for name, drawn in data["views"].items():
        for html_k in drawn[:3]:
            assert english_left(html_k, names_of(timeline)) == [], (name, english_left(html_k, names_of(timeline)))
    for name, html_w in data["whole"].items():
        assert english_left(html_w, names_of(timeline)) == [], name
    assert all(english_left(t, names_of(timeline), plain=True) == [] for t in data["tips"].values())
    english = stepper.bundle_html(timeline, "decode", keys=True, link="tab=decode")
    assert 'lang="en"' in english and ">Play</button>" in english and 'data-state="play"' in english
    assert "Copy link to this step" in english


def test_the_scripts_hold_no_words_of_their_own():
    """Every word stepper.js and present.js show comes from the page's CSS (--wedlm-words)."""
    scripts = "".join((ROOT / "app" / "static" / n).read_text(encoding="utf-8")
                      for n in ("stepper.js", "present.js", "highlight.js"))
    for key in script_words.JS_WORDS:
        for lang in i18n.LANGS:
            assert i18n.text(lang, "views.js." + key) not in scripts, (key, lang)
        assert f'"{key}"' in scripts or f"w.{key}" in scripts, key   # each word is used
    css = palette.css_variables()
    for lang in i18n.LANGS:   # each language's words, as JSON the scripts parse back
        rule = re.search(rf":lang\({lang}\) {{ --wedlm-words: '([^']*)'; }}", css)
        assert rule and json.loads(rule.group(1)) == script_words.js_words(lang), lang
    assert script_words.js_words("zh")["pause"] == "暂停"   # the icon is drawn by style.css, not a glyph
    assert all(english_left(w, plain=True) == [] for w in script_words.js_words("zh").values())


def test_the_offline_replay_in_chinese():
    tl = Timeline(Trace.load(TRACES["8-arithmetic-verified"]))
    html = export.replay_html(tl, 2, lang="zh")
    assert '<html lang="zh-CN">' in html and "WeDLM 轨迹回放" in html
    assert english_left(html, names_of(tl)) == [], english_left(html, names_of(tl))


def figure_texts(fig) -> list[str]:
    """Every text a Plotly figure shows: titles, axis titles, legend names, hover templates and
    their custom data, annotations, category ticks; Plotly's own %{fields} and tags left out."""
    spec = fig.to_plotly_json()
    layout, out = spec["layout"], []
    out.append(layout.get("title", {}).get("text", ""))
    for key, axis in layout.items():
        if key.startswith(("xaxis", "yaxis")):
            out.append((axis.get("title") or {}).get("text", ""))
    out += [a.get("text", "") for a in layout.get("annotations", [])]
    for trace in spec["data"]:
        out += [trace.get("name") or "", trace.get("hovertemplate") or ""]
        out += [str(c) for row in (trace.get("customdata") or []) for c in (row if isinstance(row, list) else [row])
                if isinstance(c, str)]
        out += [v for key in ("x", "y") for v in (trace.get(key) or []) if isinstance(v, str)]
        out.append(((trace.get("colorbar") or {}).get("title") or {}).get("text", ""))
    text = "\n".join(t for t in out if t)
    return [re.sub(r"%\{[^}]*\}|</?extra>|<br>", " ", text)]


def test_plotly_figures_in_chinese_with_fonts_that_draw_it(timeline):
    figs = [figures.entropy_bars(timeline, k, lang="zh") for k in steps_of(timeline)]
    figs += [figures.entropy_heatmap(timeline, lang="zh"),
             figures.prefix_growth({lanes.lane_title(timeline.trace.decoder, "zh"): timeline}, 1, lang="zh"),
             figures.training_mask_figure([False, True, True, False], 2, lang="zh")]
    for fig in figs:
        (text,) = figure_texts(fig)
        assert re.search(r"[\u4e00-\u9fff]", text)
        assert english_left(text, ("x0", "xt", "M"), plain=True) == [], english_left(text, plain=True)
        assert "Noto Sans CJK SC" in fig.layout.font.family and fig.layout.height > 0
    assert figures.entropy_bars(timeline, 0).layout.font.family is None   # English: unchanged


def test_entropy_explorer_race_lens_and_lessons_in_chinese():
    rows = [{"id": "count-1", "class": "counting", "entropy": 0.2, "tokens_per_forward": 3.1,
             "speedup_tokens_per_s": 1.8, "text": "1, 2"},
            {"id": "code-1", "class": "code", "entropy": 1.1, "tokens_per_forward": 1.4,
             "speedup_tokens_per_s": 1.1, "text": "def"}]
    sweep = [{"threshold": "none", "tokens_per_forward": 1.0, "output_changed": False, "mean_fill_entropy": 0.4,
              "verified_tokens_per_forward": 1.0, "verified_output_changed": False, "output": "one two"},
             {"threshold": 0.8, "tokens_per_forward": 2.5, "output_changed": True, "mean_fill_entropy": 0.6,
              "verified_tokens_per_forward": 2.0, "verified_output_changed": False, "output": "one six"}]
    point = entropy.sweep_point(sweep, None, lang="zh")
    assert point["label"] == "扫描的提示词（τ = 无）"
    for fig in (entropy.law_figure(rows, 0.8, [point], lang="zh"), entropy.law_figure([], lang="zh"),
                entropy.sweep_figure(sweep, lang="zh")):
        (text,) = figure_texts(fig)
        assert english_left(text, ("count", "code"), plain=True) == [], english_left(text, plain=True)
    diff = entropy.sweep_diff_html(sweep, lang="zh")
    assert "τ = 0.8" in diff and english_left(diff) == []
    assert english_left(entropy.sweep_diff_html(sweep[:1], lang="zh")) == []
    tls = {"ar": Timeline(Trace.load(TRACES["2-counting-ar"])),
           "streaming": Timeline(Trace.load(TRACES["1-counting-streaming"]))}
    for tick, wall, paused in ((0, False, False), (4, False, True), (10_000, False, False), (10_000, True, False)):
        html, finished = lanes.race_frame(tls, tick, wall, 0.05, paused, lang="zh")
        assert english_left(html) == [], (tick, english_left(html))
        assert (tick == 10_000) == finished
    done, _ = lanes.race_frame(tls, 10_000, False, 0.05, lang="zh")
    n = len(tls["streaming"].trace.steps)
    assert f"{n} 次前向计算" in done and "为什么挂钟时间上的加速比" in done
    assert english_left(lens.legend_html("zh")) == [] and english_left(lens.limits_note("zh"), plain=True) == []
    assert set(lens.colour_by_labels("zh").values()) == set(lens.COLOUR_BY.values())
    assert all(english_left(label, plain=True) == [] for label in lens.colour_by_labels("zh"))
    for name in lessons.LESSONS:
        md = lessons.lesson(name, "zh")
        assert english_left(md, ("B", "W", "L"), plain=True) == [], (name, english_left(md, plain=True))
        assert lessons.lesson(name) == lessons.LESSONS[name]
    for html in lessons.playground(6, [0, 1, 3], lang="zh"):
        assert english_left(html) == [], english_left(html)
    assert "提交开头的 2 个已填充槽位" in lessons.playground(6, [0, 1, 3], lang="zh")[0]


def test_colour_words_and_labels_in_chinese():
    words = {role: palette.colour_word(role, "zh") for role in palette.ROLE_COLOURS}
    by_hex = {}
    for role, word in words.items():   # one word per colour, as in English
        by_hex.setdefault(palette.ROLE_COLOURS[role], set()).add(word)
    assert all(len(w) == 1 for w in by_hex.values()) and len({next(iter(w)) for w in by_hex.values()}) == len(by_hex)
    assert all(re.fullmatch(r"[\u4e00-\u9fff]+", w) for w in words.values()), words
    assert palette.colour_word("state-new", "zh") == "橙色" and palette.colour_word("state-new") == "orange"
    legends = render.state_legend(lang="zh") + render.verify_legend("zh") + palette.entropy_legend_html("zh")
    assert english_left(legends) == [], english_left(legends)
    assert render.empty_view(lang="zh") != render.empty_view() and english_left(render.empty_view(lang="zh")) == []


def test_the_chinese_replay_steps_in_chromium_with_the_pages_words(tmp_path):
    """The offline replay in Chinese, stepped by the real stepper.js: the aria-live sentence, the
    play button's Play/Pause and every shown word stay Chinese at every step it is moved to."""
    from playwright.sync_api import sync_playwright
    chromium = Path("/usr/bin/chromium")
    if not chromium.exists():
        pytest.fail("Debian chromium is not installed (.ci/run installs it)")
    tl = Timeline(Trace.load(TRACES["8-arithmetic-verified"]))
    page_file = tmp_path / "replay-zh.html"
    page_file.write_text(export.replay_html(tl, lang="zh"), encoding="utf-8")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(chromium), headless=True,
                                     args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page()
            page.goto(page_file.as_uri())
            page.wait_for_selector("#canvas .tok")
            for act, step in (("next", 1), ("last", tl.num_steps - 1), ("prev", tl.num_steps - 2)):
                page.click(f"#stepper button[data-act={act}]")
                page.wait_for_selector(f'#narration .wedlm-view[data-step="{step}"]')
                summary = page.inner_text(".stepper-summary")
                assert summary == render.step_summary(tl, step, lang="zh"), (step, summary)
                shown = page.inner_html("body")
                assert english_left(shown, names_of(tl)) == [], (step, english_left(shown, names_of(tl)))
            page.click("#stepper button[data-act=first]")
            page.click("#stepper button[data-act=play]")
            assert page.inner_text("#stepper button[data-act=play]") == "暂停"
            assert page.get_attribute("#stepper button[data-act=play]", "data-state") == "pause"
            page.click("#stepper button[data-act=play]")
            assert page.inner_text("#stepper button[data-act=play]") == "播放"
            assert page.get_attribute("#stepper button[data-act=play]", "data-state") == "play"
        finally:
            browser.close()


def test_the_present_button_speaks_chinese_on_the_chinese_page(app_url):
    """present.js takes its labels from the page's CSS by the page's language: on /zh the tour's
    projector button says 退出演示 while presenting, with no stepper on the chapter."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                     args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page(viewport={"width": 1024, "height": 768})
            page.goto(app_url.rstrip("/") + "/zh?chapter=7", wait_until="domcontentloaded")
            page.wait_for_selector("#tour-viz-7", state="visible", timeout=180_000)
            page.wait_for_function("() => document.documentElement.lang === 'zh-CN'", timeout=60_000)
            page.click("#tour-present-btn")
            page.wait_for_function("() => document.body.classList.contains('tour-present')")
            # (a 1024 px screen: the short label, one line)
            assert page.inner_text("#tour-present-btn") == script_words.js_words("zh")["stop_short"]
            page.click("#tour-present-btn")
            page.wait_for_function("() => !document.body.classList.contains('tour-present')")
            assert page.inner_text("#tour-present-btn") == script_words.js_words("zh")["present"]
        finally:
            browser.close()


def test_the_playground_says_its_slots_commit_at_the_next_forward():
    """The How it works tab said "2 leading filled slot(s) commit" of slots just toggled filled; a slot
    commits one forward after it is filled (chapter 4, the glossary): the words say the next forward
    commits them, in proper singular and plural, in both languages. Its lessons explain their words."""
    for lang, fed in (("en", "fed at the next forward"), ("zh", "在下一次前向计算中被读入")):
        said = {n: visible_text(lessons.playground(6, filled, lang=lang)[0])
                for n, filled in ((0, [1, 2]), (1, [0, 2]), (2, [0, 1, 3]))}
        assert all(fed in s and "(s)" not in s for s in said.values()), lang
    assert "commits nothing" in said_en(0) and "commits its 1 leading filled slot:" in said_en(1)
    assert "commits its 2 leading filled slots:" in said_en(2)
    assert "pipeline bubble: slots that sit idle" in lessons.lesson("streaming")
    assert "the forward that is fed it **commits** it" in lessons.lesson("reorder")
    assert "read left to right" in i18n.text("en", "race.ar.same")


def said_en(n: int) -> str:
    filled = {0: [1, 2], 1: [0, 2], 2: [0, 1, 3]}[n]
    return visible_text(lessons.playground(6, filled)[0])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_tau_sweep_says_before_a_run_what_it_will_draw_and_which_button_draws_it(lang):
    """Before a run the sweep's chart was an empty frame: it now says which button runs it and what
    it will draw (τ = none and the grid's range, both decoders' lines, the markers), no data drawn
    (the browser test waits for the run's own traces); the words above it say what τ = none and
    faithfulness mean. In Chinese, no English left but names."""
    fig = entropy.sweep_placeholder(lang=lang)
    assert len(fig.data) == 0 and fig.layout.height == entropy.SWEEP_HEIGHT == entropy.sweep_figure([], lang).layout.height
    (note,) = [a.text for a in fig.layout.annotations]
    taus = [t for t in entropy.SWEEP if t is not None]
    for part in (i18n.text(lang, "entropy.sweep"), f"{min(taus):g}", f"{max(taus):g}", str(len(entropy.SWEEP)),
                 i18n.text(lang, "views.sweep.streaming"), i18n.text(lang, "views.lane.verified"), "✕", "●"):
        assert part in note, (lang, part)
    intro = i18n.text(lang, "entropy.sweep_intro")
    none = i18n.text(lang, "views.none")
    assert f"τ = {none}" in intro and ("faithfulness" if lang == "en" else "忠实度") in intro.lower()
    assert ("lowest score" if lang == "en" else "最低") in intro
    if lang == "zh":
        assert english_left(note, plain=True) == [] and english_left(intro, plain=True) == [], english_left(note, plain=True)
