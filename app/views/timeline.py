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
                p.token, p.fill_step, p.entropy, p.candidates = f.token, s.index, f.entropy, f.candidates
        # a draft the next window no longer holds (the verified decoder's window shrank) was
        # dropped unchecked: it is a mask again, as the next forward reads it (never refilled: a mask)
        for s, nxt in zip(trace.steps, trace.steps[1:]):
            held = {nxt.start + i for i, t in enumerate(nxt.window) if t is not None}
            for f in s.filled:
                p = self.positions[f.pos]
                if p.fill_step == s.index and f.pos >= nxt.start and f.pos not in held:
                    p.token, p.fill_step, p.entropy, p.candidates = None, None, None, []

    def _at(self, pos: int) -> Position:
        if pos not in self.positions:
            self.positions[pos] = Position(pos)
        return self.positions[pos]

    @property
    def num_steps(self) -> int:
        return len(self.trace.steps)

    def state_at(self, pos: int, step: int) -> str:
        """mask | filled | new | committed | dropped at the end of `step` (after its fill).
        dropped: filled after the stop token, which ended the decode: never output."""
        p = self.positions.get(pos)
        if p is None or p.fill_step is None or p.fill_step > step:
            return "mask"
        if self.stop_pos is not None and pos > self.stop_pos and step >= self.stop_step:
            return "dropped"
        if p.commit_step is not None and p.commit_step <= step:
            return "committed"
        return "new" if p.fill_step == step else "filled"

    def visible_positions(self, step: int) -> list[int]:
        """Output positions that exist at `step`: committed ones and the window after it."""
        s = self.trace.steps[step]
        end = max([s.start + len(s.window)] + [f.pos + 1 for f in s.filled])
        return list(range(self.prompt_len, end))
