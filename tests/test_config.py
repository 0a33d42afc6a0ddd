"""DecodeConfig is the one source of every knob: its metadata drives validation, CLI and widgets."""
from dataclasses import fields, replace

import pytest

from wedlm.config import DEFAULTS, KNOBS, DecodeConfig, ValidationError


def test_every_field_has_a_knob_with_label_and_help():
    assert set(KNOBS) == {f.name for f in fields(DecodeConfig)}
    assert all(k.label and k.help for k in KNOBS.values())


@pytest.mark.parametrize("name", [n for n, k in KNOBS.items()
                                  if isinstance(DEFAULTS[n], int) and not isinstance(DEFAULTS[n], bool)])
def test_whole_number_knobs_accept_their_bounds_and_refuse_one_beyond(name):
    k = KNOBS[name]
    replace(DecodeConfig(), **{name: int(k.low)})
    with pytest.raises(ValidationError, match=name):
        replace(DecodeConfig(), **{name: int(k.low) - 1})
    if k.high is not None:
        replace(DecodeConfig(), **{name: int(k.high)})
        with pytest.raises(ValidationError, match=name):
            replace(DecodeConfig(), **{name: int(k.high) + 1})


def test_defaults_lie_within_their_knobs():
    for name, k in KNOBS.items():
        value = DEFAULTS[name]
        assert value is None or (k.low is None or value >= k.low) and (k.high is None or value <= k.high)
