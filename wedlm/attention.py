"""One attention row of the first layer, computed by hand from the model's own modules (chapter 3).

Why reordering changes nothing, in numbers: a row's attention output is a weighted sum over the
keys it sees, sum(weight x value). In the first layer a token's query, key and value depend only
on the token itself and its position id (its embedding, the layer's projections, RoPE at its id),
never on the row it sits in; so the same token seeing the same tokens gets the same weights and
the same sum in any row order. `reorder_example` computes it for a recorded step's first mask in
both orders the tour compares: the physical order the streaming forward feeds (cached prefix, then
filled slots, then masks; causal) and the logical order of the reference decoder (text order, the
explicit mask reordering implies).

The same argument holds layer after layer (each token sees the same tokens in both orders, so its
layer-k output is the same, so its layer-(k+1) input is). `final_prediction` does not assume it: it runs
the whole model in both orders, through the decoders' own forwards, measures the mask's hidden state
after every layer in each (the largest difference between the two, and the largest number, for scale),
and keeps what the mask predicts at the end, to show the chain reaching the prediction.

Nothing here re-derives the model: the layer norm, projections, q/k norms (Qwen3) and the rotary
embedding are the model's modules, and RoPE is applied by its family's own apply_rotary_pos_emb.
"""
from __future__ import annotations

import sys

import torch

from .decoders.reference import RecomputeForward
from .decoders.streaming import CachedForward
from .loading import LoadedModel
from .reorder import visibility
from .selection import entropy


def _parts(lm: LoadedModel):
    """The decoder stack (embed, first layer, rotary_emb), whatever the causal-LM wrapper calls it."""
    base = getattr(lm.model, "model", lm.model)
    return base.embed_tokens, base.layers[0], base.rotary_emb


def _layers(lm: LoadedModel):
    """Every decoder layer, in order (the stack _parts reads its first from)."""
    return list(getattr(lm.model, "model", lm.model).layers)


def layer_rows(lm: LoadedModel, run, row: int) -> tuple[list[torch.Tensor], object]:
    """Input row `row`'s hidden state after each decoder layer during `run()` (one model call; a forward
    hook on every layer keeps that row of its output), as float64 vectors on the CPU, and what run() returned."""
    kept: list[torch.Tensor | None] = [None] * len(_layers(lm))

    def keep(k):
        def hook(module, args, output):
            hidden = output[0] if isinstance(output, tuple) else output      # (1, L, D)
            if hidden.dim() != 3 or not 0 <= row < hidden.shape[1]:
                raise ValueError(f"layer {k + 1}'s output {tuple(hidden.shape)} has no row {row}")
            kept[k] = hidden[0, row].detach().double().cpu()
        return hook

    hooks = [layer.register_forward_hook(keep(k)) for k, layer in enumerate(_layers(lm))]
    try:
        result = run()
    finally:
        for h in hooks:
            h.remove()
    if any(v is None for v in kept):
        raise ValueError("a layer did not run")
    return kept, result


def first_layer_attention(lm: LoadedModel, ids: list[int], position_ids: list[int], row: int,
                          seen: list[int] | None = None) -> dict:
    """The first layer's attention of input row `row` over the rows `seen` (default: causal, every
    row up to and including it), for every head: hidden = input_layernorm(embed(ids)); q, k, v
    projections (and q_norm/k_norm when the model has them); RoPE at `position_ids`; scores =
    q.k * scaling; softmax over the seen rows; output = sum(weight x value).

    Returns {"seen": rows, "weights": (H, n) tensor, "values": (H, n, d) (each head's key-value
    group), "output": (H, d)} as float64 on the CPU."""
    embed, layer, rotary = _parts(lm)
    attn = layer.self_attn
    apply_rope = sys.modules[type(attn).__module__].apply_rotary_pos_emb  # the family's own RoPE
    seen = list(range(row + 1)) if seen is None else sorted(seen)
    d = attn.head_dim
    with torch.inference_mode():
        x = torch.tensor([ids], device=lm.device)
        pos = torch.tensor([position_ids], device=lm.device)
        hidden = layer.input_layernorm(embed(x))                              # (1, L, D)
        shape = (1, len(ids), -1, d)
        q = attn.q_proj(hidden).view(shape)
        k = attn.k_proj(hidden).view(shape)
        if hasattr(attn, "q_norm"):  # Qwen3: RMSNorm on each head before RoPE
            q, k = attn.q_norm(q), attn.k_norm(k)
        q, k = q.transpose(1, 2), k.transpose(1, 2)                          # (1, H|Hkv, L, d)
        v = attn.v_proj(hidden).view(shape).transpose(1, 2)
        cos, sin = rotary(hidden, pos)
        q, k = apply_rope(q, k, cos, sin)
        groups = q.shape[1] // k.shape[1]                                     # heads per key-value head
        keep = torch.tensor(seen, device=lm.device)
        k = k[0, :, keep].repeat_interleave(groups, dim=0).double()          # (H, n, d)
        v = v[0, :, keep].repeat_interleave(groups, dim=0).double()
        scores = (k @ q[0, :, row].double()[..., None])[..., 0] * attn.scaling  # (H, n)
        weights = torch.softmax(scores, dim=-1)
        output = (weights[..., None] * v).sum(dim=1)                         # (H, d)
    return {"seen": seen, "weights": weights.cpu(), "values": v.cpu(), "output": output.cpu()}


def step_orders(prefix: list[int], window: list, order: list[int], start: int,
                mask_token_id: int) -> dict:
    """One recorded window forward laid out in its two orders: the input ids, position ids and,
    per input row, what it sees. Physical: the cached prefix then the window in `order`, causal.
    Logical: prefix + window in text order, each window row seeing what `visibility` gives it."""
    tokens = [mask_token_id if t is None else t for t in window]
    n = len(prefix)
    physical = {"ids": list(prefix) + [tokens[i] for i in order],
                "positions": list(range(n)) + [start + i for i in order]}
    vis = visibility(window)
    physical["seen"] = lambda row: list(range(row + 1))
    logical = {"ids": list(prefix) + tokens, "positions": list(range(n + len(window))),
               "seen": lambda row: (list(range(row + 1)) if row < n else
                                    list(range(n)) + [n + j for j, s in enumerate(vis[row - n]) if s])}
    return {"physical": physical, "logical": logical}


def final_prediction(lm: LoadedModel, prefix: list[int], window: list, order: list[int], start: int,
                     pos: int) -> dict:
    """What the mask at logical position `pos` predicts after the last layer, in both orders, from the
    decoders' own window forwards: the streaming decoder's (the prefix prefilled into a KV cache, the
    window in physical order over it, causal) and the reference decoder's (prefix + window in logical
    order, no cache, its explicit mask). A whole uncached sequence in physical order would not do:
    transformers reads position ids that go down (72 then 65) as packed sequences and cuts the mask.

    On the way, the mask's hidden state after every layer, read from those same forwards (layer_rows:
    its row of the window forward in physical order, order.index(pos - start); of the full recompute in
    logical order, len(prefix) + pos - start), compared: "by_layer", one {"layer" (1-based), "diff" (the
    largest |physical - logical| over the vector), "size" (its largest |number|, for scale)} per layer,
    and "hidden" (the vector's length). Measured, not argued: a wrong reordering shows here.

    Returns {"layers", "hidden", "by_layer", "physical": {...}, "logical": {...}}, each order {"row" (the
    mask's input row), "token" (its top token), "text", "probability" (of that token), "entropy" (nats,
    selection.entropy: the number the decoders record)}."""
    masks = [start + i for i, t in enumerate(window) if t is None]   # ascending in both orders
    k = masks.index(pos)
    rows = {"physical": len(prefix) + order.index(pos - start), "logical": len(prefix) + pos - start}
    # the row in each forward's own input: the cached forward feeds the window alone
    hooked = {"physical": order.index(pos - start), "logical": len(prefix) + pos - start}
    out = {"layers": int(lm.model.config.num_hidden_layers)}
    states = {}
    with torch.inference_mode():
        for name, forward in (("physical", CachedForward(lm)), ("logical", RecomputeForward(lm))):
            forward.prefill(list(prefix))
            states[name], (logits, _) = layer_rows(
                lm, lambda: forward.forward(list(window), list(order), start), hooked[name])  # logits: (masks, V)
            row = logits[k:k + 1]
            probs = torch.softmax(row.float(), dim=-1)[0]
            token = int(probs.argmax())
            out[name] = {"row": rows[name], "token": token, "text": lm.token_text(token),
                         "probability": float(probs[token]), "entropy": float(entropy(row)[0])}
    out["hidden"] = int(states["physical"][0].numel())
    out["by_layer"] = [{"layer": i + 1, "diff": float((a - b).abs().max()), "size": float(a.abs().max())}
                       for i, (a, b) in enumerate(zip(states["physical"], states["logical"]))]
    return out


def reorder_example(lm: LoadedModel, prefix: list[int], window: list, order: list[int], start: int,
                    pos: int, head: int | None = None, shown: int = 5) -> dict:
    """The first layer's attention of the mask at logical position `pos`, computed in physical and in
    logical order, matched by position id (what JSON keeps; tools/record_tour.py).

    head: None picks the head that gives most weight to the filled tokens after `pos` in the text
    (the tokens only reordering lets a mask see); "after_shares" keeps that weight for every head. The value coordinate shown is the one with the
    largest |output| of that head. `shown`: the keys with the largest weights kept one by one (at
    least one of them a filled token after `pos`); the rest are summed into one "others" line.
    "final": the rest of the same argument, the mask's output after every layer in both orders, compared
    ("by_layer"), and its prediction after the last layer in both (final_prediction)."""
    orders = step_orders(prefix, window, order, start, lm.mask_token_id)
    runs = {}
    for name, o in orders.items():
        row = o["positions"].index(pos)
        runs[name] = first_layer_attention(lm, o["ids"], o["positions"], row, o["seen"](row)) | {"row": row}
    phys, logi = runs["physical"], runs["logical"]
    pos_of = {name: [orders[name]["positions"][r] for r in runs[name]["seen"]] for name in orders}
    if sorted(pos_of["physical"]) != sorted(pos_of["logical"]):
        raise ValueError("the two orders do not see the same tokens")
    later = [i for i, p in enumerate(pos_of["physical"]) if p > pos]  # indices into the physical run's keys
    if head is None:
        head = max(range(phys["weights"].shape[0]),
                   key=lambda h: float(phys["weights"][h, later].sum()) if later else 0.0)
    coord = int(phys["output"][head].abs().argmax())
    w, v = phys["weights"][head], phys["values"][head, :, coord]
    lw = dict(zip(pos_of["logical"], logi["weights"][head].tolist()))
    lv = dict(zip(pos_of["logical"], logi["values"][head, :, coord].tolist()))
    row_of = {name: {p: r for r, p in enumerate(orders[name]["positions"])} for name in orders}
    ranked = sorted(range(len(w)), key=lambda i: -float(w[i]))
    keep = ranked[:shown]
    if later and not set(keep) & set(later):  # a token after the mask in the text, always
        keep[-1] = max(later, key=lambda i: float(w[i]))
    keep.sort(key=lambda i: -float(w[i]))
    rows = []
    for i in keep:
        p = pos_of["physical"][i]
        token = int(orders["physical"]["ids"][phys["seen"][i]])
        rows.append({"token": token, "text": lm.token_text(token), "pos": p,
                     "physical_row": row_of["physical"][p], "logical_row": row_of["logical"][p],
                     "weight": float(w[i]), "value": float(v[i]), "product": float(w[i] * v[i]),
                     "logical_weight": lw[p], "logical_value": lv[p], "after": p > pos})
    rest = [i for i in range(len(w)) if i not in keep]
    # each head's share of its weight on the filled tokens after `pos` (what picks the head; the caption says it)
    after_shares = [float(phys["weights"][h, later].sum()) if later else 0.0 for h in range(phys["weights"].shape[0])]
    return {"layer": 0, "head": head, "heads": int(phys["weights"].shape[0]), "coordinate": coord,
            "after_shares": after_shares,
            "head_dim": int(phys["values"].shape[-1]), "pos": pos, "token": lm.mask_token_id,
            "physical_row": phys["row"], "logical_row": logi["row"], "seen": len(w),
            "later": [pos_of["physical"][i] for i in later],
            "rows": rows,
            "others": {"count": len(rest), "weight": float(w[rest].sum()), "product": float((w[rest] * v[rest]).sum()),
                       "logical_weight": sum(lw[pos_of["physical"][i]] for i in rest)},
            "physical_sum": float(phys["output"][head, coord]),
            "logical_sum": float(logi["output"][head, coord]),
            "max_weight_diff": max(abs(float(w[i]) - lw[pos_of["physical"][i]]) for i in range(len(w))),
            "final": final_prediction(lm, prefix, window, order, start, pos)}
