"""Plain sentences that tell what one recorded step did: what was fed, what committed and why,
which masks were filled and which stayed open. A pure function of the trace (no model), so the
Decode tab, the tour and tests share it. Returns plain text: the caller escapes it."""
from __future__ import annotations

from wedlm import Trace
from wedlm.decoders.records import MaskSlot, StepRecord

from .. import i18n

MAX_LISTED = 6  # tokens named in one sentence before "…"


def token_text(trace: Trace, token: int | None) -> str:
    """A token as a reader sees it in a sentence: quoted, whitespace made visible."""
    if token is None:
        return "[M]"
    if token in trace.stop_ids:
        return "<EOS>"
    text = trace.tokens.get(token, f"#{token}")
    return "'" + text.replace("\n", "↵").replace("\t", "→") + "'"


def positions_text(positions: list[int], lang: str = i18n.DEFAULT) -> str:
    """[56, 57, 58, 59, 62] -> '56–59, 62'."""
    runs: list[list[int]] = []
    for p in sorted(positions):
        if runs and p == runs[-1][1] + 1:
            runs[-1][1] = p
        else:
            runs.append([p, p])
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in runs)


def _tokens(trace: Trace, tokens: list[int]) -> str:
    shown = ", ".join(token_text(trace, t) for t in tokens[:MAX_LISTED])
    return shown + (", …" if len(tokens) > MAX_LISTED else "")


def _span(values: list[float]) -> str:
    lo, hi = min(values), max(values)
    return f"{lo:.2f}" if abs(hi - lo) < 0.005 else f"{lo:.2f}–{hi:.2f}"


def _score(m: MaskSlot) -> str:
    return f"entropy {m.entropy:.2f} + λ·d {m.score - m.entropy:.2f} = {m.score:.2f}"


def _plural(n: int, one: str, many: str) -> str:
    return one if n == 1 else many


def narrate(trace: Trace, index: int, lang: str = i18n.DEFAULT) -> list[str]:
    """Two to four sentences about step `index` of `trace`."""
    s = trace.steps[index]
    if trace.decoder == "ar":
        return _narrate_ar(trace, s)
    if s.verify is not None:
        return _narrate_verified(trace, s)
    return [_fed(s), *_commit(trace, s), *_fills(trace, s), *_end(trace, s)]


def _fed(s: StepRecord) -> str:
    masks = sum(t is None for t in s.window)
    filled = len(s.window) - masks
    return (f"Forward {s.index + 1} reads the window at positions {s.start}–{s.start + len(s.window) - 1}: "
            f"{filled} filled {_plural(filled, 'slot', 'slots')} moved in front of {masks} "
            f"{_plural(masks, 'mask', 'masks')} ({s.rows} {_plural(s.rows, 'row', 'rows')}).")


def _commit(trace: Trace, s: StepRecord) -> list[str]:
    n = len(s.committed)
    if n:
        stop_at = next((k for k, t in enumerate(s.committed) if t in trace.stop_ids), None)
        out = [f"The leading filled run {positions_text(list(range(s.start, s.start + n)))} "
               f"({_tokens(trace, s.committed)}) commits: its KV stays in the cache "
               f"({s.cache_before} → {s.cache_after} tokens)."]
        if stop_at is not None:
            dropped = [i for i in range(stop_at + 1, len(s.window)) if s.window[i] is not None]
            out.append(f"The stop token at position {s.start + stop_at} commits, so the decode ends"
                       + (f"; the {len(dropped)} filled {_plural(len(dropped), 'slot', 'slots')} after it "
                          f"{_plural(len(dropped), 'is', 'are')} dropped." if dropped else "."))
        return out
    filled = [i for i, t in enumerate(s.window) if t is not None]
    first_mask = next((i for i, t in enumerate(s.window) if t is None), None)
    if trace.decoder == "block" and first_mask is not None:
        return [f"Nothing commits: block decoding waits until every slot of its block is filled "
                f"({len(filled)} of {len(s.window)} are), so the cache stays at {s.cache_before} tokens."]
    if first_mask is None:
        return [f"Nothing commits; the cache stays at {s.cache_before} tokens."]
    wait = (f", and the {len(filled)} filled {_plural(len(filled), 'slot', 'slots')} behind it "
            f"{_plural(len(filled), 'waits', 'wait')} (recomputed next forward)") if filled else ""
    return [f"Nothing commits: position {s.start + first_mask} is still a mask, so the KV cache "
            f"stays at {s.cache_before} tokens{wait}."]


def _fills(trace: Trace, s: StepRecord) -> list[str]:
    if s.finished:
        return []
    if not s.masks:
        return ["No mask is left open after the commit."]
    tau = s.threshold
    chosen = [m for m in s.masks if m.selected]
    open_ = [m for m in s.masks if not m.selected]
    filled = {f.pos: f.token for f in s.filled}
    out = []
    if tau is None:
        m = chosen[0]
        out.append(f"τ = none, so only the lowest-scoring mask is filled: position {m.pos} with "
                   f"{token_text(trace, filled.get(m.pos))} ({_score(m)}).")
    elif all(m.score >= tau for m in chosen):
        m = chosen[0]
        out.append(f"No mask scored under τ {tau:g}, so only the lowest was filled (the fallback): "
                   f"position {m.pos} with {token_text(trace, filled.get(m.pos))} ({_score(m)}).")
    elif len(chosen) == 1:
        m = chosen[0]
        out.append(f"The mask at {m.pos} was filled with {token_text(trace, filled.get(m.pos))} "
                   f"({_score(m)} < τ {tau:g}).")
    else:
        out.append(f"The masks at {positions_text([m.pos for m in chosen])} were filled with "
                   f"{_tokens(trace, [filled[m.pos] for m in chosen if m.pos in filled])} "
                   f"(scores {_span([m.score for m in chosen])} < τ {tau:g}).")
    if open_:
        rule = "τ = none fills one slot per step" if tau is None else f"score ≥ τ {tau:g}"
        out.append(f"{_plural(len(open_), 'The mask', 'Masks')} at {positions_text([m.pos for m in open_])} "
                   f"{_plural(len(open_), 'stayed', 'stayed')} open (entropy {_span([m.entropy for m in open_])}, "
                   f"{rule}).")
    return out


def _end(trace: Trace, s: StepRecord) -> list[str]:
    if not s.finished or s.stop_reason == "stop_token":
        return []  # the stop token is told where it commits
    if s.stop_reason == "max_new_tokens":
        budget = trace.config.get("max_new_tokens")
        return [f"The budget of {budget} new tokens is reached: the decode ends here."]
    return ["The decode was stopped here (by the user or the time limit)."]


def _narrate_ar(trace: Trace, s: StepRecord) -> list[str]:
    fed = s.committed[0] if s.committed else None
    out = [f"The AR forward reads one row, the token {token_text(trace, fed)} at position {s.start}: "
           f"its KV joins the cache ({s.cache_before} → {s.cache_after} tokens)."]
    if s.filled:
        f = s.filled[0]
        out.append(f"The next-token head predicts {token_text(trace, f.token)} for position {f.pos} "
                   f"(entropy {f.entropy:.2f} nats); it is fed to the next forward. One token per forward, "
                   f"however sure the model is.")
    if s.finished:
        out.append("That is the stop token: the decode ends." if s.stop_reason == "stop_token"
                   else f"The budget of {trace.config.get('max_new_tokens')} new tokens is reached: "
                        f"the decode ends." if s.stop_reason == "max_new_tokens" else "The decode was stopped here.")
    return out


def _narrate_verified(trace: Trace, s: StepRecord) -> list[str]:
    """A `verified` step (BEYOND THE PAPER, wedlm/decoders/verified.py): what its drafts were
    checked against, which agreed, what the AR token did, and why the text is AR's."""
    v = s.verify
    n = len(v.checked)
    first = s.start + 1
    source = "prefill" if s.index == 0 else "the previous forward"
    out = [_fed(s) + f" Its first slot, position {s.start}, holds {token_text(trace, s.window[0])}: the AR "
           f"token {source} found, so it is exact."]
    if n == 0:
        out.append("There were no drafts after it to check.")
    else:
        out.append(f"The same forward also gives the model's own next-token (AR) prediction at every row; "
                   f"the {n} {_plural(n, 'draft', 'drafts')} at {positions_text(list(range(first, first + n)))} "
                   f"{_plural(n, 'was', 'were')} checked against it, left to right: "
                   f"{'none' if not v.accepted else v.accepted} agreed (✓)"
                   + (f": {_tokens(trace, v.checked[:v.accepted])} at "
                      f"{positions_text(list(range(first, first + v.accepted)))}." if v.accepted else "."))
        if v.replaced:
            draft = v.checked[v.rejected_pos - first]
            dropped = (f"; the {len(v.dropped)} {_plural(len(v.dropped), 'draft', 'drafts')} after it "
                       f"({positions_text(v.dropped)}) {_plural(len(v.dropped), 'is', 'are')} dropped unchecked, "
                       f"since {_plural(len(v.dropped), 'it was', 'they were')} drafted after a wrong token"
                       if v.dropped else "")
            out.append(f"The draft {token_text(trace, draft)} at position {v.rejected_pos} was rejected (✗): "
                       f"the model's AR prediction there is {token_text(trace, v.ar_token)}, which replaces "
                       f"it{dropped}.")
        else:
            out.append(f"All agreed, so the AR token {token_text(trace, v.ar_token)} after them, at position "
                       f"{v.ar_pos}, comes for free.")
    kept = len(s.committed)
    stop_at = next((k for k, t in enumerate(s.committed) if t in trace.stop_ids), None)
    out.append(f"{_plural(kept, 'Position', 'Positions')} {positions_text(list(range(s.start, s.start + kept)))} "
               f"{_plural(kept, 'commits', 'commit')} ({s.cache_before} → {s.cache_after} tokens in the KV cache)"
               + (f"; the stop token at position {s.start + stop_at} commits, so the decode ends"
                  + (" (what the check found after it is not output)." if n > stop_at else ".")
                  if stop_at is not None else
                  f"; the AR token at {v.ar_pos} becomes the first slot of the next forward."))
    greedy = not trace.config.get("temperature")
    out.append("Every token that commits is the one the model's own next-token prediction chose, so the "
               + ("text is exactly greedy AR decoding of this model (lossless: beyond the paper)."
                  if greedy else "text is distributed exactly as AR sampling from this model (lossless: "
                                 "beyond the paper)."))
    drafts = [f for f in s.filled if f.pos != v.ar_pos]
    if drafts and not s.finished:
        out.append(f"{v.masks} {_plural(v.masks, 'mask', 'masks')} rode along; {len(drafts)} "
                   f"{_plural(len(drafts), 'was', 'were')} filled as {_plural(len(drafts), 'a draft', 'drafts')} "
                   f"for the next forward to check ({positions_text([f.pos for f in drafts])}).")
    elif not s.finished:
        out.append("No masks rode along this forward, so it drafted nothing for the next one."
                   if v.masks == 0 else "No mask was filled as a draft for the next forward.")
    if s.finished and s.stop_reason != "stop_token":
        out.extend(_end(trace, s))
    return out
