import json

from wedlm import DecodeConfig, Trace, decode


def test_trace_json_round_trip_replays_without_a_model(tiny_lm, tmp_path):
    trace = decode(tiny_lm, "Count from 1 to 20:", "streaming",
                   DecodeConfig(window=8, threshold=3.0, max_new_tokens=20))
    path = tmp_path / "t.json"
    trace.save(path)
    loaded = Trace.load(path)
    assert loaded.to_dict() == trace.to_dict()
    data = json.loads(path.read_text())
    assert data["stats"]["tokens_per_forward"] == trace.result.tokens_per_forward
    assert len(data["steps"]) == trace.result.forwards
    # every token the trace mentions has its text, so a replay needs no tokenizer
    for step in loaded.steps:
        for tok in step.window:
            assert tok is None or tok in loaded.tokens
        for f in step.filled:
            assert all(int(c[0]) in loaded.tokens for c in f.candidates)
    assert loaded.text == tiny_lm.decode(loaded.output_ids())


def test_ar_trace_records_the_prefill_token(tiny_lm):
    trace = decode(tiny_lm, "ROMEO:", "ar", DecodeConfig(max_new_tokens=5))
    assert trace.result.prefill_filled[0].token == trace.token_ids[0]
    assert [s.filled[0].token for s in trace.steps] == trace.token_ids[1:]
    assert Trace.from_json(trace.to_json()).to_dict() == trace.to_dict()


def test_hostile_or_broken_trace_files_are_refused_with_a_message(tiny_lm):
    import pytest
    from wedlm.trace_schema import TraceFormatError
    good = decode(tiny_lm, "ROMEO:", "streaming", DecodeConfig(max_new_tokens=4)).to_dict()
    cases = [
        ("[1, 2]", "not a WeDLM trace"),
        ('{"format": "wedlm-trace", "version": 9}', "unsupported trace version"),
    ]
    for text, needle in cases:
        with pytest.raises(ValueError, match=needle):
            Trace.from_json(text)
    bad_window = json.loads(json.dumps(good))
    bad_window["steps"][0]["window"][0] = "<script>"
    bad_order = json.loads(json.dumps(good))
    bad_order["steps"][0]["order"] = [0, 0]
    missing = json.loads(json.dumps(good))
    del missing["steps"][0]["masks"]
    bad_cand = json.loads(json.dumps(good))
    bad_cand["steps"][0]["filled"][0]["candidates"] = [["x", 1]]
    for data, needle in ((bad_window, r"steps\[0\]\.window\[0\]"), (bad_order, "permutation"),
                         (missing, r"steps\[0\]\.masks"), (bad_cand, "candidates")):
        with pytest.raises(TraceFormatError, match=needle):
            Trace.from_dict(data)
    with pytest.raises(json.JSONDecodeError):
        Trace.from_json("{not json")


def test_wall_clock_budget_stops_a_decode(tiny_lm):
    trace = decode(tiny_lm, "Count from 1 to 20:", "streaming", DecodeConfig(window=1, max_new_tokens=200),
                   time_limit_s=0.0)
    assert trace.result.stop_reason == "time_limit"
    assert len(trace.steps) == 1 and trace.result.forwards == 1


def test_prompt_longer_than_the_context_names_the_limit(tiny_lm):
    import pytest
    from wedlm import ValidationError
    with pytest.raises(ValidationError, match="context is 512 tokens"):
        decode(tiny_lm, "Count " * 600, "streaming", DecodeConfig())
