"""Resident memory over many decodes: python -m tools.memory [--model PATH] [--decodes 200]."""
from __future__ import annotations

import argparse
import gc
import json
import resource
import sys


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> int:
    from wedlm import DecodeConfig, decode, decode_steps, load_model
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default=None)
    parser.add_argument("--decodes", type=int, default=200)
    args = parser.parse_args()
    lm = load_model(args.model, device="cpu")
    decoders = ["streaming", "block", "ar", "reference"]
    decode(lm, "Count from 1 to 9:", "streaming", DecodeConfig(max_new_tokens=32))  # warm-up
    gc.collect()
    before = rss_mb()
    for i in range(args.decodes):
        prompt = f"Count from {1 + i % 50} to {60 + i % 40}:"
        if i % 10 == 9:  # a stopped decode must free its state too
            it = decode_steps(lm, prompt, "streaming", DecodeConfig(max_new_tokens=64))
            next(it)
            it.close()
        else:
            decode(lm, prompt, decoders[i % len(decoders)], DecodeConfig(max_new_tokens=64, seed=i))
    gc.collect()
    after = rss_mb()
    print(json.dumps({"decodes": args.decodes, "rss_before_mb": round(before, 1),
                      "rss_after_mb": round(after, 1), "growth_mb": round(after - before, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
