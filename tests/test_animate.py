"""Slides (wedlm/animate.py, `python -m wedlm animate`): one GIF frame per step, read back with
Pillow; size bounds; every state told by a mark as well as a colour; token text sanitised; bad
and hostile traces refused with exit status 2 and one line, before anything is drawn."""
import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from PIL import Image

from wedlm import DecodeConfig, Trace, load_model
from wedlm import animate as anim
from wedlm.paths import BUNDLED_AR_MODEL, BUNDLED_MODEL, TRACES_DIR
from wedlm.trace import decode

ROOT = Path(__file__).resolve().parent.parent
RECORDED = sorted(TRACES_DIR.glob("*.json"))
GIF_BUDGET = 2 * 1024 * 1024  # README: a 128-token decode's GIF stays under 2 MB


def run_cli(*args, env=None):
    return subprocess.run([sys.executable, "-m", "wedlm", *args], capture_output=True, text=True,
                          env={**os.environ, "HF_HUB_OFFLINE": "1", **(env or {})}, cwd=ROOT, timeout=300)


def gif_frames(path) -> tuple[int, tuple[int, int]]:
    with Image.open(path) as im:
        return im.n_frames, im.size


def test_one_gif_frame_per_step_of_every_recorded_trace(tmp_path):
    assert len(RECORDED) >= 7
    for path in RECORDED:
        trace = Trace.load(path)
        made = anim.animate(trace, tmp_path / f"{path.stem}.gif")
        frames, (w, h) = gif_frames(made.gif)
        assert frames == made.frames == len(trace.steps), path.name
        assert w <= anim.MAX_WIDTH and h <= anim.MAX_HEIGHT
        assert made.gif_bytes == made.gif.stat().st_size <= GIF_BUDGET
        assert made.mp4 is None  # not asked for


def test_the_cli_writes_the_gif_and_an_mp4_when_ffmpeg_is_there(tmp_path):
    trace = RECORDED[0]
    out = tmp_path / "decode.gif"
    proc = run_cli("animate", str(trace), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert gif_frames(out)[0] == len(Trace.load(trace).steps)
    mp4 = out.with_suffix(".mp4")
    if anim.find_ffmpeg():
        assert mp4.read_bytes()[4:8] == b"ftyp"  # an MP4 container
    # no ffmpeg anywhere (imageio-ffmpeg is not installed here; PATH empty): one line, GIF still written
    bare = tmp_path / "bare.gif"
    proc = run_cli("animate", str(trace), "--out", str(bare), env={"PATH": ""})
    if importlib_has("imageio_ffmpeg"):
        pytest.skip("imageio-ffmpeg is installed: an MP4 is always possible")
    assert proc.returncode == 0 and gif_frames(bare)[0] == len(Trace.load(trace).steps)
    lines = proc.stderr.strip().splitlines()
    assert any(line.startswith("wedlm: no ffmpeg") for line in lines) and not bare.with_suffix(".mp4").exists()


def importlib_has(name: str) -> bool:
    import importlib.util
    return importlib.util.find_spec(name) is not None


def test_the_rows_show_the_window_as_fed_and_as_filled():
    trace = Trace.load(TRACES_DIR / "1-counting-streaming.json")
    for k, s in enumerate(trace.steps):
        logical, physical = anim.step_slots(trace, k)
        assert [x.pos for x in logical[:len(s.window)]] == list(range(s.start, s.start + len(s.window)))
        assert [x.pos for x in physical] == s.position_ids          # physical order: its position ids
        new = {f.pos for f in s.filled}
        assert {x.pos for x in logical if x.state == "new"} == new - {x.pos for x in logical if x.state == "dropped"}
        assert all(x.state == "mask" for x in physical if s.window[x.pos - s.start] is None)
        committed = [x for x in logical if x.state in ("committed", "stop")]
        assert [x.token for x in committed] == s.committed
    last = anim.step_slots(trace, len(trace.steps) - 1)[0]
    assert [x.state for x in last].count("stop") == 1              # the counting decode ends on its stop token
    ar = Trace.load(TRACES_DIR / "2-counting-ar.json")
    logical, physical = anim.step_slots(ar, 3)
    assert [x.state for x in logical] == ["committed", "new"] and len(physical) == 1  # reads one, predicts the next


def test_every_state_has_a_mark_not_only_a_colour():
    """Draw each state's cell, then keep only the pixels that are not its fill colour: what is
    left (edge, mark, text) differs from state to state."""
    from PIL import ImageDraw
    shapes = {}
    for state, fill in anim.STATE_COLOURS.items():
        im = Image.new("RGB", (anim.CELL_W + 4, anim.CELL_H + 4), "#ffffff")
        anim.draw_cell(ImageDraw.Draw(im), 0, 0, "x", state)
        rgb = tuple(int(fill[i:i + 2], 16) for i in (1, 3, 5))
        shapes[state] = bytes(int(p != rgb) for p in im.getdata())
    assert len(set(shapes.values())) == len(shapes)


def test_token_text_is_sanitised():
    hostile = "a\x1b[31m\u202e\x00\n\tb 中"
    shown = anim.sanitise(hostile)
    assert "\x1b" not in shown and "\u202e" not in shown and "\x00" not in shown and "\n" not in shown
    assert "\\x1b" in shown and "\\u202e" in shown and "\\n" in shown and "\\t" in shown
    assert "·" in shown                                  # a space is made visible
    assert "\\u4e2d" in shown                            # a character the shipped font cannot draw
    assert len(anim.sanitise("x" * 10_000, most=40)) == 41  # cut, with an ellipsis


def test_a_trace_with_control_characters_in_its_tokens_draws(tmp_path):
    data = json.loads((TRACES_DIR / "4-arithmetic-streaming.json").read_text())
    data["tokens"] = {k: "\x1b[2J\u202e" + v + "\x00" * 900 for k, v in data["tokens"].items()}
    data["prompt"] = "\r\x07" * 5000
    out = tmp_path / "odd.gif"
    proc = run_cli("animate", write(tmp_path, "odd.json", data), "--out", str(out), "--no-mp4")
    assert proc.returncode == 0, proc.stderr
    assert gif_frames(out)[0] == len(data["steps"])


def write(folder: Path, name: str, data) -> str:
    path = folder / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def lean_steps(good: dict, n: int, slots: int = 1) -> dict:
    """A schema-valid trace of n steps of `slots` masks each (drawing it is what costs)."""
    data = json.loads(json.dumps(good))
    step = {k: v for k, v in data["steps"][0].items() if k not in ("finished", "stop_reason")}
    step.update(window=[None] * slots, order=list(range(slots)),
                position_ids=list(range(step["start"], step["start"] + slots)), masks=[], filled=[],
                committed=[])
    data["steps"] = [{**step, "index": i} for i in range(n)]
    return data


def test_bad_and_hostile_traces_exit_2_with_one_line_before_drawing(tmp_path):
    good = json.loads((TRACES_DIR / "1-counting-streaming.json").read_text())
    nan = json.loads(json.dumps(good))
    nan["steps"][0]["masks"][0]["entropy"] = float("nan")
    far = json.loads(json.dumps(good))
    far["steps"][0]["filled"][0]["pos"] = 10 ** 6
    cases = {
        "missing.json": (None, "No such file"),
        "not-json.json": ("{ not json", "Expecting"),
        "deep.json": ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        "nan.json": (nan, "steps[0].masks[0].entropy"),
        "far.json": (far, "steps[0].filled[0].pos"),
        "601-steps.json": (lean_steps(good, anim.MAX_FRAMES + 1), f"at most {anim.MAX_FRAMES} frames"),
        "wide-and-long.json": (lean_steps(good, anim.MAX_FRAMES, slots=128), "million pixels"),
        "no-steps.json": (lean_steps(good, 0), "no steps"),
    }
    for name, (data, needle) in cases.items():
        path = str(tmp_path / name) if data is None else write(tmp_path, name, data)
        out = tmp_path / f"{name}.gif"
        proc = run_cli("animate", path, "--out", str(out))
        lines = proc.stderr.strip().splitlines()
        assert proc.returncode == 2 and len(lines) == 1 and needle in lines[0], (name, proc.stderr)
        assert "Traceback" not in proc.stderr and not out.exists()
    proc = run_cli("animate", str(RECORDED[0]), "--out", str(tmp_path / "x.png"))
    assert proc.returncode == 2 and "name a .gif file" in proc.stderr
    proc = run_cli("animate", str(RECORDED[0]), "--out", str(tmp_path / "nowhere" / "x.gif"))
    assert proc.returncode == 2 and "does not exist" in proc.stderr


def test_bounds_are_checked_before_a_frame_is_drawn(monkeypatch):
    good = json.loads((TRACES_DIR / "1-counting-streaming.json").read_text())
    drawn = []
    monkeypatch.setattr(anim, "draw_frame", lambda *a: drawn.append(a))
    for data in (lean_steps(good, anim.MAX_FRAMES + 1), lean_steps(good, anim.MAX_FRAMES, slots=128)):
        with pytest.raises(anim.AnimationError):
            anim.render_frames(Trace.from_dict(data))
    with pytest.raises(anim.AnimationError, match="at most 5 frames"):
        anim.render_frames(Trace.load(TRACES_DIR / "1-counting-streaming.json"), max_frames=5)
    assert drawn == []
    # the widest window a valid trace can hold still fits one frame
    widest = Trace.from_dict(lean_steps(good, 1, slots=128))
    lay = anim.layout_of(widest)
    assert lay.width <= anim.MAX_WIDTH and lay.height <= anim.MAX_HEIGHT and lay.lines == 4


@pytest.fixture(scope="module")
def decodes_of_128_tokens():
    """The two decodes with the most frames per token: AR (one per token) and streaming with
    τ = none (one token per forward, the window full of masks)."""
    wedlm_lm = load_model(str(BUNDLED_MODEL), device="cpu", dtype="float32")
    ar_lm = load_model(str(BUNDLED_AR_MODEL), device="cpu", dtype="float32")
    config = DecodeConfig(max_new_tokens=128, threshold=None)
    return [decode(ar_lm, "Count from 1 to 100:", "ar", config),
            decode(wedlm_lm, "Count from 1 to 100:", "streaming", config)]


def test_a_128_token_decode_makes_a_gif_under_2_mb(decodes_of_128_tokens, tmp_path):
    for trace in decodes_of_128_tokens:
        assert len(trace.token_ids) == 128  # the budget, not an early stop
        made = anim.animate(trace, tmp_path / f"{trace.decoder}.gif")
        assert gif_frames(made.gif)[0] == len(trace.steps) >= 127  # AR's first token comes from prefill
        assert made.gif_bytes <= GIF_BUDGET, (trace.decoder, made.gif_bytes)


def test_the_export_slides_handler_is_bounded_as_server_work(tmp_path):
    import gradio as gr

    from app.serving.settings import LOCAL
    from app.tabs.decode import SLIDES_MAX_STEPS, make_slides
    from app.views.timeline import Timeline
    ctx = SimpleNamespace(limits=LOCAL)
    files = make_slides(ctx, Timeline(Trace.load(RECORDED[0])))
    assert files[0].endswith("wedlm-slides.gif") and gif_frames(files[0])[0] == len(Trace.load(RECORDED[0]).steps)
    good = json.loads(RECORDED[0].read_text())
    with pytest.raises(gr.Error, match=f"at most {SLIDES_MAX_STEPS} frames"):
        make_slides(ctx, Timeline(Trace.from_dict(lean_steps(good, SLIDES_MAX_STEPS + 1))))
    with pytest.raises(gr.Error, match="longer than"):  # the request's budget
        make_slides(SimpleNamespace(limits=SimpleNamespace(decode_seconds=0.0)),
                    Timeline(Trace.load(TRACES_DIR / "2-counting-ar.json")))
    with pytest.raises(gr.Error, match="first"):
        make_slides(ctx, None)


def test_an_mp4_out_of_time_leaves_the_gif_and_says_so(tmp_path, monkeypatch):
    def too_slow(frames, path, ffmpeg, timeout_s):
        Path(path).write_bytes(b"partial")
        raise subprocess.TimeoutExpired("ffmpeg", timeout_s)
    monkeypatch.setattr(anim, "find_ffmpeg", lambda: "/usr/bin/ffmpeg")
    monkeypatch.setattr(anim, "save_mp4", too_slow)
    trace = Trace.load(RECORDED[0])
    made = anim.animate(trace, tmp_path / "a.gif", tmp_path / "a.mp4", time_limit_s=60.0)
    assert made.mp4 is None and not (tmp_path / "a.mp4").exists() and "took longer" in made.note
    assert gif_frames(made.gif)[0] == len(trace.steps)
