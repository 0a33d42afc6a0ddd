"""Stop-and-wait block decoding (the scheme WeDLM improves on), with WeDLM's selection rule.

A block of B masks is decoded until every slot is filled; only then is it committed (in the
forward that also starts the next block). Filled tokens of an unfinished block are recomputed
at every step: the pipeline bubble that streaming decoding removes.
"""
from __future__ import annotations

from .streaming import StreamingDecoder


class BlockDecoder(StreamingDecoder):
    name = "block"
    adapts_window = False  # a block is B slots by definition

    def window_size(self) -> int:
        return self.config.block_size

    def commit_count(self, window: list) -> int:
        return len(window) if all(tok is not None for tok in window) else 0
