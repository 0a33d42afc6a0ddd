"""What every decoder reports: one StepRecord per forward after prefill, and a DecodeResult."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field


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

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "StepRecord":
        data = dict(data)
        data["masks"] = [MaskSlot(**m) for m in data.get("masks", [])]
        data["filled"] = [FilledSlot(**f) for f in data.get("filled", [])]
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
