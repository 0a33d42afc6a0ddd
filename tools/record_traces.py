"""Re-record the example traces in assets/traces with the bundled models (run after retraining).

python -m tools.record_traces      (from the repository's root)
"""
from __future__ import annotations

import sys

from wedlm import DecodeConfig, decode, load_model
from wedlm.paths import BUNDLED_MODEL, TRACES_DIR

MATH = ("Question: A shop sells pencils in packs of 6. Mia buys 4 packs and gives 5 pencils away. "
        "How many pencils does she have left?\nAnswer:")
CODE = 'def sum_list(numbers: list) -> int:\n    """Return the sum of the numbers."""\n'
# file name, prompt, decoder, max new tokens
EXAMPLES = [
    ("1-counting-streaming", "Count from 1 to 40:", "streaming", 160),
    ("2-counting-ar", "Count from 1 to 40:", "ar", 160),
    ("3-table-streaming", "Times table of 7 up to 10:", "streaming", 128),
    ("4-arithmetic-streaming", "Question: What is (23 + 58) - 17?\nAnswer:", "streaming", 128),
    ("5-math-streaming", MATH, "streaming", 128),
    ("6-code-streaming", CODE, "streaming", 64),
    ("7-plays-streaming", "ROMEO:\n", "streaming", 64),
]


def main() -> int:
    lm = load_model(str(BUNDLED_MODEL), device="cpu")  # traces name it by its folder name
    for name, prompt, decoder, max_new in EXAMPLES:
        trace = decode(lm, prompt, decoder, DecodeConfig(max_new_tokens=max_new))
        trace.save(TRACES_DIR / f"{name}.json")
        print(f"{name}: {trace.stats()['generated_tokens']} tokens, {trace.stats()['forwards']} forwards, "
              f"{trace.text[:60]!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
