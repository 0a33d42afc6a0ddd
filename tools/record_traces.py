"""Re-record the example traces in assets/traces with the bundled models (run after retraining).

python -m tools.record_traces      (from the repository's root)
"""
from __future__ import annotations

import sys

from wedlm import DecodeConfig, decode, load_model
from app.examples import PROMPTS, RECORDED  # the prompts the Decode tab lists
from wedlm.paths import BUNDLED_MODEL, TRACES_DIR


def main() -> int:
    lm = load_model(str(BUNDLED_MODEL), device="cpu")  # traces name it by its folder name
    for name, prompt_name, decoder, max_new in RECORDED:
        trace = decode(lm, PROMPTS[prompt_name], decoder, DecodeConfig(max_new_tokens=max_new))
        trace.save(TRACES_DIR / f"{name}.json")
        print(f"{name}: {trace.stats()['generated_tokens']} tokens, {trace.stats()['forwards']} forwards, "
              f"{trace.text[:60]!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
