"""The example prompts, in one place: the Decode tab lists them (from very low to high entropy),
the Race and Entropy explorer tabs start from two of them, and tools/record_traces.py records
the bundled example traces (assets/traces) from them."""
from __future__ import annotations

MATH = ("Question: A shop sells pencils in packs of 6. Mia buys 4 packs and gives 5 pencils away. "
        "How many pencils does she have left?\nAnswer:")
CODE = 'def sum_list(numbers: list) -> int:\n    """Return the sum of the numbers."""\n'
# chapter 7's code decode (TOUR_PROMPTS["code"], app/tabs/tour/data.py), chosen by one criterion: of the
# code prompts tried that open with their def line (the chapter names a decode by its first line), the
# one on which the bundled model writes the most code tokens before its stop token (streaming, greedy,
# LAW_MAX_NEW new tokens, as tools/record_tour decodes it). Tried: CODE (3 tokens, then stop: 14 of its
# 17 fills were end-of-text), the suite's two code prompts (7, 3) and HumanEval/0-12, the model's code
# training format: HumanEval/2 writes 39 (a function that parses), HumanEval/10 15; the rest open with
# an import line. HumanEval/2: OpenAI's HumanEval (MIT License, docs/training.md).
TOUR_CODE = ('\n\ndef truncate_number(number: float) -> float:\n'
             '    """ Given a positive floating point number, it can be decomposed into\n'
             '    and integer part (largest integer smaller than given number) and decimals\n'
             '    (leftover part always smaller than 1).\n\n'
             '    Return the decimal part of the number.\n'
             '    >>> truncate_number(3.5)\n'
             '    0.5\n'
             '    """\n')

# name -> prompt, from very low to high entropy
PROMPTS = {
    "counting": "Count from 1 to 40:",
    "counting-from-25": "Count from 25 to 60:",
    "table": "Times table of 7 up to 10:",
    "arithmetic": "Question: What is (23 + 58) - 17?\nAnswer:",
    "math": MATH,
    "code": CODE,
    "plays": "ROMEO:\n",
}
RACE_PROMPT = PROMPTS["counting-from-25"]
SWEEP_PROMPT = PROMPTS["arithmetic"]

# the recorded example traces: file name, prompt name, decoder, max new tokens
RECORDED = [
    ("1-counting-streaming", "counting", "streaming", 160),
    ("2-counting-ar", "counting", "ar", 160),
    ("3-table-streaming", "table", "streaming", 128),
    ("4-arithmetic-streaming", "arithmetic", "streaming", 128),
    ("5-math-streaming", "math", "streaming", 128),
    ("6-code-streaming", "code", "streaming", 64),
    ("7-plays-streaming", "plays", "streaming", 64),
    ("8-arithmetic-verified", "arithmetic", "verified", 128),  # beyond the paper: checks its drafts
]
