"""Loss-curve images and training summaries for the model cards (Pillow only, no browser)."""
from __future__ import annotations

import json
from pathlib import Path

from PIL import Image, ImageDraw

COLOURS = {"ar": (31, 119, 180), "masked_ce": (214, 39, 40), "masked": (255, 127, 14)}


def read_log(log_file: Path) -> list[dict]:
    rows = [json.loads(line) for line in Path(log_file).read_text().splitlines() if line.strip()]
    by_step = {r["step"]: r for r in rows}  # a resumed run may repeat steps: keep the last
    return [by_step[k] for k in sorted(by_step)]


def summary(log_file: Path, last: int = 50) -> dict:
    rows = read_log(log_file)
    tail = rows[-last:]
    out = {"steps": rows[-1]["step"], "tokens": rows[-1]["tokens"], "wall_s": rows[-1]["elapsed_s"]}
    for key in ("ar", "masked_ce", "masked"):
        if key in tail[-1]:
            out[f"final_{key}"] = round(sum(r[key] for r in tail) / len(tail), 3)
    return out


def plot_losses(log_file: Path, png: Path, title: str, width: int = 720, height: int = 360,
                smooth: int = 20) -> None:
    """Moving-average loss curves against steps."""
    rows = read_log(log_file)
    keys = [k for k in ("ar", "masked_ce") if k in rows[0]]
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    left, right, top, bottom = 50, width - 20, 30, height - 40
    series = {}
    for key in keys:
        values = [r[key] for r in rows]
        series[key] = [sum(values[max(0, i - smooth + 1):i + 1]) / len(values[max(0, i - smooth + 1):i + 1])
                       for i in range(len(values))]
    y_max = max(max(v) for v in series.values())
    y_min = min(0.0, min(min(v) for v in series.values()))
    steps = [r["step"] for r in rows]
    x_of = lambda s: left + (right - left) * (s - steps[0]) / max(1, steps[-1] - steps[0])  # noqa: E731
    y_of = lambda v: bottom - (bottom - top) * (v - y_min) / max(1e-9, y_max - y_min)  # noqa: E731
    draw.rectangle([left, top, right, bottom], outline=(180, 180, 180))
    for frac in (0.0, 0.25, 0.5, 0.75, 1.0):
        v = y_min + frac * (y_max - y_min)
        draw.text((5, y_of(v) - 6), f"{v:.1f}", fill="black")
    draw.text((left, bottom + 8), f"step {steps[0]}", fill="black")
    draw.text((right - 70, bottom + 8), f"step {steps[-1]}", fill="black")
    draw.text((left, 8), title, fill="black")
    for n, key in enumerate(keys):
        points = [(x_of(s), y_of(v)) for s, v in zip(steps, series[key])]
        draw.line(points, fill=COLOURS[key], width=2)
        draw.text((right - 160, top + 8 + 14 * n), key + (" (next-token)" if key == "ar" else " (masked slots)"),
                  fill=COLOURS[key])
    image.save(png)
