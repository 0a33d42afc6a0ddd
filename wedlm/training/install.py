"""Ship a run's models: copy them into assets/models, measure them, write their model cards."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from ..config import DecodeConfig
from ..loading import load_model
from .card import write_card
from .evaluate import evaluate


def install(run_dir: Path, assets: Path, max_new_tokens: int = 512) -> None:
    """Copy the models this run trained into assets/models (the shipped checkpoints), measure
    them on their prompt formats, and write their model cards."""
    for stage, name, decoder in (("ar", "ar-tiny", "ar"), ("wedlm", "wedlm-tiny", "streaming")):
        src = run_dir / f"{stage}-hf"
        # only what this run trained: a `--stages wedlm` run starts from a parent it was given
        if not src.is_dir() or not (run_dir / stage / "log.jsonl").is_file():
            continue
        dst = assets / name
        if dst.exists():
            shutil.rmtree(dst)
        shutil.copytree(src, dst)
        report = evaluate(load_model(str(dst), device="cpu"), decoder,
                          config=DecodeConfig(max_new_tokens=max_new_tokens))
        (run_dir / f"eval-{stage}.json").write_text(json.dumps(report, indent=1, ensure_ascii=False))
        command = f"python -m wedlm.training.evaluate --model assets/models/{name} --decoder {decoder}"
        write_card(dst, stage, run_dir, report, command)
