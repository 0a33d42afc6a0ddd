"""The verified decoder (beyond the paper): lossless against AR decoding and transformers'
generate(), step for step against its no-cache oracle, the speculative sampling rule, the window
policy, traces and the CLI."""
import json
import os
import random
import subprocess
import sys

import pytest
import torch

from wedlm import DecodeConfig, Trace, decode, load_model, make_decoder
from wedlm.decoders.verified import (ReferenceVerifiedDecoder, VerifiedDecoder, speculative_accept,
                                     verification_summary)
from wedlm.decoders.window_policy import (GATE, MAX_BACKOFF, PROBE_MASKS, CostAwareWindow, CostCurve, before_stop, cost_curve, isotonic,
                                          measure_cost_curve, shape_window)
from wedlm.paths import BUNDLED_MODEL, TRACES_DIR
from wedlm.trace_schema import TraceFormatError

# The bench's cost table on this project's 2-core CPU (docs/bench): ms of a forward by rows.
TABLE = CostCurve({1: 10.08, 2: 11.75, 3: 12.88, 4: 13.56, 8: 14.68, 16: 15.49, 32: 18.38})
PROMPTS = ["Count from 1 to 20:", "ROMEO:\nBut soft", "def add(a, b):"]
# (W, tau, lambda): from one slot per step (tau None) to filling nearly every mask
GRID = [(4, None, 0.02), (8, 3.0, 0.1), (16, 6.0, 0.0), (16, 2.8, 0.05)]
POLICIES = ["cost", "full", "none"]


def random_prompts(lm, count: int, seed: int) -> list[list[int]]:
    """Random token ids (no special tokens), 3 to 12 long."""
    rng = random.Random(seed)
    special = {lm.mask_token_id, *lm.stop_ids, lm.tokenizer.pad_token_id}
    vocab = [i for i in range(len(lm.tokenizer)) if i not in special]
    return [[rng.choice(vocab) for _ in range(rng.randint(3, 12))] for _ in range(count)]


def generate_ids(lm, prompt_ids, max_new_tokens):
    with torch.inference_mode():
        out = lm.model.generate(torch.tensor([prompt_ids]), max_new_tokens=max_new_tokens,
                                do_sample=False, eos_token_id=list(lm.stop_ids),
                                pad_token_id=lm.tokenizer.pad_token_id or lm.stop_ids[0])
    return out[0, len(prompt_ids):].tolist()


def verified(lm, cfg, policy="cost", reference=False):
    cls = ReferenceVerifiedDecoder if reference else VerifiedDecoder
    return cls(lm, cfg, policy=policy, cost=TABLE)


def run_steps(decoder, prompt_ids):
    steps = list(decoder.steps(prompt_ids))
    return steps, decoder.result


# -- lossless ---------------------------------------------------------------------------------
def test_verified_greedy_is_ar_and_generate_on_random_models_and_prompts(tiny_models):
    checked = accepted = rejected = 0
    for k, lm in enumerate(tiny_models):
        prompts = [lm.encode(p) for p in PROMPTS] + random_prompts(lm, 4, seed=k)
        for n, prompt_ids in enumerate(prompts):
            ar = make_decoder("ar", lm, DecodeConfig(max_new_tokens=40)).run(prompt_ids).token_ids
            assert ar == generate_ids(lm, prompt_ids, 40)  # the yardstick itself
            window, threshold, penalty = GRID[n % len(GRID)]
            cfg = DecodeConfig(window=window, threshold=threshold, penalty=penalty, max_new_tokens=40)
            for policy in POLICIES:
                steps, result = run_steps(verified(lm, cfg, policy), prompt_ids)
                assert result.token_ids == ar, (k, n, policy)
                assert result.tokens_per_forward >= 1.0
                checked += sum(len(s.verify.checked) for s in steps)
                accepted += sum(s.verify.accepted for s in steps)
                rejected += sum(s.verify.rejected_pos is not None for s in steps)
    # the drafts really were checked, and both verdicts happened
    assert checked > 0 and accepted > 0 and rejected > 0


def test_verified_is_lossless_whatever_the_knobs(tiny_lm):
    prompt_ids = tiny_lm.encode(PROMPTS[0])
    ar = make_decoder("ar", tiny_lm, DecodeConfig(max_new_tokens=48)).run(prompt_ids).token_ids
    rows = set()
    for window, threshold, penalty in GRID + [(1, 0.4, 0.02), (64, 1000.0, 0.0)]:
        for policy in POLICIES:
            cfg = DecodeConfig(window=window, threshold=threshold, penalty=penalty, max_new_tokens=48)
            steps, result = run_steps(verified(tiny_lm, cfg, policy), prompt_ids)
            assert result.token_ids == ar
            rows.add(round(result.rows_processed / result.forwards, 2))
    assert len(rows) > 3  # the knobs changed the work, never the text


def test_verified_matches_generate_on_the_bundled_model():
    lm = load_model(str(BUNDLED_MODEL), device="cpu", dtype="float32")
    prompts = ["Count from 1 to 40:", "Question: Tom has 12 apples and buys 7 more. How many apples?\nAnswer:",
               'def mean(xs: list) -> float:\n    """Return the mean."""\n', "ROMEO:\n"]
    accepted = 0
    for prompt in prompts:
        prompt_ids = lm.encode(prompt)
        steps, result = run_steps(VerifiedDecoder(lm, DecodeConfig(max_new_tokens=48), cost=TABLE), prompt_ids)
        assert result.token_ids == generate_ids(lm, prompt_ids, 48)
        accepted += sum(s.verify.accepted for s in steps)
    assert accepted > 20  # the trained model's drafts agree: speed from the same forward


def test_a_drafted_stop_token_ends_the_window():
    """Nothing after a drafted stop token can commit, and the row before it predicts it: the
    window ends there. On counting to its end the last forward is one row, the text unchanged."""
    assert before_stop([5, 6, 0, 7, None], stop_ids=(0,)) == [5, 6]
    assert before_stop([0, 6, None], stop_ids=(0,)) == [0, 6, None]  # slot 0 is already text
    assert before_stop([5, None, 6, 0], stop_ids=(0, 9)) == [5, None, 6]
    lm = load_model(str(BUNDLED_MODEL), device="cpu", dtype="float32")
    prompt_ids = lm.encode("Count from 1 to 38:")
    steps, result = run_steps(VerifiedDecoder(lm, DecodeConfig(max_new_tokens=200), cost=TABLE), prompt_ids)
    assert result.stop_reason == "stop_token" and result.token_ids == generate_ids(lm, prompt_ids, 200)
    assert all(not set(s.window[1:]) & set(lm.stop_ids) for s in steps)  # no stop draft is fed
    last = steps[-1]  # its drafts end before the stop draft: no masks, the AR token is the stop
    assert last.verify.masks == 0 and last.rows == len(last.window) and last.verify.ar_token in lm.stop_ids


# -- the oracle -------------------------------------------------------------------------------
def has_gap(window):
    """A draft after a mask: reordering really moves tokens."""
    first_mask = window.index(None) if None in window else len(window)
    return any(t is not None for t in window[first_mask:])


def step_view(step):
    return (step.start, step.window, step.order, step.position_ids, step.committed,
            [(m.pos, m.selected) for m in step.masks], [(f.pos, f.token) for f in step.filled],
            step.verify, step.cache_before, step.cache_after)  # rows: the oracle recomputes the prefix


@pytest.mark.parametrize("window,threshold,penalty", GRID)
def test_verified_matches_its_no_cache_oracle_step_for_step(tiny_models, window, threshold, penalty):
    cfg = DecodeConfig(window=window, threshold=threshold, penalty=penalty, max_new_tokens=40)
    gaps = 0
    for lm in tiny_models:
        for prompt in PROMPTS:
            prompt_ids = lm.encode(prompt)
            cached, res_c = run_steps(verified(lm, cfg, "full"), prompt_ids)
            recomputed, res_r = run_steps(verified(lm, cfg, "full", reference=True), prompt_ids)
            assert res_c.token_ids == res_r.token_ids
            assert [step_view(s) for s in cached] == [step_view(s) for s in recomputed]
            for a, b in zip(cached, recomputed):
                assert [m.score for m in a.masks] == pytest.approx([m.score for m in b.masks], abs=1e-4)
            gaps += sum(has_gap(s.window) for s in cached)
    if threshold is not None and 2 < threshold < 5:
        assert gaps > 0  # reordering really moved drafts in front of masks


def test_verified_sampling_matches_its_oracle_and_is_seeded(tiny_models):
    cfg = DecodeConfig(window=8, threshold=3.0, temperature=1.0, top_k=40, top_p=0.95, seed=3,
                       max_new_tokens=40)
    differs = 0
    for lm in tiny_models:
        prompt_ids = lm.encode(PROMPTS[0])
        cached, res_c = run_steps(verified(lm, cfg, "full"), prompt_ids)
        recomputed, res_r = run_steps(verified(lm, cfg, "full", reference=True), prompt_ids)
        assert [step_view(s) for s in cached] == [step_view(s) for s in recomputed]
        again = verified(lm, cfg, "full").run(prompt_ids)
        assert again.token_ids == res_c.token_ids
        greedy = verified(lm, DecodeConfig(window=8, threshold=3.0, max_new_tokens=40)).run(prompt_ids)
        differs += greedy.token_ids != res_c.token_ids
    assert differs > 0  # it really sampled


# -- the speculative sampling rule -------------------------------------------------------------
CHI2_DF5_P001 = 20.515  # chi-square critical value, 5 degrees of freedom, p = 0.001


def chi_square(counts, probs, total):
    return sum((c - total * p) ** 2 / (total * p) for c, p in zip(counts, probs))


def test_speculative_rule_keeps_the_target_distribution():
    """Drafts from q, kept or resampled by the rule: the kept tokens follow p (chi-square on
    4000 seeded samples); keeping the drafts unchecked would follow q and fail the same test."""
    p = torch.tensor([0.40, 0.25, 0.15, 0.10, 0.06, 0.04])
    q = torch.tensor([0.10, 0.10, 0.30, 0.30, 0.10, 0.10])
    gen = torch.Generator().manual_seed(0)
    total = 4000
    kept, drafted, accepted = [0] * 6, [0] * 6, 0
    for _ in range(total):
        draft = int(torch.multinomial(q, 1, generator=gen))
        ok, token = speculative_accept(draft, p, q, gen)
        accepted += ok
        kept[token] += 1
        drafted[draft] += 1
    assert chi_square(kept, p.tolist(), total) < CHI2_DF5_P001
    assert chi_square(drafted, p.tolist(), total) > 10 * CHI2_DF5_P001  # the test has the power
    # the acceptance rate is sum(min(p, q)) = 0.59 (within 4 standard errors)
    assert abs(accepted / total - float(torch.minimum(p, q).sum())) < 4 * (0.25 / total) ** 0.5


def test_speculative_rule_accepts_a_draft_that_is_at_least_as_likely():
    p = torch.tensor([0.7, 0.3])
    q = torch.tensor([0.5, 0.5])
    gen = torch.Generator().manual_seed(1)
    assert all(speculative_accept(0, p, q, gen) == (True, 0) for _ in range(200))


# -- the window policy ------------------------------------------------------------------------
def test_cost_aware_window_keeps_w_where_drafts_agree_and_backs_off_where_they_fail():
    policy = CostAwareWindow(16, TABLE)
    assert policy.masks([7], room=100) == 16  # the first forward: how predictable is the text?
    for _ in range(5):  # every draft agrees
        policy.observe(offered=15, accepted=15)
    assert policy.masks([7] + [1] * 15, room=100) == 16
    failing = CostAwareWindow(16, TABLE)
    failing.masks([7], room=100)
    failing.observe(offered=15, accepted=0)
    choices = []
    for _ in range(300):  # drafts never agree: AR steps, and probes further and further apart
        m = failing.masks([7], room=100)
        choices.append(m)
        failing.observe(offered=1 if failing.probing else 0, accepted=0)
    probes = [i for i, m in enumerate(choices) if m]
    gaps = [b - a for a, b in zip(probes, probes[1:])]
    assert choices[0] == 0 and all(m in (0, PROBE_MASKS) for m in choices) and PROBE_MASKS == 2
    assert gaps == sorted(gaps) and gaps[-1] == MAX_BACKOFF and gaps[0] < 10
    # a probe whose draft agrees brings the probes back
    while not failing.masks([7], room=100):
        failing.observe(offered=0, accepted=0)
    failing.observe(offered=0, accepted=0)   # the probe's own forward
    failing.masks([7, 1], room=100)          # the next forward checks its draft
    failing.observe(offered=1, accepted=1)
    assert failing.backoff == 4


def history(policy, observed, window=(7,)):
    """Mask counts the policy picks over forwards, each told what that forward's check found:
    observed = [(offered, accepted), ...] (offered: the slots the last forward drafted)."""
    picks = []
    for offered, accepted in observed:
        picks.append(policy.masks(list(window), room=100))
        policy.observe(offered, accepted)
    return picks


# A flat curve, as measured on a busy machine (2-4 rows at 1.07-1.08x one): few rows look free.
FLAT = CostCurve({1: 1.0, 2: 1.07, 3: 1.08, 4: 1.08, 6: 1.16, 8: 1.19, 12: 1.39, 16: 1.51, 24: 1.81, 33: 1.95})


def test_after_a_failed_check_the_policy_only_probes_until_a_draft_agrees():
    """High-entropy text: once a check finds no agreeing draft (and drafts do not mostly agree,
    a < GATE), the policy takes one-row AR steps and sparse 2-mask probes, even where a flat cost
    curve makes its estimate buy drafts; agreeing probes lift a back over GATE, and the cost rule
    chooses again."""
    fresh = CostAwareWindow(16, FLAT)
    assert history(fresh, [(0, 0)]) == [16]              # the first forward
    assert fresh.masks([7], room=100) > 0                # the prior (a = 0.5) buys drafts
    failing = CostAwareWindow(16, FLAT)
    picks = history(failing, [(0, 0), (15, 0)] + [(0, 0)] * 3)
    assert picks[0] == 16 and picks[2:] == [0, 0, 0]     # after the failed check: AR steps
    assert failing.acceptance < GATE and failing._best([7], room=100) > 0  # the estimate alone would draft
    assert history(failing, [(0, 0)]) == [PROBE_MASKS] and failing.probing  # the probe: one draft
    agreeing = 0
    while True:  # each probe's draft agrees, checked by the forward after the probe
        failing.observe(offered=0, accepted=0)           # the probe forward's own check (none)
        assert failing.masks([7, 1], room=100) == 0
        failing.observe(offered=1, accepted=1)
        agreeing += 1
        if not failing.failed:
            break
        picks = []  # still gated: AR steps up to the next probe, FIRST_BACKOFF apart
        while not failing.probing:
            picks.append(failing.masks([7], room=100))
            if not failing.probing:
                failing.observe(offered=0, accepted=0)
        assert picks == [0] * (len(picks) - 1) + [PROBE_MASKS] and len(picks) <= 4
    assert failing.backoff == 4 and failing.acceptance >= GATE and failing.masks([7], room=100) > 0
    assert agreeing >= 2                                 # one lucky agreement does not reopen drafting


def test_a_lone_miss_where_drafts_mostly_agree_does_not_stop_drafting():
    """Counting: a check whose first draft fails amid long agreeing runs keeps the window."""
    policy = CostAwareWindow(16, FLAT)
    history(policy, [(0, 0)] + [(15, 15)] * 4, window=[7] + [1] * 15)
    policy.observe(offered=15, accepted=0)
    assert policy.failed and policy.acceptance > GATE and policy.masks([7], room=100) == 16


def test_where_drafts_agree_the_policy_keeps_the_window_through_partial_runs():
    """Counting: long runs agree and one slot fails now and then: the policy keeps W."""
    policy = CostAwareWindow(16, TABLE)
    picks = history(policy, [(0, 0), (15, 15), (15, 15), (15, 11), (15, 15), (15, 14)], window=[7] + [1] * 15)
    assert picks == [16] * 6


def test_every_probe_drafts_the_slot_next_to_slot_0_and_the_next_forward_checks_it(tiny_lm):
    """On text where drafts fail, each probe forward carries 2 masks (3 rows with slot 0 and no
    drafts), and the forward after it checks exactly one draft, at slot 1."""
    lm = load_model(str(BUNDLED_MODEL), device="cpu", dtype="float32")
    prompt_ids = lm.encode("JULIET:\n")
    steps, result = run_steps(VerifiedDecoder(lm, DecodeConfig(max_new_tokens=80), cost=TABLE), prompt_ids)
    probes = [i for i, s in enumerate(steps) if s.verify.probe]
    assert len(probes) >= 2
    for i in probes:
        assert steps[i].verify.masks == PROBE_MASKS and steps[i].window.count(None) == PROBE_MASKS
        if i + 1 < len(steps) and not steps[i].finished:
            nxt = steps[i + 1]
            assert len(nxt.verify.checked) == 1 and nxt.window[1] is not None
    assert result.token_ids == generate_ids(lm, prompt_ids, 80)


def test_window_ceiling_bounds_a_decode_whose_drafts_all_agree():
    """The bench's ceiling at W is the best case: on counting, where the bundled model's drafts
    all agree, the full window reaches its forward count and costs no less than it charges."""
    from wedlm.bench import window_ceiling
    lm = load_model(str(BUNDLED_MODEL), device="cpu", dtype="float32")
    prompt_ids = lm.encode("Count from 1 to 38:")
    steps, result = run_steps(verified(lm, DecodeConfig(window=16, max_new_tokens=64), "full"), prompt_ids)
    best = window_ceiling(len(result.token_ids), 16, TABLE)
    assert all(s.verify.rejected_pos is None for s in steps)  # every draft agreed
    assert [s.rows for s in steps] == best["rows"] and best["masks"] == 16  # the best case, forward by forward
    paid = sum(TABLE(s.rows) for s in steps)
    assert round((len(result.token_ids) - 1) * TABLE(1) / paid, 3) == best["ceiling_vs_ar"]
    # with every draft agreeing, fewer masks per forward never pay on this cost curve
    assert all(best["ceiling_vs_ar"] >= window_ceiling(64, w, TABLE)["ceiling_vs_ar"] for w in range(1, 16))
    # no window policy beats AR steps by less than nothing: the bound never falls below 1x
    assert window_ceiling(64, 1, TABLE)["ceiling_vs_ar"] == 1.0
    assert window_ceiling(64, 16, TABLE)["steady_vs_ar"] == pytest.approx(16 * TABLE(1) / TABLE(32), abs=1e-3)
    # against generate(): its measured time per token over what the plan's forwards cost
    vs_gen = window_ceiling(len(result.token_ids), 16, TABLE, generate_s_per_token=1.5 * TABLE(1))
    assert vs_gen["ceiling_vs_generate"] == pytest.approx(len(result.token_ids) * 1.5 * TABLE(1) / paid, abs=1e-3)
    assert vs_gen["steady_vs_generate"] == pytest.approx(16 * 1.5 * TABLE(1) / TABLE(32), abs=1e-3)
    # where drafting never pays, AR steps bound it: generate()'s pace over one row's cost
    assert window_ceiling(64, 1, TABLE, 1.5 * TABLE(1))["steady_vs_generate"] == pytest.approx(1.5)


def test_the_bench_ceiling_curve_weighs_row_counts_by_their_forwards():
    """Three lucky forwards at 26 rows must not pull the hundreds at 16 and 24 rows below what
    they cost (a plain running minimum did, and lifted the ceiling past what decodes reach)."""
    from wedlm.bench import forward_cost_curve
    table = {"ms_by_rows": {"1": 6.0, "16": 10.0, "24": 11.0, "26": 8.0, "32": 12.0},
             "forwards_by_rows": {"1": 900, "16": 400, "24": 300, "26": 3, "32": 100}}
    curve = forward_cost_curve(table)
    assert curve.costs == sorted(curve.costs)
    assert curve(16) == pytest.approx(10.0) and curve(24) > 10.9 and curve(32) == pytest.approx(12.0)
    assert forward_cost_curve({"ms_by_rows": {"4": 2.0}}) is None  # no 1-row cost: no ceiling
    assert isotonic([1.0, 5.0, 2.0], weights=[1, 1, 3]) == pytest.approx([1.0, 2.75, 2.75])


def test_shape_window_keeps_the_leading_run_and_counts_masks():
    assert shape_window([5, 6, None, 7, None], 0, 10) == [5, 6]
    assert shape_window([5, 6, None, 7, None], 1, 10) == [5, 6, None, 7]
    assert shape_window([5, None], 3, 10) == [5, None, None, None]
    assert shape_window([5, None], 3, 2) == [5, None]


def test_cost_curve_is_monotone_interpolated_and_cached_per_device(tiny_lm, tmp_path, monkeypatch):
    curve = CostCurve({1: 1.0, 4: 3.0, 8: 2.0, 16: 4.0})  # a noisy bump at 4 rows
    assert [curve(r) for r in (1, 4, 8, 16)] == [1.0, 2.0, 2.0, 4.0]
    assert curve(2) == pytest.approx(4 / 3) and curve(24) == pytest.approx(6.0)
    measured = measure_cost_curve(tiny_lm, rows=(1, 2, 8), repeats=1)
    assert measured.rows == [1, 2, 8] and all(c > 0 for c in measured.costs)
    assert measured.costs == sorted(measured.costs)
    # one noisy size is pooled with its neighbours, never dragging the rest of the curve
    assert isotonic([1.0, 1.1, 1.3, 5.0, 2.5, 6.0]) == pytest.approx([1.0, 1.1, 1.3, 3.75, 3.75, 6.0])
    assert isotonic([2.0, 1.0]) == [1.5, 1.5]
    monkeypatch.setenv("WEDLM_CACHE_DIR", str(tmp_path))
    from wedlm.decoders import window_policy
    monkeypatch.setattr(window_policy, "_CURVES", {})
    first = cost_curve(tiny_lm)
    assert cost_curve(tiny_lm) is first  # measured once per process
    assert (tmp_path / "cost_curves.json").is_file()
    monkeypatch.setattr(window_policy, "_CURVES", {})
    assert cost_curve(tiny_lm).costs == first.costs  # read back from the cache dir


# -- traces and the CLI -----------------------------------------------------------------------
def test_trace_carries_the_verification_and_round_trips(tiny_lm, tmp_path):
    cfg = DecodeConfig(window=8, threshold=6.0, max_new_tokens=40)
    trace = decode(tiny_lm, PROMPTS[0], "verified", cfg)
    path = tmp_path / "v.json"
    trace.save(path)
    data = json.loads(path.read_text())
    assert data["version"] == 2 and data["decoder"] == "verified"
    loaded = Trace.load(path)
    assert loaded.to_dict() == trace.to_dict()
    assert trace.result.prefill_filled[0].token == trace.token_ids[0]
    text = [trace.token_ids[0]]
    for step in loaded.steps:
        v = step.verify
        assert step.window[1:1 + len(v.checked)] == v.checked
        assert step.committed[1:] == v.checked[:v.accepted][:len(step.committed) - 1]
        assert v.ar_pos == step.start + 1 + v.accepted and v.ar_token in loaded.tokens
        if v.rejected_pos is not None:  # the AR token replaced a draft that disagreed
            assert v.checked[v.accepted] != v.ar_token
        text += v.checked[:v.accepted] + ([v.ar_token] if step.filled and step.filled[0].pos == v.ar_pos else [])
        assert verification_summary(v).endswith(".")
    assert text == trace.token_ids  # the trace alone rebuilds the text
    # a broken verification is refused, naming the field
    bad = trace.to_dict()
    bad["steps"][1]["verify"]["accepted"] = 99
    with pytest.raises(TraceFormatError, match=r"steps\[1\]\.verify\.accepted"):
        Trace.from_dict(bad)


def test_version_1_traces_still_load():
    old = [p for p in sorted(TRACES_DIR.glob("*.json")) if json.loads(p.read_text())["version"] == 1]
    assert len(old) >= 7  # the examples recorded before version 2 (the verified example is v2)
    for path in old:
        trace = Trace.load(path)
        assert all(s.verify is None for s in trace.steps)
        assert "verify" not in trace.to_dict()["steps"][0]


def test_cli_decoder_verified_prints_ar_text(tiny_dir, tiny_lm):
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_HUB_DISABLE_TELEMETRY": "1"}
    proc = subprocess.run([sys.executable, "-m", "wedlm", "generate", "ROMEO:", "--model", str(tiny_dir),
                           "--json", "--decoder", "verified", "--max-new-tokens", "12"],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["decoder"] == "verified"
    assert out["token_ids"] == decode(tiny_lm, "ROMEO:", "ar", DecodeConfig(max_new_tokens=12)).token_ids


def test_race_lane_counts_the_verified_text_as_it_becomes_final(tiny_lm):
    from app.views import lanes
    from app.views.timeline import Timeline
    cfg = DecodeConfig(window=8, threshold=6.0, max_new_tokens=30)
    timeline = Timeline(decode(tiny_lm, PROMPTS[0], "verified", cfg))
    steps = len(timeline.trace.steps)
    counts = [lanes.tokens_after(timeline, f) for f in range(steps + 1)]
    assert counts[0] == 1 and counts[-1] == len(timeline.trace.token_ids)  # the prefill's token, then all
    assert all(b - a >= 1 for a, b in zip(counts, counts[1:]))  # at least one token per forward
    html, finished = lanes.race_frame({"verified": timeline}, steps, False, 0.1)
    assert finished and "beyond the paper" in html and 'class="lane verified"' in html
