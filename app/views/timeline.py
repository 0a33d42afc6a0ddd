"""What every output position looked like at every step of a trace: the views' shared index."""
from __future__ import annotations

from dataclasses import dataclass, field

from wedlm import Trace


@dataclass
class Position:
    pos: int
    token: int | None = None
    fill_step: int | None = None     # step whose forward filled it (-1: AR prefill)
    commit_step: int | None = None   # step whose forward committed it (KV kept)
    entropy: float | None = None     # at the step it was filled
    candidates: list = field(default_factory=list)
    # fills the decode later took back (verified decoding: a draft rejected and replaced by the AR
    # token, or dropped unchecked as its window shrank): {token, fill_step, entropy, candidates, until},
    # each shown from its fill_step up to (not including) `until`
    earlier: list = field(default_factory=list)


class Timeline:
    """Built once per trace; every view at step k reads from it."""

    # a live run (a chapter's "try it", app/tabs/tour/frame.live_decode), not a recording: words
    # that point at the recording's own steps ("This chapter's moment is step k") say the run's own fact
    live = False

    def __init__(self, trace: Trace):
        self.trace = trace
        # values a view computes once per trace and reads at every step (charts.bars_top: the bars'
        # one y range, a scan of every mask of every step); the trace is not changed after this
        self.memo: dict = {}
        self.prompt_len = len(trace.prompt_ids)
        self.positions: dict[int, Position] = {}
        if trace.result:
            for f in trace.result.prefill_filled:
                self._at(f.pos).__dict__.update(token=f.token, fill_step=-1, entropy=f.entropy,
                                                candidates=f.candidates)
        committed_total = 0
        self.stop_pos: int | None = None   # where a stop token committed (the decode's end)
        self.stop_step: int | None = None
        self.committed_after: list[int] = []  # committed output tokens after each step
        for s in trace.steps:
            for k, tok in enumerate(s.committed):
                self._at(s.start + k).commit_step = s.index
                if tok in trace.stop_ids and self.stop_pos is None:
                    self.stop_pos, self.stop_step = s.start + k, s.index
            committed_total += len(s.committed)
            self.committed_after.append(committed_total)
            for f in s.filled:
                p = self._at(f.pos)
                if p.token is not None and p.fill_step is not None and p.fill_step >= 0:   # filled again
                    p.earlier.append({"token": p.token, "fill_step": p.fill_step, "entropy": p.entropy,
                                      "candidates": p.candidates, "until": s.index})
                p.token, p.fill_step, p.entropy, p.candidates = f.token, s.index, f.entropy, f.candidates
        # verified decoding takes drafts back: a draft the next window no longer holds (its window
        # shrank) is dropped unchecked, and its own step's output already shows a mask there (the
        # narration says so at that step); the drafts after a rejected one are dropped at the step
        # that rejects it. Either way the fill is kept in Position.earlier, shown until it is taken back.
        for s, nxt in zip(trace.steps, trace.steps[1:]):
            held = {nxt.start + i for i, t in enumerate(nxt.window) if t is not None}
            for f in s.filled:
                if f.pos >= nxt.start and f.pos not in held:
                    self._take_back(f.pos, s.index, s.index)
        for s in trace.steps:
            for pos in (s.verify.dropped if s.verify is not None else ()):
                self._take_back(pos, None, s.index)

    def _take_back(self, pos: int, filled_at: int | None, until: int) -> None:
        """The fill of `pos` made at step `filled_at` (None: any before `until`) is shown only before
        step `until`; the slot's last fill taken back leaves it a mask."""
        p = self.positions[pos]
        if p.fill_step is not None and p.fill_step >= 0 and (
                p.fill_step == filled_at if filled_at is not None else p.fill_step < until):
            p.earlier.append({"token": p.token, "fill_step": p.fill_step, "entropy": p.entropy,
                              "candidates": p.candidates, "until": until})
            p.token, p.fill_step, p.entropy, p.candidates = None, None, None, []
        for e in p.earlier:
            if (e["fill_step"] == filled_at if filled_at is not None else e["fill_step"] < until):
                e["until"] = min(e["until"], until)

    def _at(self, pos: int) -> Position:
        if pos not in self.positions:
            self.positions[pos] = Position(pos)
        return self.positions[pos]

    @property
    def num_steps(self) -> int:
        return len(self.trace.steps)

    def fill_at(self, pos: int, step: int) -> dict | None:
        """The fill a slot holds at the end of `step`: {token, fill_step, entropy, candidates}, or None
        (a mask). A fill the decode later took back (Position.earlier) holds only until then: walk 24
        saw chapter 10's step 19 fill '90' at 89 and its output show a mask there, the slot's last
        fill (step 20's AR token) being the only one the timeline kept."""
        p = self.positions.get(pos)
        if p is None:
            return None
        if p.fill_step is not None and p.fill_step <= step:
            return {"token": p.token, "fill_step": p.fill_step, "entropy": p.entropy, "candidates": p.candidates}
        return next((e for e in p.earlier if e["fill_step"] <= step < e["until"]), None)

    def state_at(self, pos: int, step: int) -> str:
        """mask | filled | new | committed | dropped at the end of `step` (after its fill).
        dropped: filled after the stop token, which ended the decode: never output."""
        fill = self.fill_at(pos, step)
        if fill is None:
            return "mask"
        if self.stop_pos is not None and pos > self.stop_pos and step >= self.stop_step:
            return "dropped"
        p = self.positions[pos]
        if p.commit_step is not None and p.commit_step <= step:
            return "committed"
        return "new" if fill["fill_step"] == step else "filled"

    def visible_positions(self, step: int) -> list[int]:
        """Output positions that exist at `step`: committed ones and the window after it."""
        s = self.trace.steps[step]
        end = max([s.start + len(s.window)] + [f.pos + 1 for f in s.filled])
        return list(range(self.prompt_len, end))
