"""Tiny training corpora in the formats of the real ones (see docs/training.md#the-training-data):
the unit tests write their own, so they pass in a clone with no data folder beside it. Every
line is made up here; the real corpora are only for training runs.

    gsm8k_train.jsonl    {"question", "answer"}; answers carry `<<a*b=c>>` calculator notes and
                         end in `#### <number>`
    HumanEval.jsonl.gz   {"task_id", "prompt", "canonical_solution", "test", "entry_point"}
    tinyshakespeare.txt  speeches "SPEAKER:\\nline\\nline" separated by blank lines
"""
from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

MATH_PROBLEMS = 40  # the first has the note "48/2 = <<48/2=24>>24"; the last has no note at all
CODE_PROBLEMS = 8
SPEECHES = 60

ITEMS = ["apples", "pencils", "stamps", "marbles", "books", "shells", "cards", "buttons"]
NAMES = ["Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana"]
SPEAKERS = ["FIRST WATCHMAN", "GARDENER", "DUKE", "MILLER", "NURSE", "CAPTAIN"]
WORDS = ["night", "river", "crown", "bread", "storm", "letter", "candle", "garden", "bell", "road",
         "swift", "quiet", "bright", "old", "cold", "gentle", "come", "speak", "hold", "find"]


def math_rows(rng: random.Random) -> list[dict]:
    rows = [{"question": "Mia had 48 stickers and gave half of them to her brother. "
                         "How many stickers did she keep?",
             "answer": "Half of 48 is 48/2 = <<48/2=24>>24.\nMia kept 24 stickers.\n#### 24"}]
    for k in range(1, MATH_PROBLEMS - 1):
        name, item = NAMES[k % len(NAMES)], ITEMS[k % len(ITEMS)]
        a, b, c = rng.randint(2, 60), rng.randint(2, 9), rng.randint(1, 30)
        rows.append({"question": f"{name} buys {b} bags of {item} with {a} {item} in each bag, then "
                                 f"gives away {c} {item}. How many {item} does {name} have left?",
                     "answer": f"The bags hold {b} * {a} = <<{b}*{a}={a * b}>>{a * b} {item}.\n"
                               f"After giving {c} away, {a * b} - {c} = <<{a * b}-{c}={a * b - c}>>"
                               f"{a * b - c} are left.\n#### {a * b - c}"})
    rows.append({"question": "A shelf has 7 books and 5 more are added. How many books are on it?",
                 "answer": "7 and 5 more make 12 books.\n#### 12"})
    return rows


def code_rows() -> list[dict]:
    bodies = [("add", "a: int, b: int", "Return the sum of a and b.", "return a + b"),
              ("double", "n: int", "Return n times two.", "return 2 * n"),
              ("is_even", "n: int", "Return True when n is even.", "return n % 2 == 0"),
              ("first", "items: list", "Return the first item of items.", "return items[0]"),
              ("count_a", "text: str", "Count the letters 'a' in text.", "return text.count('a')"),
              ("largest", "numbers: list", "Return the largest number.", "return max(numbers)"),
              ("reverse", "text: str", "Return text reversed.", "return text[::-1]"),
              ("square_all", "numbers: list", "Square every number.", "return [x * x for x in numbers]")]
    return [{"task_id": f"Tiny/{k}", "prompt": f'def {name}({args}):\n    """{doc}"""\n',
             "canonical_solution": f"    {body}\n", "test": f"def check(f):\n    assert f is not None\n",
             "entry_point": name} for k, (name, args, doc, body) in enumerate(bodies[:CODE_PROBLEMS])]


def speeches(rng: random.Random) -> str:
    out = []
    for k in range(SPEECHES):
        lines = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 9))).capitalize() + "."
                 for _ in range(rng.randint(1, 4))]
        out.append(f"{SPEAKERS[k % len(SPEAKERS)]}:\n" + "\n".join(lines))
    return "\n\n".join(out) + "\n"


def write_tiny_corpora(folder: Path) -> Path:
    """The three corpora, small, in `folder` (made if missing); returns the folder."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(0)
    with open(folder / "gsm8k_train.jsonl", "w", encoding="utf-8") as f:
        f.writelines(json.dumps(row) + "\n" for row in math_rows(rng))
    with gzip.open(folder / "HumanEval.jsonl.gz", "wt", encoding="utf-8") as f:
        f.writelines(json.dumps(row) + "\n" for row in code_rows())
    (folder / "tinyshakespeare.txt").write_text(speeches(rng), encoding="utf-8")
    return folder
