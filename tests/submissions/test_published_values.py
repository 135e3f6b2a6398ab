"""io500.org's published phase figures, read as the scoring readers read numbers."""

from __future__ import annotations

import pytest

from submissions.io500_org import PUBLISHED_PHASE_FIELDS
from submissions.selectors import published_phase_value

PHASE = "ior-easy-write"
KEY = PUBLISHED_PHASE_FIELDS[PHASE][0]


@pytest.mark.parametrize("text", ["nan", "inf", "1_000", "-3", "0", "garbage", ""])
def test_a_published_figure_the_readers_would_not_read_as_positive_is_no_figure(text: str) -> None:
    assert published_phase_value({KEY: text}, PHASE) is None


@pytest.mark.parametrize("figure", ["12.5", " 12.5 ", 12.5, "1.25e1"])
def test_a_published_figure_as_text_or_json_number_is_read(figure: object) -> None:
    assert published_phase_value({KEY: figure}, PHASE) == 12.5


def test_a_json_true_is_no_figure() -> None:
    assert published_phase_value({KEY: True}, PHASE) is None
