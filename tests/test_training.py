"""The dual-stream objective (docs/design.md#training-dual-stream-masking) and the training plumbing."""
import random

import pytest
import torch
from corpora import MATH_PROBLEMS

from wedlm.reorder import visibility
from wedlm.training.objective import (ar_loss, dual_stream_inputs, sample_masks, training_mask,
                                      wedlm_loss)


def small_tokenizer(folder, data_dir):
    """A 600-token BPE tokenizer on 300 training samples drawn from data_dir, saved in folder."""
    from wedlm.training.corpus import SampleStream
    from wedlm.training.tokenizer import train_tokenizer
    stream = SampleStream(data_dir, seed=0)
    return train_tokenizer([s.prompt + s.answer for s in (stream.next() for _ in range(300))], 600, folder)


def tiny_train_config(run_dir, data_dir, **knobs):
    """A one-layer model trained in a few fp32 steps on data_dir, checkpointing every 2 steps."""
    from wedlm.training.train import TrainConfig
    return TrainConfig(**{"run_dir": str(run_dir), "data_dir": str(data_dir), "hidden_size": 32, "num_layers": 1, "num_heads": 2,
                          "num_kv_heads": 1, "intermediate_size": 64, "seq_len": 64, "batch_size": 2,
                          "warmup_steps": 1, "save_every": 2, "bf16": False, **knobs})


def test_training_mask_hand_checked():
    # L = 4, blocks of 2; xt = [a, MASK, MASK, d]
    is_mask = torch.tensor([[False, True, True, False]])
    got = training_mask(is_mask, block_size=2)[0, 0].int().tolist()
    assert got == [
        # x0: plainly causal            xt: nothing
        [1, 0, 0, 0, 0, 0, 0, 0],
        [1, 1, 0, 0, 0, 0, 0, 0],
        [1, 1, 1, 0, 0, 0, 0, 0],
        [1, 1, 1, 1, 0, 0, 0, 0],
        # block 0 sees no x0 (no earlier block); a sees a; the mask sees a and itself
        [0, 0, 0, 0, 1, 0, 0, 0],
        [0, 0, 0, 0, 1, 1, 0, 0],
        # block 1 sees clean x0 of block 0; reordered [d, MASK]: the mask sees d, d sees itself
        [1, 1, 0, 0, 0, 0, 1, 1],
        [1, 1, 0, 0, 0, 0, 0, 1],
    ]


def test_block_mask_is_the_inference_visibility_rule():
    gen = torch.Generator().manual_seed(0)
    is_mask = torch.rand(3, 64, generator=gen) < 0.5
    full = training_mask(is_mask, block_size=16)[:, 0]
    for b in range(3):
        for start in range(0, 64, 16):
            window = [None if m else 1 for m in is_mask[b, start:start + 16].tolist()]
            block = full[b, 64 + start:64 + start + 16, 64 + start:64 + start + 16]
            assert block.tolist() == visibility(window)
            assert not full[b, 64 + start:64 + start + 16, start:64].any()  # no later/same x0
            assert full[b, 64 + start:64 + start + 16, :start].all()          # all earlier x0


def test_prompt_tokens_are_never_masked_and_every_block_masks_something():
    gen = torch.Generator().manual_seed(1)
    maskable = torch.ones(8, 96, dtype=torch.bool)
    maskable[:, :40] = False  # a 40-token prompt
    is_mask, weight = sample_masks(maskable, block_size=32, generator=gen)
    assert not is_mask[:, :40].any()
    assert is_mask[:, 40:64].any(dim=1).all() and is_mask[:, 64:].any(dim=1).all()
    assert (weight[is_mask] >= 1).all() and (weight[~is_mask] == 0).all()
    ratios = is_mask[:, 64:].float().mean(dim=1)
    assert ratios.min() < 0.5 < ratios.max()  # gamma really varies per block


def test_both_streams_share_logical_positions():
    tokens = torch.arange(2 * 40).view(2, 40) + 10
    inputs = dual_stream_inputs(tokens, torch.ones_like(tokens, dtype=torch.bool), 3, 8)
    pos = inputs["position_ids"]
    assert torch.equal(pos[:, :40], pos[:, 40:]) and pos[0, :40].tolist() == list(range(40))
    assert torch.equal(inputs["input_ids"][:, :40], tokens)
    xt = inputs["input_ids"][:, 40:]
    assert torch.equal(xt == 3, inputs["is_mask"])
    assert torch.equal(xt[~inputs["is_mask"]], tokens[~inputs["is_mask"]])


def test_a_few_steps_lower_both_losses():
    from transformers import Qwen3Config, Qwen3ForCausalLM
    torch.manual_seed(0)
    model = Qwen3ForCausalLM(Qwen3Config(vocab_size=50, hidden_size=64, intermediate_size=128,
                                         num_hidden_layers=2, num_attention_heads=4,
                                         num_key_value_heads=2, head_dim=16,
                                         attn_implementation="sdpa"))
    rng = random.Random(0)
    rows = []
    for _ in range(8):  # counting-like rows: very learnable
        start = rng.randint(5, 20)
        rows.append([(start + i) % 45 + 5 for i in range(64)])
    tokens = torch.tensor(rows)
    maskable = torch.ones_like(tokens, dtype=torch.bool)
    maskable[:, :8] = False
    optim = torch.optim.AdamW(model.parameters(), lr=3e-3)
    gen = torch.Generator().manual_seed(0)
    first = last = None
    for step in range(40):
        out = wedlm_loss(model, tokens, maskable, mask_token_id=1, block_size=16, generator=gen)
        optim.zero_grad()
        out["loss"].backward()
        optim.step()
        if step == 0:
            first = out
        last = out
    assert last["masked_ce"] < 0.5 * first["masked_ce"]
    assert last["ar"] < 0.5 * first["ar"]
    assert ar_loss(model, tokens)["ar"] < first["ar"]


def test_packer_keeps_prompts_unmaskable(tmp_path, tiny_corpora):
    from wedlm.training.corpus import SampleStream
    from wedlm.training.train import Packer, TrainConfig
    tok = small_tokenizer(tmp_path, tiny_corpora)
    cfg = TrainConfig(batch_size=2, seq_len=128, eos_pad=4)
    packer = Packer(SampleStream(tiny_corpora, seed=3), tok, cfg)
    ids, maskable, _, _ = packer.batch()
    assert ids.shape == maskable.shape == (2, 128)
    flat_ids, flat_mask = ids.flatten().tolist(), maskable.flatten().tolist()
    text_of_prompts = tok.decode([i for i, m in zip(flat_ids, flat_mask) if not m])
    assert any(key in text_of_prompts for key in ("Question:", "Count", ":", "def "))
    eos = tok.eos_token_id
    assert all(m for i, m in zip(flat_ids, flat_mask) if i == eos)  # end-of-text is learned


def test_packer_numbers_the_sample_of_every_token(tmp_path, tiny_corpora):
    from wedlm.training.corpus import SampleStream
    from wedlm.training.train import Packer, TrainConfig
    tok = small_tokenizer(tmp_path, tiny_corpora)
    ids, maskable, sample, _ = Packer(SampleStream(tiny_corpora, seed=3), tok,
                                   TrainConfig(batch_size=4, seq_len=128), eos_pad=2).batch()
    flat_ids, flat_mask, flat_sample = (t.flatten().tolist() for t in (ids, maskable, sample))
    eos = tok.eos_token_id
    for i in range(1, len(flat_ids)):
        new_prompt = not flat_mask[i] and flat_mask[i - 1]
        assert (flat_sample[i] == flat_sample[i - 1] + 1) == new_prompt  # a sample starts at its prompt
        if new_prompt:  # ... right after exactly eos_pad end-of-text tokens
            assert flat_ids[i - 2:i] == [eos, eos] and flat_ids[i - 3] != eos
    assert flat_sample[-1] - flat_sample[0] >= 3


def test_label_only_end_of_text_is_always_masked_and_never_seen(tmp_path, tiny_corpora):
    from wedlm.training.corpus import SampleStream
    from wedlm.training.train import Packer, TrainConfig
    tok = small_tokenizer(tmp_path, tiny_corpora)
    ids, maskable, sample, label_only = Packer(SampleStream(tiny_corpora, seed=3), tok,
                                               TrainConfig(batch_size=4, seq_len=128), eos_pad=3,
                                               eos_label_only=True).batch()
    eos = tok.eos_token_id
    assert torch.equal(label_only, ids == eos) and label_only.any()  # exactly the end-of-text runs
    others = maskable & ~label_only
    masked_others = []
    for seed in range(4):
        inputs = dual_stream_inputs(ids, maskable, tok.mask_token_id, 32,
                                    torch.Generator().manual_seed(seed), sample, label_only)
        xt = inputs["input_ids"][:, 128:]
        assert (xt[label_only] == tok.mask_token_id).all()       # never observed in xt ...
        assert (inputs["weight"][label_only] == 1).all()         # ... and labelled, weight 1
        assert not (xt == eos).any()
        masked_others.append(inputs["is_mask"][others].float().mean().item())
    assert 0 < min(masked_others) < max(masked_others) < 1       # the answer is still masked by γ


def test_label_only_share_is_drawn_per_sample_and_the_same_on_resume(tmp_path, tiny_corpora):
    from wedlm.training.corpus import SampleStream
    from wedlm.training.train import Packer, TrainConfig
    tok = small_tokenizer(tmp_path, tiny_corpora)
    cfg = TrainConfig(batch_size=8, seq_len=128)

    def packer():
        return Packer(SampleStream(tiny_corpora, seed=3), tok, cfg, eos_pad=3, eos_label_only=0.5)
    first = packer()
    ids, _, sample, label_only = first.batch()
    eos_runs = {s: label_only[(sample == s) & (ids == tok.eos_token_id)] for s in sample.unique().tolist()}
    runs = [r for r in eos_runs.values() if len(r)]
    assert all(r.all() or not r.any() for r in runs)             # a whole run or none of it
    shares = sum(bool(r.all()) for r in runs) / len(runs)
    assert 0.2 < shares < 0.8                                     # about half the samples
    resumed = packer()
    resumed.load_state_dict(first.state_dict())
    assert torch.equal(resumed.batch()[3], first.batch()[3])       # same draws after a resume


def test_suffix_mask_hides_each_chosen_answer_from_a_cut_to_its_end(tmp_path, tiny_corpora):
    from wedlm.training.corpus import SampleStream
    from wedlm.training.train import Packer, TrainConfig
    tok = small_tokenizer(tmp_path, tiny_corpora)
    ids, maskable, sample, label_only = Packer(SampleStream(tiny_corpora, seed=3), tok,
                                               TrainConfig(batch_size=48, seq_len=128), eos_pad=4,
                                               suffix_mask=0.5).batch()
    assert not (label_only & ~maskable).any()                     # never a prompt token
    cut_mid_answer = whole = 0
    for s in sample.unique().tolist()[1:-1]:                       # samples cut by the rows aside
        own = label_only[sample == s]
        answer = maskable[sample == s]
        if not own.any():
            continue
        first = int(own.nonzero()[0])
        assert own[first:].all()                                   # one run, to the sample's end
        assert answer[first:].all()
        is_eos = ids[sample == s] == tok.eos_token_id
        cut_mid_answer += bool(not is_eos[first])
        whole += 1
    samples = len(sample.unique()) - 2
    assert 0.2 < whole / samples < 0.8                             # about half the samples
    assert cut_mid_answer > whole / 2                              # mostly inside the answer
    inputs = dual_stream_inputs(ids, maskable, tok.mask_token_id, 32,
                                torch.Generator().manual_seed(0), sample, label_only)
    xt = inputs["input_ids"][:, 128:]
    assert (xt[label_only] == tok.mask_token_id).all() and (inputs["weight"][label_only] == 1).all()



def test_suffix_mask_can_be_kept_to_some_families(tmp_path, tiny_corpora):
    from wedlm.training.corpus import SampleStream
    from wedlm.training.train import Packer, TrainConfig
    tok = small_tokenizer(tmp_path, tiny_corpora)
    stream = SampleStream(tiny_corpora, seed=3)
    real_next = stream.next
    # record each sample in draw order (the packer numbers samples in that order)
    drawn = []
    stream.next = lambda: drawn.append(real_next()) or drawn[-1]
    ids, maskable, sample, label_only = Packer(stream, tok, TrainConfig(batch_size=48, seq_len=128),
                                               eos_pad=4, suffix_mask=1.0,
                                               suffix_families="counting,sequence").batch()
    hit = {s: bool(label_only[sample == s].any()) for s in sample.unique().tolist()[1:-1]}
    assert all(hit[s] == (drawn[s].family in ("counting", "sequence")) for s in hit)
    assert any(hit.values()) and not all(hit.values())


def test_the_named_sample_families_are_the_ones_the_stream_draws(tiny_corpora):
    from wedlm.training.corpus import MIXES, SAMPLE_FAMILIES, SampleStream, parse_families
    drawn = set()
    for mix in MIXES:
        stream = SampleStream(tiny_corpora, seed=1, mix=mix)
        drawn |= {stream.next().family for _ in range(2000)}
    assert drawn == set(SAMPLE_FAMILIES)
    assert parse_families(" counting, copy ,") == {"counting", "copy"} and parse_families("") == set()
    with pytest.raises(ValueError, match="unknown poems"):
        parse_families("counting,poems")


def test_the_more_sequences_mix_draws_counting_by_k_and_letter_ranges_more_often(tiny_corpora):
    from wedlm.training.corpus import SampleStream

    def sequence_share(mix):
        stream = SampleStream(tiny_corpora, seed=2, mix=mix)
        return sum(stream.next().family == "sequence" for _ in range(4000)) / 4000
    # by the weights: 0.25 * 2/8 = 0.0625 against 0.12 + 0.2 * 2/8 = 0.17
    assert 0.05 < sequence_share("more-stops") < 0.08 and 0.15 < sequence_share("more-sequences") < 0.19


def test_math_answers_lose_their_calculator_notes_unless_told_to_keep_them(tiny_corpora):
    from wedlm.training.corpus import math_samples
    kept, removed = math_samples(tiny_corpora, notes=True), math_samples(tiny_corpora)
    assert len(kept) == len(removed) == MATH_PROBLEMS
    # every answer but the last one written has notes (tests/corpora.py)
    assert sum("<<" in s.answer for s in kept) == MATH_PROBLEMS - 1 and not any("<<" in s.answer for s in removed)
    # a note repeats the expression before it and is repeated after it: `48/2 = <<48/2=24>>24`
    assert "48/2 = <<48/2=24>>24" in kept[0].answer and "48/2 = 24" in removed[0].answer
    assert all(s.answer.rstrip().split("\n")[-1].startswith("#### ") for s in kept)


def test_training_mask_keeps_each_sample_to_itself_inside_a_block():
    # L = 6, blocks of 3; samples [0, 0, 1 | 1, 1, 1]; xt = [a, M, M | d, M, f]
    is_mask = torch.tensor([[False, True, True, False, True, False]])
    got = training_mask(is_mask, 3, torch.tensor([[0, 0, 1, 1, 1, 1]]))[0, 0, 6:].int().tolist()
    assert got == [
        [0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0],  # a
        [0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0],  # M of sample 0 sees a, not the mask of sample 1
        [0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0],  # M of sample 1 sees neither a nor the other mask
        [1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0],  # block 1: clean x0 of block 0, then [d, f, M]
        [1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1],
        [1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 1],
    ]


def test_masks_cannot_read_the_next_samples_prompt():
    """The end of an answer and the next (never masked) prompt share a block: the answer's
    masked slots must predict the same whatever that prompt says."""
    from transformers import Qwen3Config, Qwen3ForCausalLM
    torch.manual_seed(0)
    model = Qwen3ForCausalLM(Qwen3Config(vocab_size=40, hidden_size=32, intermediate_size=64,
                                         num_hidden_layers=2, num_attention_heads=2,
                                         num_key_value_heads=1, head_dim=16,
                                         attn_implementation="sdpa")).eval()
    tokens = torch.tensor([[5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]])
    sample = torch.tensor([[0] * 10 + [1] * 6])                    # sample 1's prompt: slots 10-15
    maskable = torch.tensor([[False] * 2 + [True] * 8 + [False] * 6])

    def masked_logits(next_prompt, with_samples):
        t = tokens.clone()
        t[0, 10:] = torch.tensor(next_prompt)
        gen = torch.Generator().manual_seed(0)
        inputs = dual_stream_inputs(t, maskable, 1, 16, gen, sample if with_samples else None)
        with torch.no_grad():  # the bool mask on sdpa, exactly as wedlm_loss feeds it
            logits = model(input_ids=inputs["input_ids"], position_ids=inputs["position_ids"],
                           attention_mask=inputs["attention_mask"]).logits[0, 16:]
        return logits[inputs["is_mask"][0]]

    other = [30, 31, 32, 33, 34, 35]
    assert torch.allclose(masked_logits(list(range(21, 27)), True), masked_logits(other, True))
    assert not torch.allclose(masked_logits(list(range(21, 27)), False), masked_logits(other, False))


def test_training_resumes_from_its_checkpoint_and_logs_each_step_once(tmp_path, tiny_corpora):
    import json

    from wedlm.training.train import TrainConfig, train
    small_tokenizer(tmp_path / "tokenizer", tiny_corpora)  # in place: train() reuses it
    cfg = tiny_train_config(tmp_path, tiny_corpora, ar_steps=3)
    train(cfg, stages=("ar",))
    log = tmp_path / "ar" / "log.jsonl"
    with open(log, "a") as f:  # a step logged after the last checkpoint, as when a run is killed
        f.write(json.dumps({"step": 4, "ar": 9.9}) + "\n")
    exported = train(TrainConfig(**{**cfg.__dict__, "ar_steps": 5}), stages=("ar",))
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [r["step"] for r in records] == [1, 2, 3, 4, 5]
    assert records[3]["ar"] != 9.9                      # step 4 was redone, not kept
    assert torch.load(tmp_path / "ar" / "checkpoint.pt", weights_only=False)["step"] == 5
    assert (exported["ar"] / "model.safetensors").is_file()


def test_a_killed_and_resumed_run_ends_with_the_same_weights_as_an_uninterrupted_one(tmp_path, monkeypatch, tiny_corpora):
    """Resume restores the model, optimizer, rngs and the packer (its leftover tokens and the
    unseen order of each real-data pool), so the batches after a resume are the ones an
    uninterrupted run would have drawn."""
    from safetensors.torch import load_file

    from wedlm.training.train import Packer, train
    runs = {}
    for name in ("straight", "killed"):
        small_tokenizer(tmp_path / name / "tokenizer", tiny_corpora)
        runs[name] = tiny_train_config(tmp_path / name, tiny_corpora, ar_steps=2, wedlm_steps=5)
    train(runs["straight"])
    real_batch, batches = Packer.batch, []

    def dies_at_the_fourth_wedlm_batch(self):
        batches.append(self)
        if len(batches) == 2 + 4:  # 2 AR batches, then the 4th WeDLM batch
            raise KeyboardInterrupt
        return real_batch(self)

    monkeypatch.setattr(Packer, "batch", dies_at_the_fourth_wedlm_batch)
    with pytest.raises(KeyboardInterrupt):
        train(runs["killed"])
    monkeypatch.setattr(Packer, "batch", real_batch)
    train(runs["killed"])  # resumes the WeDLM stage from its step-2 checkpoint
    straight = load_file(str(tmp_path / "straight" / "wedlm-hf" / "model.safetensors"))
    resumed = load_file(str(tmp_path / "killed" / "wedlm-hf" / "model.safetensors"))
    assert straight.keys() == resumed.keys()
    for key in straight:
        assert torch.equal(straight[key], resumed[key]), key


def test_counting_failures_are_told_apart():
    from wedlm.training.evaluate import counting_failure, counting_prompts
    expected = " 7, 8, 9, 10"
    assert counting_failure(" 7, 8, 9, 10", True, expected) is None
    assert counting_failure(" 7, 8, 9, 10, 11, 12", True, expected) == "overshoot"
    assert counting_failure(" 7, 8, 9, 10", False, expected) == "overshoot"   # never stopped
    assert counting_failure(" 7, 8,", True, expected) == "early"
    assert counting_failure(" 7, 9, 10", True, expected) == "wrong"
    assert counting_prompts(24, 7)[:12] != counting_prompts(12, 0)           # the seed draws other ranges
    assert all(1 <= a < b <= 100 for a, b in counting_prompts(24, 7))
    table = "\n2 x 1 = 2\n2 x 2 = 4\n2 x 3 = 6"
    assert counting_failure("\n2 x 1 = 2\n2 x 2 = 4\n", True, table) == "early"


def test_sequence_prompts_take_each_taught_format_in_turn():
    from wedlm.training.evaluate import sequence_prompts
    samples = sequence_prompts(6, 3)
    assert [s.prompt.split()[0] for s in samples] == ["Count", "Letters", "Times"] * 2
    assert samples != sequence_prompts(6, 4)                                   # the seed draws others
    by5 = next(s for s in sequence_prompts(60) if s.prompt.startswith("Count by 5 from "))
    a, b = map(int, by5.prompt[len("Count by 5 from "):-1].split(" to "))
    assert by5.answer == " " + ", ".join(str(n) for n in range(a, b + 1, 5))


def test_the_card_names_every_training_option_the_run_changed():
    from dataclasses import asdict
    from wedlm.cli import build_parser
    from wedlm.training.card import reproduce_command
    from wedlm.training.train import TrainConfig
    cfg = asdict(TrainConfig(wedlm_steps=800, block_size=16, wedlm_eos_label_only=0.2, wedlm_mix="stop",
                             wedlm_suffix_mask=0.5, wedlm_suffix_families="counting",
                             math_notes=not TrainConfig.math_notes))
    command = reproduce_command(cfg)
    assert "--block-size 16" in command and "--wedlm-eos-label-only 0.2" in command
    assert "--wedlm-suffix-mask 0.5" in command and "--wedlm-suffix-families counting" in command
    assert "--wedlm-mix stop" in command and "--eos-pad" not in command  # defaults left out
    notes_flag = "--no-math-notes" if TrainConfig.math_notes else "--math-notes"
    assert notes_flag in command and "math-notes" not in reproduce_command(asdict(TrainConfig()))
    args = build_parser().parse_args(command.split()[3:])                     # the CLI takes it back
    assert (args.block_size, args.wedlm_eos_label_only, args.wedlm_mix, args.wedlm_steps) == (16, 0.2, "stop", 800)
    assert (args.wedlm_suffix_mask, args.wedlm_suffix_families) == (0.5, "counting")
    assert args.math_notes is not TrainConfig.math_notes
    again = build_parser().parse_args(reproduce_command(cfg, wedlm_only=True).split()[3:])
    assert (again.stages, again.wedlm_steps, again.wedlm_mix) == ("wedlm", 800, "stop")


def test_install_copies_only_the_stages_the_run_trained(tmp_path, tiny_corpora):
    import shutil
    from wedlm.training.install import install
    from wedlm.training.train import train
    small_tokenizer(tmp_path / "full" / "tokenizer", tiny_corpora)
    train(tiny_train_config(tmp_path / "full", tiny_corpora, ar_steps=2, wedlm_steps=2))
    assets = tmp_path / "assets"
    install(tmp_path / "full", assets, max_new_tokens=8)  # short decodes: untrained
    ar_card = (assets / "ar-tiny" / "README.md").read_text()
    assert "| ar | 2 |" in ar_card and "| wedlm | 2 |" in (assets / "wedlm-tiny" / "README.md").read_text()
    assert "## 中文简介" in ar_card and "自回归" in ar_card                  # the card's Chinese summary
    assert ar_card.index("## 中文简介") < ar_card.index("## Measured decoding")  # kept by measured rewrites
    # a WeDLM-only run from that parent (how docs/training.md's levers were measured)
    for name in ("ar-hf", "tokenizer"):
        shutil.copytree(tmp_path / "full" / name, tmp_path / "lever" / name)
    train(tiny_train_config(tmp_path / "lever", tiny_corpora, ar_steps=2, wedlm_steps=4, wedlm_suffix_mask=0.5), ("wedlm",))
    install(tmp_path / "lever", assets, max_new_tokens=8)
    assert (assets / "ar-tiny" / "README.md").read_text() == ar_card         # parent left as it was
    card = (assets / "wedlm-tiny" / "README.md").read_text()
    assert "| wedlm | 4 |" in card and "the shipped parent" in card and "| ar | 2 |" not in card
    assert "--stages wedlm --wedlm-steps 4" in card                          # how to redo this very run
    assert "--wedlm-suffix-mask 0.5" in card and "50% of counting,sequence,repetition,table,copy answers are always masked" in card


def test_a_cards_measured_section_is_rewritten_and_its_training_section_kept(tmp_path):
    import torch
    from safetensors.torch import save_file

    from wedlm.training.card import rewrite_measured
    save_file({"w": torch.zeros(10, 3)}, str(tmp_path / "model.safetensors"))
    training = "# AR tiny\n\n## Training\n\n| ar | 3000 | 12.3 M | 56 min | ar 1.1 |\n\n"
    (tmp_path / "README.md").write_text(training + "## Measured decoding\n\n| math | 4 | 1.03 | 4/4 |\n")
    evaluation = {"summary": {"math": {"prompts": 16, "tokens_per_forward": 1.02, "format_ok": 15, "correct": 1}},
                  "rows": [{"class": "math", "prompt": "Question: x", "text": "y\n#### 3"}]}
    rewrite_measured(tmp_path, evaluation, "python -m wedlm.training.evaluate --model M --decoder ar")
    card = (tmp_path / "README.md").read_text()
    assert card.startswith(training) and card.count("## Measured decoding") == 1
    assert "| math | 16 | 1.02 | 15/16 end in `#### <number>`, 1 of them correct |" in card
    assert "4/4" not in card and "--decoder ar`" in card and "0.0 M-parameter" in card


def test_rewrite_card_refuses_a_folder_without_a_card_before_decoding(tmp_path, capsys):
    from wedlm.training.evaluate import main
    with pytest.raises(SystemExit) as exit_info:
        main(["--model", str(tmp_path), "--rewrite-card"])  # an empty folder: no model either
    assert exit_info.value.code == 2 and "no model card" in capsys.readouterr().err


def test_word_problems_are_solved_right_in_gsm8k_format_restating_the_question():
    import random
    import re

    from wedlm.training.corpus import word_problem
    rng = random.Random(3)
    ops = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "x": lambda a, b: a * b, "/": lambda a, b: a // b}
    kinds = set()
    for _ in range(300):
        s = word_problem(rng)
        assert s.family == "word-problem" and s.prompt.startswith("Question: ") and s.prompt.endswith("\nAnswer:")
        *steps, final = s.answer.strip().split("\n")
        last = None
        for step in steps:
            a, op, b, c = re.search(r"\$?(\d+) ([-+x/]) \$?(\d+) = \$?(\d+)", step).groups()
            assert ops[op](int(a), int(b)) == int(c) and int(c) >= 0
            if op == "/":
                assert int(a) % int(b) == 0
            # every operand comes from the question or from the step before
            assert all(re.search(rf"\b{n}\b", s.prompt) or n == last for n in (a, b))
            last, kinds = c, kinds | {(op, len(steps))}
        assert final == f"#### {last}"
    assert {("+", 1), ("-", 1), ("x", 1), ("/", 1), ("+", 2), ("-", 2), ("x", 2)} <= kinds


def test_the_training_modules_import_without_a_loop():
    """train.py (the recipe) never reaches up to what ships or measures its models, even inside a
    function: install -> card/evaluate -> train, never back."""
    import ast
    from pathlib import Path

    import wedlm.training
    folder = Path(wedlm.training.__file__).parent
    imported = {}
    for file in folder.glob("*.py"):
        names = set()
        for node in ast.walk(ast.parse(file.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                names.add(node.module)
        imported[file.stem] = names
    assert not imported["train"] & {"card", "evaluate", "install"}
    assert not imported["card"] & {"evaluate", "install"} and not imported["evaluate"] & {"install", "train"}
    assert "install" in imported and {"card", "evaluate"} <= imported["install"]


def test_the_data_folder_comes_from_data_dir_or_wedlm_data_dir(tmp_path, monkeypatch, tiny_corpora):
    import os
    import subprocess
    import sys

    from wedlm.paths import REPO_ROOT, default_data_dir
    monkeypatch.setenv("WEDLM_DATA_DIR", str(tiny_corpora))
    assert default_data_dir() == tiny_corpora
    monkeypatch.delenv("WEDLM_DATA_DIR")
    assert default_data_dir() == REPO_ROOT.parent / "shared" / "data"
    for args, env in ((["--data-dir", str(tmp_path)], {}), ([], {"WEDLM_DATA_DIR": str(tmp_path)})):
        proc = subprocess.run([sys.executable, "-m", "wedlm", "train", "--run-dir", str(tmp_path / "run"), *args],
                              capture_output=True, text=True, cwd=REPO_ROOT, timeout=300,
                              env={**os.environ, **env})
        lines = proc.stderr.strip().splitlines()
        assert proc.returncode == 2 and len(lines) == 1 and f"training data not found in {tmp_path}" in lines[0]
        assert not (tmp_path / "run").exists()  # refused before any work
