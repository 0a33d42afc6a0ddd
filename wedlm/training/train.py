"""The bundled model's recipe: tokenizer -> AR pre-training -> WeDLM dual-stream training.

Every number that matters is in TrainConfig. Each stage checkpoints into the run folder and
resumes from there; each ends by exporting a Hugging Face folder that `load_model` reads.
"""
from __future__ import annotations

import ctypes
import json
import math
import random
import time
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import torch
from tqdm import tqdm

from .corpus import DEFAULT_DATA_DIR, SampleStream, encode_answer, parse_families, tokenizer_texts
from .objective import ar_loss, wedlm_loss
from .tokenizer import train_tokenizer


@dataclass
class TrainConfig:
    run_dir: str = "runs/tiny"
    data_dir: str = str(DEFAULT_DATA_DIR)
    vocab_size: int = 4096
    hidden_size: int = 256
    num_layers: int = 6
    num_heads: int = 4
    num_kv_heads: int = 2
    intermediate_size: int = 704
    seq_len: int = 512          # L (fits "Count from 1 to 100" whole); the WeDLM stage feeds 2L
    batch_size: int = 8
    block_size: int = 32        # dual-stream block B
    eos_pad: int = 8            # AR stage: end-of-text tokens (with labels) after each answer
    wedlm_eos_pad: int = 4      # WeDLM stage: few, so that masks after B often see no later one
    wedlm_eos_label_only: float = 0.0  # WeDLM stage: share of samples whose run is always masked
    wedlm_suffix_mask: float = 1.0     # WeDLM stage: share of samples masked from a random cut to the end
    # ... of these sample families only (comma-separated; empty: all): the answers the prompt
    # fixes, whose masks past a cut must find the end from the prompt (on plays it taught "stop")
    wedlm_suffix_families: str = "counting,sequence,repetition,table,copy"
    math_notes: bool = False    # keep GSM8K's <<a*b=c>> calculator notes (the shipped models have none)
    ar_mix: str = "stop"        # sample mix per stage (corpus.MIXES)
    wedlm_mix: str = "more-sequences"
    ar_steps: int = 3000
    wedlm_steps: int = 3200
    ar_lr: float = 1e-3
    wedlm_lr: float = 5e-4
    warmup_steps: int = 100
    weight_decay: float = 0.05
    save_every: int = 100
    seed: int = 0
    init_from: str = ""         # WeDLM stage: start from this Hugging Face folder (and its tokenizer)
                                # instead of the run's AR parent: a fine-tune of a shipped model
    bf16: bool | None = None    # bf16 autocast; None: where the CPU has bf16 units (elsewhere
                                # autocast emulates it: 2.3x slower than fp32 on an AVX-512 Xeon)


# The train command's options, one per TrainConfig field, by type (cli.py builds them; the model
# card names the ones a run changed). Annotations are strings here (`from __future__`).
def _options(*types: str) -> tuple[str, ...]:
    return tuple(f.name for f in fields(TrainConfig) if f.type in types)


MIX_OPTIONS = tuple(f.name for f in fields(TrainConfig) if f.name.endswith("_mix"))
FAMILY_OPTIONS = tuple(f.name for f in fields(TrainConfig) if f.name.endswith("_families"))
INT_OPTIONS = _options("int")
FLOAT_OPTIONS = _options("float")
BOOL_OPTIONS = _options("bool")
TEXT_OPTIONS = tuple(n for n in _options("str") if n not in MIX_OPTIONS + FAMILY_OPTIONS)


class Packer:
    """Packs samples into rows of seq_len: (tokens, maskable, sample, label_only) where prompt
    ids are not maskable, answer ids and the end-of-text run after them are, `sample` numbers
    the sample each token belongs to (the WeDLM stage keeps a block's masks from seeing other
    samples), and `label_only` marks the tokens always to be masked: the end-of-text run (in a
    share `eos_label_only` of the samples), or the answer from a random cut to the end of the
    run (in a share `suffix_mask`): the masks then see nothing of their sample to their right,
    as the masks at a decoding window's edge, whether the answer goes on or ends there."""

    def __init__(self, stream: SampleStream, tokenizer, cfg: TrainConfig, eos_pad: int | None = None,
                 eos_label_only: float = 0.0, suffix_mask: float = 0.0, suffix_families: str = ""):
        self.stream, self.tok, self.cfg = stream, tokenizer, cfg
        self.eos_pad = cfg.eos_pad if eos_pad is None else eos_pad
        self.eos_label_only = float(eos_label_only)
        self.suffix_mask = float(suffix_mask)
        self.suffix_families = parse_families(suffix_families)
        self.ids: list[int] = []
        self.maskable: list[bool] = []
        self.sample: list[int] = []
        self.label_only: list[bool] = []
        self.count = 0

    def _add_sample(self) -> None:
        s = self.stream.next()
        prompt = self.tok.encode(s.prompt, add_special_tokens=False)
        answer = encode_answer(self.tok, s)
        eos = [self.tok.eos_token_id] * self.eos_pad
        self.ids += prompt + answer + eos
        self.maskable += [False] * len(prompt) + [True] * (len(answer) + len(eos))
        self.sample += [self.count] * (len(prompt) + len(answer) + len(eos))
        # drawn from the sample's number, so a resumed run draws the same without extra state
        draw = random.Random(self.cfg.seed * 1_000_003 + self.count)
        cut = len(answer) if draw.random() < self.eos_label_only else len(answer) + len(eos)
        suffix = draw.random() < self.suffix_mask
        if suffix and (not self.suffix_families or s.family in self.suffix_families):
            cut = min(cut, draw.randrange(len(answer) + len(eos)))
        self.label_only += ([False] * (len(prompt) + cut)) + [True] * (len(answer) + len(eos) - cut)
        self.count += 1

    def batch(self) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        need = self.cfg.batch_size * self.cfg.seq_len
        while len(self.ids) < need:
            self._add_sample()
        shape = (self.cfg.batch_size, self.cfg.seq_len)
        rows = []
        for name in ("ids", "maskable", "sample", "label_only"):
            kept = getattr(self, name)
            rows.append(torch.tensor(kept[:need]).view(shape))
            setattr(self, name, kept[need:])
        return tuple(rows)

    def state_dict(self) -> dict:
        """The stream's state and the tokens left over for the next batch."""
        return {"stream": self.stream.state_dict(), "ids": list(self.ids),
                "maskable": list(self.maskable), "sample": list(self.sample),
                "label_only": list(self.label_only), "count": self.count}

    def load_state_dict(self, state: dict) -> None:
        self.stream.load_state_dict(state["stream"])
        self.ids, self.maskable = list(state["ids"]), list(state["maskable"])
        self.sample, self.count = list(state["sample"]), state["count"]
        self.label_only = list(state["label_only"])


def build_tokenizer(cfg: TrainConfig):
    from transformers import AutoTokenizer
    if cfg.init_from:
        return AutoTokenizer.from_pretrained(cfg.init_from)
    folder = Path(cfg.run_dir) / "tokenizer"
    if not (folder / "tokenizer.json").is_file():
        train_tokenizer(tokenizer_texts(cfg.data_dir, cfg.seed, math_notes=cfg.math_notes),
                        cfg.vocab_size, folder)
    return AutoTokenizer.from_pretrained(str(folder))


def new_model(cfg: TrainConfig, tokenizer):
    from transformers import Qwen3Config, Qwen3ForCausalLM
    config = Qwen3Config(
        vocab_size=len(tokenizer), hidden_size=cfg.hidden_size, intermediate_size=cfg.intermediate_size,
        num_hidden_layers=cfg.num_layers, num_attention_heads=cfg.num_heads,
        num_key_value_heads=cfg.num_kv_heads, head_dim=cfg.hidden_size // cfg.num_heads,
        max_position_embeddings=1024, rope_theta=10000.0, tie_word_embeddings=True,
        eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id,
        bos_token_id=None, attn_implementation="sdpa")
    torch.manual_seed(cfg.seed)
    return Qwen3ForCausalLM(config)


def lr_at(step: int, total: int, peak: float, warmup: int) -> float:
    if step < warmup:
        return peak * (step + 1) / warmup
    progress = (step - warmup) / max(1, total - warmup)
    return peak * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(progress, 1.0))))


def export(model, tokenizer, folder: Path, mask_token_id: int) -> None:
    """A Hugging Face folder: safetensors, config with mask_token_id, tokenizer."""
    folder.mkdir(parents=True, exist_ok=True)
    model.config.mask_token_id = mask_token_id
    model.config.use_cache = True
    model.save_pretrained(str(folder))
    tokenizer.save_pretrained(str(folder))


def run_stage(stage: str, cfg: TrainConfig, model, tokenizer, steps: int, peak_lr: float) -> None:
    """One training stage with checkpoint/resume, a progress bar and a JSONL loss log."""
    stage_dir = Path(cfg.run_dir) / stage
    stage_dir.mkdir(parents=True, exist_ok=True)
    ckpt_file, log_file = stage_dir / "checkpoint.pt", stage_dir / "log.jsonl"
    optim = torch.optim.AdamW(model.parameters(), lr=peak_lr, betas=(0.9, 0.95),
                              weight_decay=cfg.weight_decay)
    start_step, elapsed = 0, 0.0
    stream = SampleStream(cfg.data_dir, seed=cfg.seed + (0 if stage == "ar" else 1),
                          mix=cfg.ar_mix if stage == "ar" else cfg.wedlm_mix, math_notes=cfg.math_notes)
    packer = (Packer(stream, tokenizer, cfg, cfg.eos_pad) if stage == "ar" else
              Packer(stream, tokenizer, cfg, cfg.wedlm_eos_pad, cfg.wedlm_eos_label_only,
                     cfg.wedlm_suffix_mask, cfg.wedlm_suffix_families))
    if ckpt_file.is_file():
        state = torch.load(ckpt_file, weights_only=False)
        model.load_state_dict(state["model"])
        optim.load_state_dict(state["optim"])
        start_step, elapsed = state["step"], state["elapsed"]
        packer.load_state_dict(state["packer"])
        torch.set_rng_state(state["torch_rng"])
        if log_file.is_file():  # drop steps logged after the checkpoint: they are redone
            kept = [line for line in log_file.read_text().splitlines()
                    if json.loads(line)["step"] <= start_step]
            log_file.write_text("".join(line + "\n" for line in kept))
    mask_id = tokenizer.mask_token_id
    model.train()
    bar = tqdm(range(start_step, steps), initial=start_step, total=steps, desc=stage, unit="step")
    t_last = time.perf_counter()
    for step in bar:
        for group in optim.param_groups:
            group["lr"] = lr_at(step, steps, peak_lr, cfg.warmup_steps)
        tokens, maskable, sample, label_only = packer.batch()
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=cfg.bf16):
            out = (ar_loss(model, tokens) if stage == "ar"
                   else wedlm_loss(model, tokens, maskable, mask_id, cfg.block_size, sample=sample,
                                   label_only=label_only))
        optim.zero_grad(set_to_none=True)
        out["loss"].backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optim.step()
        now = time.perf_counter()
        elapsed += now - t_last
        t_last = now
        losses = {k: v.item() for k, v in out.items()}  # one host read per loss
        record = {"step": step + 1, "lr": optim.param_groups[0]["lr"], "elapsed_s": round(elapsed, 1),
                  "tokens": (step + 1) * cfg.batch_size * cfg.seq_len,
                  **{k: round(v, 4) for k, v in losses.items()}}
        with open(log_file, "a") as f:
            f.write(json.dumps(record) + "\n")
        bar.set_postfix({k: f"{v:.3f}" for k, v in losses.items() if k != "loss"})
        if (step + 1) % cfg.save_every == 0 or step + 1 == steps:
            torch.save({"model": model.state_dict(), "optim": optim.state_dict(), "step": step + 1,
                        "elapsed": elapsed, "packer": packer.state_dict(),
                        "torch_rng": torch.get_rng_state()}, ckpt_file.with_suffix(".tmp"))
            # replaced whole, so a run killed while saving (or a reader) never meets half a file
            ckpt_file.with_suffix(".tmp").replace(ckpt_file)
    model.eval()


def keep_freed_memory_in_heap() -> bool:
    """Ask glibc to keep large freed blocks instead of handing them back to the OS: by default
    every tensor over 32 MiB (the logits, the 2L x 2L mask) is mmapped and unmapped at each step
    and its pages faulted in again, which cost about a fifth of a WeDLM step on a 2-core CPU.
    False where the C library is not glibc (nothing changes there)."""
    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):
        return False
    m_trim_threshold, m_top_pad, m_mmap_threshold = -1, -2, -3   # malloc.h
    settings = ((m_mmap_threshold, 1 << 30), (m_trim_threshold, 1 << 30), (m_top_pad, 1 << 28))
    return all([mallopt(param, value) == 1 for param, value in settings])  # every one, even after a refusal


def train(cfg: TrainConfig, stages: tuple[str, ...] = ("ar", "wedlm")) -> dict[str, Path]:
    """Run the recipe; returns the exported folders per stage."""
    torch.set_num_threads(max(1, torch.get_num_threads()))
    keep_freed_memory_in_heap()
    if cfg.bf16 is None:
        caps = torch.cpu.get_capabilities()
        cfg.bf16 = bool(caps.get("amx_bf16") or caps.get("avx512_bf16"))
    run_dir = Path(cfg.run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "train_config.json").write_text(json.dumps(asdict(cfg), indent=1))
    tokenizer = build_tokenizer(cfg)
    mask_id = tokenizer.mask_token_id
    exported = {}
    model = new_model(cfg, tokenizer)
    if "ar" in stages:
        run_stage("ar", cfg, model, tokenizer, cfg.ar_steps, cfg.ar_lr)
        exported["ar"] = run_dir / "ar-hf"
        export(model, tokenizer, exported["ar"], mask_id)
    if "wedlm" in stages:
        from transformers import AutoModelForCausalLM
        # WeDLM training starts from the AR parent, as in the paper (or a given model: a fine-tune).
        start = cfg.init_from or str(run_dir / "ar-hf")
        model = AutoModelForCausalLM.from_pretrained(start, dtype=torch.float32)
        run_stage("wedlm", cfg, model, tokenizer, cfg.wedlm_steps, cfg.wedlm_lr)
        exported["wedlm"] = run_dir / "wedlm-hf"
        export(model, tokenizer, exported["wedlm"], mask_id)
    return exported

