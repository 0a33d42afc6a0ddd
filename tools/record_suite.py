"""Record the Entropy explorer's suite on the bundled models (assets/bench/suite.json), so the
tab opens already measured; "Run the suite" in the app measures it again live. Run after retraining.

python -m tools.record_suite
"""
from __future__ import annotations

import json
import sys

from wedlm import DecodeConfig, load_model
from wedlm.paths import BUNDLED_AR_MODEL

from app.views import entropy


def main() -> int:
    lm = load_model(device="cpu")
    ar_lm = load_model(str(BUNDLED_AR_MODEL), device="cpu")
    config = DecodeConfig(max_new_tokens=entropy.SUITE_MAX_NEW_TOKENS)
    prompts = entropy.suite_prompts()
    rows = []
    for rows in entropy.iter_suite(lm, ar_lm, config, prompts):
        r = rows[-1]
        print(f"{r['id']}: entropy {r['entropy']}, {r['tokens_per_forward']} tokens per forward", file=sys.stderr)
    record = {"model": "assets/models/wedlm-tiny", "ar_model": "assets/models/ar-tiny",
              "config": {"threshold": config.threshold, "penalty": config.penalty, "window": config.window,
                         "max_new_tokens": config.max_new_tokens},
              "note": "speedup_tokens_per_s: tokens/s against the AR parent, measured side by side "
                      "on the machine that recorded it", "rows": rows}
    entropy.RECORDED_SUITE.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {entropy.RECORDED_SUITE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
