"""Model cards for the shipped checkpoints, written from the run's own logs and measurements."""
from __future__ import annotations

import json
from pathlib import Path

from ..config import DEFAULTS
from .corpus import MIXES
from .report import plot_losses, summary
from .train import BOOL_OPTIONS, FAMILY_OPTIONS, FLOAT_OPTIONS, INT_OPTIONS, MIX_OPTIONS, TEXT_OPTIONS, TrainConfig

FORMATS = """| format | prompt | answer |
|---|---|---|
| counting | `Count from A to B:` (also `Count down from B to A:`, `Count by K from A to B:`) | ` A, A+1, …, B` then end of text |
| sequences | `Letters from C to K:`, `Repeat WORD N times:`, `Times table of K up to N:`, `Copy this list: a, b, c\\nCopy:` | the sequence, then end of text |
| arithmetic | `Question: What is 47 + 38?\\nAnswer:`, `Question: What is (47 + 38) * 6?\\nAnswer:`, or a word problem of one or two operations | worked column by column (`7 + 8 + 0 = 15, 4 + 3 + 1 = 8, 47 + 38 = 85.`), ending `#### <number>` |
| math | `Question: <word problem>\\nAnswer:` | step-by-step solution ending `#### <number>` |
| code | a Python signature with a docstring | a function body |
| plays | a speaker line such as `ROMEO:\\n` | a continuation in the style of the plays |"""

FAMILIES = {
    "generated": "generated very-low-entropy text (counting up and down over uniform ranges, counting "
                 "by K, letter ranges, repetition, times tables, list copying)",
    "counting": "extra counting runs with log-uniform spans (mostly short: many stops at B)",
    "sequence": "extra counting by K and letter ranges",
    "copy": "extra list copying (`Copy this list: …\\nCopy:`)",
    "word-problem": "generated one- and two-step word problems (add, take away, multiply, share, price) "
                    "answered in GSM8K's format, the question's names and numbers restated",
    "arithmetic": "generated arithmetic (forms A `What is a op b?`, B `What is (a op b) op c?` and C, word problems "
                  "from 10 templates), worked column by column, one question key in 10 held out for evaluation",
    "math": "GSM8K train questions with step-by-step answers",
    "plays": "Tiny Shakespeare speeches",
    "code": "HumanEval prompts with canonical solutions",
}


def data_mix(cfg: dict) -> str:
    """The mixes the run used, by samples, read from corpus.MIXES."""
    notes = " (`<<48/2=24>>` calculator notes kept)" if cfg["math_notes"] else " (calculator notes removed)"

    def describe(mix: str) -> str:
        return ", ".join(f"{round(w * 100)} % {FAMILIES[f]}{notes if f == 'math' else ''}"
                         for f, w in MIXES[mix].items())
    stages = [("AR stage", cfg["ar_mix"]), ("WeDLM stage", cfg["wedlm_mix"])]
    if cfg["ar_mix"] == cfg["wedlm_mix"]:
        stages = [("Both stages", cfg["ar_mix"])]
    text = " ".join(f"{name} (`{mix}` mix): {describe(mix)}." for name, mix in stages)
    return (f"By samples. {text} Each answer is followed by end-of-text tokens with labels. "
            "Mixes: `wedlm/training/corpus.py`.")


def reproduce_command(cfg: dict, wedlm_only: bool = False) -> str:
    """The train command with every option the run set away from its default (checkpoint
    spacing aside: it does not change the model). `wedlm_only`: the run trained the WeDLM stage
    from a parent it was given (`--stages wedlm`)."""
    defaults = TrainConfig()
    steps = (f"--stages wedlm --wedlm-steps {cfg['wedlm_steps']}" if wedlm_only
             else f"--ar-steps {cfg['ar_steps']} --wedlm-steps {cfg['wedlm_steps']}")
    parts = ["python -m wedlm train --run-dir runs/tiny", steps]
    changeable = INT_OPTIONS + FLOAT_OPTIONS + MIX_OPTIONS + FAMILY_OPTIONS + TEXT_OPTIONS
    skipped = ("ar_steps", "wedlm_steps", "save_every", "run_dir", "data_dir") + (() if wedlm_only else ("init_from",))
    for name in (n for n in changeable if n not in skipped):
        if cfg[name] != getattr(defaults, name):
            parts.append(f"--{name.replace('_', '-')} {cfg[name]}")
    for name in BOOL_OPTIONS:
        if cfg[name] != getattr(defaults, name):
            parts.append(f"--{'' if cfg[name] else 'no-'}{name.replace('_', '-')}")
    return " ".join(parts + ["--install"])


def _reproduce_note(cfg: dict, wedlm_only: bool) -> str:
    precision = "bf16 autocast" if cfg["bf16"] else "float32"
    if not wedlm_only:
        return f"Reproduce: `{reproduce_command(cfg)}` (2 CPU cores, {precision})."
    if cfg["init_from"]:
        return (f"Reproduce: this run fine-tuned the WeDLM model shipped before it (`{cfg['init_from']}` "
                f"at the commit before this card's): `{reproduce_command(cfg, wedlm_only=True)}` (2 CPU cores, "
                f"{precision}).")
    return ("Reproduce: this run trained the WeDLM stage only, from the shipped parent "
            "(`assets/models/ar-tiny` copied to `runs/tiny/ar-hf`, its tokenizer files to "
            f"`runs/tiny/tokenizer`): `{reproduce_command(cfg, wedlm_only=True)}` (2 CPU cores, "
            f"{precision}). From scratch, both stages: `{reproduce_command(cfg)}`.")


def write_card(folder: Path, stage: str, run_dir: Path, evaluation: dict, eval_command: str) -> None:
    cfg = json.loads((run_dir / "train_config.json").read_text())
    stages = ("ar", "wedlm") if stage == "wedlm" else ("ar",)
    stats = {s: summary(run_dir / s / "log.jsonl") for s in stages if (run_dir / s / "log.jsonl").is_file()}
    for s in stats:
        plot_losses(run_dir / s / "log.jsonl", folder / f"loss-{s}.png", f"{s} stage: training loss")
    from transformers import AutoConfig
    config = AutoConfig.from_pretrained(str(folder))
    params = _count_params(folder)
    title = "WeDLM tiny" if stage == "wedlm" else "AR tiny (the WeDLM model's parent)"
    lines = [f"# {title}", "",
             ("A tiny WeDLM model trained by WeDLM Explorer's own code: an AR model first, then "
              "WeDLM dual-stream masking training from it (docs/design.md in the WeDLM Explorer repository)." if stage == "wedlm" else
              "The autoregressive parent of the bundled WeDLM model: next-token pre-training only. "
              "It is the default AR baseline of the explorer."), "",
             "## Model", "",
             f"- Qwen3 layout (q/k-norm), {config.num_hidden_layers} layers, hidden {config.hidden_size}, "
             f"{config.num_attention_heads} heads ({config.num_key_value_heads} KV heads), MLP {config.intermediate_size}, "
             f"tied embeddings: **{params / 1e6:.2f} M parameters**, float32 safetensors.",
             f"- Tokenizer: byte-level BPE trained on the corpus below, {config.vocab_size} tokens, each "
             f"run of digits split from the text around it (0–100 are single tokens); `<|endoftext|>` (id {config.eos_token_id}) ends text, `<|mask|>` "
             f"(id {config.mask_token_id}, `mask_token_id` in config.json) is the WeDLM mask.",
             "", "## Data", "", data_mix(cfg), "",
             "## Training", "",
             _reproduce_note(cfg, wedlm_only=stage == "wedlm" and "ar" not in stats), "",
             "| stage | steps | tokens seen | wall time | final losses (mean of last 50 steps) |",
             "|---|---|---|---|---|"]
    if stage == "wedlm" and "ar" not in stats:  # a `--stages wedlm` run from an existing parent
        lines.append("| ar | the shipped parent, see [its card](../ar-tiny/README.md) | | | |")
    for s, st in stats.items():
        if stage == "ar" and s != "ar":
            continue
        losses = ", ".join(f"{k[6:]} {v}" for k, v in st.items() if k.startswith("final_"))
        lines.append(f"| {s} | {st['steps']} | {st['tokens'] / 1e6:.1f} M | {st['wall_s'] / 60:.0f} min | {losses} |")
    lines += ["", (f"Sequences of L = {cfg['seq_len']} tokens, batch {cfg['batch_size']}; AR lr {cfg['ar_lr']}, "
                   f"WeDLM lr {cfg['wedlm_lr']}, cosine to 10 %; WeDLM blocks of {cfg['block_size']}, "
                   f"γ ~ U(0,1) per block, prompt tokens never masked; each answer is followed by "
                   f"{cfg['eos_pad']} (AR stage) or {cfg['wedlm_eos_pad']} (WeDLM stage) "
                   "end-of-text tokens with labels"
                   f"{_label_only_note(cfg['wedlm_eos_label_only'])}"
                   f"{_suffix_note(cfg['wedlm_suffix_mask'], cfg['wedlm_suffix_families'])}; "
                   "in the WeDLM stage a block's slots see only "
                   "slots of their own packed sample. "
                   "`ar` is the next-token loss, `masked_ce` the masked-slot cross-entropy (without "
                   "the 1/γ weight)."), ""]
    for s in stats:
        if stage == "ar" and s != "ar":
            continue
        lines.append(f"![{s} loss](loss-{s}.png)")
    lines += ["", "## Prompt formats", "", FORMATS, ""]
    lines += chinese_section(stage, params)
    lines += measured_section(evaluation, eval_command, params)
    (folder / "README.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


MEASURED_HEADING = "## Measured decoding"

ZH_HEADING = "## 中文简介"


def chinese_section(stage: str, params: int) -> list[str]:
    """A short Chinese summary of the card (the model answers English prompts only)."""
    what = ("由 WeDLM 探索器自己的训练代码训练的微型 WeDLM 模型：先训练自回归（AR）模型，再在其基础上做 WeDLM "
            "双流掩码训练。" if stage == "wedlm" else
            "内置 WeDLM 模型的自回归（AR）父模型：只做了下一词元预训练，是探索器默认的 AR 基线。")
    return [ZH_HEADING, "",
            f"{what}Qwen3 结构，约 {params / 1e6:.1f} M 参数，float32，在 2 核 CPU 上训练。它只认识英文提示"
            "（计数、序列、算术、GSM8K 数学、代码、莎士比亚台词，格式见上表），用来在浏览器里逐步演示解码，"
            "不是通用模型。复现命令、数据配比和下方的测量结果都由代码生成。", ""]


def measured_section(evaluation: dict, eval_command: str, params: int) -> list[str]:
    """The card's last section: the evaluation's figures, known limits and sample outputs."""
    lines = [MEASURED_HEADING, "",
             f"Command: `{eval_command}` (defaults W={DEFAULTS['window']}, τ={DEFAULTS['threshold']}, "
             f"λ={DEFAULTS['penalty']}, greedy; this 2-core CPU).", "",
             "| class | prompts | tokens per forward | quality |", "|---|---|---|---|"]
    for cls, s in evaluation["summary"].items():
        quality = ""
        if "exact_and_stopped" in s:
            end = "B" if cls == "counting" else "the end"
            quality = f"{s['exact_and_stopped']}/{s['prompts']} exact and stopped at {end}"
            misses = [f"{s[k]} {what}" for k, what in (("overshoot", f"ran past {end}"), ("early", "ended early"),
                                                       ("wrong", "left the sequence")) if s.get(k)]
            quality += f" ({', '.join(misses)})" if misses else ""
        elif "format_ok" in s:
            quality = f"{s['format_ok']}/{s['prompts']} end in `#### <number>`"
            quality += f", {s['correct']} of them correct" if "correct" in s else ""
        lines.append(f"| {cls} | {s['prompts']} | {s['tokens_per_forward']} | {quality} |")
    limits = []
    for cls, s in evaluation["summary"].items():
        if "exact_and_stopped" in s and s["exact_and_stopped"] < s["prompts"]:
            limits.append(f"{cls} answers are exact and stop at the end in {s['exact_and_stopped']} of "
                          f"{s['prompts']} prompts")
        if "format_ok" in s and s["format_ok"] < s["prompts"]:
            limits.append(f"{cls} answers end in `#### <number>` in {s['format_ok']} of {s['prompts']} questions")
    limits.append(f"GSM8K math, code and plays are fluent-looking at best: a {params / 1e6:.1f} M-parameter model")
    lines += ["", "Known limits: " + "; ".join(limits) + ".", "", "Sample outputs:", ""]
    shown = set()
    for row in evaluation["rows"]:
        if row["class"] in shown:
            continue
        shown.add(row["class"])
        lines += [f"- {row['class']}: `{row['prompt'][:60]!r}` → `{row['text'][:160]!r}`"]
    return lines


def rewrite_measured(folder: Path, evaluation: dict, eval_command: str) -> None:
    """Replace an existing card's measured section (everything from its heading on) with new
    figures, keeping what it says about training: for a shipped model whose run logs are gone."""
    card = folder / "README.md"
    text = card.read_text(encoding="utf-8")
    if MEASURED_HEADING not in text:
        raise ValueError(f"{card} has no {MEASURED_HEADING!r} section to rewrite")
    head = text[:text.index(MEASURED_HEADING)]
    lines = measured_section(evaluation, eval_command, _count_params(folder))
    card.write_text(head + "\n".join(lines) + "\n", encoding="utf-8")


def _count_params(folder: Path) -> int:
    from safetensors import safe_open
    total = 0
    with safe_open(str(folder / "model.safetensors"), "pt") as f:
        for key in f.keys():
            total += _prod(f.get_slice(key).get_shape())
    return total


def _prod(shape) -> int:
    out = 1
    for d in shape:
        out *= d
    return out


def _label_only_note(share: float) -> str:
    if share <= 0:
        return ""
    if share >= 1:
        return " (always masked in the WeDLM stage)"
    return f" (always masked in the WeDLM stage after {share:.0%} of the answers)"


def _suffix_note(share: float, families: str = "") -> str:
    if share <= 0:
        return ""
    which = f"{families} answers" if families else "the answers"
    return (f"; in the WeDLM stage {share:.0%} of {which} are always masked from a random cut "
            "to the end of their end-of-text run")
