"""The app launched for real and driven through its named endpoint with gradio_client."""
import pytest


@pytest.fixture(scope="module")
def app_url(tiny_dir):
    from app.ui import CSS, build_ui
    demo = build_ui(str(tiny_dir))
    demo.queue().launch(prevent_thread_lock=True, server_name="127.0.0.1", server_port=None,
                        css=CSS, share=False, quiet=True)
    yield demo.local_url
    demo.close()


def test_run_endpoint_decodes_and_escapes(app_url, tiny_lm):
    from gradio_client import Client
    from wedlm import DecodeConfig, decode
    client = Client(app_url, verbose=False)
    prompt = "<script>alert(1)</script>"
    text, summary, steps_html = client.predict(prompt, "streaming", 8, 3.0, 0.02, 12, api_name="/run")
    expected = decode(tiny_lm, prompt, "streaming",
                      DecodeConfig(window=8, threshold=3.0, penalty=0.02, max_new_tokens=12))
    assert text == expected.text
    assert f"{expected.result.forwards} forwards" in summary
    assert steps_html.count("<tr>") == expected.result.forwards + 1
    assert "<script>" not in steps_html


def test_bad_knob_is_a_clear_error(app_url):
    from gradio_client import Client
    client = Client(app_url, verbose=False)
    with pytest.raises(Exception, match="threshold must be at least 0"):
        client.predict("hi", "streaming", 8, -1.0, 0.02, 12, api_name="/run")
    with pytest.raises(Exception, match="prompt is empty"):
        client.predict("   ", "streaming", 8, 0.4, 0.02, 12, api_name="/run")
