"""The decoders against their oracles: reference (no cache), fresh prefill, transformers generate()."""
import dataclasses

import pytest
import torch
from transformers import DynamicCache

from wedlm import DecodeConfig, decode, make_decoder

PROMPTS = ["Count from 1 to 20:", "ROMEO:\nBut soft", "def add(a, b):"]
# (W, tau, lambda): thresholds that fill several slots per step and leave gaps on these models
GRID = [(4, 2.5, 0.02), (8, 3.0, 0.1), (16, 2.0, 0.0), (16, 2.8, 0.05)]


def selections(trace):
    return [(s.window, s.order, s.position_ids, s.committed,
             [(m.pos, m.selected) for m in s.masks], [(f.pos, f.token) for f in s.filled])
            for s in trace.steps]


def has_gap(window):
    """A filled slot after a mask: reordering really moves tokens."""
    seen_mask = False
    for tok in window:
        if tok is None:
            seen_mask = True
        elif seen_mask:
            return True
    return False


@pytest.mark.parametrize("window,threshold,penalty", GRID)
def test_streaming_matches_reference_token_for_token(tiny_models, window, threshold, penalty):
    cfg = DecodeConfig(window=window, threshold=threshold, penalty=penalty, max_new_tokens=48)
    multi_fill = gaps = 0
    for lm in tiny_models:
        for prompt in PROMPTS:
            stream = decode(lm, prompt, "streaming", cfg)
            ref = decode(lm, prompt, "reference", cfg)
            assert stream.token_ids == ref.token_ids
            assert selections(stream) == selections(ref)
            assert stream.result.forwards == ref.result.forwards == len(stream.steps)
            for a, b in zip(stream.steps, ref.steps):
                assert [m.score for m in a.masks] == pytest.approx([m.score for m in b.masks], abs=1e-4)
            multi_fill += sum(len(s.filled) > 1 for s in stream.steps)
            gaps += sum(has_gap(s.window) for s in stream.steps)
    assert multi_fill > 0 and gaps > 0  # the grid really exercises parallel fills and reordering


def test_streaming_matches_reference_when_sampling(tiny_models):
    cfg = DecodeConfig(window=8, threshold=3.0, temperature=1.0, top_k=40, top_p=0.95, seed=7,
                       max_new_tokens=40)
    differs_from_greedy = 0
    for lm in tiny_models:
        stream = decode(lm, PROMPTS[0], "streaming", cfg)
        ref = decode(lm, PROMPTS[0], "reference", cfg)
        assert stream.token_ids == ref.token_ids
        greedy = decode(lm, PROMPTS[0], "streaming", dataclasses.replace(cfg, temperature=0.0))
        differs_from_greedy += stream.token_ids != greedy.token_ids
        again = decode(lm, PROMPTS[0], "streaming", cfg)
        assert again.token_ids == stream.token_ids  # the seed makes it repeatable
    assert differs_from_greedy > 0  # sampling really sampled


def test_committed_prefix_kv_equals_fresh_prefill(tiny_lm):
    lm = tiny_lm
    cfg = DecodeConfig(window=8, threshold=3.0, max_new_tokens=40)
    prompt_ids = lm.encode(PROMPTS[1])
    decoder = make_decoder("streaming", lm, cfg)
    result = decoder.run(prompt_ids)
    cache = decoder.forward_impl.cache
    full = prompt_ids + result.token_ids
    assert cache.get_seq_length() == len(full)
    fresh = DynamicCache(config=lm.model.config)
    with torch.inference_mode():
        lm.model(input_ids=torch.tensor([full]), past_key_values=fresh, use_cache=True)
    for ours, ref in zip(cache.layers, fresh.layers):
        torch.testing.assert_close(ours.keys, ref.keys, atol=1e-5, rtol=1e-4)
        torch.testing.assert_close(ours.values, ref.values, atol=1e-5, rtol=1e-4)


def test_ar_greedy_matches_transformers_generate(tiny_models):
    for lm in tiny_models:
        for prompt in PROMPTS:
            prompt_ids = lm.encode(prompt)
            ours = make_decoder("ar", lm, DecodeConfig(max_new_tokens=30)).run(prompt_ids)
            with torch.inference_mode():
                out = lm.model.generate(torch.tensor([prompt_ids]), max_new_tokens=30,
                                        do_sample=False, eos_token_id=list(lm.stop_ids),
                                        pad_token_id=lm.tokenizer.pad_token_id)
            theirs = out[0, len(prompt_ids):].tolist()
            assert ours.token_ids == theirs
            assert ours.forwards == len(theirs) - 1  # the first token comes from prefill


def _deep_first_occurrence(trace):
    """(fill step, position, token) of a token whose first occurrence in the output was
    filled while a mask stood before it in the window."""
    prompt_len = len(trace.prompt_ids)
    first_pos = {}
    for k, tok in enumerate(trace.token_ids):
        first_pos.setdefault(tok, prompt_len + k)
    for step in trace.steps:
        if not step.masks:
            continue
        first_mask = min(m.pos for m in step.masks)
        for f in step.filled:
            if first_pos.get(f.token) == f.pos and f.pos > first_mask:
                return step.index, f.pos, f.token
    return None


def test_stop_token_deep_in_window_ends_decoding_only_at_commit(tiny_models):
    cfg = DecodeConfig(window=16, threshold=3.0, max_new_tokens=60)
    checked = 0
    for lm in tiny_models:
        for prompt in PROMPTS:
            free = decode(lm, prompt, "streaming", cfg)
            choice = _deep_first_occurrence(free)
            if choice is None:
                continue
            fill_step, stop_pos, stop_token = choice
            stopped = decode(dataclasses.replace(lm, stop_ids=(stop_token,)), prompt, "streaming", cfg)
            cut = stop_pos - len(free.prompt_ids) + 1
            assert stopped.token_ids == free.token_ids[:cut]      # output ends at the stop token
            assert stopped.result.stop_reason == "stop_token"
            last = stopped.steps[-1]
            assert last.finished and last.committed[-1] == stop_token
            assert last.index > fill_step     # decoding went on after the stop was filled
            assert all(not s.finished for s in stopped.steps[:-1])
            # the same steps as the free run up to there: the stop changed nothing but the end
            assert selections(stopped)[:-1] == selections(free)[: len(stopped.steps) - 1]
            checked += 1
    assert checked >= 3


def test_step_records_and_metrics_are_consistent(tiny_lm):
    cfg = DecodeConfig(window=4, threshold=3.0, max_new_tokens=24)
    trace = decode(tiny_lm, PROMPTS[0], "streaming", cfg)
    res, steps, P = trace.result, trace.steps, len(trace.prompt_ids)
    # Walk-through of the first two steps with W=4:
    s0, s1 = steps[0], steps[1]
    assert s0.window == [None] * 4 and s0.rows == 4 and s0.committed == []
    assert s0.cache_before == s0.cache_after == P          # nothing commits in step 0
    n1 = next((i for i, t in enumerate(s1.window) if t is None), len(s1.window))
    assert s1.rows == 4 + n1                                # W slots + n refilled masks
    assert s1.committed == s1.window[:n1]
    assert s1.cache_after == P + n1
    assert s1.position_ids == [P + i for i in s1.order]
    # every step: cache grows by what commits; rows are the window; W stays open after commit
    total_rows = 0
    for s in steps:
        assert s.cache_after - s.cache_before == len(s.committed)
        assert s.rows == len(s.window)
        total_rows += s.rows
        n = next((i for i, t in enumerate(s.window) if t is None), len(s.window))
        assert len(s.window) - n == 4  # W uncommitted slots at every step, to the very end
    assert res.forwards == len(steps)
    assert res.rows_processed == total_rows
    assert res.generated_tokens == len(trace.token_ids) == sum(len(s.committed) for s in steps)
    assert res.tokens_per_forward == pytest.approx(res.generated_tokens / res.forwards)
    assert res.p_cache == pytest.approx(res.generated_tokens / total_rows)
    assert res.stop_reason in ("max_new_tokens", "stop_token")
    if res.stop_reason == "max_new_tokens":
        assert res.generated_tokens == cfg.max_new_tokens


def test_block_decoding_commits_only_whole_blocks(tiny_lm):
    cfg = DecodeConfig(block_size=4, threshold=3.0, max_new_tokens=24)
    trace = decode(tiny_lm, PROMPTS[0], "block", cfg)
    for s in trace.steps:
        assert len(s.committed) in (0, 4) or s.finished
        if s.committed:
            assert len(s.window) == 8  # the finished block and the next one, to the end


def test_streaming_has_no_stop_and_wait_bubble(tiny_lm):
    # penalty 100 and tau 250 pass exactly the three leftmost open masks whatever the logits
    # (entropy <= log V < 50), so the forward counts follow from the schedule alone
    knobs = dict(threshold=250.0, penalty=100.0, max_new_tokens=24)
    stream = decode(tiny_lm, PROMPTS[0], "streaming", DecodeConfig(window=4, **knobs))
    block = decode(tiny_lm, PROMPTS[0], "block", DecodeConfig(block_size=4, **knobs))
    assert all(len([m for m in s.masks if m.selected]) == min(3, len(s.masks))
               for t in (stream, block) for s in t.steps)
    assert stream.result.stop_reason == block.result.stop_reason == "max_new_tokens"
    # streaming commits 3 per forward; a block needs a 3-fill forward and a 1-fill forward
    assert stream.result.forwards == 24 // 3 + 1
    assert block.result.forwards == 2 * (24 // 4) + 1


def test_block_of_one_equals_streaming_window_of_one(tiny_lm):
    a = decode(tiny_lm, PROMPTS[2], "block", DecodeConfig(block_size=1, max_new_tokens=12))
    b = decode(tiny_lm, PROMPTS[2], "streaming", DecodeConfig(window=1, max_new_tokens=12))
    assert a.token_ids == b.token_ids and selections(a) == selections(b)


def test_window_keeps_w_slots_past_max_new_tokens_like_the_official_engine(tiny_models):
    # The official engine bounds the window by its KV room, not by max_tokens: the window keeps
    # W slots (and refills n) to the end, and max_new_tokens is checked only at commit.
    cfg = DecodeConfig(window=8, threshold=3.0, max_new_tokens=5)
    ended_on_budget = 0
    for lm in tiny_models:
        for prompt in PROMPTS:
            trace = decode(lm, prompt, "streaming", cfg)
            P = len(trace.prompt_ids)
            assert trace.steps[0].window == [None] * 8
            assert len(trace.token_ids) <= 5
            for s in trace.steps:
                n = next((i for i, t in enumerate(s.window) if t is None), len(s.window))
                assert len(s.window) - n == 8
            if trace.result.stop_reason == "max_new_tokens":
                ended_on_budget += 1
                assert len(trace.token_ids) == 5
                last = trace.steps[-1]
                assert max(last.position_ids) >= P + 5 + 7  # slots past the end were fed
            ref = decode(lm, prompt, "reference", cfg)
            assert ref.token_ids == trace.token_ids and selections(ref) == selections(trace)
    assert ended_on_budget > 0


def test_stopping_early_leaves_a_partial_result(tiny_lm):
    from wedlm import decode_steps
    it = decode_steps(tiny_lm, PROMPTS[0], "streaming", DecodeConfig(max_new_tokens=40))
    first = next(it)
    next(it)
    it.close()
    assert first.result is not None and first.result.stop_reason == "stopped"
    assert len(first.steps) == 2
