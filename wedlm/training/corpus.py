"""Training samples: (prompt, answer) pairs from ../shared/data plus generated low-entropy text.

Prompt tokens are never masked by the WeDLM objective; the answer is followed by end-of-text.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import math
import random
import re
import string
from dataclasses import dataclass
from pathlib import Path

from ..paths import default_data_dir

DEFAULT_DATA_DIR = default_data_dir()  # --data-dir overrides it
WORDS = ["apple", "river", "stone", "cloud", "tiger", "lamp", "green", "music", "bread", "star",
         "paper", "horse", "light", "water", "house", "tree", "blue", "seven", "dance", "moon"]
CALCULATOR_NOTE = re.compile(r"<<[^>]*>>")


# the `family` of every Sample the stream draws
SAMPLE_FAMILIES = ("counting", "sequence", "repetition", "table", "copy", "word-problem", "arithmetic", "math",
                   "code", "plays")


def parse_families(text: str) -> set[str]:
    """A comma-separated list of sample families -> their set; ValueError names unknown ones."""
    families = {f.strip() for f in text.split(",") if f.strip()}
    unknown = families - set(SAMPLE_FAMILIES)
    if unknown:
        raise ValueError(f"unknown {', '.join(sorted(unknown))}; choose from {', '.join(SAMPLE_FAMILIES)}")
    return families


@dataclass
class Sample:
    family: str
    prompt: str
    answer: str


# -- very low entropy: generated -------------------------------------------------------------
def counting(rng: random.Random) -> Sample:
    a, b = sorted(rng.sample(range(1, 101), 2))
    return Sample("counting", f"Count from {a} to {b}:", " " + ", ".join(map(str, range(a, b + 1))))


def count_down(rng: random.Random) -> Sample:
    a, b = sorted(rng.sample(range(1, 101), 2))
    return Sample("counting", f"Count down from {b} to {a}:",
                  " " + ", ".join(map(str, range(b, a - 1, -1))))


def count_by(rng: random.Random) -> Sample:
    step = rng.choice([2, 3, 5, 10])
    a = rng.randint(0, 50)
    b = a + step * rng.randint(2, 30)
    return Sample("sequence", f"Count by {step} from {a} to {b}:",
                  " " + ", ".join(map(str, range(a, b + 1, step))))


def alphabet(rng: random.Random) -> Sample:
    letters = string.ascii_uppercase
    i, j = sorted(rng.sample(range(26), 2))
    return Sample("sequence", f"Letters from {letters[i]} to {letters[j]}:",
                  " " + ", ".join(letters[i:j + 1]))


def repetition(rng: random.Random) -> Sample:
    word, n = rng.choice(WORDS), rng.randint(2, 12)
    return Sample("repetition", f"Repeat {word} {n} times:", " " + " ".join([word] * n))


def times_table(rng: random.Random) -> Sample:
    k, n = rng.randint(2, 12), rng.randint(3, 10)
    rows = "\n".join(f"{k} x {i} = {k * i}" for i in range(1, n + 1))
    return Sample("table", f"Times table of {k} up to {n}:", "\n" + rows)


def counting_to_stop(rng: random.Random) -> Sample:
    """Counting with log-uniform spans (mostly short): many stops at B per token trained."""
    span = min(99, int(math.exp(rng.uniform(0, math.log(100)))))
    a = rng.randint(1, 100 - span)
    b = a + span
    if rng.random() < 0.25:
        return Sample("counting", f"Count down from {b} to {a}:", " " + ", ".join(map(str, range(b, a - 1, -1))))
    return Sample("counting", f"Count from {a} to {b}:", " " + ", ".join(map(str, range(a, b + 1))))


def copy_list(rng: random.Random) -> Sample:
    """Copy a random list of words and numbers: teaches attending back to a matching token
    (induction), the circuit that stopping at B needs."""
    items = [rng.choice(WORDS) if rng.random() < 0.5 else str(rng.randint(0, 100))
             for _ in range(rng.randint(3, 12))]
    text = ", ".join(items)
    return Sample("copy", f"Copy this list: {text}\nCopy:", " " + text)


# -- generated one- and two-step word problems, answered in GSM8K's format ------------------------
NAMES = [("Anna", "she"), ("Ben", "he"), ("Carla", "she"), ("David", "he"), ("Emma", "she"), ("Felix", "he"),
         ("Grace", "she"), ("Hugo", "he"), ("Iris", "she"), ("Jonas", "he"), ("Kira", "she"), ("Leo", "he"),
         ("Maya", "she"), ("Nico", "he"), ("Olga", "she"), ("Pablo", "he"), ("Rosa", "she"), ("Sam", "he")]
THINGS = ["apples", "stickers", "books", "cookies", "coins", "stamps", "shells", "pencils", "cards", "eggs",
          "flowers", "candles", "buttons", "balloons", "toy cars", "oranges", "beads", "rocks"]
BOXES = ["boxes", "bags", "baskets", "jars", "packs", "shelves", "rows", "crates"]


def word_problem(rng: random.Random) -> Sample:
    """An arithmetic word problem whose solution restates the question's names and numbers in
    GSM8K's answer format: `<sentence with a op b = c>.\n#### c`."""
    (name, he), thing, box = rng.choice(NAMES), rng.choice(THINGS), rng.choice(BOXES)
    a, b = rng.randint(2, 60), rng.randint(2, 40)
    kind = rng.choice(["add", "take", "times", "share", "price", "add-take", "times-add"])
    if kind == "add":
        verb = rng.choice(["buys", "finds", "gets", "is given"])
        q = f"{name} has {a} {thing}. {he.capitalize()} {verb} {b} more. How many {thing} does {name} have now?"
        steps, result = [f"{name} has {a} + {b} = {a + b} {thing} now."], a + b
    elif kind == "take":
        a, b = max(a, b) + 1, min(a, b)
        verb = rng.choice(["gives away", "loses", "eats", "sells", "uses"])
        q = f"{name} has {a} {thing}. {he.capitalize()} {verb} {b} of them. How many {thing} are left?"
        steps, result = [f"{name} has {a} - {b} = {a - b} {thing} left."], a - b
    elif kind == "times":
        a, b = rng.randint(2, 12), rng.randint(2, 15)
        q = f"{name} has {a} {box} with {b} {thing} in each. How many {thing} does {name} have?"
        steps, result = [f"{name} has {a} x {b} = {a * b} {thing}."], a * b
    elif kind == "share":
        a, b = rng.randint(2, 12), rng.randint(2, 15)
        q = f"{name} puts {a * b} {thing} into {a} {box} equally. How many {thing} are in each?"
        steps, result = [f"Each has {a * b} / {a} = {b} {thing}."], b
    elif kind == "price":
        a, b = rng.randint(2, 12), rng.randint(2, 20)
        q = f"{name} buys {a} {thing} at ${b} each. How much does {he} spend?"
        steps, result = [f"{name} spends {a} x ${b} = ${a * b}."], a * b
    elif kind == "add-take":
        c = rng.randint(1, a + b - 1)
        q = (f"{name} has {a} {thing}. {he.capitalize()} gets {b} more and then gives away {c}. "
             f"How many {thing} does {name} have now?")
        steps = [f"{name} has {a} + {b} = {a + b} {thing}.",
                 f"After giving away {c}, {he} has {a + b} - {c} = {a + b - c} {thing}."]
        result = a + b - c
    else:
        a, b, c = rng.randint(2, 12), rng.randint(2, 15), rng.randint(1, 30)
        q = (f"{name} has {a} {box} with {b} {thing} in each and {c} more {thing}. "
             f"How many {thing} does {name} have in all?")
        steps = [f"The {box} hold {a} x {b} = {a * b} {thing}.",
                 f"In all {name} has {a * b} + {c} = {a * b + c} {thing}."]
        result = a * b + c
    return Sample("word-problem", f"Question: {q}\nAnswer:", " " + "\n".join(steps) + f"\n#### {result}")



# -- checkable arithmetic (issue 22): forms A, B, C with a column-by-column worked solution ------
# Every column step is a one-digit fact (the operands' digits are read off their tokens), so a
# 5 M model learns a few hundred facts instead of a 100 x 100 table of two-digit tokens; the
# steps have a fixed shape, so the masks between the computed digits are near-certain (speed).
# Numbers of three or more digits in the answers are written one digit per token
# (`arithmetic_pieces`): the tokenizer splits 100-999 irregularly ('8','52' / '45','6' / '123').
ARITHMETIC_OPS = ("+", "-", "*")
HELD_OUT_SHARE = 10  # one question key in this many is held out of training (evaluation only)


def is_held_out(key: tuple) -> bool:
    """A fixed rule on a question's key ((form, template, operands...)): held-out questions are
    never drawn for training, whatever the seed."""
    digest = hashlib.sha256(repr(key).encode()).digest()
    return int.from_bytes(digest[:8], "big") % HELD_OUT_SHARE == 0


def apply_op(x: int, op: str, y: int) -> int:
    return x + y if op == "+" else x - y if op == "-" else x * y


def column_steps(x: int, op: str, y: int) -> str:
    """`x op y` worked one column at a time, ones first, then restated with its value:
    47 + 38 -> '7 + 8 + 0 = 15, 4 + 3 + 1 = 8, 47 + 38 = 85.'
    83 - 47 -> '13 - 7 - 0 = 6, 8 - 4 - 1 = 3, 83 - 47 = 36.'  (a borrow shows as the 1 in 13)
    47 * 8  -> '7 * 8 + 0 = 56, 4 * 8 + 5 = 37, 47 * 8 = 376.'  (y whole: it is at most 12)"""
    xs = [int(d) for d in reversed(str(x))]
    if op == "*":
        steps, carry = [], 0
        for d in xs:
            value = d * y + carry
            steps.append(f"{d} * {y} + {carry} = {value}")
            carry = value // 10
    else:
        ys = [int(d) for d in reversed(str(y))]
        width = max(len(xs), len(ys))
        xs, ys = xs + [0] * (width - len(xs)), ys + [0] * (width - len(ys))
        steps, carry = [], 0
        for dx, dy in zip(xs, ys):
            if op == "+":
                value = dx + dy + carry
                steps.append(f"{dx} + {dy} + {carry} = {value}")
                carry = value // 10
            else:
                borrow = int(dx - dy - carry < 0)
                steps.append(f"{dx + 10 * borrow} - {dy} - {carry} = {dx + 10 * borrow - dy - carry}")
                carry = borrow
    return ", ".join(steps) + f", {x} {op} {y} = {apply_op(x, op, y)}."


def worked_solution(ops: list[tuple[int, str, int]]) -> str:
    """The answer to a question of one or two operations, inner one first, ending `#### n`."""
    result = apply_op(*ops[-1])
    return " " + " ".join(column_steps(*o) for o in ops) + f"\n#### {result}"


def _form_a_operands(rng: random.Random) -> tuple[int, str, int]:
    op = rng.choice(ARITHMETIC_OPS)
    if op == "*":
        return rng.randint(2, 12), op, rng.randint(2, 12)
    a, b = rng.randint(0, 99), rng.randint(0, 99)
    return (max(a, b), op, min(a, b)) if op == "-" else (a, op, b)


def form_a(rng: random.Random) -> tuple[tuple, str, list]:
    """(key, question, ops): `What is {a} {op} {b}?`"""
    a, op, b = _form_a_operands(rng)
    return ("A", a, op, b), f"What is {a} {op} {b}?", [(a, op, b)]


def form_b(rng: random.Random) -> tuple[tuple, str, list]:
    """`What is ({a} {op1} {b}) {op2} {c}?`: the bracket in form A's ranges; c in 0-99 for + and
    - (never below 0), 2-12 for * with the bracket's value 2-99; the result 0-999."""
    while True:
        a, op1, b = _form_a_operands(rng)
        inner = apply_op(a, op1, b)
        op2 = rng.choice(ARITHMETIC_OPS)
        if op2 == "*":
            if not 2 <= inner <= 99:
                continue
            c = rng.randint(2, 12)
        else:
            c = rng.randint(0, 99 if op2 == "+" else min(99, inner))
        if 0 <= apply_op(inner, op2, c) <= 999:
            return (("B", a, op1, b, op2, c), f"What is ({a} {op1} {b}) {op2} {c}?",
                    [(a, op1, b), (inner, op2, c)])


PEOPLE = [n for n, _ in NAMES] + ["Omar", "Lina", "Tariq", "Yuki", "Zoe", "Ravi"]
PRONOUNS = dict(NAMES) | {"Omar": "he", "Lina": "she", "Tariq": "he", "Yuki": "she", "Zoe": "she", "Ravi": "he"}
PLACES = ["box", "basket", "jar", "bag", "drawer", "bowl"]
SHOPS = ["bakery", "shop", "market stall", "kiosk", "farm stand"]
ITEMS = ["books", "tickets", "pens", "cups", "plants", "hats"]


def _small(rng):   # a factor of a product, 2-12
    return rng.randint(2, 12)


def _num(rng):     # an addend, 1-99
    return rng.randint(1, 99)


# (template, draw numbers -> (numbers, ops) or None to redraw); {n0}, {n1}, {n2} are the numbers
WORD_TEMPLATES = [
    ("{name} has {n0} {thing}. {He} buys {n1} more. How many {thing} does {name} have now?",
     lambda r: (lambda a, b: ((a, b), [(a, "+", b)]))(_num(r), _num(r))),
    ("{name} has {n0} {thing} and gives {n1} of them to {other}. How many {thing} does {name} have left?",
     lambda r: (lambda a, b: ((max(a, b), min(a, b)), [(max(a, b), "-", min(a, b))]))(_num(r), _num(r))),
    ("{name} has {n0} {box} with {n1} {thing} in each. How many {thing} does {name} have?",
     lambda r: (lambda a, b: ((a, b), [(a, "*", b)]))(_small(r), _small(r))),
    ("A {shop} sells {n0} {thing} in the morning and {n1} in the afternoon. How many {thing} does it sell in all?",
     lambda r: (lambda a, b: ((a, b), [(a, "+", b)]))(_num(r), _num(r))),
    ("{name} has ${n0} and spends ${n1} on {item}. How many dollars does {he} have left?",
     lambda r: (lambda a, b: ((max(a, b), min(a, b)), [(max(a, b), "-", min(a, b))]))(_num(r), _num(r))),
    ("{name} buys {n0} {item} at ${n1} each. How many dollars does {he} pay?",
     lambda r: (lambda a, b: ((a, b), [(a, "*", b)]))(_small(r), _small(r))),
    ("There are {n0} {thing} in a {place}. {name} puts in {n1} more and then takes out {n2}. "
     "How many {thing} are in the {place} now?",
     lambda r: (lambda a, b, c: ((a, b, c), [(a, "+", b), (a + b, "-", c)]) if c <= a + b else None)(
         _num(r), _num(r), _num(r))),
    ("{name} had {n0} {thing}. {He} lost {n1} of them and then found {n2} more. How many {thing} does "
     "{name} have now?",
     lambda r: (lambda a, b, c: ((a, b, c), [(a, "-", b), (a - b, "+", c)]) if b <= a else None)(
         _num(r), _num(r), _num(r))),
    ("{name} buys {n0} {box} of {thing} with {n1} in each and gets {n2} more from {other}. How many "
     "{thing} does {name} have?",
     lambda r: (lambda a, b, c: ((a, b, c), [(a, "*", b), (a * b, "+", c)]))(_small(r), _small(r), _num(r))),
    ("Every day {name} picks {n0} red {thing} and {n1} white {thing}. How many {thing} does {he} pick "
     "in {n2} days?",
     lambda r: (lambda a, b, c: ((a, b, c), [(a, "+", b), (a + b, "*", c)]) if a + b <= 99 else None)(
         r.randint(1, 50), r.randint(1, 49), _small(r))),
]


def form_c(rng: random.Random) -> tuple[tuple, str, list]:
    """A word problem from WORD_TEMPLATES; its key is (template, numbers): a held-out one is held
    out under every name and object."""
    while True:
        index = rng.randrange(len(WORD_TEMPLATES))
        template, draw = WORD_TEMPLATES[index]
        drawn = draw(rng)
        if drawn is not None:
            break
    numbers, ops = drawn
    name, other = rng.sample(PEOPLE, 2)
    he = PRONOUNS[name]
    words = {"name": name, "other": other, "he": he, "He": he.capitalize(), "thing": rng.choice(THINGS),
             "box": rng.choice(BOXES), "place": rng.choice(PLACES), "shop": rng.choice(SHOPS),
             "item": rng.choice(ITEMS)}
    question = template.format(**words, **{f"n{i}": n for i, n in enumerate(numbers)})
    return ("C", index, *numbers), question, ops


ARITHMETIC_FORMS = {"A": form_a, "B": form_b, "C": form_c}


def arithmetic_sample(question: str, ops: list) -> Sample:
    return Sample("arithmetic", f"Question: {question}\nAnswer:", worked_solution(ops))


def arithmetic(rng: random.Random) -> Sample:
    """A training question of form A, B or C (in turn by chance), never a held-out one."""
    form = rng.choice("ABC")
    while True:
        drawn = ARITHMETIC_FORMS[form](rng)
        if not is_held_out(drawn[0]):
            return arithmetic_sample(drawn[1], drawn[2])


def held_out_questions(form: str, n: int, seed: int = 0) -> list[tuple[str, str, int]]:
    """n distinct held-out questions of a form: (prompt, worked answer, value)."""
    rng, seen, out = random.Random(seed), set(), []
    while len(out) < n:
        key, question, ops = ARITHMETIC_FORMS[form](rng)
        if is_held_out(key) and key not in seen:
            seen.add(key)
            out.append((f"Question: {question}\nAnswer:", worked_solution(ops), apply_op(*ops[-1])))
    return out


FINAL_ANSWER = re.compile(r"#### (-?[\d,.]+)\s*$")


def final_answer(text: str) -> str | None:
    """The number after `#### ` at the end of an answer (GSM8K's format), commas dropped; None
    if the answer does not end that way."""
    found = FINAL_ANSWER.search(text)
    return found.group(1).replace(",", "") if found else None


DIGIT_RUN = re.compile(r"(\d{3,})")


def arithmetic_pieces(text: str) -> list[tuple[str, bool]]:
    """Text cut into (piece, one token per character?): runs of 3+ digits are spelled digit by
    digit, the rest is left to the tokenizer."""
    return [(piece, bool(DIGIT_RUN.fullmatch(piece))) for piece in DIGIT_RUN.split(text) if piece]


def encode_answer(tokenizer, sample: Sample) -> list[int]:
    """The answer's token ids; arithmetic answers with their long numbers one digit a token."""
    if sample.family != "arithmetic":
        return tokenizer.encode(sample.answer, add_special_tokens=False)
    ids = []
    for piece, spelled in arithmetic_pieces(sample.answer):
        ids += ([tokenizer.convert_tokens_to_ids(c) for c in piece] if spelled
                else tokenizer.encode(piece, add_special_tokens=False))
    return ids


GENERATORS = [counting, counting, count_down, count_by, alphabet, repetition, times_table, copy_list]
# Sample mix by family, per training stage. `stop` adds short counting runs and list copying:
# an AR parent that saw counting only over uniform ranges (40 % generated, no extras) never
# learned to stop at B; with `stop` the stop appeared between AR steps 1000 and 2000.
MIXES = {
    "stop": {"generated": 0.3, "counting": 0.2, "copy": 0.08, "math": 0.24, "plays": 0.11, "code": 0.07},
    # twice the short counting runs (stops at B) of `stop`, the rest scaled down to make room
    "more-stops": {"generated": 0.25, "counting": 0.4, "copy": 0.07, "math": 0.18, "plays": 0.06, "code": 0.04},
    # `more-stops` with 2.7x its counting by K and letter ranges (bench: masks unsure on both)
    "more-sequences": {"generated": 0.2, "counting": 0.36, "sequence": 0.12, "copy": 0.06, "math": 0.16,
                       "plays": 0.06, "code": 0.04},
    # `more-sequences` with generated word problems (GSM8K's format, the question restated), taken
    # from the generated families and GSM8K
    "word-problems": {"generated": 0.12, "counting": 0.36, "sequence": 0.12, "copy": 0.06,
                      "word-problem": 0.1, "math": 0.14, "plays": 0.06, "code": 0.04},
    # checkable arithmetic (forms A, B, C) as half the samples, the stop families kept well
    # above the 5 % counting that lost the stop at B in a trial fine-tune
    "arithmetic": {"arithmetic": 0.6, "counting": 0.2, "generated": 0.08, "sequence": 0.04, "copy": 0.04,
                   "math": 0.02, "plays": 0.01, "code": 0.01},
}
SEQUENCE_GENERATORS = [count_by, alphabet]


def generated_sample(rng: random.Random) -> Sample:
    return rng.choice(GENERATORS)(rng)


def sequence_sample(rng: random.Random) -> Sample:
    return rng.choice(SEQUENCE_GENERATORS)(rng)


# the mix families drawn by a generator (endless); the others come from ../shared/data
DRAWN_FAMILIES = {"generated": generated_sample, "counting": counting_to_stop, "copy": copy_list,
                  "sequence": sequence_sample, "word-problem": word_problem,
                  "arithmetic": arithmetic}


# -- real text from ../shared/data -------------------------------------------------------------
def math_samples(data_dir: Path, notes: bool = False) -> list[Sample]:
    """GSM8K without its calculator notes, or (notes=True) as it is, `<<48/2=24>>24` notes kept
    (each repeats the expression before it and is repeated after it)."""
    out = []
    with open(data_dir / "gsm8k_train.jsonl", encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            answer = row["answer"] if notes else CALCULATOR_NOTE.sub("", row["answer"])
            out.append(Sample("math", f"Question: {row['question']}\nAnswer:", " " + answer))
    return out


def code_samples(data_dir: Path) -> list[Sample]:
    with gzip.open(data_dir / "HumanEval.jsonl.gz", "rt", encoding="utf-8") as f:
        return [Sample("code", row["prompt"], row["canonical_solution"])
                for row in map(json.loads, f)]


def play_samples(data_dir: Path, rng: random.Random) -> list[Sample]:
    """Runs of 1-3 speeches; the prompt is the first speaker's line."""
    speeches = (data_dir / "tinyshakespeare.txt").read_text(encoding="utf-8").split("\n\n")
    speeches = [s.strip() for s in speeches if ":\n" in s]
    out, i = [], 0
    while i < len(speeches):
        n = rng.randint(1, 3)
        text = "\n\n".join(speeches[i:i + n])
        speaker, rest = text.split("\n", 1)
        out.append(Sample("plays", speaker + "\n", rest))
        i += n
    return out


class SampleStream:
    """Draws samples by family weight: generated families are endless, real ones reshuffle."""

    def __init__(self, data_dir: Path | str = DEFAULT_DATA_DIR, seed: int = 0, mix: str = "stop",
                 math_notes: bool = False):
        data_dir = Path(data_dir)
        if not (data_dir / "gsm8k_train.jsonl").is_file():
            raise FileNotFoundError(f"training data not found in {data_dir}: point --data-dir or "
                                    f"WEDLM_DATA_DIR at it (docs/training.md#the-training-data)")
        self.rng = random.Random(seed)
        self.pools = {"math": math_samples(data_dir, math_notes), "code": code_samples(data_dir),
                      "plays": play_samples(data_dir, self.rng)}
        self.weights = MIXES[mix]
        self.order = {name: [] for name in self.pools}

    def next(self) -> Sample:
        family = self.rng.choices(list(self.weights), weights=list(self.weights.values()))[0]
        if family in DRAWN_FAMILIES:
            return DRAWN_FAMILIES[family](self.rng)
        if not self.order[family]:
            self.order[family] = list(range(len(self.pools[family])))
            self.rng.shuffle(self.order[family])
        return self.pools[family][self.order[family].pop()]

    def state_dict(self) -> dict:
        """What a resumed run needs to draw the same samples: the rng and the unseen order."""
        return {"rng": self.rng.getstate(), "order": {k: list(v) for k, v in self.order.items()}}

    def load_state_dict(self, state: dict) -> None:
        self.rng.setstate(state["rng"])
        self.order = {k: list(v) for k, v in state["order"].items()}


def tokenizer_texts(data_dir: Path | str = DEFAULT_DATA_DIR, seed: int = 0, generated: int = 20000,
                    math_notes: bool = False):
    """Text to train the tokenizer on: all real data plus a sample of generated text."""
    data_dir = Path(data_dir)
    rng = random.Random(seed)
    for s in math_samples(data_dir, math_notes) + code_samples(data_dir) + play_samples(data_dir, rng):
        yield s.prompt + s.answer
    for _ in range(generated):
        s = generated_sample(rng)
        yield s.prompt + s.answer
