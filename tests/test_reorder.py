from wedlm.reorder import leading_filled, physical_mask, physical_order, visibility

A, B, C = 11, 12, 13
M = None


def test_physical_order_puts_filled_first_keeping_logical_order():
    window = [A, M, B, M, C]
    assert physical_order(window) == [0, 2, 4, 1, 3]
    assert physical_order([M, M]) == [0, 1]
    assert physical_order([A, B]) == [0, 1]


def test_leading_filled_counts_only_the_contiguous_run():
    assert leading_filled([A, B, M, C]) == 2
    assert leading_filled([M, A]) == 0
    assert leading_filled([A, B]) == 2
    assert leading_filled([]) == 0


def test_visibility_hand_checked():
    # Window (logical): A  M1  B  M2.  Physical order: A B M1 M2.
    window = [A, M, B, M]
    vis = visibility(window)
    T, F = True, False
    assert vis == [
        [T, F, F, F],   # A sees itself only (and the prefix)
        [T, T, T, F],   # M1 sees A and B (B is logically later) and itself, not M2
        [T, F, T, F],   # B sees A and itself, never a mask
        [T, T, T, T],   # M2 sees everything before it physically
    ]


def test_physical_mask_is_the_causal_triangle():
    assert physical_mask(3) == [[True, False, False], [True, True, False], [True, True, True]]
