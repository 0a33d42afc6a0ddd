import math

import pytest
import torch

from wedlm.selection import (choose_tokens, entropy, filter_top_k, filter_top_p, select_slots,
                             top_candidates)


def test_entropy_matches_closed_form():
    logits = torch.tensor([[0.0, 0.0, 0.0, 0.0], [10.0, -10.0, -10.0, -10.0]])
    h = entropy(logits)
    assert h[0].item() == pytest.approx(math.log(4), abs=1e-6)
    assert h[1].item() < 1e-6


def test_select_fills_every_slot_under_threshold_with_distance_penalty():
    # scores: 0.1+0, 0.5+0.2, 0.25+0.4 -> 0.1, 0.7, 0.65
    scores, chosen = select_slots([0.1, 0.5, 0.25], [0, 2, 4], threshold=0.66, penalty=0.1)
    assert scores == pytest.approx([0.1, 0.7, 0.65])
    assert chosen == [0, 2]


def test_select_falls_back_to_argmin_when_nothing_qualifies_or_no_threshold():
    _, chosen = select_slots([0.9, 0.3, 0.8], [0, 1, 2], threshold=0.1, penalty=0.0)
    assert chosen == [1]
    _, chosen = select_slots([0.9, 0.3, 0.05], [0, 1, 2], threshold=None, penalty=0.0)
    assert chosen == [2]
    # the penalty can move the argmin to an earlier slot
    _, chosen = select_slots([0.5, 0.45], [0, 1], threshold=None, penalty=0.1)
    assert chosen == [0]


def test_top_k_and_top_p_filters():
    logits = torch.log(torch.tensor([[0.5, 0.3, 0.15, 0.05]]))
    assert torch.isinf(filter_top_k(logits, 2)[0, 2:]).all()
    assert torch.isfinite(filter_top_k(logits, 2)[0, :2]).all()
    kept = torch.isfinite(filter_top_p(logits, 0.7))[0].tolist()
    assert kept == [True, True, False, False]  # 0.5 < 0.7, so the token crossing 0.7 stays
    assert torch.isfinite(filter_top_p(logits, 1.0)).all()


def test_choose_tokens_greedy_and_seeded_sampling():
    logits = torch.tensor([[0.0, 3.0, 1.0], [2.0, 0.0, 0.0]])
    assert choose_tokens(logits, 0.0, 0, 1.0, None).tolist() == [1, 0]
    g1, g2 = torch.Generator().manual_seed(5), torch.Generator().manual_seed(5)
    a = choose_tokens(logits.repeat(50, 1), 1.0, 0, 1.0, g1)
    b = choose_tokens(logits.repeat(50, 1), 1.0, 0, 1.0, g2)
    assert torch.equal(a, b)
    assert len(set(a.tolist())) > 1  # real sampling, not argmax
    # top_k=1 makes sampling greedy
    assert choose_tokens(logits, 1.0, 1, 1.0, g1).tolist() == [1, 0]


def test_top_candidates_are_sorted_probabilities():
    probs, ids = top_candidates(torch.tensor([[0.0, 2.0, 1.0]]), 2)
    assert ids.tolist() == [[1, 2]]
    assert probs[0, 0] > probs[0, 1]


def test_under_threshold_is_what_the_rule_fills_together():
    # the explorer's count of "masks under τ" (app/views/entropy.under_tau) asks this same function
    import random
    from wedlm.selection import select_slots, under_threshold
    rng = random.Random(0)
    for _ in range(200):
        n = rng.randint(1, 8)
        ent = [rng.uniform(0, 2) for _ in range(n)]
        tau = rng.choice([None, 0.1, 0.4, 1.0])
        scores, chosen = select_slots(ent, list(range(n)), tau, 0.02)
        under = under_threshold(scores, tau)
        assert all(scores[k] < tau for k in under) and len(under) == sum(1 for s in scores if tau is not None and s < tau)
        assert chosen == (under or [min(range(n), key=scores.__getitem__)])
