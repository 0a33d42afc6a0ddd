"""The client-side stepper's bundle (app/views/stepper.py) and the step views it carries."""
import pytest

from app.views import charts, render, stepper
from app.views.timeline import Timeline
from wedlm import DecodeConfig, decode


@pytest.fixture(scope="module")
def timeline(tiny_lm):
    trace = decode(tiny_lm, "Count from 1 to 20:", "streaming",
                   DecodeConfig(window=8, threshold=3.0, max_new_tokens=30))
    return Timeline(trace)


def test_bundle_holds_every_view_of_every_step_drawn_by_the_renderers(timeline):
    html = stepper.bundle_html(timeline, "decode", keys=True)
    data = stepper.bundle_data(html)
    n = timeline.num_steps
    assert (data["first"], data["count"], data["total"], data["capped"]) == (0, n, n, False)
    assert set(data["views"]) == set(stepper.DECODE_VIEWS.step) and set(data["whole"]) == set(stepper.DECODE_VIEWS.whole)
    for k in (0, n - 1):
        assert data["views"]["narration"][k] == render.narration_html(timeline, k)
        assert data["views"]["orders"][k] == render.order_view(timeline, k)
        assert data["views"]["bars"][k] == charts.entropy_bars(timeline, k)
        assert data["summaries"][k] == render.step_summary(timeline, k)
    assert f'data-start="{n - 1}"' in html and 'data-keys="1"' in html and 'aria-live="polite"' in html
    # the per-step stories go once per trace, not once per step
    assert "position " not in data["views"]["canvas"][0] and data["tips"]


def test_bundle_is_bounded_and_says_what_it_left_out(timeline, monkeypatch):
    monkeypatch.setattr(stepper, "MAX_STEPS", 3)
    data = stepper.draw(timeline)
    assert data["count"] == 3 and data["capped"]
    html = stepper.bundle_html(timeline, "decode", data=data)
    assert f"This trace has {timeline.num_steps} steps; the page holds the first 3" in html
    assert 'max="2"' in html  # the slider stops at the last drawn step
    monkeypatch.setattr(stepper, "MAX_STEPS", 600)
    one_step = sum(len(fn(timeline, 0)) for fn in stepper.DECODE_VIEWS.step.values())
    whole = sum(len(fn(timeline)) for fn in stepper.DECODE_VIEWS.whole.values())
    monkeypatch.setattr(stepper, "MAX_BUNDLE_BYTES", whole + 2 * one_step)
    data = stepper.draw(timeline)
    assert 1 <= data["count"] < timeline.num_steps and data["bytes"] <= stepper.MAX_BUNDLE_BYTES


def test_live_bundle_draws_only_the_newest_step(timeline):
    data = stepper.bundle_data(stepper.bundle_html(timeline, "decode", live=True))
    assert data["live"] and data["count"] == 1 and data["first"] == timeline.num_steps - 1
    assert set(data["whole"]) == set(stepper.LIVE_WHOLE)


def test_bundle_text_is_escaped(tiny_lm):
    trace = decode(tiny_lm, '<img src=x onerror=alert(1)>', "streaming", DecodeConfig(max_new_tokens=6))
    trace.tokens[trace.token_ids[0]] = "<script>bad()</script>"
    tl = Timeline(trace)
    html = stepper.bundle_html(tl, 'x"><img src=y>')
    assert "<img" not in html.split('class="wedlm-steps"')[0]  # the key is escaped too
    data = stepper.bundle_data(html)
    for views in data["views"].values():
        for view in views:
            assert "<img" not in view and "<script>" not in view


def test_output_text_follows_the_step(timeline):
    texts = [render.output_text(timeline, k) for k in range(timeline.num_steps)]
    assert texts[-1] == timeline.trace.text
    assert all(b.startswith(a) for a, b in zip(texts, texts[1:]))  # committed text only grows
    first_commit = next(s.index for s in timeline.trace.steps if s.committed)
    if first_commit > 0:
        assert texts[first_commit - 1] == ""


def test_entropy_bars_title_never_says_no_open_masks_while_masks_show(tiny_lm):
    """32.7: the last step of a decode that stops shows masks in the window and scores none."""
    for prompt in ("Count from 1 to 3:", "ROMEO:"):
        tl = Timeline(decode(tiny_lm, prompt, "streaming", DecodeConfig(window=8, max_new_tokens=24)))
        for s in tl.trace.steps:
            title = charts.entropy_bars_title(tl, s.index)
            assert "no open masks" not in title
            if s.finished and not s.masks:
                assert "ended here" in title


def test_step_table_marks_rows_for_the_stepper(timeline):
    html = render.step_table(timeline)
    assert html.count("data-at-step=") == timeline.num_steps and "current" not in html
    assert render.step_table(timeline, 2).count("current") == 1


def test_decode_tab_knobs_stop_at_the_servers_limits():
    """32.7: the sliders read the limits the line under the title states (one source)."""
    import gradio as gr
    from app.serving.settings import LOCAL, SPACE
    from app.tabs import decode as decode_tab
    for limits in (LOCAL, SPACE):
        with gr.Blocks():
            ui = decode_tab.layout(limits)
        assert ui.max_new.maximum == limits.max_new_tokens
        assert ui.window.maximum == limits.max_window and ui.block_size.maximum <= limits.max_window


def test_race_tab_knobs_stop_at_the_servers_limits(app_demo):
    """The Race tab's sliders read the same limits as the Decode tab's (its max-new-tokens slider
    went to 1024 while the line under the title says ≤ 512)."""
    from app.serving.settings import limits as server_limits
    limits = server_limits()
    by_id = {}
    for block in app_demo.blocks.values():
        by_id.setdefault(getattr(block, "elem_id", None), []).append(block)
    assert by_id.get("race-max-new") and all(b.maximum == limits.max_new_tokens for b in by_id["race-max-new"])
