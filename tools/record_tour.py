"""Record the guided tour's traces and pick the step each chapter lands on (run after retraining).

python -m tools.record_tour [--only tau_sweep|verified|entropy_code|reorder_check|reorder_attention|greedy]     (from the repository's root)

Decodes a few prompts on the bundled models, applies each chapter's rule (app/tabs/tour/moments.py)
to find its moment, branches the stall with larger penalties λ to find one that ends it sooner,
runs the entropy suite for the entropy -> speed plot, answers 15 held-out arithmetic questions at
every τ of the sweep grid and greedily (chapter 8), decodes with the verified decoder (chapter 10, beyond the
paper) and writes assets/tour/tour.json. --only tau_sweep (or verified) re-records chapter 8's sweep
(or chapter 10's trace and pick; or entropy_code, chapter 7's code decode) alone and keeps the rest
of the file. reorder_check re-runs chapter 3's decode in logical order (the reference decoder) and
records how it compares; reorder_attention computes, at the same moment, the first layer's attention of
the step's first mask by hand in both orders, that mask's output after every layer in both (measured:
their largest difference, per layer) and what it predicts after the last layer in both
(wedlm.attention: the worked example under chapter 3's grids).
greedy decodes chapters 2–4's times table one token at a time with the same model (the yardstick for its slip).
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace

from app.tabs.tour import ch8_tau, moments
from app.tabs.tour.data import LAW_MAX_NEW, TAU_CLASS, TAU_MAX_NEW, TOUR_FILE, TOUR_FORMAT, TOUR_PROMPTS
from app.views import entropy
from wedlm import DecodeConfig, decode, load_model
from wedlm.attention import reorder_example
from wedlm.branch import branch
from wedlm.paths import BUNDLED_AR_MODEL, BUNDLED_MODEL
from wedlm.suite import THRESHOLD_GRID
from wedlm.trace import Trace

TOP_CANDIDATES = 3     # per filled slot: enough for the hover, keeps the file small
STALL_PENALTIES = (0.1, 0.2, 0.5, 1.0, 2.0)  # the one that ends the stall soonest is kept


def first_with(traces: dict, names: list[str], finder) -> dict | None:
    """The first of `names` whose trace has the moment `finder` looks for."""
    for name in names:
        step = finder(traces[name])
        if step is not None:
            return {"trace": name, "step": step}
    return None


def tau_sweep(lm) -> dict:
    """Chapter 8: held-out arithmetic questions answered at every τ of the grid, each output
    compared with the same model's greedy (one token at a time) text of its question."""
    config = DecodeConfig(max_new_tokens=TAU_MAX_NEW)
    prompts = ch8_tau.questions()
    greedy = ch8_tau.greedy_all(lm, prompts, config)
    rows = []
    for tau in THRESHOLD_GRID:
        row = ch8_tau.answer_row(tau, ch8_tau.answer_all(lm, prompts, replace(config, threshold=tau), greedy=greedy))
        print(f"τ = {tau:g}: {row['right']}/{row['total']} right, {row['differs']} differ from greedy, "
              f"{row['tokens_per_forward']:.2f} tokens per forward", flush=True)
        rows.append(row)
    return {"class": TAU_CLASS, "questions": "held-out", "config": {"penalty": config.penalty, "window": config.window,
                                                                   "max_new_tokens": TAU_MAX_NEW},
            "greedy": greedy, "rows": rows}


def verified(lm, trace=None):
    """Chapter 10 (beyond the paper): the verified decode and the rejection step its rule finds."""
    if trace is None:
        prompt, decoder, max_new = TOUR_PROMPTS["verified"]
        trace = decode(lm, prompt, decoder, DecodeConfig(top_candidates=TOP_CANDIDATES, max_new_tokens=max_new))
    step = moments.verified_rejection_step(trace)
    if step is None:
        raise SystemExit("the verified decode rejected no draft: chapter 10 has no moment")
    print(f"verified: {len(trace.steps)} forwards, a rejection at step {step}")
    return trace, {"trace": "verified", "step": step}


def greedy(lm, name: str) -> dict:
    """Chapters 2 and 4: the same prompt decoded one token at a time, greedily, by the same WeDLM
    model (the library's AR decoder, the same as generate()): the yardstick that tells a slip of
    τ from the model's own (a walker saw '7 x 10 = 60' and could not tell which)."""
    prompt, _, max_new = TOUR_PROMPTS[name]
    trace = decode(lm, prompt, "ar", DecodeConfig(max_new_tokens=max_new))
    print(f"greedy {name}: {trace.text!r}")
    return {"decoder": "ar", "text": trace.text}


def code_front(trace) -> int | None:
    """Chapter 7's code moment: the step whose front slot was the hardest fill (app/views/entropy.front_wait)."""
    wait = entropy.front_wait(trace)
    return None if wait is None else wait["step"]


def entropy_code(lm):
    """Chapter 7: the code decode that shows why code is slow (its pick: code_front)."""
    prompt, decoder, max_new = TOUR_PROMPTS["code"]
    trace = decode(lm, prompt, decoder, DecodeConfig(top_candidates=TOP_CANDIDATES, max_new_tokens=max_new))
    step = code_front(trace)
    if step is None:
        raise SystemExit("the code decode never filled its front slot: chapter 7 has no code moment")
    return trace, {"trace": "code", "step": step}


def reorder_check(lm, trace, step: int | None = None) -> dict:
    """Chapter 3's proof that reordering changes nothing: the same decode by the reference decoder
    (each window in logical order, no cache, an explicit mask giving every token the view reordering
    gives it). Same tokens, and every slot's entropy, at every forward, equal up to float rounding.
    With `step` (the chapter's moment), it also keeps that step's first mask's two entropies, so the
    chapter can show one pair of numbers, not only the largest difference."""
    ref = decode(lm, trace.prompt, "reference", DecodeConfig.from_dict(trace.config))
    same = ref.result.token_ids == trace.result.token_ids
    diffs = []
    for a, b in zip(trace.steps, ref.steps) if same else ():
        mine = {m.pos: m.entropy for m in a.masks} | {f.pos: f.entropy for f in a.filled}
        theirs = {m.pos: m.entropy for m in b.masks} | {f.pos: f.entropy for f in b.filled}
        diffs += [abs(mine[p] - theirs[p]) for p in mine.keys() & theirs.keys()]
    check = {"decoder": "reference", "same_tokens": same, "tokens": len(trace.result.token_ids),
             "forwards": len(trace.steps), "slots": len(diffs), "max_entropy_diff": max(diffs, default=None)}
    if same and step is not None:
        pos = trace.steps[step].first_mask_pos
        entropy = {m.pos: m.entropy for m in trace.steps[step].masks}
        reference = {m.pos: m.entropy for m in ref.steps[step].masks}
        check["at_step"] = {"step": step, "pos": pos, "entropy": entropy[pos], "reference": reference[pos]}
    print(f"reorder check: {check}")
    return check


def reorder_attention(lm, trace, step: int) -> dict:
    """Chapter 3's worked example, at reorder_check's moment (the step and its first mask): the first
    layer's attention of that mask, computed by hand in the physical order the streaming forward feeds
    and in the logical order the reference decoder feeds, and the rest of the argument, from each decoder's
    own window forward: that mask's output after every layer, compared between the orders, and what it
    predicts after the last layer (wedlm.attention.reorder_example, its "final" and "final"["by_layer"])."""
    s = trace.steps[step]
    prefix = list(trace.prompt_ids) + list(trace.result.token_ids[:s.start - len(trace.prompt_ids)])
    example = reorder_example(lm, prefix, s.window, s.order, s.start, s.first_mask_pos) | {"step": step}
    print(f"reorder attention: step {step}, mask at {example['pos']}, head {example['head']}: "
          f"{example['physical_sum']:.8f} (physical) vs {example['logical_sum']:.8f} (logical); after the last layer "
          + " vs ".join(f"{f['text']!r} p={f['probability']:.6f} H={f['entropy']:.7f} ({o})"
                        for o, f in ((o, example["final"][o]) for o in ("physical", "logical"))))
    print("the mask's output after each layer, largest |physical - logical| (largest |number|): "
          + ", ".join(f"{r['layer']}: {r['diff']:.2g} ({r['size']:.3g})" for r in example["final"]["by_layer"]))
    return example


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["tau_sweep", "verified", "entropy_code", "reorder_check", "reorder_attention", "greedy"], help="re-record this part alone, keep the rest")
    args = parser.parse_args()
    lm = load_model(str(BUNDLED_MODEL), device="cpu")
    if args.only:
        data = json.loads(TOUR_FILE.read_text(encoding="utf-8"))
        if args.only == "tau_sweep":
            data["tau_sweep"] = tau_sweep(lm)
        elif args.only == "reorder_check":
            pick = data["picks"]["reorder"]
            pick["check"] = reorder_check(lm, Trace.from_dict(data["traces"][pick["trace"]]), pick["step"])
        elif args.only == "reorder_attention":
            pick = data["picks"]["reorder"]
            pick["attention"] = reorder_attention(lm, Trace.from_dict(data["traces"][pick["trace"]]), pick["step"])
        elif args.only == "greedy":
            data["greedy"] = {"table": greedy(lm, "table")}
        elif args.only == "entropy_code":
            trace, data["picks"]["entropy_code"] = entropy_code(lm)
            data["traces"]["code"] = trace.to_dict()
        else:
            trace, pick = verified(lm)
            data["traces"]["verified"], data["picks"]["verified"] = trace.to_dict(), pick
        TOUR_FILE.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
        print(f"wrote {TOUR_FILE} ({TOUR_FILE.stat().st_size // 1024} KB)")
        return 0
    ar_lm = load_model(str(BUNDLED_AR_MODEL), device="cpu")
    base = DecodeConfig(top_candidates=TOP_CANDIDATES)
    traces = {}
    for name, (prompt, decoder, max_new) in TOUR_PROMPTS.items():
        model = ar_lm if decoder == "ar" else lm
        traces[name] = decode(model, prompt, decoder, replace(base, max_new_tokens=max_new))
        st = traces[name].stats()
        print(f"{name}: {st['generated_tokens']} tokens in {st['forwards']} forwards")

    window_traces = ["table", "counting", "code", "plays"]
    picks = {
        "ar": first_with(traces, ["ar-counting"], moments.ar_step),
        "fill_rule": first_with(traces, window_traces, moments.fill_rule_step),
        "reorder": first_with(traces, window_traces, moments.reorder_step),
        "commit": first_with(traces, window_traces, moments.commit_step),
        "stall": first_with(traces, ["plays", "code", "table"], moments.stall_step),
        "entropy_low": first_with(traces, ["counting"], moments.busiest_step),
        "entropy_high": first_with(traces, ["plays", "code"], moments.fallback_step),
        "entropy_code": first_with(traces, ["code"], code_front),
    }
    missing = [k for k, v in picks.items() if v is None]
    if missing:
        print(f"no trace has the moment for: {', '.join(missing)}", file=sys.stderr)
        return 1
    picks["verified"] = verified(lm, traces["verified"])[1]
    picks["reorder"]["check"] = reorder_check(lm, traces[picks["reorder"]["trace"]], picks["reorder"]["step"])
    picks["reorder"]["attention"] = reorder_attention(lm, traces[picks["reorder"]["trace"]], picks["reorder"]["step"])
    picks["race"] = {"streaming": "counting", "ar": "ar-counting",
                     "tick": len(traces["counting"].steps)}  # the forward where WeDLM is done

    stall = picks["stall"]
    original = traces[stall["trace"]]
    s = original.steps[stall["step"]]
    first_mask = s.masks[0].pos
    before = moments.commit_step_of(original, first_mask)
    best = None  # (step that commits the first mask, penalty, branch)
    for penalty in STALL_PENALTIES:
        config = DecodeConfig.from_dict({**original.config, "penalty": penalty})
        other = branch(lm, original, stall["step"] - 1, config)
        after = moments.commit_step_of(other, first_mask)
        print(f"stall at step {stall['step']}: λ={penalty} commits position {first_mask} at step "
              f"{after} (λ={original.config['penalty']}: step {before})")
        if after is not None and (before is None or after < before) and (best is None or after < best[0]):
            best = (after, penalty, other)
    if best is None:
        print("no penalty ended the stall sooner", file=sys.stderr)
        return 1
    traces["stall-branch"] = best[2]  # the penalty that ends the stall soonest (smallest on a tie)
    stall.update(penalty=best[1], branch="stall-branch")

    law_prompts = entropy.suite_prompts()
    rows = entropy.run_suite(lm, ar_lm, replace(base, max_new_tokens=LAW_MAX_NEW), law_prompts)
    used = {v for p in picks.values() for k, v in p.items() if k in ("trace", "branch", "streaming", "ar")}
    data = {"format": TOUR_FORMAT, "version": 1, "command": "python -m tools.record_tour",
            "traces": {k: t.to_dict() for k, t in traces.items() if k in used},  # only what chapters show
            "picks": picks, "law_rows": rows, "tau_sweep": tau_sweep(lm),
            "greedy": {"table": greedy(lm, "table")}}
    TOUR_FILE.parent.mkdir(parents=True, exist_ok=True)
    TOUR_FILE.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    print(json.dumps(picks, indent=1))
    print(f"wrote {TOUR_FILE} ({TOUR_FILE.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
