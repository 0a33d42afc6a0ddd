"""What every decoder reports: one StepRecord per forward after prefill, and a DecodeResult."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field


def position_runs(positions: list[int]) -> list[tuple[int, int]]:
    """[5, 6, 7, 9] -> [(5, 7), (9, 9)]: the runs every view writes positions in."""
    runs: list[list[int]] = []
    for p in sorted(positions):
        if runs and p == runs[-1][1] + 1:
            runs[-1][1] = p
        else:
            runs.append([p, p])
    return [(a, b) for a, b in runs]


@dataclass
class MaskSlot:
    pos: int            # logical position
    entropy: float      # nats, from raw logits
    distance: int       # window index minus the window index of the first mask
    score: float        # entropy + penalty * distance
    selected: bool


@dataclass
class FilledSlot:
    pos: int
    token: int
    entropy: float
    candidates: list[list]  # [[token id, probability], ...] best first


@dataclass
class Verification:
    """What one `verified` forward checked (BEYOND THE PAPER: decoders/verified.py).

    Window slot 0 always holds the AR token found by the previous forward (or by prefill), so it
    is exact; the drafts after it in the leading filled run are checked, left to right, against
    the AR prediction of the row before each (the shifted logits of the same forward)."""
    checked: list[int]          # the drafts checked, at positions start+1, start+2, ... in order
    accepted: int               # how many of them, from the first, agreed (committed now)
    rejected_pos: int | None    # position of the first draft that disagreed; None: all agreed
    ar_pos: int                 # start + 1 + accepted: where this forward's AR token goes
    ar_token: int               # replaces the rejected draft, or is appended after the run for free
    dropped: list[int]          # positions of drafts after the rejected slot, dropped unchecked
    masks: int                  # mask slots the window policy gave this forward (0: an AR step)
    probe: bool = False         # the policy's periodic probe while drafts kept failing

    @property
    def replaced(self) -> bool:
        """True when the AR token replaced a rejected draft (False: appended after the run)."""
        return self.rejected_pos is not None


@dataclass
class StepRecord:
    index: int                  # 0 = first forward after prefill
    start: int                  # logical position of window slot 0 = cache length before
    window: list                # slots in logical order as fed to the forward (None = MASK)
    order: list[int]            # physical order as window indices
    position_ids: list[int]     # logical positions in physical order
    committed: list[int]        # tokens whose KV was kept this step (cut after a stop token)
    masks: list[MaskSlot]       # every mask slot still open after the commit
    filled: list[FilledSlot]    # slots filled this step
    threshold: float | None
    penalty: float
    cache_before: int
    cache_after: int
    rows: int                   # token rows processed by this forward
    seconds: float
    finished: bool = False
    stop_reason: str | None = None
    forward_seconds: float = 0.0  # of `seconds`, the model forward alone (the bench's cost model)
    # verified decoder only (trace version 2): the drafts this forward checked. For it,
    # `committed` is slot 0 plus the accepted drafts (the KV kept), and `filled` holds the AR
    # token first (when it went into the text), then the drafts the fill rule made.
    verify: Verification | None = None

    @property
    def first_mask_pos(self) -> int | None:
        """Logical position of the first mask this forward was fed (None: its window held none)."""
        return next((self.start + i for i, t in enumerate(self.window) if t is None), None)

    @property
    def filled_behind_mask(self) -> list[int]:
        """Logical positions of the filled slots after the first mask (they wait: only the leading run commits)."""
        first = self.first_mask_pos
        return [] if first is None else [self.start + i for i, t in enumerate(self.window)
                                         if t is not None and self.start + i > first]

    def to_dict(self) -> dict:
        data = asdict(self)
        if self.verify is None:  # streaming, block, reference and AR traces keep their v1 shape
            del data["verify"]
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "StepRecord":
        data = dict(data)
        data["masks"] = [MaskSlot(**m) for m in data.get("masks", [])]
        data["filled"] = [FilledSlot(**f) for f in data.get("filled", [])]
        if data.get("verify") is not None:
            data["verify"] = Verification(**data["verify"])
        return cls(**data)


@dataclass
class DecodeResult:
    prompt_ids: list[int]
    token_ids: list[int]        # generated ids, a final stop token included
    stop_reason: str            # "stop_token", "max_new_tokens" or "stopped"
    forwards: int               # forwards after prefill
    rows_processed: int         # token rows over all post-prefill forwards
    rows_cached: int            # of those, rows whose KV was kept
    prefill_s: float
    decode_s: float
    prefill_filled: list[FilledSlot] = field(default_factory=list)  # AR: token from prefill

    @property
    def generated_tokens(self) -> int:
        return len(self.token_ids)

    @property
    def tokens_per_forward(self) -> float:
        return self.generated_tokens / max(self.forwards, 1)

    @property
    def p_cache(self) -> float:
        """Prefix cacheability: share of processed rows whose KV was kept (the paper's
        N_generated / N_processed for WeDLM, where every output token is committed once)."""
        return self.rows_cached / self.rows_processed if self.rows_processed else 1.0

    @property
    def tokens_per_s(self) -> float:
        total = self.prefill_s + self.decode_s
        return self.generated_tokens / total if total > 0 else 0.0

    def stats(self) -> dict:
        return {
            "forwards": self.forwards,
            "generated_tokens": self.generated_tokens,
            "tokens_per_forward": self.tokens_per_forward,
            "p_cache": self.p_cache,
            "rows_processed": self.rows_processed,
            "prefill_s": self.prefill_s,
            "decode_s": self.decode_s,
            "tokens_per_s": self.tokens_per_s,
            "stop_reason": self.stop_reason,
        }

    def to_dict(self) -> dict:
        data = asdict(self)
        data.update(self.stats())
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "DecodeResult":
        keys = ("prompt_ids", "token_ids", "stop_reason", "forwards", "rows_processed",
                "rows_cached", "prefill_s", "decode_s")
        return cls(**{k: data[k] for k in keys},
                   prefill_filled=[FilledSlot(**f) for f in data.get("prefill_filled", [])])
