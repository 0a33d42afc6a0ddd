"""The example prompts, in one place: the Decode tab lists them (from very low to high entropy),
the Race and Entropy explorer tabs start from two of them, and tools/record_traces.py records
the bundled example traces (assets/traces) from them."""
from __future__ import annotations

MATH = ("Question: A shop sells pencils in packs of 6. Mia buys 4 packs and gives 5 pencils away. "
        "How many pencils does she have left?\nAnswer:")
CODE = 'def sum_list(numbers: list) -> int:\n    """Return the sum of the numbers."""\n'

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
