"""The tour's recorded data: assets/tour/tour.json, written by `python -m tools.record_tour`
(decodes of the bundled model, the step each chapter lands on, the entropy suite's rows and the
arithmetic τ sweep). The tour opens from it instantly, with no model loaded."""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from wedlm import Trace
from wedlm.paths import ASSETS_DIR

from ...examples import TOUR_CODE
from ...views.timeline import Timeline

TOUR_FILE = ASSETS_DIR / "tour" / "tour.json"
TOUR_FORMAT = "wedlm-tour"
# trace name -> (prompt, decoder, max new tokens); tools/record_tour.py decodes these
TOUR_PROMPTS = {
    "ar-counting": ("Count from 1 to 20:", "ar", 64),
    "counting": ("Count from 1 to 20:", "streaming", 64),
    "table": ("Times table of 7 up to 10:", "streaming", 128),
    # chapter 7's code decode (how its prompt was chosen: app/examples.py), as long as the suite's dots' (LAW_MAX_NEW)
    "code": (TOUR_CODE, "streaming", 96),
    "plays": ("ROMEO:\n", "streaming", 48),
    # chapter 10 (beyond the paper): the verified decoder on a prompt whose drafts are mostly
    # accepted and, once, rejected inside its text after some agreed (tools/record_tour checks there
    # is a rejection; a word problem's decode had rejections only, a counting one agreements only)
    "verified": ("Times table of 13 up to 10:", "verified", 128),
}
LAW_MAX_NEW = 96      # chapter 7's decodes (the entropy explorer's default)
TAU_CLASS = "arithmetic"  # chapter 8 sweeps τ over the suite's prompts of this class (they carry answers)
TAU_MAX_NEW = 128     # the benchmark's: a two-step answer needs more than 64


@dataclass
class TourData:
    timelines: dict[str, Timeline]
    picks: dict
    law_rows: list[dict]
    tau_sweep: dict   # {"class", "config", "rows": [{threshold, tokens_per_forward, right, total, outputs}]}
    # trace name -> {"decoder": "ar", "text"}: that prompt decoded greedily one token at a time by the same model
    greedy: dict = field(default_factory=dict)

    def at(self, pick: str) -> tuple[Timeline, int]:
        p = self.picks[pick]
        return self.timelines[p["trace"]], p["step"]


def load_tau_sweep() -> dict | None:
    """Chapter 8's recorded arithmetic τ sweep alone (the Entropy explorer shows its trend), or None."""
    try:
        return json.loads(TOUR_FILE.read_text(encoding="utf-8")).get("tau_sweep")
    except (OSError, ValueError, AttributeError):
        return None


def load_tour() -> TourData:
    data = json.loads(TOUR_FILE.read_text(encoding="utf-8"))
    if data.get("format") != TOUR_FORMAT:
        raise ValueError(f"{TOUR_FILE} is not a tour file")
    timelines = {k: Timeline(Trace.from_dict(v)) for k, v in data["traces"].items()}
    return TourData(timelines, data["picks"], data["law_rows"], data.get("tau_sweep") or {"rows": []},
                    data.get("greedy") or {})
