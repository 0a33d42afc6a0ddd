"""The app launched for real and driven through its named endpoints with gradio_client."""
import json

import pytest


@pytest.fixture(scope="module")
def client(app_url):
    from gradio_client import Client
    return Client(app_url, verbose=False)


def test_decode_api_returns_the_trace(client, tiny_lm):
    from wedlm import DecodeConfig, decode
    out = client.predict(prompt="Count from 1 to 20:", decoder="streaming", window=8, threshold=3.0,
                         penalty=0.02, temperature=0.0, max_new_tokens=24, seed=0, api_name="/decode")
    data = out if isinstance(out, dict) else json.loads(out)
    expected = decode(tiny_lm, "Count from 1 to 20:", "streaming",
                      DecodeConfig(window=8, threshold=3.0, max_new_tokens=24))
    assert data["token_ids"] == expected.token_ids
    assert len(data["steps"]) == data["stats"]["forwards"] == expected.result.forwards
    for key in ("tokens_per_forward", "forwards", "generated_tokens", "p_cache"):
        assert data["stats"][key] == pytest.approx(expected.stats()[key])


def test_decode_api_defaults_and_threshold_none(client):
    out = client.predict(prompt="ROMEO:", threshold=None, max_new_tokens=6, api_name="/decode")
    assert out["config"]["threshold"] is None and out["config"]["window"] == 16
    assert all(len(s["filled"]) <= 1 for s in out["steps"])  # one slot per step without tau


def test_decode_api_rejects_bad_input(client):
    with pytest.raises(Exception, match="threshold must be from 0.0 to 1000.0"):
        client.predict(prompt="hi", threshold=-1.0, api_name="/decode")
    with pytest.raises(Exception, match="prompt is empty"):
        client.predict(prompt="   ", api_name="/decode")
    with pytest.raises(Exception, match="unknown decoder"):
        client.predict(prompt="hi", decoder="magic", api_name="/decode")


def test_race_endpoint_runs_four_lanes(client):
    out = client.predict("Count from 1 to 9:", 8, 3.0, False, 0.02, 8, 12, "same",
                         "one forward per tick", api_name="/race")
    lanes_html, chart = [o for o in out if isinstance(o, str) and "lane" in o][0], out[-1]
    assert lanes_html.count('class="lane ') == 4  # ar, streaming, block, verified (beyond the paper)
    assert "0 forwards" in lanes_html
    assert chart is not None


def test_playground_and_training_mask_endpoints(client):
    out = client.predict(8, ["0", "1", "3"], api_name="/playground")
    html = [o for o in out if isinstance(o, str) and "orders" in o][0]
    assert "that forward commits its 2 leading filled slots" in html
    assert "[100, 101, 103, 102, 104, 105, 106, 107]" in html
    fig = client.predict(8, 4, "01100110", api_name="/training_mask")
    assert fig is not None


def test_tau_sweep_endpoint(client):
    fig, table, differences = client.predict("Count from 1 to 9:", 16, api_name="/tau_sweep")
    assert fig is not None
    rows = table["data"]
    assert len(rows) == 10 and rows[0][0] == "none"
    assert rows[0][2] is False  # tau = none never differs from itself
    changed = [row[0] for row in rows if row[2]]  # each changed τ shows where its output departs
    assert all(f"τ = {tau}" in differences for tau in changed)
    assert ("Every τ wrote the same output" in differences) == (not changed)
    assert table["headers"][-1] == "verified_output_changed"
    assert all(r[-1] is False for r in rows)  # verified (beyond the paper): the same text at every tau


def test_entropy_suite_endpoint(client):
    fig, table = client.predict(3.0, 8, api_name="/entropy_suite")
    assert fig is not None
    headers = table["headers"]
    assert {"id", "class", "entropy", "tokens_per_forward", "speedup_tokens_per_s"} <= set(headers)
    from wedlm.suite import read_prompts
    assert len(table["data"]) == len(read_prompts())  # the project's whole suite, low to high entropy
