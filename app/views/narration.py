"""Plain sentences that tell what one recorded step did: what was fed, what committed and why,
which masks were filled and which stayed open. A pure function of the trace (no model), so the
Decode tab, the tour and tests share it. Returns plain text: the caller escapes it.
Every sentence is a template of app/i18n/views.py (views.narr.*) filled with the step's numbers."""
from __future__ import annotations

from dataclasses import dataclass

from wedlm import Trace
from wedlm.decoders.records import MaskSlot, StepRecord, position_runs
from wedlm.reorder import leading_filled

from .. import i18n
from . import glyphs

MAX_LISTED = 6  # tokens named in one sentence before "…"
QUOTES = {"en": ("'", "'"), "zh": ("“", "”")}  # around a token in a sentence
SENTENCE_GAP = {"en": " ", "zh": ""}          # between sentences of a paragraph


def token_text(trace: Trace, token: int | None, lang: str = i18n.DEFAULT) -> str:
    """A token as a reader sees it in a sentence: quoted, whitespace made visible."""
    if token is None:
        return "[M]"
    if token in trace.stop_ids:
        return "<EOS>"
    text = trace.tokens.get(token, f"#{token}")
    left, right = QUOTES.get(lang, QUOTES[i18n.DEFAULT])
    # the same marks as the token views (render.token_label) and their legend's key
    return left + glyphs.visible(text) + right


def positions_text(positions: list[int], lang: str = i18n.DEFAULT) -> str:
    """[56, 57, 58, 59, 62] -> '56–59, 62' (Chinese: '56–59、62')."""
    return i18n.text(lang, "views.list_sep").join(str(a) if a == b else f"{a}–{b}"
                                                  for a, b in position_runs(positions))


def joined(sentences: list[str], lang: str = i18n.DEFAULT) -> str:
    """Sentences as one paragraph: a space between them in English, none in Chinese."""
    return SENTENCE_GAP.get(lang, " ").join(sentences)


def _count(lang: str, key: str, n: int, **values) -> str:
    """Message `key`.one or `key`.many by n (English agrees in number; Chinese has one form)."""
    return i18n.text(lang, f"{key}.{'one' if n == 1 else 'many'}", n=n, **values)


def _tokens(trace: Trace, tokens: list[int], lang: str = i18n.DEFAULT) -> str:
    shown = i18n.text(lang, "views.list_sep").join(token_text(trace, t, lang) for t in tokens[:MAX_LISTED])
    return shown + (i18n.text(lang, "views.list_more") if len(tokens) > MAX_LISTED else "")


def _span(values: list[float]) -> str:
    lo, hi = min(values), max(values)
    return f"{lo:.2f}" if abs(hi - lo) < 0.005 else f"{lo:.2f}–{hi:.2f}"


def score_parts(m: MaskSlot, tau: float | None = None) -> dict[str, str]:
    """A mask's entropy, λ·d and score as the words print them: 2 decimals, a digit more (up to 4)
    while the score would print as τ (walk 30 read "= 0.40" against τ = 0.4 as under it)."""
    digits = 2
    while tau is not None and digits < 4 and f"{m.score:.{digits}f}" == f"{tau:.{digits}f}":
        digits += 1
    return {"h": f"{m.entropy:.{digits}f}", "d": f"{m.score - m.entropy:.{digits}f}", "score": f"{m.score:.{digits}f}"}


def _score(m: MaskSlot, lang: str = i18n.DEFAULT, tau: float | None = None) -> str:
    return i18n.text(lang, "views.narr.score", **score_parts(m, tau))


@dataclass(frozen=True)
class RunAccount:
    """What became of a step's leading filled run (the filled slots before the first mask): the
    narration and the order view's caption both tell it from here, so they cannot disagree."""
    start: int           # position of the run's first slot (= the step's window start)
    run: int             # slots in the run
    committed: int       # of them, committed (the StepRecord's `committed`)
    behind: list[int]    # positions of filled slots past the first mask (they wait, or end unused)

    @property
    def dropped(self) -> int:
        """Run slots the decode's end cut off (after its stop token or past the budget)."""
        return self.run - self.committed

    @property
    def run_positions(self) -> list[int]:
        return list(range(self.start, self.start + self.run))

    @property
    def committed_positions(self) -> list[int]:
        return list(range(self.start, self.start + self.committed))

    @property
    def dropped_positions(self) -> list[int]:
        return list(range(self.start + self.committed, self.start + self.run))


def run_account(s: StepRecord) -> RunAccount:
    """A step's run account: committed is a prefix of the leading filled run (core.py commits the
    run, cut only by a stop token or the max_new_tokens budget at the decode's last step)."""
    run = max(leading_filled(s.window), len(s.committed))
    return RunAccount(start=s.start, run=run, committed=len(s.committed), behind=s.filled_behind_mask)


@dataclass(frozen=True)
class MaskAccount:
    """What became of the masks a step's forward read: read = filled + taken + left, so the step
    line's numbers add up on the line itself. taken: 1 where the verified decoder's AR token took a
    mask's slot (the first mask after the agreeing drafts), else 0 (it replaced a draft, or came
    after the window). beyond: the tokens the forward wrote at no mask it read: the AR decoder's one
    next token (its input holds no mask) and the verified AR token that replaced a draft or came after
    the window; written = filled + taken + beyond is every token the forward wrote."""
    read: int     # masks in the forward's input
    filled: int   # of them, filled by the fill rule (drafts, for verified decoding)
    taken: int    # of them, taken by the AR token (verified decoding only)
    left: int     # of them, still masks after the step (what the views draw as [M])
    beyond: int = 0   # tokens written at no mask read (AR's next token; a verified AR token outside the masks)

    @property
    def written(self) -> int:
        """Every token the forward wrote (AR: its one prediction)."""
        return self.filled + self.taken + self.beyond


def mask_account(s: StepRecord) -> MaskAccount:
    """A step's mask account (see MaskAccount): the step line and its tests read it from here."""
    masks = {s.start + i for i, t in enumerate(s.window) if t is None}
    ar_pos = s.verify.ar_pos if s.verify is not None else None
    taken = int(ar_pos in masks)
    filled = sum(1 for f in s.filled if f.pos in masks and f.pos != ar_pos)
    beyond = sum(1 for f in s.filled if f.pos not in masks)
    return MaskAccount(read=len(masks), filled=filled, taken=taken, left=masks_left(s), beyond=beyond)


@dataclass(frozen=True)
class VerifiedRows:
    """The rows of a verified step's input (BEYOND THE PAPER, wedlm/decoders/verified.py): slot 0
    (the model's next token), the drafts checked against it, the masks (the window policy's m,
    at most W: verified decoding counts W in masks, not rows) and the drafts kept among or
    between those masks (shape_window keeps the slots up to the m-th mask). rows = 1 + drafts +
    masks + among."""
    drafts: int   # the drafts after slot 0 in the leading filled run: checked this forward
    masks: int    # mask slots in the input
    among: int    # filled slots after the first mask (drafts the next forwards check)

    @property
    def rows(self) -> int:
        return 1 + self.drafts + self.masks + self.among


def verified_rows(s: StepRecord) -> VerifiedRows:
    """A verified step's rows, counted from its input (`VerifiedRows`)."""
    lead = leading_filled(s.window)
    masks = sum(t is None for t in s.window)
    return VerifiedRows(drafts=lead - 1, masks=masks, among=len(s.window) - lead - masks)  # slot 0 is filled: lead >= 1


def verified_rows_text(s: StepRecord, window: int | None, lang: str = i18n.DEFAULT) -> str:
    """The sum a verified step's rows make, worded (the order view's caption, chapter 10): every
    number is the step's own, so the rows and masks it says are the picture's."""
    cap = i18n.text(lang, "views.verified.rows_cap", w=window) if window else ""
    return i18n.text(lang, "views.verified.rows", n=len(s.window), parts=verified_rows_parts(s, lang), cap=cap)


def verified_rows_parts(s: StepRecord, lang: str = i18n.DEFAULT) -> str:
    """'1 (the model's next token) + 5 drafts to check + 6 masks + ...': a verified step's rows as
    a sum (`VerifiedRows`; a part that is 0 is left out, save the masks)."""
    r = verified_rows(s)
    parts = [i18n.text(lang, "views.verified.rows_next")]
    if r.drafts:
        parts.append(_count(lang, "views.verified.rows_drafts", r.drafts))
    parts.append(_count(lang, "views.verified.rows_masks", r.masks))
    if r.among:
        parts.append(_count(lang, "views.verified.rows_among", r.among))
    return " + ".join(parts)


def masks_left(s: StepRecord) -> int:
    """The masks a step's forward read and did not fill: what the views still draw as [M] after it.
    A mask this forward filled is not left (verified: the AR token's slot, which at the last step
    holds the stop token; streaming: the fills), so a last step's "N masks unscored" counts the [M]."""
    filled = {f.pos for f in s.filled}
    return sum(t is None and s.start + i not in filled for i, t in enumerate(s.window))


def narrate(trace: Trace, index: int, lang: str = i18n.DEFAULT) -> list[str]:
    """Two to four sentences about step `index` of `trace`."""
    s = trace.steps[index]
    if trace.decoder == "ar":
        return _narrate_ar(trace, s, lang)
    if s.verify is not None:
        return _narrate_verified(trace, s, lang)
    return [_fed(s, lang), *_commit(trace, s, lang), *_fills(trace, s, lang), *_end(trace, s, lang)]


def _fed(s: StepRecord, lang: str = i18n.DEFAULT) -> str:
    """What the forward reads: the filled slots of its input (written by earlier forwards) and its
    masks; "moved" only when a filled slot sits behind a mask (else the order is unchanged)."""
    masks = sum(t is None for t in s.window)
    filled = len(s.window) - masks
    behind = s.filled_behind_mask
    return i18n.text(lang, "views.narr.fed_moved" if behind else "views.narr.fed", forward=s.index + 1,
                     first=s.start, last=s.start + len(s.window) - 1,
                     filled=_count(lang, "views.narr.n_filled_slots", filled),
                     masks=_count(lang, "views.narr.n_masks", masks), rows=_count(lang, "views.narr.n_rows", s.rows),
                     moved=len(behind))


def _commit(trace: Trace, s: StepRecord, lang: str = i18n.DEFAULT) -> list[str]:
    tr = i18n.Texts(lang)
    n = len(s.committed)
    if n:
        acc = run_account(s)
        out = [tr("views.narr.run_commits", positions=positions_text(acc.committed_positions, lang),
                  tokens=_tokens(trace, s.committed, lang), before=s.cache_before, after=s.cache_after)]
        if acc.dropped:  # the decode ended inside the run: name the whole run and what it lost
            out[0] = tr("views.narr.run_cut", run=positions_text(acc.run_positions, lang), n=acc.run,
                        kept=acc.committed, positions=positions_text(acc.committed_positions, lang),
                        tokens=_tokens(trace, s.committed, lang), before=s.cache_before, after=s.cache_after)
        stop_at = next((k for k, t in enumerate(s.committed) if t in trace.stop_ids), None)
        if stop_at is not None:
            end = (_count(lang, "views.narr.dropped_after", acc.dropped, positions=positions_text(acc.dropped_positions, lang))
                   if acc.dropped else tr("views.period"))
            out.append(tr("views.narr.stop_commits", pos=s.start + stop_at, dropped=end))
        elif s.finished and acc.dropped:
            out.append(_count(lang, "views.narr.budget_cut", acc.dropped, positions=positions_text(acc.dropped_positions, lang)))
        if s.finished and acc.behind:
            out.append(_count(lang, "views.narr.behind_unused", len(acc.behind), positions=positions_text(acc.behind, lang)))
        return out
    filled = [i for i, t in enumerate(s.window) if t is not None]
    first_mask = s.first_mask_pos
    if trace.decoder == "block" and first_mask is not None:
        return [tr("views.narr.block_waits", filled=len(filled), window=len(s.window), before=s.cache_before)]
    if first_mask is None:
        return [tr("views.narr.nothing_commits", before=s.cache_before)]
    wait = _count(lang, "views.narr.behind_waits", len(filled)) if filled else ""
    return [tr("views.narr.stall", pos=first_mask, before=s.cache_before, wait=wait)]


def _fills(trace: Trace, s: StepRecord, lang: str = i18n.DEFAULT) -> list[str]:
    tr = i18n.Texts(lang)
    if s.finished:
        return []
    if not s.masks:
        return [tr("views.narr.none_open")]
    tau = s.threshold
    chosen = [m for m in s.masks if m.selected]
    open_ = [m for m in s.masks if not m.selected]
    filled = {f.pos: f.token for f in s.filled}
    out = []
    if tau is None:
        m = chosen[0]
        out.append(tr("views.narr.tau_none", pos=m.pos, token=token_text(trace, filled.get(m.pos), lang),
                      score=_score(m, lang)))
    elif all(m.score >= tau for m in chosen):
        m = chosen[0]
        out.append(tr("views.narr.fallback", tau=f"{tau:g}", pos=m.pos,
                      token=token_text(trace, filled.get(m.pos), lang), score=_score(m, lang, tau)))
    elif len(chosen) == 1:
        m = chosen[0]
        out.append(tr("views.narr.filled_one", pos=m.pos, token=token_text(trace, filled.get(m.pos), lang),
                      score=_score(m, lang, tau), tau=f"{tau:g}"))
    else:
        out.append(tr("views.narr.filled_many", positions=positions_text([m.pos for m in chosen], lang),
                      tokens=_tokens(trace, [filled[m.pos] for m in chosen if m.pos in filled], lang),
                      span=_span([m.score for m in chosen]), tau=f"{tau:g}"))
    if open_:
        rule = tr("views.narr.rule_none") if tau is None else tr("views.narr.rule_tau", tau=f"{tau:g}")
        out.append(_count(lang, "views.narr.stayed_open", len(open_),
                          positions=positions_text([m.pos for m in open_], lang),
                          span=_span([m.entropy for m in open_]), rule=rule))
    return out


def _end(trace: Trace, s: StepRecord, lang: str = i18n.DEFAULT) -> list[str]:
    if not s.finished or s.stop_reason == "stop_token":
        return []  # the stop token is told where it commits
    if s.stop_reason == "max_new_tokens":
        return [i18n.text(lang, "views.narr.budget_here", budget=trace.config.get("max_new_tokens"))]
    return [i18n.text(lang, "views.narr.stopped_why")]


def _narrate_ar(trace: Trace, s: StepRecord, lang: str = i18n.DEFAULT) -> list[str]:
    tr = i18n.Texts(lang)
    fed = s.committed[0] if s.committed else None
    out = [tr("views.narr.ar_reads", token=token_text(trace, fed, lang), pos=s.start,
              before=s.cache_before, after=s.cache_after)]
    if s.filled:
        f = s.filled[0]
        out.append(tr("views.narr.ar_predicts", token=token_text(trace, f.token, lang), pos=f.pos,
                      h=f"{f.entropy:.2f}"))
    if s.finished:
        out.append(tr("views.narr.ar_stop") if s.stop_reason == "stop_token"
                   else tr("views.narr.budget", budget=trace.config.get("max_new_tokens"))
                   if s.stop_reason == "max_new_tokens" else tr("views.narr.stopped"))
    return out


def _narrate_verified(trace: Trace, s: StepRecord, lang: str = i18n.DEFAULT) -> list[str]:
    """A `verified` step (BEYOND THE PAPER, wedlm/decoders/verified.py): what its drafts were
    checked against, which agreed, what the AR token did, and why the text is AR's."""
    tr = i18n.Texts(lang)
    v = s.verify
    n = len(v.checked)
    first = s.start + 1
    source = tr("views.narr.source_prefill") if s.index == 0 else tr("views.narr.source_previous")
    out = [_fed(s, lang) + tr("views.narr.first_slot", pos=s.start, token=token_text(trace, s.window[0], lang),
                              source=source)]
    if n == 0:
        out.append(tr("views.narr.no_drafts"))
    else:
        checked = positions_text(list(range(first, first + n)), lang)
        if v.accepted:
            out.append(_count(lang, "views.narr.checked_some", n, positions=checked, accepted=v.accepted,
                              tokens=_tokens(trace, v.checked[:v.accepted], lang),
                              agreed_at=positions_text(list(range(first, first + v.accepted)), lang)))
        else:
            out.append(_count(lang, "views.narr.checked_none", n, positions=checked))
        if v.replaced:
            draft = v.checked[v.rejected_pos - first]
            dropped = (_count(lang, "views.narr.dropped_unchecked", len(v.dropped),
                              positions=positions_text(v.dropped, lang)) if v.dropped else "")
            out.append(tr("views.narr.rejected", draft=token_text(trace, draft, lang), pos=v.rejected_pos,
                          ar=token_text(trace, v.ar_token, lang), dropped=dropped))
        else:
            out.append(tr("views.narr.all_agreed", ar=token_text(trace, v.ar_token, lang), pos=v.ar_pos))
    kept = len(s.committed)
    stop_at = next((k for k, t in enumerate(s.committed) if t in trace.stop_ids), None)
    if stop_at is not None:
        tail = tr("views.narr.kept_stop", pos=s.start + stop_at,
                  end=tr("views.narr.check_not_output") if n > stop_at else tr("views.period"))
    elif s.finished and v.ar_token in trace.stop_ids:  # no next forward: it said "becomes the first slot of the next"
        tail = tr("views.narr.verified_stop", pos=v.ar_pos)
    else:
        tail = tr("views.narr.kept_next", pos=v.ar_pos)
    out.append(_count(lang, "views.narr.kept", kept, positions=positions_text(list(range(s.start, s.start + kept)), lang),
                      before=s.cache_before, after=s.cache_after, tail=tail))
    greedy = not trace.config.get("temperature")
    out.append(tr("views.narr.lossless_greedy") if greedy else tr("views.narr.lossless_sampling"))
    drafts = [f for f in s.filled if f.pos != v.ar_pos]
    if drafts and not s.finished:
        out.append(_count(lang, "views.narr.rode_along", len(drafts), masks=_count(lang, "views.narr.n_masks", v.masks),
                          positions=positions_text([f.pos for f in drafts], lang)))
    elif not s.finished:
        out.append(tr("views.narr.no_masks_rode") if v.masks == 0 else tr("views.narr.no_draft_filled"))
    lost = _shrunk_away(trace, s)
    if lost:
        nxt = trace.steps[s.index + 1]
        out.append(_count(lang, "views.narr.shrunk_dropped", len(lost), positions=positions_text(lost, lang),
                          first=nxt.start, last=nxt.start + len(nxt.window) - 1))
    if s.finished and s.stop_reason != "stop_token":
        out.extend(_end(trace, s, lang))
    return out


def _shrunk_away(trace: Trace, s: StepRecord) -> list[int]:
    """Positions of this verified step's drafts that the next forward's window no longer holds
    (the window policy shrank it: drafts are not final, so they were dropped unchecked)."""
    if s.finished or s.index + 1 >= len(trace.steps):
        return []
    nxt = trace.steps[s.index + 1]
    held = {nxt.start + i for i, t in enumerate(nxt.window) if t is not None}
    return sorted(f.pos for f in s.filled if f.pos != s.verify.ar_pos and f.pos not in held)
