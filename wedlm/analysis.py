"""Teacher-forced streaming decoding of a given text: where inside a text WeDLM's parallel
decoding pays (the app's entropy lens, tools/mask_ceiling.py, tools/entropy_gap.py).

Forced decoding runs the real streaming decoder with every fill taking the text's token: which
slots are filled, and how many at a step, stays the model's choice (entropy + λ·distance under
τ), only the tokens are given. On the model's own greedy output it replays the free decode step
for step (tested).

Per text position j, with the true text before j:
- the next-token head's entropy (the AR view of token j);
- the masks' entropies of a window of W masks starting at j (`mask_table`): the frontier mask
  (distance 0) and the second mask (at j+1 with j still masked: what a step needs to commit two).

Re-grouping at another τ or λ from `mask_table` without the model (`regroup`) is exact while
every step of the decode fills a *leading run* of masks (slots j, j+1, …, j+k-1): then every
forward's masks see exactly the text before the frontier and masks, the context the table
recorded. When a step fills a slot behind a still-open mask, the masks before that slot see a
token to their right that the table never saw; `regroup` then says so (returns None) and the
caller re-runs the forced decode (`lens_at`).
"""
from __future__ import annotations

import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace

import torch
from transformers import DynamicCache

from .config import DecodeConfig, ValidationError, validate_prompt
from .decoders import make_decoder
from .decoders.core import TokenChooser
from .device import window_forward_kwargs
from .loading import LoadedModel
from .selection import entropy, select_slots

# The lens runs one forward per text token: its cost bounds the text. Characters are checked
# before tokenizing, tokens after.
MAX_TEXT_CHARS = 2000      # the prompt and the continuation, each
MAX_TEXT_TOKENS = 256      # the continuation


def forced_chooser(reference: list[int], offset: int, end_token: int) -> TokenChooser:
    """Every fill takes the reference token at its position (logical position - offset); past
    the reference's end, the end-of-text token."""
    def choose(logits: torch.Tensor, positions: list[int]) -> list[int]:
        return [reference[p - offset] if 0 <= p - offset < len(reference) else end_token
                for p in positions]
    return choose


def forced_decoder(lm: LoadedModel, config: DecodeConfig, prompt_ids: list[int],
                   reference: list[int], decoder: str = "streaming"):
    """A decoder (streaming by default) whose fills take the reference's tokens."""
    runner = make_decoder(decoder, lm, config)
    runner.token_chooser = forced_chooser(reference, len(prompt_ids), lm.stop_ids[0])
    return runner


def forced_tokens(lm: LoadedModel, text_ids: list[int], stop: bool) -> list[int]:
    """The tokens a forced decode commits: the text, then the stop token when `stop`."""
    return list(text_ids) + ([lm.stop_ids[0]] if stop else [])


class OutOfTime(ValidationError):
    """The work's time budget (a GPU lease) ran out before the lens was complete."""


def check_time(deadline: float | None) -> None:
    """Raise OutOfTime once time.perf_counter() has passed the deadline (None: no deadline)."""
    if deadline is not None and time.perf_counter() > deadline:
        raise OutOfTime("the lens ran out of its time budget: try a shorter text")


def forced_decode(lm: LoadedModel, prompt_ids: list[int], text_ids: list[int],
                  config: DecodeConfig, stop: bool = True, beyond: list[int] = (),
                  deadline: float | None = None):
    """Run the forced streaming decode; returns (step records, result). The window keeps W
    slots to the end, so slots past the text get filled too (never committed): with end of text,
    or with `beyond`'s tokens where given (e.g. what a real decode filled there)."""
    tokens = forced_tokens(lm, text_ids, stop)
    runner = forced_decoder(lm, replace(config, max_new_tokens=len(tokens)), prompt_ids,
                            tokens + list(beyond))
    steps = []
    for step in runner.steps(prompt_ids):
        steps.append(step)
        check_time(deadline)
    return steps, runner.result


def next_token_entropies(lm: LoadedModel, prompt_ids: list[int], output: list[int]) -> list[float]:
    """Entropy of the next-token head's prediction of each output token, teacher-forced."""
    ids = torch.tensor([prompt_ids + output], device=lm.device)              # (1, P + L)
    with torch.inference_mode():
        logits = lm.model(input_ids=ids).logits[0]                             # (P + L, V)
    # row P-1+j predicts output token j
    return entropy(logits[len(prompt_ids) - 1: len(prompt_ids) - 1 + len(output)]).tolist()


def mask_table(lm: LoadedModel, prompt_ids: list[int], tokens: list[int], window: int) -> list[list[float]]:
    """Row j: the entropies of W masks at positions j..j+W-1 after the prompt and tokens[:j],
    for j = 0..len(tokens)-1 (mask_rows, collected)."""
    return list(mask_rows(lm, prompt_ids, tokens, window))


def mask_rows(lm: LoadedModel, prompt_ids: list[int], tokens: list[int], window: int) -> Iterator[list[float]]:
    """mask_table's rows one forward at a time. One forward per row over a KV cache of the true
    prefix: the previous token, then W masks (a plain causal forward gives each mask WeDLM's
    visibility: the prefix and the masks before it); only the token's KV is kept."""
    mask, device = lm.mask_token_id, lm.device
    p = len(prompt_ids)
    cache = DynamicCache(config=lm.model.config)
    with torch.inference_mode():
        lm.model(input_ids=torch.tensor([prompt_ids], device=device), past_key_values=cache,
                 use_cache=True, logits_to_keep=1)
    for j in range(len(tokens)):
        ids = ([tokens[j - 1]] if j else []) + [mask] * window
        first = p + j - (1 if j else 0)
        x = torch.tensor([ids], device=device)                              # (1, q)
        pos = torch.arange(first, first + len(ids), device=device)[None]    # (1, q)
        with torch.inference_mode():
            out = lm.model(input_ids=x, position_ids=pos, past_key_values=cache, use_cache=True,
                           logits_to_keep=window,
                           **window_forward_kwargs(lm.attn_implementation, first, len(ids), device))
            row = entropy(out.logits[0, -window:]).tolist()                 # (W,)
            cache.crop(-window)
        yield row  # outside inference_mode: a suspended generator must not hold the mode


def position_entropies(lm: LoadedModel, prompt_ids: list[int], answer_ids: list[int], window: int):
    """Per answer position j: (next-token head, frontier mask at j, second mask at j+1)."""
    head = next_token_entropies(lm, prompt_ids, answer_ids)
    table = mask_table(lm, prompt_ids, answer_ids, max(window, 2))
    return [(h, row[0], row[1]) for h, row in zip(head, table)]


def frontier_pairs(lm: LoadedModel, prompt: str, config: DecodeConfig) -> tuple[list[tuple[float, float]], float]:
    """(frontier mask entropy, next-token head entropy) at every step's first open mask of a
    free streaming decode, and its tokens per forward."""
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


# -- the lens: one text, grouped by the forwards that would commit it -------------------------

@dataclass
class Grouping:
    """How a forced decode at (τ, λ) went, per forced token (text, then the stop token)."""
    threshold: float | None
    penalty: float
    fill_step: list[int]          # forward index that filled the token
    commit_step: list[int]        # forward index that committed it (one group per value)
    fill_entropy: list[float]     # the slot's entropy when it was filled
    forwards: int                 # forwards after prefill
    source: str   # "decode": a forced decode; "table": re-grouped (exact); "rerun": decode, as re-grouping was not exact

    @property
    def tokens_per_forward(self) -> float:
        return len(self.commit_step) / max(self.forwards, 1)

    def groups(self) -> list[list[int]]:
        """Token indices committed together by one forward, in order."""
        out: dict[int, list[int]] = {}
        for k, s in enumerate(self.commit_step):
            out.setdefault(s, []).append(k)
        return [out[s] for s in sorted(out)]


@dataclass
class Lens:
    prompt_ids: list[int]
    token_ids: list[int]          # the forced tokens: the text, then the stop token if `stop`
    stop: bool
    window: int
    head: list[float]             # next-token head entropy per token
    table: list[list[float]]      # mask_table: (len(token_ids), W)
    grouping: Grouping
    past_end: bool = False        # the decoder's window reaches past the last token (regroup)

    @property
    def frontier(self) -> list[float]:
        return [row[0] for row in self.table]

    @property
    def second(self) -> list[float | None]:
        return [row[1] if len(row) > 1 else None for row in self.table]

    def mean_fill_entropy(self) -> float:
        return statistics.mean(self.grouping.fill_entropy) if self.grouping.fill_entropy else 0.0

    def to_dict(self) -> dict:
        g = self.grouping
        return {"token_ids": self.token_ids, "stop": self.stop, "window": self.window,
                "threshold": g.threshold, "penalty": g.penalty, "source": g.source,
                "head_entropy": self.head, "frontier_entropy": self.frontier,
                "second_entropy": self.second, "fill_entropy": g.fill_entropy,
                "fill_step": g.fill_step, "commit_step": g.commit_step, "groups": g.groups(),
                "forwards": g.forwards, "tokens_per_forward": g.tokens_per_forward,
                "mean_fill_entropy": self.mean_fill_entropy()}


def grouping_from_decode(steps, prompt_len: int, n: int, config: DecodeConfig) -> Grouping:
    """Per forced token: the step that filled it, the step that committed it, its fill entropy."""
    fill_step, commit_step, fill_entropy = [0] * n, [0] * n, [0.0] * n
    for s in steps:
        for f in s.filled:
            k = f.pos - prompt_len
            if 0 <= k < n:
                fill_step[k], fill_entropy[k] = s.index, f.entropy
        for i in range(len(s.committed)):
            k = s.start - prompt_len + i
            if k < n:
                commit_step[k] = s.index
    return Grouping(config.threshold, config.penalty, fill_step, commit_step, fill_entropy,
                    forwards=len(steps), source="decode")


def regroup(table: list[list[float]], window: int, threshold: float | None, penalty: float,
            past_end: bool = False) -> Grouping | None:
    """The forced decode at (τ, λ) re-played from the recorded mask entropies, no model. Exact
    while each step fills a leading run of masks (see the module doc); None as soon as one does
    not (the caller re-runs the decode). Offers the decoder's masks: W slots after the frontier,
    cut at the last forced token unless the decoder's window reaches past it (`past_end`, see
    `window_reaches_past_end`)."""
    n = len(table)
    fill_step, fill_entropy = [0] * n, [0.0] * n
    j = step = 0
    while j < n:
        ent = table[j][: window if past_end else min(window, n - j)]
        _, chosen = select_slots(ent, list(range(len(ent))), threshold, penalty)
        if chosen != list(range(len(chosen))):
            return None  # a slot filled behind an open mask: later masks see untabled context
        for d in chosen:
            if j + d < n:  # slots past the end are filled but never committed
                fill_step[j + d], fill_entropy[j + d] = step, ent[d]
        j += len(chosen)
        step += 1
    # a leading run filled at step s commits at forward s + 1; the last forward only commits
    return Grouping(threshold, penalty, fill_step, [s + 1 for s in fill_step], fill_entropy,
                    forwards=step + 1, source="table")


def window_reaches_past_end(steps, prompt_len: int, n: int) -> bool:
    """Whether the decoder's window offered slots past the last of n forced tokens (a window
    kept at W slots to the end) rather than stopping at it: regroup must offer the same slots."""
    return any(s.start + len(s.window) > prompt_len + n for s in steps)


def check_text(prompt: str, text: str) -> None:
    """Bound the work before tokenizing: clear messages for empty, over-long or non-UTF-8
    input (the text passes the same validation as a prompt)."""
    validate_prompt(prompt)
    if not isinstance(text, str) or not text.strip():
        raise ValidationError("the text to look at is empty")
    for name, value in (("prompt", prompt), ("text", text)):
        if len(value) > MAX_TEXT_CHARS:
            raise ValidationError(f"the {name} is {len(value)} characters; the lens takes at most "
                                  f"{MAX_TEXT_CHARS}")
    validate_prompt(text, name="text")


def lens(lm: LoadedModel, prompt_ids: list[int], text_ids: list[int], config: DecodeConfig,
         stop: bool = True, beyond: list[int] = (), time_limit_s: float | None = None) -> Lens:
    """The whole lens of one text: mask table, next-token head, and the forced decode at the
    config's τ and λ (W from the config; greedy choice does not matter, fills are forced).
    With time_limit_s, raises OutOfTime rather than run past it (a lens is all or nothing)."""
    for result in lens_steps(lm, prompt_ids, text_ids, config, stop, beyond, time_limit_s):
        pass
    return result


def lens_steps(lm: LoadedModel, prompt_ids: list[int], text_ids: list[int], config: DecodeConfig,
               stop: bool = True, beyond: list[int] = (),
               time_limit_s: float | None = None) -> Iterator[Lens | None]:
    """lens() one forward at a time: None after every forward, then the Lens. Closing it (a
    cancel, a closed tab) stops the work at its next forward. With time_limit_s, raises
    OutOfTime rather than run past it (a lens is all or nothing)."""
    deadline = None if time_limit_s is None else time.perf_counter() + time_limit_s
    if not text_ids:
        raise ValidationError("the text to look at is empty")
    if len(text_ids) > MAX_TEXT_TOKENS:
        raise ValidationError(f"the text is {len(text_ids)} tokens; the lens takes at most "
                              f"{MAX_TEXT_TOKENS}")
    stops = [k for k, t in enumerate(text_ids) if t in lm.stop_ids]
    if stops:
        raise ValidationError(f"the text holds a stop token at token {stops[0]}: a decode would "
                              f"end there; cut the text before it")
    tokens = forced_tokens(lm, text_ids, stop)
    if len(prompt_ids) + len(tokens) + config.window > lm.max_context:
        raise ValidationError(f"prompt and text are {len(prompt_ids) + len(tokens)} tokens; with "
                              f"the window they must fit the model's context of {lm.max_context}")
    head = next_token_entropies(lm, prompt_ids, tokens)
    yield None
    table = []
    for row in mask_rows(lm, prompt_ids, tokens, config.window):
        table.append(row)
        check_time(deadline)
        yield None
    runner = forced_decoder(lm, replace(config, max_new_tokens=len(tokens)), prompt_ids,
                            tokens + list(beyond))
    steps = []
    for step in runner.steps(prompt_ids):
        steps.append(step)
        check_time(deadline)
        yield None
    grouping = grouping_from_decode(steps, len(prompt_ids), len(tokens), config)
    yield Lens(list(prompt_ids), tokens, stop, config.window, head, table, grouping,
               window_reaches_past_end(steps, len(prompt_ids), len(tokens)))


def lens_at(lm: LoadedModel | None, base: Lens, threshold: float | None, penalty: float,
            time_limit_s: float | None = None) -> Lens:
    """The same text at another τ and λ: re-grouped from the table when that is exact, else
    (needs `lm`) by a new forced decode. The entropies do not depend on τ or λ and are kept."""
    grouping = regroup(base.table, base.window, threshold, penalty, base.past_end)
    if grouping is None:
        if lm is None:
            raise ValidationError("re-grouping from the recorded entropies is not exact here; "
                                  "the model must re-run the decode")
        config = DecodeConfig(window=base.window, threshold=threshold, penalty=penalty)
        text = base.token_ids[:-1] if base.stop else base.token_ids
        deadline = None if time_limit_s is None else time.perf_counter() + time_limit_s
        steps, _ = forced_decode(lm, base.prompt_ids, text, config, base.stop, deadline=deadline)
        grouping = replace(grouping_from_decode(steps, len(base.prompt_ids), len(base.token_ids), config),
                           source="rerun")
    return replace(base, grouping=grouping)
