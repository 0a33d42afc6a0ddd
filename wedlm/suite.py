"""The prompt suite: JSONL rows of id, class and prompt, from very low to high entropy, and the
τ grid every sweep over it uses (the benchmark, the app's entropy explorer, the tools)."""
from __future__ import annotations

import json
from pathlib import Path

from .config import ValidationError
from .paths import SUITE_FILE

CLASS_ORDER = ("counting", "sequence", "code", "math", "plays")  # lowest entropy first
THRESHOLD_GRID = (0.1, 0.2, 0.3, 0.4, 0.6, 0.8, 1.0, 1.5, 2.0)  # τ values a sweep tries


def in_class_order(classes) -> list[str]:
    """Classes from lowest to highest entropy; classes of a user's own file after them."""
    return sorted(classes, key=lambda c: (CLASS_ORDER + (c,)).index(c))


def read_prompts(path: str | Path = SUITE_FILE) -> list[dict]:
    """The rows of a JSONL suite (default: the project's), each checked for id, class, prompt."""
    rows = []
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as err:
            raise ValidationError(f"{path}:{n}: not JSON ({err.msg})") from None
        missing = {"id", "class", "prompt"} - set(row)
        if missing:
            raise ValidationError(f"{path}:{n}: missing {', '.join(sorted(missing))}")
        rows.append(row)
    if not rows:
        raise ValidationError(f"{path}: no prompts")
    return rows
