"""The CUDA path's logic, run on the CPU (no GPU here): flash-attn 2/3/4 through transformers'
own flash wrapper with the kernels emulated in pure torch, the reference decoder on a shared
model under two threads, and the synchronised timers."""
import threading
from dataclasses import replace

import pytest
import torch

from wedlm import DecodeConfig, decode, load_model

FLASH_NAMES = ["flash_attention_2", "flash_attention_3", "flash_attention_4"]
PROMPTS = ["Count from 1 to 9:", "Question: What is 3 + 4?\nAnswer:", "ROMEO:\nBut soft",
           "def add(a, b):"]
CONFIG = DecodeConfig(window=6, max_new_tokens=24, threshold=2.0, penalty=0.1)


def emulated_varlen(q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q=None, max_seqlen_k=None,
                    dropout_p=0.0, softmax_scale=None, causal=False, window_size=(-1, -1),
                    softcap=0.0, deterministic=False):
    """flash_attn_varlen_func in pure torch: q (total_q, H, D), k/v (total_k, Hk, D), one
    sequence per cu_seqlens span; causal is bottom-right aligned (the last query sees every key),
    as in flash-attn >= 2.1."""
    emulated_varlen.calls += 1
    scale = softmax_scale if softmax_scale is not None else q.size(-1) ** -0.5
    out = torch.empty_like(q)
    for i in range(len(cu_seqlens_q) - 1):
        qs, qe, ks, ke = (int(x) for x in (cu_seqlens_q[i], cu_seqlens_q[i + 1],
                                           cu_seqlens_k[i], cu_seqlens_k[i + 1]))
        qi, ki, vi = q[qs:qe].transpose(0, 1), k[ks:ke].transpose(0, 1), v[ks:ke].transpose(0, 1)
        groups = qi.size(0) // ki.size(0)
        ki, vi = ki.repeat_interleave(groups, 0), vi.repeat_interleave(groups, 0)
        scores = (qi @ ki.transpose(-1, -2)) * scale                  # (H, Lq, Lk)
        if causal:
            lq, lk = qi.size(1), ki.size(1)
            seen = torch.arange(lk)[None, :] <= torch.arange(lq)[:, None] + (lk - lq)
            scores = scores.masked_fill(~seen, float("-inf"))
        out[qs:qe] = (scores.softmax(-1) @ vi).transpose(0, 1)
    return out


emulated_varlen.calls = 0


def emulated_dense(q, k, v, dropout_p=0.0, softmax_scale=None, causal=False, window_size=(-1, -1),
                   softcap=0.0, deterministic=False):
    """flash_attn_func: (B, S, H, D) batches, through the varlen emulation."""
    b, sq, sk = q.size(0), q.size(1), k.size(1)
    cu_q = torch.arange(0, (b + 1) * sq, sq, dtype=torch.int32)
    cu_k = torch.arange(0, (b + 1) * sk, sk, dtype=torch.int32)
    out = emulated_varlen(q.reshape(-1, *q.shape[2:]), k.reshape(-1, *k.shape[2:]),
                          v.reshape(-1, *v.shape[2:]), cu_q, cu_k, sq, sk, dropout_p,
                          softmax_scale, causal)
    return out.view(b, sq, *out.shape[1:])


@pytest.fixture
def emulated_flash(monkeypatch):
    """transformers' flash path (flash_attention_forward, _flash_attention_forward and its kwargs
    processing) with the kernels it imports replaced by the emulation."""
    from transformers import modeling_flash_attention_utils as fa

    process = fa._lazy_define_process_function(emulated_varlen)
    kernels = (emulated_dense, emulated_varlen, None, fa._pad_input, fa._unpad_input)
    monkeypatch.setattr(fa, "lazy_import_flash_attention",
                        lambda implementation, *a, **k: (kernels, (process, dict)))
    emulated_varlen.calls = 0
    return emulated_varlen


def flash_model(folder, name):
    """The checkpoint loaded as on a GPU with that flash implementation (set after loading:
    transformers refuses flash names on a machine without the packages)."""
    lm = load_model(str(folder), device="cpu", dtype="float32")
    lm.model.config._attn_implementation = name
    return replace(lm, attn_implementation=name)


def test_every_flash_name_is_flash_and_gets_explicit_varlen_lengths():
    from wedlm.device import is_flash_attention, window_forward_kwargs
    for name in FLASH_NAMES + ["kernels-community/flash-attn2", "kernels-community/vllm-flash-attn3"]:
        assert is_flash_attention(name), name
        kwargs = window_forward_kwargs(name, cached=7, rows=5, device="cpu")
        assert kwargs["cu_seq_lens_q"].tolist() == [0, 5] and kwargs["cu_seq_lens_k"].tolist() == [0, 12]
    for name in ("sdpa", "eager", "flex_attention"):
        assert not is_flash_attention(name) and window_forward_kwargs(name, 7, 5, "cpu") == {}


@pytest.mark.parametrize("name", FLASH_NAMES)
def test_streaming_matches_reference_through_each_flash_path(tiny_dir, tiny_lm, emulated_flash, name):
    lm = flash_model(tiny_dir, name)
    for prompt in PROMPTS:
        streaming = decode(lm, prompt, "streaming", CONFIG)
        assert streaming.token_ids == decode(lm, prompt, "reference", CONFIG).token_ids, prompt
        # the emulated kernels are flash-attn's math: same tokens as SDPA
        assert streaming.token_ids == decode(tiny_lm, prompt, "streaming", CONFIG).token_ids, prompt
        assert decode(lm, prompt, "ar", CONFIG).token_ids == decode(tiny_lm, prompt, "ar", CONFIG).token_ids
    assert emulated_flash.calls > 0  # the flash path really ran
    assert lm.model.config._attn_implementation == name  # nobody switched it


def test_without_varlen_lengths_flash_reads_the_reordered_window_as_packed(tiny_dir, emulated_flash,
                                                                         monkeypatch):
    """Why every flash name must get cu_seq_lens: without them transformers guesses "packed
    sequences" from the reordered position ids, and streaming decodes other tokens."""
    from wedlm.decoders import streaming
    lm = flash_model(tiny_dir, "flash_attention_3")
    right = [decode(lm, p, "streaming", CONFIG).token_ids for p in PROMPTS]
    monkeypatch.setattr(streaming, "window_forward_kwargs", lambda *args: {})
    wrong = [decode(lm, p, "streaming", CONFIG).token_ids for p in PROMPTS]
    assert right != wrong


def test_the_reference_decoder_never_switches_the_shared_model(tiny_dir, emulated_flash, monkeypatch):
    """Two decodes on one flash model in two threads, as two users on a GPU Space: each gets
    what it gets alone, and the model's attention implementation is never touched."""
    lm = flash_model(tiny_dir, "flash_attention_2")
    alone = {d: [decode(lm, p, d, CONFIG).token_ids for p in PROMPTS] for d in ("reference", "streaming")}

    def refuse(*args, **kwargs):
        raise AssertionError("the shared model's attention implementation was switched")
    monkeypatch.setattr(lm.model, "set_attn_implementation", refuse)
    results, errors = {}, []

    def run(decoder):
        try:
            for _ in range(2):
                results[decoder] = [decode(lm, p, decoder, CONFIG).token_ids for p in PROMPTS]
        except Exception as err:  # noqa: BLE001 -- re-raised below, in the test's thread
            errors.append(err)
    threads = [threading.Thread(target=run, args=(d,)) for d in ("reference", "streaming")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert results == alone
    assert lm.model.config._attn_implementation == "flash_attention_2"


def test_the_reference_keeps_only_the_mask_rows_and_builds_its_mask_on_the_device(tiny_lm, monkeypatch):
    from wedlm.decoders.reference import RecomputeForward, logical_attention_mask
    mask = logical_attention_mask(3, [5, None, None], torch.float32, torch.device("cpu"))
    assert mask.shape == (1, 1, 6, 6) and mask.device.type == "cpu"
    seen = []
    real = type(tiny_lm.model).forward

    def spy(self, *args, **kwargs):
        seen.append(kwargs["logits_to_keep"])
        return real(self, *args, **kwargs)
    monkeypatch.setattr(type(tiny_lm.model), "forward", spy)
    fwd = RecomputeForward(tiny_lm)
    fwd.prefill([1, 2, 3])
    logits, rows = fwd.forward([7, None, 8, None], [0, 2, 1, 3], 3)
    assert seen[-1].tolist() == [4, 6] and logits.shape[0] == 2 and rows == 7


def test_timers_wait_for_the_device(tiny_lm, monkeypatch):
    from wedlm import device
    from wedlm.decoders import ar, core
    synced = []
    monkeypatch.setattr(torch.cuda, "synchronize", lambda d=None: synced.append(d))
    device.device_clock(torch.device("cuda"))
    assert len(synced) == 1
    device.device_clock(torch.device("cpu"))
    assert len(synced) == 1  # nothing to wait for on a CPU
    reads = []
    for module in (core, ar):
        monkeypatch.setattr(module, "device_clock", lambda d: reads.append(d) or 0.0)
    for decoder in ("streaming", "ar"):
        reads.clear()
        trace = decode(tiny_lm, "Count from 1 to 9:", decoder, CONFIG)
        # prefill, then every forward: each timer is read through the synchronising clock
        assert len(reads) == 1 + trace.result.forwards, decoder
