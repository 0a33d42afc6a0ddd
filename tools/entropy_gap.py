"""Where tokens per forward come from: the frontier mask against the model's own next-token head.

At each streaming step the first open mask (distance 0) sits at logical position c and sees every
token before it, all final (committed or filled), plus any filled slots to its right. The model's
next-token head, run causally over the final output, predicts the same token from the same prefix
(without the right-hand context). Comparing their entropies per class says whether a class is slow
because its text is uncertain (both high) or because the masks are weaker than the next-token head
(mask high, head low).

python -m tools.entropy_gap [--model M] [--prompts FILE.jsonl] [--max-new-tokens 128]
"""
from __future__ import annotations

import argparse
import statistics
import sys

import torch

from wedlm import DecodeConfig, load_model
from wedlm.decoders import make_decoder
from wedlm.paths import SUITE_FILE
from wedlm.selection import entropy
from wedlm.suite import in_class_order, read_prompts


def next_token_entropies(lm, prompt_ids: list[int], output: list[int]) -> list[float]:
    """Entropy of the next-token head's prediction of each output token, teacher-forced."""
    ids = torch.tensor([prompt_ids + output], device=lm.device)
    with torch.inference_mode():
        logits = lm.model(input_ids=ids).logits[0]
    # row P-1+j predicts output token j
    return entropy(logits[len(prompt_ids) - 1: len(prompt_ids) - 1 + len(output)]).tolist()


def frontier_pairs(lm, prompt: str, config: DecodeConfig) -> tuple[list[tuple[float, float]], float]:
    """(frontier mask entropy, next-token head entropy) at every step's first open mask, and TPF."""
    prompt_ids = lm.encode(prompt)
    decoder = make_decoder("streaming", lm, config)
    steps = list(decoder.steps(prompt_ids))
    output = decoder.result.token_ids
    head = next_token_entropies(lm, prompt_ids, output)
    pairs = []
    for step in steps:
        first = next((m for m in step.masks if m.distance == 0), None)
        j = first.pos - len(prompt_ids) if first else -1
        if 0 <= j < len(head):  # masks past the final output have no next-token counterpart
            pairs.append((first.entropy, head[j]))
    return pairs, decoder.result.tokens_per_forward


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=None, help="default: the bundled WeDLM model")
    parser.add_argument("--prompts", default=str(SUITE_FILE))
    parser.add_argument("--max-new-tokens", type=int, default=128)
    args = parser.parse_args(argv)
    lm = load_model(args.model, device="cpu")
    config = DecodeConfig(max_new_tokens=args.max_new_tokens)
    tau = config.threshold
    by_class: dict[str, dict] = {}
    for p in read_prompts(args.prompts):
        pairs, tpf = frontier_pairs(lm, p["prompt"], config)
        entry = by_class.setdefault(p["class"], {"pairs": [], "tpf": []})
        entry["pairs"] += pairs
        entry["tpf"].append(tpf)
    print(f"| class | TPF | steps | frontier mask: median nats | under τ={tau} | "
          f"next-token head, same prefix: median nats | under τ={tau} |")
    print("|---|---|---|---|---|---|---|")
    for cls in in_class_order(by_class):
        pairs, tpf = by_class[cls]["pairs"], by_class[cls]["tpf"]
        masks, heads = [m for m, _ in pairs], [h for _, h in pairs]
        print(f"| {cls} | {statistics.mean(tpf):.2f} | {len(pairs)} | {statistics.median(masks):.2f} | "
              f"{sum(m < tau for m in masks) / len(masks):.0%} | {statistics.median(heads):.2f} | "
              f"{sum(h < tau for h in heads) / len(heads):.0%} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
