"""Re-record the example traces in assets/traces with the bundled models (run after retraining).

python -m tools.record_traces [--only NAME ...]     (from the repository's root)
"""
from __future__ import annotations

import argparse
import sys

from wedlm import DecodeConfig, decode, load_model
from app.examples import PROMPTS, RECORDED  # the prompts the Decode tab lists
from wedlm.paths import BUNDLED_MODEL, TRACES_DIR


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", choices=[r[0] for r in RECORDED],
                        help="re-record these traces alone, keep the others")
    args = parser.parse_args()
    lm = load_model(str(BUNDLED_MODEL), device="cpu")  # traces name it by its folder name
    for name, prompt_name, decoder, max_new in RECORDED:
        if args.only and name not in args.only:
            continue
        trace = decode(lm, PROMPTS[prompt_name], decoder, DecodeConfig(max_new_tokens=max_new))
        trace.save(TRACES_DIR / f"{name}.json")
        print(f"{name}: {trace.stats()['generated_tokens']} tokens, {trace.stats()['forwards']} forwards, "
              f"{trace.text[:60]!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
