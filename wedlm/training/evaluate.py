"""Quality and speed of a trained model on its prompt formats, at the default knobs.

python -m wedlm.training.evaluate [--model DIR] [--decoder streaming|ar] [--counting N]
                                  [--counting-seed S] [--sequences N] [--sequence-seed S] [--json]
                                  [--rewrite-card]
"""
from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

from ..config import DecodeConfig
from ..loading import load_model
from ..paths import BUNDLED_MODEL, REPO_ROOT
from ..trace import decode
from .corpus import alphabet, count_by, times_table

# (question, its answer), written for this evaluation, not taken from the training data
MATH_QUESTIONS = [
    ("A baker makes 12 muffins in the morning and 15 in the afternoon. He sells 20. How many muffins are left?",
     7),
    ("Lena has 3 bags with 8 marbles in each bag. She gives away 5 marbles. How many marbles does she have now?",
     19),
    ("A train travels 60 miles each hour for 4 hours. How many miles does it travel?",
     240),
    ("Tom buys 5 notebooks at $3 each and a pen for $2. How much does he spend?",
     17),
    ("A garden has 7 rows of tomato plants with 6 plants in each row. 9 plants die. How many plants are left?",
     33),
    ("Sara reads 25 pages a day. How many pages does she read in 2 weeks?",
     350),
    ("A shop sells pencils in boxes of 10. Mia needs 64 pencils. How many boxes must she buy?",
     7),
    ("Jake had $50. He spent half of it on a game and $8 on lunch. How much money does he have left?",
     17),
    # written later, before the generated word problems were trained on, in other phrasings
    ("There are 24 students in a class. A third of them walk to school and the rest take the bus. "
     "How many students take the bus?", 16),
    ("A recipe uses 3 eggs for each cake. How many eggs are needed for 9 cakes?", 27),
    ("Maria earns $15 an hour. She works 6 hours on Monday and 4 hours on Tuesday. How much does she earn "
     "in total?", 150),
    ("A parking lot has 80 spaces. 35 cars are parked in the morning and 12 more arrive at noon. How many "
     "spaces are still free?", 33),
    ("Peter is 9 years old. His sister is twice as old as he is. How old will his sister be in 5 years?", 23),
    ("A farmer collects 48 eggs and packs them in cartons of 6. He sells each carton for $2. How much money "
     "does he make?", 16),
    ("A library had 230 books. It bought 45 new books and gave 30 old books away. How many books does the "
     "library have now?", 245),
    ("Ana runs 3 kilometers every day from Monday to Friday and 5 kilometers on Saturday. How many "
     "kilometers does she run in that week?", 20),
]
CODE_PROMPTS = [
    'def sum_of_squares(numbers: list) -> int:\n    """Return the sum of the squares of the numbers."""\n',
    'def count_vowels(text: str) -> int:\n    """Count the vowels in text."""\n',
]
PLAY_PROMPTS = ["ROMEO:\n", "KING HENRY VI:\n", "First Citizen:\n"]


def counting_prompts(n: int, seed: int = 0) -> list[tuple[int, int]]:
    rng = random.Random(seed)
    return [tuple(sorted(rng.sample(range(1, 101), 2))) for _ in range(n)]


def sequence_prompts(n: int, seed: int = 0) -> list:
    """Counting by K, letter ranges and times tables in turn, drawn by the training generators
    (so the format is the one taught; the ranges are new draws)."""
    rng = random.Random(seed)
    return [(count_by, alphabet, times_table)[i % 3](rng) for i in range(n)]


def counting_failure(text: str, stopped: bool, expected: str) -> str | None:
    """How a counting (or sequence) answer went wrong: it ran past the end (B), ended before it,
    or left the sequence."""
    if text == expected and stopped:
        return None
    if text.startswith(expected):
        return "overshoot"
    if expected.startswith(text.rstrip(", \n")):
        return "early"
    return "wrong"


def evaluate(lm, decoder: str = "streaming", counting: int = 12, config: DecodeConfig | None = None,
             counting_seed: int = 0, sequences: int = 12, sequence_seed: int = 0) -> dict:
    config = config or DecodeConfig(max_new_tokens=512)
    rows = []
    # answers the prompt fixes: (class, prompt, the exact answer)
    fixed = [("counting", f"Count from {a} to {b}:", " " + ", ".join(map(str, range(a, b + 1))))
             for a, b in counting_prompts(counting, counting_seed)]
    fixed += [("sequence", s.prompt, s.answer) for s in sequence_prompts(sequences, sequence_seed)]
    for cls, prompt, expected in fixed:
        trace = decode(lm, prompt, decoder, config)
        stopped = trace.result.stop_reason == "stop_token"
        rows.append({"class": cls, "prompt": prompt, "text": trace.text,
                     "exact": trace.text == expected, "stopped": stopped,
                     "failure": counting_failure(trace.text, stopped, expected), **_speed(trace)})
    for q, answer in MATH_QUESTIONS:
        trace = decode(lm, f"Question: {q}\nAnswer:", decoder, config)
        final = re.search(r"#### (-?[\d,.]+)\s*$", trace.text)
        rows.append({"class": "math", "prompt": q, "text": trace.text, "format_ok": bool(final),
                     "correct": bool(final) and final.group(1).replace(",", "") == str(answer),
                     **_speed(trace)})
    short = DecodeConfig(max_new_tokens=min(96, config.max_new_tokens))
    for p in CODE_PROMPTS:
        trace = decode(lm, p, decoder, short)
        rows.append({"class": "code", "prompt": p, "text": trace.text, **_speed(trace)})
    for p in PLAY_PROMPTS:
        trace = decode(lm, p, decoder, short)
        rows.append({"class": "plays", "prompt": p, "text": trace.text, **_speed(trace)})
    summary = {}
    for cls in ("counting", "sequence", "math", "code", "plays"):
        sel = [r for r in rows if r["class"] == cls]
        if not sel:
            continue
        gen = sum(r["generated_tokens"] for r in sel)
        fwd = sum(r["forwards"] for r in sel)
        summary[cls] = {"prompts": len(sel), "tokens_per_forward": round(gen / max(fwd, 1), 2)}
        if cls in ("counting", "sequence"):
            summary[cls]["exact_and_stopped"] = sum(r["exact"] and r["stopped"] for r in sel)
            for kind in ("overshoot", "early", "wrong"):
                summary[cls][kind] = sum(r["failure"] == kind for r in sel)
        if cls == "math":
            summary[cls]["format_ok"] = sum(r["format_ok"] for r in sel)
            summary[cls]["correct"] = sum(r["correct"] for r in sel)
    return {"model": lm.name, "decoder": decoder, "summary": summary, "rows": rows}


def _speed(trace) -> dict:
    s = trace.stats()
    return {"generated_tokens": s["generated_tokens"], "forwards": s["forwards"],
            "tokens_per_forward": round(s["tokens_per_forward"], 2)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", default=None)
    parser.add_argument("--decoder", default="streaming")
    parser.add_argument("--counting", type=int, default=12, help="number of counting ranges")
    parser.add_argument("--counting-seed", type=int, default=0, help="seed that draws the ranges")
    parser.add_argument("--sequences", type=int, default=12,
                        help="number of counting-by-K, letter-range and times-table prompts")
    parser.add_argument("--sequence-seed", type=int, default=0, help="seed that draws them")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--rewrite-card", action="store_true",
                        help="replace the model card's measured section (README.md in the model folder) "
                             "with these figures, keeping its training section")
    args = parser.parse_args(argv)
    card = Path(args.model).resolve() / "README.md" if args.model else BUNDLED_MODEL / "README.md"
    if args.rewrite_card and not card.is_file():  # fail before minutes of decoding
        parser.error(f"--rewrite-card: no model card at {card}")
    report = evaluate(load_model(args.model, device="cpu"), args.decoder, args.counting,
                      counting_seed=args.counting_seed, sequences=args.sequences,
                      sequence_seed=args.sequence_seed)
    if args.rewrite_card:
        from .card import rewrite_measured
        folder = card.parent
        shown = folder.relative_to(REPO_ROOT) if folder.is_relative_to(REPO_ROOT) else folder
        changed = [f"--{name.replace('_', '-')} {getattr(args, name)}"
                   for name in ("counting", "counting_seed", "sequences", "sequence_seed")
                   if getattr(args, name) != parser.get_default(name)]
        command = " ".join([f"python -m wedlm.training.evaluate --model {shown} --decoder {args.decoder}"]
                           + changed)
        rewrite_measured(folder, report, command)
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=1))
    else:
        for row in report["rows"]:
            print(f"[{row['class']}] TPF {row['tokens_per_forward']:.2f} | {row['prompt'][:40]!r} -> {row['text'][:90]!r}")
        print(json.dumps(report["summary"], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
