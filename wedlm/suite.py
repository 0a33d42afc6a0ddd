"""The prompt suite: JSONL rows of id, class and prompt, from very low to high entropy, and the
τ grid every sweep over it uses (the benchmark, the app's entropy explorer, the tools)."""
from __future__ import annotations

import json
from pathlib import Path

from .config import ValidationError
from .paths import SUITE_FILE

CLASS_ORDER = ("counting", "sequence", "arithmetic", "code", "math", "plays")  # lowest entropy first
THRESHOLD_GRID = (0.1, 0.2, 0.3, 0.4, 0.6, 0.8, 1.0, 1.5, 2.0)  # τ values a sweep tries


def in_class_order(classes) -> list[str]:
    """Classes from lowest to highest entropy; classes of a user's own file after them."""
    return sorted(classes, key=lambda c: (CLASS_ORDER + (c,)).index(c))


def read_prompts(path: str | Path = SUITE_FILE) -> list[dict]:
    """The rows of a JSONL suite (default: the project's), each checked for id, class, prompt."""
    rows = []
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ValidationError(f"{path}: not UTF-8 text") from None
    except OSError as err:  # a folder, no permission, ...
        raise ValidationError(f"{path}: cannot read it ({err.strerror or err})") from None
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as err:
            raise ValidationError(f"{path}:{n}: not JSON ({getattr(err, 'msg', 'nested too deeply')})") from None
        if not isinstance(row, dict):
            raise ValidationError(f"{path}:{n}: expected an object with id, class and prompt")
        missing = {"id", "class", "prompt"} - set(row)
        if missing:
            raise ValidationError(f"{path}:{n}: missing {', '.join(sorted(missing))}")
        for key in ("id", "class", "prompt"):
            if not isinstance(row[key], str):
                raise ValidationError(f"{path}:{n}: {key} must be text, got {type(row[key]).__name__}")
        rows.append(row)
    if not rows:
        raise ValidationError(f"{path}: no prompts")
    return rows
