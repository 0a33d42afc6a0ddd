"""A byte-level BPE tokenizer with its own end-of-text and mask tokens, saved in HF format."""
from __future__ import annotations

from pathlib import Path
from typing import Iterable

EOS_TOKEN = "<|endoftext|>"
MASK_TOKEN = "<|mask|>"
PAD_TOKEN = "<|pad|>"
SPECIAL_TOKENS = [EOS_TOKEN, MASK_TOKEN, PAD_TOKEN]


def train_tokenizer(texts: Iterable[str], vocab_size: int, out_dir: str | Path):
    """Train byte-level BPE on texts and save it as a transformers fast tokenizer."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    # Digit runs are split from letters and spaces, so a number is spelled the same way in a
    # prompt and an answer; BPE then learns the frequent ones (all of 0-100) as single tokens,
    # which makes "is this number B?" a one-token match for a small model.
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Digits(individual_digits=False),
        pre_tokenizers.ByteLevel(add_prefix_space=False),
    ])
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=SPECIAL_TOKENS,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  show_progress=False)
    tok.train_from_iterator(texts, trainer=trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token=EOS_TOKEN,
                                   mask_token=MASK_TOKEN, pad_token=PAD_TOKEN)
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    fast.save_pretrained(str(out_dir))
    return fast
