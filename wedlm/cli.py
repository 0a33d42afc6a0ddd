"""Command line: python -m wedlm generate PROMPT [options]  (train and bench have their own issues)."""
from __future__ import annotations

import argparse
import json
import sys

from .config import KNOBS, DecodeConfig, Knob, ValidationError, knob, validate_prompt
from .decoders import DECODERS


class CliError(Exception):
    """Bad input: reported as one line on stderr, exit status 2."""


MB = 1024 * 1024
MAX_TRACE_FILE_BYTES = 64 * MB    # a trace of the longest decode the limits allow is ~20 MB
MAX_PROMPTS_FILE_BYTES = 16 * MB  # a prompt suite (the project's is a few KB)


def read_input_file(path: str, most: int, what: str) -> str:
    """A regular file's text, refused before reading when it is not a regular file (/dev/zero,
    a FIFO, a folder) or over `most` bytes; read bounded, since a file may grow meanwhile."""
    import os
    import stat
    try:
        info = os.stat(path)
    except OSError as err:
        raise CliError(f"{what} {path}: cannot read it ({err.strerror or err})") from None
    if not stat.S_ISREG(info.st_mode):
        raise CliError(f"{what} {path}: cannot read it (not a regular file)")
    if info.st_size > most:
        raise CliError(f"{what} {path}: {info.st_size:,} bytes; at most {most:,} ({most // MB} MB)")
    with open(path, "rb") as f:
        data = f.read(most + 1)
    if len(data) > most:
        raise CliError(f"{what} {path}: grew past {most:,} bytes while being read")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise CliError(f"{what} {path}: not UTF-8 text") from None


class OneLineParser(argparse.ArgumentParser):
    def error(self, message):  # argparse would print usage + message over several lines
        raise CliError(message)


def _threshold(text: str) -> float | None:
    if text.strip().lower() == "none":
        return None
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"threshold must be a number or 'none', got {text!r}")


GENERATE_KNOBS = tuple(KNOBS)  # every DecodeConfig field is an option of generate
# the benchmark compares greedy decodes with the AR parent's: no sampling knobs
BENCH_KNOBS = tuple(n for n in KNOBS if n not in ("temperature", "top_k", "top_p", "seed", "top_candidates"))


def _range_text(name: str, k: Knob) -> str:
    if name == "top_p":
        return "above 0, at most 1"
    if name == "threshold":
        return f"at least {k.low:g}, or none"
    if k.high is not None and k.high < 2**31:
        return f"{k.low:g} to {k.high:g}"
    return f"at least {k.low:g}"


def add_knob_options(parser: argparse.ArgumentParser, names: tuple[str, ...]) -> None:
    """One option per DecodeConfig field: default, range and help all read from its Knob."""
    for name in names:
        default, k = knob(name)
        flag = "--" + name.replace("_", "-")
        if isinstance(default, bool):  # --adaptive-window / --no-adaptive-window
            parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=default,
                                help=f"{k.label}: {k.help}".replace("%", "%%"))
            continue
        parse = _threshold if name == "threshold" else type(default)
        help_text = f"{k.label}: {k.help} ({_range_text(name, k)}; default {default})"
        parser.add_argument(flag, type=parse, default=default, help=help_text.replace("%", "%%"))


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="wedlm", description="WeDLM Explorer command line")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    gen = sub.add_parser("generate", help="decode one prompt")
    gen.add_argument("prompt")
    gen.add_argument("--model", default=None, help="local folder or hub id (default: the bundled tiny WeDLM model)")
    gen.add_argument("--decoder", default="streaming", choices=list(DECODERS))
    add_knob_options(gen, GENERATE_KNOBS)
    gen.add_argument("--device", default="auto", help="auto, cpu or cuda")
    gen.add_argument("--dtype", default="auto", help="auto (bf16 on CUDA, fp32 on CPU), float32, bfloat16")
    chat = gen.add_mutually_exclusive_group()
    chat.add_argument("--chat", dest="chat", action="store_true", default=None,
                      help="wrap the prompt in the chat template (default: when the tokenizer has one)")
    chat.add_argument("--no-chat", dest="chat", action="store_false")
    gen.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    gen.add_argument("--trace-out", default=None, help="write the whole trace (JSON) to this file")
    diff = sub.add_parser("diff", help="compare two traces: where do they diverge?")
    diff.add_argument("trace_a")
    diff.add_argument("trace_b")

    anim = sub.add_parser("animate", help="draw a trace's steps as slides: a GIF, and an MP4 when ffmpeg is found")
    anim.add_argument("trace", help="a trace JSON file (from generate --trace-out, the app, or assets/traces/)")
    anim.add_argument("--out", required=True, help="the GIF to write, e.g. decode.gif")
    anim.add_argument("--mp4", default=None, metavar="PATH",
                      help="the MP4 to write (default: the GIF's name with .mp4, when ffmpeg is available)")
    anim.add_argument("--no-mp4", action="store_true", help="write the GIF only")

    bench = sub.add_parser("bench", help="WeDLM vs block, AR and generate() across prompt entropy")
    bench.add_argument("--model", default=None, help="the WeDLM model (default: bundled)")
    bench.add_argument("--ar-model", default=None, help="the AR parent for quality agreement (default: bundled AR parent)")
    bench.add_argument("--prompts", default=None, help="JSONL with id, class, prompt (default: the project's suite)")
    bench.add_argument("--repeats", type=int, default=3)
    bench.add_argument("--device", default="auto")
    bench.add_argument("--dtype", default="auto",
                       help="auto (bf16 on CUDA, fp32 on CPU), float32, bfloat16: both models run in it")
    add_knob_options(bench, BENCH_KNOBS)
    bench.add_argument("--compare-dtype", default=None, metavar="DTYPE",
                       help="also run streaming and generate() with the model in this dtype, side by side")
    bench.add_argument("--no-sweep", action="store_true", help="skip the tau sweep")
    bench.add_argument("--json", action="store_true", help='print {"results": [...], "summary": {...}}')
    bench.add_argument("--out", default=None, help="also write bench.json, bench.md and charts here")

    train = sub.add_parser("train", help="train the bundled tiny model (AR parent, then WeDLM)")
    from .training.corpus import MIXES
    from .training.train import (BOOL_OPTIONS, FAMILY_OPTIONS, FLOAT_OPTIONS, INT_OPTIONS, MIX_OPTIONS,
                                 TEXT_OPTIONS, TrainConfig)
    defaults = TrainConfig()
    train.add_argument("--stages", default="ar,wedlm", help="ar, wedlm or ar,wedlm")
    helps = {"run_dir": "checkpoints, logs, exports (resumes from here)",
             "init_from": "start the WeDLM stage from this model folder (a fine-tune) instead of the run's AR parent",
             "wedlm_suffix_mask": "in the WeDLM stage, mask this share of the answers from a random "
                                  "cut to their end (labels only), as at a decoding window's edge",
             "wedlm_eos_label_only": "in the WeDLM stage, always mask the end-of-text run after an answer "
                                     "(labels only, never observed) in this share of the samples",
             "math_notes": "keep GSM8K's <<a*b=c>> calculator notes in the math answers",
             "data_dir": "the folder of training corpora (default: $WEDLM_DATA_DIR, else ../shared/data; "
                         "docs/training.md#the-training-data)"}
    # one option per TrainConfig field, typed as the field (wedlm/training/train.py)
    for names, kind in ((INT_OPTIONS, int), (FLOAT_OPTIONS, float), (TEXT_OPTIONS, str)):
        for name in names:
            train.add_argument("--" + name.replace("_", "-"), type=kind, default=getattr(defaults, name),
                               help=helps.get(name))
    for name in MIX_OPTIONS:
        train.add_argument("--" + name.replace("_", "-"), choices=sorted(MIXES), default=getattr(defaults, name),
                           help="sample mix by family (wedlm/training/corpus.py MIXES)")
    for name in FAMILY_OPTIONS:
        train.add_argument("--" + name.replace("_", "-"), default=getattr(defaults, name), metavar="F1,F2",
                           help="apply --wedlm-suffix-mask to these sample families only (empty: all)")
    for name in BOOL_OPTIONS:
        train.add_argument("--" + name.replace("_", "-"), action=argparse.BooleanOptionalAction,
                           default=getattr(defaults, name), help=helps.get(name))
    train.add_argument("--install", action="store_true",
                       help="copy the exported models into assets/models when done")
    return parser


def run_train(args) -> int:
    from pathlib import Path

    from .paths import MODELS_DIR
    from .training.install import install
    from .training.train import TrainConfig, train

    stages = tuple(s.strip() for s in args.stages.split(",") if s.strip())
    if not stages or set(stages) - {"ar", "wedlm"}:
        raise CliError(f"--stages must name ar and/or wedlm, got {args.stages!r}")
    for share in ("wedlm_eos_label_only", "wedlm_suffix_mask"):
        if not 0 <= getattr(args, share) <= 1:
            raise CliError(f"--{share.replace('_', '-')} is a share of the samples, 0 to 1; got {getattr(args, share)}")
    from .training.corpus import parse_families
    try:
        parse_families(args.wedlm_suffix_families)
    except ValueError as e:
        raise CliError(f"--wedlm-suffix-families: {e}") from None
    fields = {k: v for k, v in vars(args).items() if k in TrainConfig.__dataclass_fields__}
    cfg = TrainConfig(**fields)
    if not (Path(cfg.data_dir) / "gsm8k_train.jsonl").is_file():  # before any work
        raise CliError(f"training data not found in {cfg.data_dir}: point --data-dir or WEDLM_DATA_DIR "
                       f"at it (docs/training.md#the-training-data)")
    exported = train(cfg, stages)
    for stage, folder in exported.items():
        print(f"{stage}: {folder}", file=sys.stderr)
    if args.install:
        install(Path(cfg.run_dir), MODELS_DIR)
    return 0


def run_diff(args) -> int:
    from .branch import first_divergence
    from .trace import Trace

    traces = []
    texts = [read_input_file(path, MAX_TRACE_FILE_BYTES, "trace") for path in (args.trace_a, args.trace_b)]
    for path, text in zip((args.trace_a, args.trace_b), texts):
        try:
            traces.append(Trace.from_json(text))
        except (OSError, ValueError) as err:
            raise CliError(f"{path}: {err}")
    a, b = traces
    step = first_divergence(a, b)
    for name, t in (("a", a), ("b", b)):
        s = t.stats()
        print(f"{name}: {t.decoder}, {s.get('generated_tokens', 0)} tokens in {s.get('forwards', 0)} forwards "
              f"(TPF {s.get('tokens_per_forward', 0):.2f}): {t.text[:70]!r}")
    if a.prompt_ids != b.prompt_ids:
        print("the prompts differ")
    print("identical steps" if step is None else f"first divergence at step {step}")
    return 0


def check_writable(path: str, option: str = "--trace-out") -> None:
    """A file we may create or replace: not a folder, in a folder that exists."""
    from pathlib import Path
    target = Path(path)
    if target.is_dir():
        raise CliError(f"{option} {path!r} is a folder; name a file")
    if not target.parent.is_dir():
        raise CliError(f"{option} {path!r}: folder {str(target.parent)!r} does not exist")


MAX_TRACE_FILE_BYTES = 64 * 1024 * 1024  # read no bigger file: the longest valid decode is far smaller


def load_trace_file(path: str):
    """A trace from a file, size-bounded before reading and validated (wedlm/trace_schema.py)."""
    from pathlib import Path

    from .trace import Trace
    try:
        size = Path(path).stat().st_size
        if size > MAX_TRACE_FILE_BYTES:
            raise CliError(f"{path}: {size} bytes; a trace file is at most {MAX_TRACE_FILE_BYTES} bytes")
        return Trace.load(path)
    except (OSError, ValueError) as err:  # TraceFormatError, bad JSON, bad UTF-8
        raise CliError(f"{path}: {err}") from None


def run_animate(args) -> int:
    from pathlib import Path

    from .animate import AnimationError, animate
    if Path(args.out).suffix.lower() != ".gif":
        raise CliError(f"--out {args.out!r}: name a .gif file")
    check_writable(args.out, "--out")
    mp4 = None if args.no_mp4 else (args.mp4 or str(Path(args.out).with_suffix(".mp4")))
    if mp4:
        check_writable(mp4, "--mp4")
    trace = load_trace_file(args.trace)
    try:
        made = animate(trace, args.out, mp4)
    except AnimationError as err:
        raise CliError(f"{args.trace}: {err}") from None
    print(f"{made.gif}: {made.frames} frames, {made.gif_bytes / 1024:.0f} KB", file=sys.stderr)
    if made.mp4:
        print(f"{made.mp4}: {made.mp4_bytes / 1024:.0f} KB", file=sys.stderr)
    elif made.note:
        print(f"wedlm: {made.note}", file=sys.stderr)
    return 0


def check_out_folder(path: str) -> None:
    """bench --out: a folder, or a path one can be made at (checked before any work)."""
    import os
    from pathlib import Path
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise CliError(f"--out {path!r} is a file; name a folder (bench writes several files)")
    parent = next((p for p in (target, *target.parents) if p.exists()), Path("."))
    if not parent.is_dir():
        raise CliError(f"--out {path!r}: {str(parent)!r} is a file, not a folder")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise CliError(f"--out {path!r}: cannot write in {str(parent)!r}")


def check_bench(args) -> None:
    """Everything bench reads or writes, before a model is loaded."""
    if args.repeats < 1:
        raise CliError("--repeats must be at least 1")
    if args.out:
        check_out_folder(args.out)
    if args.prompts:
        read_input_file(args.prompts, MAX_PROMPTS_FILE_BYTES, "--prompts")


def run_generate(args) -> int:
    from .loading import load_model
    from .trace import decode

    config = DecodeConfig.from_dict({k: v for k, v in vars(args).items() if k in KNOBS})
    validate_prompt(args.prompt)  # before loading a model
    if args.trace_out:  # before decoding: a decode must not be lost to a bad path
        check_writable(args.trace_out)
    lm = load_model(args.model, device=args.device, dtype=args.dtype)
    trace = decode(lm, args.prompt, args.decoder, config, chat=args.chat)
    if args.trace_out:
        trace.save(args.trace_out)
    stats = trace.stats()
    if args.json:
        payload = {"text": trace.text, "token_ids": trace.token_ids, "decoder": args.decoder,
                   "model": lm.name, "config": config.to_dict(), **stats}
        print(json.dumps(payload, ensure_ascii=False))
    else:
        print(trace.text)
        print(f"[{args.decoder}] {stats['generated_tokens']} tokens in {stats['forwards']} forwards "
              f"(TPF {stats['tokens_per_forward']:.2f}, p_cache {stats['p_cache']:.2f}, "
              f"{stats['tokens_per_s']:.1f} tok/s, stop: {stats['stop_reason']})", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    from .loading import ModelLoadError

    try:
        args = build_parser().parse_args(argv)
        if args.command == "generate":
            return run_generate(args)
        if args.command == "train":
            return run_train(args)
        if args.command == "diff":
            return run_diff(args)
        if args.command == "animate":
            return run_animate(args)
        if args.command == "bench":
            check_bench(args)
            from .bench import main_bench
            return main_bench(args)
    except (CliError, ValidationError, ModelLoadError, OSError) as err:
        print(f"wedlm: error: {err}", file=sys.stderr)
        return 2
    return 2
