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
