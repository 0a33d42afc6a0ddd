"""How many tokens per forward could these masks give on real text? A teacher-forced ceiling.

Runs the streaming decoder over reference answers with every fill replaced by the reference token
at its position: which slots are filled, and how many at a step, is still the model's own choice
(entropy + λ·distance under τ), only the tokens are always right. Its TPF is what the masks would
give if they never wrote a wrong token. The references are the corpora the model trained on
(GSM8K, HumanEval, the plays) and the training generators (counting, sequences), so the ceiling
is an optimistic one.

Alongside, at every answer position j of each reference, with the true prefix before j:
- the next-token head's entropy (the AR view of token j);
- the frontier mask's entropy, in a window of W masks starting at j (what one token per step needs);
- the second mask's entropy, at j+1 with j still masked (what a step needs to commit two tokens).

python -m tools.mask_ceiling [--model M] [--classes counting,sequence,math,code,plays] [--samples 30]
"""
from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import sys

import torch
from tqdm import tqdm

from tools.entropy_gap import next_token_entropies
from wedlm import DecodeConfig, load_model
from wedlm.decoders import StreamingDecoder
from wedlm.selection import entropy
from wedlm.training import corpus

CLASSES = ("counting", "sequence", "math", "code", "plays")


class ForcedStreamingDecoder(StreamingDecoder):
    """Streaming decoding whose fills take the reference token at their position; past the
    reference's end every slot is end of text."""

    name = "streaming-forced"

    def __init__(self, lm, config: DecodeConfig, reference: list[int]):
        super().__init__(lm, config)
        self.reference = reference
        self.offset = 0

    def steps(self, prompt_ids, resume=None):
        self.offset = len(prompt_ids)
        return super().steps(prompt_ids, resume)

    def _choose(self, logits, positions, entropies):
        slots = super()._choose(logits, positions, entropies)
        end = self.lm.stop_ids[0]
        for slot in slots:
            j = slot.pos - self.offset
            slot.token = self.reference[j] if j < len(self.reference) else end
        return slots


def references(cls: str, n: int, seed: int = 0) -> list[corpus.Sample]:
    """n (prompt, answer) pairs of a class: the last n GSM8K questions, the first n HumanEval
    problems and plays, or n drawn by the training generators."""
    rng = random.Random(seed)
    data = corpus.DEFAULT_DATA_DIR
    if cls == "counting":
        return [corpus.counting_to_stop(rng) for _ in range(n)]
    if cls == "sequence":
        return [corpus.sequence_sample(rng) for _ in range(n)]
    if cls == "math":
        return corpus.math_samples(data)[-n:]
    if cls == "code":
        return corpus.code_samples(data)[:n]
    if cls == "plays":
        return corpus.play_samples(data, rng)[:n]
    raise ValueError(f"unknown class {cls!r}; choose from {', '.join(CLASSES)}")


def position_entropies(lm, prompt_ids: list[int], answer_ids: list[int], window: int):
    """Per answer position j: (next-token head, frontier mask at j, second mask at j+1)."""
    mask = lm.mask_token_id
    ids = prompt_ids + answer_ids
    head = next_token_entropies(lm, prompt_ids, answer_ids)
    out = []
    with torch.inference_mode():
        for j in range(len(answer_ids)):
            prefix = ids[: len(prompt_ids) + j]
            # masks physically after the prefix in ascending order: a plain causal forward gives
            # each mask exactly the WeDLM visibility (prefix plus the masks before it)
            x = torch.tensor([prefix + [mask] * window], device=lm.device)
            logits = lm.model(input_ids=x, logits_to_keep=window).logits[0, :2]
            first, second = entropy(logits).tolist()
            out.append((head[j], first, second))
    return out


def measure(lm, samples: list[corpus.Sample], config: DecodeConfig, bar=None) -> dict:
    tau = config.threshold
    generated = forwards = 0
    rows = []
    for s in samples:
        prompt_ids = lm.encode(s.prompt)
        answer_ids = lm.tokenizer.encode(s.answer, add_special_tokens=False)
        room = lm.max_context - len(prompt_ids) - config.window - 1
        answer_ids = answer_ids[:max(0, room)]
        cfg = dataclasses.replace(config, max_new_tokens=len(answer_ids) + 1)
        decoder = ForcedStreamingDecoder(lm, cfg, answer_ids)
        result = decoder.run(prompt_ids)
        generated += len(result.token_ids)
        forwards += result.forwards
        rows += position_entropies(lm, prompt_ids, answer_ids, config.window)
        if bar is not None:
            bar.update(1)
    head, first, second = zip(*rows)
    under = lambda xs: sum(x < tau for x in xs) / len(xs)  # noqa: E731
    return {"references": len(samples), "tokens": len(rows), "forced_tpf": generated / forwards,
            "head_median": statistics.median(head), "head_under": under(head),
            "first_median": statistics.median(first), "first_under": under(first),
            "second_median": statistics.median(second), "second_under": under(second),
            "both_under": sum(f < tau and s < tau for f, s in zip(first, second)) / len(rows)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=None, help="default: the bundled WeDLM model")
    parser.add_argument("--classes", default=",".join(CLASSES))
    parser.add_argument("--samples", type=int, default=30, help="references per class")
    args = parser.parse_args(argv)
    classes = [c.strip() for c in args.classes.split(",") if c.strip()]
    unknown = set(classes) - set(CLASSES)
    if unknown or args.samples < 1:
        parser.error(f"--classes takes {', '.join(CLASSES)}; --samples at least 1")
    lm = load_model(args.model, device="cpu")
    config = DecodeConfig()
    tau = config.threshold
    print(f"| class | references | answer tokens | teacher-forced TPF | next-token head under τ={tau} "
          f"(median nats) | frontier mask under τ | second mask under τ | both under τ |")
    print("|---|---|---|---|---|---|---|---|")
    with tqdm(total=len(classes) * args.samples, desc="references", file=sys.stderr) as bar:
        for cls in classes:
            m = measure(lm, references(cls, args.samples), config, bar)
            print(f"| {cls} | {m['references']} | {m['tokens']} | {m['forced_tpf']:.2f} | "
                  f"{m['head_under']:.0%} ({m['head_median']:.2f}) | {m['first_under']:.0%} "
                  f"({m['first_median']:.2f}) | {m['second_under']:.0%} ({m['second_median']:.2f}) | "
                  f"{m['both_under']:.0%} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
