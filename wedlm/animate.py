"""Slides of a decode: each step's window in logical order (the text) and in physical order (what
the forward was fed), in the palette's colours and marks, every slot over its position id, with a
caption that says what the step did. Written as a GIF, and as an MP4 when ffmpeg is available.
Pillow draws it (no browser, no app); its own font ships with Pillow, so this works offline.

Everything is bounded before a pixel is drawn: at most `max_frames` steps (MAX_FRAMES), a frame
of at most MAX_WIDTH x MAX_HEIGHT, and an optional wall-clock budget for the whole drawing.
Traces come from users: load them with `Trace.load` (validated), and every token's text is
sanitised here (control characters and glyphs the font lacks become escapes).
"""
from __future__ import annotations

import math
import shutil
import subprocess
import time
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from .decoders.records import position_runs
from .palette import STATE_COLOURS, STATE_EDGES, STATE_LABELS
from .trace import Trace

MAX_FRAMES = 600                   # steps drawn at most (a 128-token decode takes at most ~200)
MAX_WIDTH, MAX_HEIGHT = 1440, 1200 # pixels of one frame at most
MAX_TOTAL_PIXELS = 400_000_000     # all frames together (one byte each in memory before writing)
SLOTS_PER_LINE = 32                # a wider window wraps onto the next line
FRAME_MS, LAST_FRAME_MS = 1200, 4000
MP4_FPS = 5

CELL_W, CELL_H, GAP = 44, 34, 4    # one slot: its box, then its position id under it
PID_H = 15
LINE_H = CELL_H + PID_H + 6
MARGIN = 16
TEXT_H = 20                        # a line of caption text
MIN_WIDTH = 760                    # room for the caption and the legend
LEGEND_STATES = ("mask", "filled", "new", "committed", "stop")
INK, FAINT, BACKGROUND = "#111827", "#4b5563", "#ffffff"


class AnimationError(ValueError):
    """The trace cannot be drawn within the bounds; the message says which."""


@dataclass
class Slot:
    pos: int
    token: int | None   # None: a mask
    state: str          # a key of STATE_COLOURS


# -- what a step shows -----------------------------------------------------------------------------

def step_slots(trace: Trace, index: int) -> tuple[list[Slot], list[Slot]]:
    """Step `index`'s window in logical order after its forward (new tokens in place of the masks
    it filled, and AR's next slot after its one-slot window) and in physical order as fed."""
    s = trace.steps[index]
    new = {f.pos: f.token for f in s.filled}
    n_commit = len(s.committed)
    end = max([s.start + len(s.window)] + [p + 1 for p in new])
    logical, stopped = [], False
    for pos in range(s.start, end):
        i = pos - s.start
        token = s.window[i] if i < len(s.window) else None
        if token is None and pos in new:
            token, state = new[pos], "new"
        elif token is None:
            state = "mask"
        elif i < n_commit:
            state = "stop" if token in trace.stop_ids else "committed"
        else:
            state = "filled"
        if stopped and token is not None:
            state = "dropped"  # after the stop token: never output
        stopped = stopped or state == "stop"
        logical.append(Slot(pos, token, state))
    fed = [Slot(x.pos, None, "mask") if s.window[i] is None else x for i, x in enumerate(logical[:len(s.window)])]
    physical = [fed[i] for i in s.order]  # the input: masks stay masks
    return logical, physical


def _positions(positions: list[int]) -> str:
    """[5, 6, 7, 9] -> '5-7, 9'."""
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in position_runs(positions))


def caption(trace: Trace, index: int) -> list[str]:
    """Plain sentences about step `index` (ASCII but for token texts, which the caller draws
    through `visible`)."""
    s = trace.steps[index]
    last = s.start + len(s.window) - 1
    if trace.decoder == "ar":
        filled = s.filled[0] if s.filled else None
        out = [f"Forward {index + 1}: the AR model reads position {s.start} and predicts position "
               f"{s.start + 1}" + (f": '{visible(trace, filled.token)}'." if filled else ".")]
        out.append("One token per forward: the KV cache grows by one "
                   f"({s.cache_before} -> {s.cache_after} tokens).")
        return out + _stop_sentence(trace, s)
    masks = sum(t is None for t in s.window)
    filled = len(s.window) - masks
    masks_text = f"{masks} {'mask' if masks == 1 else 'masks'}"
    fed = (f"{filled} filled {'slot' if filled == 1 else 'slots'} moved in front of {masks_text}"
           if filled and masks else f"{filled} filled {'slot' if filled == 1 else 'slots'}" if filled
           else masks_text)
    out = [f"Forward {index + 1} reads positions {s.start}-{last}: {fed} ({s.rows} rows)."]
    n = len(s.committed)
    if trace.decoder == "block" and not n and s.first_mask_pos is not None:
        out.append("Nothing commits: block decoding waits until every slot of its block is filled.")
    elif n:
        out.append(f"The leading filled run {_positions(list(range(s.start, s.start + n)))} commits: "
                   f"its KV stays in the cache ({s.cache_before} -> {s.cache_after} tokens).")
    else:
        out.append(f"Nothing commits: position {s.first_mask_pos if s.first_mask_pos is not None else s.start} is still a mask, so the "
                   f"cache stays at {s.cache_before} tokens.")
    picked = sorted(f.pos for f in s.filled)
    chosen = [m for m in s.masks if m.selected]
    if picked:
        tau = s.threshold
        if tau is None:
            rule = "tau = none: only the lowest score entropy + lambda*d"
        elif chosen and all(m.score >= tau for m in chosen):
            rule = f"no score under tau = {tau:g}, so only the lowest"
        else:
            rule = f"score entropy + lambda*d under tau = {tau:g}"
        out.append(f"It fills {len(picked)} {'mask' if len(picked) == 1 else 'masks'} at "
                   f"{_positions(picked)} ({rule}).")
    still = [m.pos for m in s.masks if not m.selected]
    if still and not s.finished:
        out.append(f"{len(still)} {'mask stays' if len(still) == 1 else 'masks stay'} open "
                   f"({_positions(still)}).")
    return out + _stop_sentence(trace, s)


def _stop_sentence(trace: Trace, s) -> list[str]:
    stop_at = next((k for k, t in enumerate(s.committed) if t in trace.stop_ids), None)
    if stop_at is not None:
        return [f"The stop token at position {s.start + stop_at} commits: the decode ends."]
    if s.stop_reason and s.stop_reason != "stop_token":
        return [f"The decode ends here ({s.stop_reason.replace('_', ' ')})."]
    return []


# -- text the font can draw ------------------------------------------------------------------------

@lru_cache(maxsize=8)
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size)  # ships with Pillow: no system font needed


@lru_cache(maxsize=16384)
def _word_length(word: str, size: int) -> float:
    return font(size).getlength(word)


def _length(text: str, size: int) -> float:
    """Width in pixels as `_text` draws it: cached word widths (measuring every caption line
    with FreeType was most of the drawing time; the words repeat from frame to frame)."""
    words = text.split(" ")
    return sum(_word_length(w, size) for w in words) + (len(words) - 1) * _space(size)


def _space(size: int) -> float:
    return max(_word_length(" ", size), 0.3 * size) + 1  # the font's own space is narrow when small


@lru_cache(maxsize=16384)
def _glyphs(text: str, size: int) -> tuple[Image.Image, int]:
    """`text` drawn once as a 1-bit mask (no anti-aliasing), and where the mask starts relative
    to the pen (a glyph may reach left of it); frames repeat the same words."""
    left, top, right, bottom = font(size).getbbox(text)
    shift = min(0, left)
    im = Image.new("1", (max(1, right - shift) + size // 2, max(1, bottom) + size // 4))
    draw = ImageDraw.Draw(im)
    draw.fontmode = "1"
    draw.text((-shift, 0), text, font=font(size), fill=1)
    return im, shift


def _text(draw: ImageDraw.ImageDraw, xy, text: str, size: int, colour: str) -> None:
    """Word by word: captions differ from frame to frame, their words mostly do not."""
    x, y = xy
    for word in text.split(" "):
        if word:
            mask, shift = _glyphs(word, size)
            draw.bitmap((round(x) + shift, round(y)), mask, fill=colour)
        x += _word_length(word, size) + _space(size)


@lru_cache(maxsize=4096)
def _has_glyph(ch: str) -> bool:
    """Whether the shipped font draws `ch` (else it would draw the same box as a missing glyph)."""
    def ink(c: str) -> bytes:
        im = Image.new("1", (24, 24))
        ImageDraw.Draw(im).text((2, 2), c, font=font(14), fill=1)
        return im.tobytes()
    return ink(ch) != ink("\ue000")


def sanitise(text: str, most: int = 400, dots: bool = True) -> str:
    """Text as the frames show it: spaces as '·' (`dots`), newlines and tabs as \\n and \\t,
    every other control or format character and every character the font cannot draw as an escape."""
    out = []
    for ch in text[:most]:
        if ch == " ":
            out.append("·" if dots else " ")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif unicodedata.category(ch)[0] in "CZ" or not _has_glyph(ch):
            out.append(f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "".join(out) + ("…" if len(text) > most else "")


def visible(trace: Trace, token: int | None) -> str:
    if token is None or token == trace.mask_token_id:
        return "[M]"
    if token in trace.stop_ids:
        return "EOS"
    text = trace.tokens.get(token, f"#{token}")
    return sanitise(text, most=40) or "''"


def _fit(text: str, size: int, width: float, tail: bool = False) -> str:
    """`text` cut with '…' to fit `width` pixels (from its end when `tail`)."""
    if _length(text, size) <= width:
        return text
    def cut(n: int) -> str:  # keep n characters
        return "…" + text[len(text) - n:] if tail else text[:n] + "…"
    low, high = 0, len(text)  # cut(low) fits (or is empty), cut(high) does not
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (mid, high) if _length(cut(mid), size) <= width else (low, mid)
    return cut(low)


def _wrap(text: str, size: int, width: float) -> list[str]:
    lines, line = [], ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if _length(candidate, size) <= width or not line:
            line = candidate
        else:
            lines.append(line)
            line = word
    return lines + [line] if line else lines


# -- layout and drawing ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Layout:
    columns: int         # slots per line
    lines: int           # lines per row (a wide window wraps)
    caption_lines: int

    @property
    def width(self) -> int:
        return max(MIN_WIDTH, 2 * MARGIN + self.columns * CELL_W)

    @property
    def row_h(self) -> int:
        return TEXT_H + self.lines * LINE_H

    @property
    def height(self) -> int:  # title, prompt, output, two rows, caption, legend
        return (MARGIN + 3 * TEXT_H + 8 + 2 * (self.row_h + 6) + self.caption_lines * TEXT_H
                + 10 + LINE_H + MARGIN)


CAPTION_LINES = 5  # at most; a longer caption is cut


def layout_of(trace: Trace, max_frames: int = MAX_FRAMES) -> Layout:
    """The one frame size for the whole trace, checked against the bounds before drawing."""
    n = len(trace.steps)
    if n == 0:
        raise AnimationError("the trace has no steps to draw")
    if n > max_frames:
        raise AnimationError(f"the trace has {n} steps; at most {max_frames} frames are drawn")
    widest = max(max([s.start + len(s.window)] + [f.pos + 1 for f in s.filled]) - s.start
                 for s in trace.steps)
    columns = min(widest, SLOTS_PER_LINE)
    lay = Layout(columns=columns, lines=math.ceil(widest / columns), caption_lines=CAPTION_LINES)
    if lay.width > MAX_WIDTH or lay.height > MAX_HEIGHT:
        raise AnimationError(f"a frame would be {lay.width}x{lay.height} pixels; "
                             f"at most {MAX_WIDTH}x{MAX_HEIGHT}")
    if n * lay.width * lay.height > MAX_TOTAL_PIXELS:
        raise AnimationError(f"{n} frames of {lay.width}x{lay.height} pixels are more than "
                             f"{MAX_TOTAL_PIXELS // 1_000_000} million pixels in all")
    return lay


def _dashed_rect(draw: ImageDraw.ImageDraw, box, colour: str, dash: int = 5) -> None:
    x0, y0, x1, y1 = box
    for x in range(x0, x1, 2 * dash):
        draw.line([(x, y0), (min(x + dash, x1), y0)], fill=colour, width=2)
        draw.line([(x, y1), (min(x + dash, x1), y1)], fill=colour, width=2)
    for y in range(y0, y1, 2 * dash):
        draw.line([(x0, y), (x0, min(y + dash, y1))], fill=colour, width=2)
        draw.line([(x1, y), (x1, min(y + dash, y1))], fill=colour, width=2)


def draw_cell(draw: ImageDraw.ImageDraw, x: int, y: int, label: str, state: str,
              pos: int | None = None) -> None:
    """One slot: coloured box, the state's mark (so colour is never the only cue), the token,
    and the position id under it."""
    box = (x, y, x + CELL_W - GAP, y + CELL_H)
    edge = STATE_EDGES[state]
    draw.rectangle(box, fill=STATE_COLOURS[state])
    if state == "filled":
        _dashed_rect(draw, box, edge)
    elif state == "committing":   # its KV is being written: a dashed bottom edge (committed: a solid box)
        for x in range(box[0], box[2], 10):
            draw.line([(x, box[3] - 1), (min(x + 5, box[2]), box[3] - 1)], fill=edge, width=3)
    else:
        draw.rectangle(box, outline=edge, width={"new": 3, "committed": 2, "stop": 2}.get(state, 1))
    x1 = box[2]
    if state == "new":        # corner flag
        draw.polygon([(x1 - 11, y), (x1, y), (x1, y + 11)], fill=edge)
    elif state == "committed":  # tick
        draw.line([(x1 - 11, y + 6), (x1 - 7, y + 10), (x1 - 2, y + 2)], fill=edge, width=2)
    elif state == "committing":  # arrow down: into the cache
        draw.line([(x1 - 6, y + 2), (x1 - 6, y + 10)], fill=edge, width=2)
        draw.polygon([(x1 - 10, y + 7), (x1 - 2, y + 7), (x1 - 6, y + 12)], fill=edge)
    elif state == "stop":     # square
        draw.rectangle((x1 - 9, y + 3, x1 - 3, y + 9), fill=edge)
    text = _fit(label, 14, CELL_W - GAP - 8)
    cx = x + (CELL_W - GAP - _length(text, 14)) / 2
    _text(draw, (cx, y + 11), text, 14, FAINT if state in ("mask", "dropped") else INK)
    if state == "dropped":    # struck through
        draw.line([(x + 4, y + CELL_H // 2 + 2), (x1 - 4, y + CELL_H // 2 + 2)], fill=FAINT, width=2)
    if pos is not None:
        pid = str(pos)
        _text(draw, (x + (CELL_W - GAP - _length(pid, 11)) / 2, y + CELL_H + 2), pid, 11, FAINT)


def _row(draw, trace: Trace, lay: Layout, y: int, title: str, slots: list[Slot]) -> int:
    _text(draw, (MARGIN, y), title, 14, INK)
    y += TEXT_H
    for k, slot in enumerate(slots):
        line, col = divmod(k, lay.columns)
        draw_cell(draw, MARGIN + col * CELL_W, y + line * LINE_H, visible(trace, slot.token),
                  slot.state, slot.pos)
    return y + lay.lines * LINE_H + 6


def committed_text(trace: Trace, index: int) -> str:
    """The output after step `index`: its committed tokens, stop token left out."""
    ids = [t for s in trace.steps[: index + 1] for t in s.committed]
    if trace.decoder == "ar":  # AR commits a token at the forward after it was predicted
        ids = [f.token for s in trace.steps[: index + 1] for f in s.filled]
        if trace.result:
            ids = [f.token for f in trace.result.prefill_filled] + ids
    text = "".join(trace.tokens.get(t, "") for t in ids if t not in trace.stop_ids)
    return text


def draw_frame(trace: Trace, index: int, lay: Layout) -> Image.Image:
    im = Image.new("RGB", (lay.width, lay.height), BACKGROUND)
    draw = ImageDraw.Draw(im)  # text comes from 1-bit masks: only palette colours, a small GIF
    width = lay.width - 2 * MARGIN
    n = len(trace.steps)
    model = sanitise(trace.model.split("/")[-1], most=60)
    title = f"WeDLM Explorer - {sanitise(trace.decoder, most=20)} decoding on {model} - step {index} of {n - 1}"
    _text(draw, (MARGIN, MARGIN), _fit(title, 16, width), 16, INK)
    y = MARGIN + TEXT_H
    prompt = "Prompt: " + sanitise(trace.prompt[-2000:], most=2000, dots=False)
    _text(draw, (MARGIN, y), _fit(prompt, 14, width, tail=True), 14, FAINT)
    y += TEXT_H
    out = "Output so far: " + sanitise(committed_text(trace, index)[-2000:], most=2000, dots=False)
    _text(draw, (MARGIN, y), _fit(out, 14, width, tail=True), 14, INK)
    y += TEXT_H + 8
    logical, physical = step_slots(trace, index)
    y = _row(draw, trace, lay, y, f"Logical order (the text) after forward {index + 1}; small numbers "
             "are position ids", logical)
    y = _row(draw, trace, lay, y, f"Physical order: what forward {index + 1} was fed (filled slots first, "
             "each keeping its position id)", physical)
    lines = []
    for sentence in caption(trace, index):
        lines += _wrap(sentence, 14, width)
    for line in lines[: lay.caption_lines]:
        _text(draw, (MARGIN, y), line, 14, INK)
        y += TEXT_H
    y = lay.height - MARGIN - LINE_H + 4
    x = MARGIN
    for state in LEGEND_STATES:
        label = STATE_LABELS[state]
        draw_cell(draw, x, y, {"mask": "[M]", "stop": "EOS"}.get(state, "tok"), state)
        _text(draw, (x + CELL_W + 2, y + 11), label, 12, INK)
        x += CELL_W + 8 + int(_length(label, 12))
    return im


def _gif_palette() -> Image.Image:
    """The frames' fixed colours (text is drawn without anti-aliasing, so these are all)."""
    colours = [BACKGROUND, INK, FAINT, *STATE_COLOURS.values(), *STATE_EDGES.values()]
    rgb = []
    for c in dict.fromkeys(colours):
        rgb += [int(c[i:i + 2], 16) for i in (1, 3, 5)]
    pal = Image.new("P", (1, 1))
    pal.putpalette(rgb + rgb[:3] * (256 - len(rgb) // 3))
    return pal


def render_frames(trace: Trace, max_frames: int = MAX_FRAMES,
                  time_limit_s: float | None = None) -> list[Image.Image]:
    """One palette image per step; AnimationError past the bounds or the time budget."""
    lay = layout_of(trace, max_frames)
    started = time.perf_counter()
    pal = _gif_palette()
    frames = []
    for k in range(len(trace.steps)):
        if time_limit_s is not None and time.perf_counter() - started > time_limit_s:
            raise AnimationError(f"drawing took longer than {time_limit_s:g} s (at step {k} of "
                                 f"{len(trace.steps)})")
        frames.append(draw_frame(trace, k, lay).quantize(palette=pal, dither=Image.Dither.NONE))
    return frames


def save_gif(frames: list[Image.Image], path: str | Path) -> int:
    """Write the frames as a looping GIF; returns its size in bytes."""
    durations = [FRAME_MS] * (len(frames) - 1) + [LAST_FRAME_MS]
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=durations, loop=0)
    return Path(path).stat().st_size


def find_ffmpeg() -> str | None:
    """imageio-ffmpeg's binary when that package is installed, else ffmpeg on PATH."""
    try:
        import imageio_ffmpeg
        return imageio_ffmpeg.get_ffmpeg_exe()
    except (ImportError, RuntimeError):
        return shutil.which("ffmpeg")


def save_mp4(frames: list[Image.Image], path: str | Path, ffmpeg: str, timeout_s: float = 120.0) -> int:
    """Write the frames as an H.264 MP4 (each step FRAME_MS long) through ffmpeg; returns bytes."""
    w, h = frames[0].size
    command = [ffmpeg, "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{w}x{h}",
               "-framerate", f"1000/{FRAME_MS}", "-i", "-", "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2",
               "-r", str(MP4_FPS), "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p",
               "-movflags", "+faststart", str(path)]
    hold_last = max(0, math.ceil(LAST_FRAME_MS / FRAME_MS) - 1)  # one input frame per step
    data = b"".join(f.convert("RGB").tobytes() for f in frames + [frames[-1]] * hold_last)
    done = subprocess.run(command, input=data, capture_output=True, timeout=timeout_s)
    if done.returncode != 0:
        last = (done.stderr.decode("utf-8", "replace").strip().splitlines() or ["no message"])[-1]
        raise AnimationError(f"ffmpeg could not write the MP4: {last}")
    return Path(path).stat().st_size


@dataclass
class Animation:
    frames: int
    gif: Path
    gif_bytes: int
    mp4: Path | None = None
    mp4_bytes: int = 0
    note: str = ""      # one line when the MP4 was not written


def animate(trace: Trace, gif_path: str | Path, mp4_path: str | Path | None = None,
            max_frames: int = MAX_FRAMES, time_limit_s: float | None = None) -> Animation:
    """Draw every step of `trace` into a GIF (and an MP4 at `mp4_path` when ffmpeg is found)."""
    started = time.perf_counter()
    frames = render_frames(trace, max_frames, time_limit_s)
    result = Animation(frames=len(frames), gif=Path(gif_path), gif_bytes=save_gif(frames, gif_path))
    if mp4_path is not None:
        ffmpeg = find_ffmpeg()
        left = 600.0 if time_limit_s is None else time_limit_s - (time.perf_counter() - started)
        if ffmpeg is None:
            result.note = "no ffmpeg (imageio-ffmpeg or ffmpeg on PATH): the MP4 was not written, the GIF was"
        elif left < 1.0:
            result.note = "no time left for the MP4 within the budget: the GIF was written"
        else:
            try:
                result.mp4, result.mp4_bytes = Path(mp4_path), save_mp4(frames, mp4_path, ffmpeg, left)
            except subprocess.TimeoutExpired:
                result.mp4 = None
                Path(mp4_path).unlink(missing_ok=True)
                result.note = f"the MP4 took longer than the {left:.0f} s left: the GIF was written"
    return result
