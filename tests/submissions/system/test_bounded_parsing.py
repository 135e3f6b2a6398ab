"""System descriptions a submitter writes never stall a worker (issue 22, item 8).

The readers' patterns that backtracked (the number-and-unit of a quantity, the network rate, the
comment after an unquoted value) are compared here with the patterns they replaced on every short
text of a hostile alphabet, and a description file of the largest size read (1 MiB) made of one
hostile line is read in well under the budget. Before, `io500_info_x=a` + 20,000 blanks + `b #`
(the comment split) and a quantity `"1 a" + blanks + "b"` took seconds; at 1 MiB, hours.
"""

from __future__ import annotations

import contextlib
import copy
import itertools
import json
import re
import time

import pytest

from submissions.system.description import _RATE, parse_gbps, system_description_read
from submissions.system.document import number_and_unit
from submissions.system.files import (
    MAX_SYSTEM_FILE_BYTES,
    _unquote,
    decode_system_bytes,
    read_system_text,
)
from tests.submissions.system.documents import VALID
from tests.support.data import submissions_root

BUDGET_S = 2.0  # generous for CI; each file below reads in under 0.1 s on a loaded 2-core machine
ALPHABET = " \t\n\xa01.eE+-aGb#k/s"

# The patterns before: they define the behaviour kept.
OLD_NUMBER_AND_UNIT = re.compile(
    r"^\s*(?P<number>[-+]?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|[-+]?\.\d+)\s*(?P<unit>.*?)\s*$"
)
OLD_RATE = re.compile(
    r"^\s*(?P<value>\d+(?:\.\d+)?)\s*(?P<unit>(?:[kmgt](?:bit|b|bps|be)?(?:/s|ps)?)?)\s*$", re.IGNORECASE
)


def _texts(length: int) -> list[str]:
    return [
        "".join(chars) for size in range(length + 1) for chars in itertools.product(ALPHABET, repeat=size)
    ]


def test_number_and_unit_is_read_as_the_old_pattern_read_it() -> None:
    for text in _texts(4):
        old = OLD_NUMBER_AND_UNIT.match(text)
        assert number_and_unit(text) == ((old["number"], old["unit"]) if old else None), repr(text)


def test_rates_are_read_as_the_old_pattern_read_them() -> None:
    for text in _texts(4):
        old, new = OLD_RATE.match(text), _RATE.match(text.strip())
        assert (old.groupdict() if old else None) == (new.groupdict() if new else None), repr(text)


def test_unquoted_values_lose_their_comment_as_before() -> None:
    for text in _texts(4):
        if text.strip()[:1] in ('"', "'"):
            continue
        assert _unquote(text, 1, []) == re.split(r"\s+#", text.strip(), maxsplit=1)[0].strip(), repr(text)


def _filled(prefix: str, filler: str, ending: str, room: int) -> str:
    return prefix + filler * ((room - len(prefix) - len(ending)) // len(filler)) + ending


def _read_file(raw: bytes) -> float:
    started = time.process_time()
    text, _ = decode_system_bytes(raw)
    with contextlib.suppress(ValueError):  # unreadable is an answer too; the point is how fast it comes
        system_description_read(read_system_text(text).data)
    return time.process_time() - started


INFO_LINES = [
    ("io500_info_system_name=a", " ", "b #"),
    ("io500_info_system_name=", " ", "x#"),
    ("io500_info_client_network=1", " ", "x"),
    ("io500_info_client_network=", "9", "x"),
    ("io500_info_ds_capacity=1 a", " ", "b"),
    ('io500_info_system_name="', "\\", ""),
    ("export io500_info_x", " ", "= 1"),
    ("", " ", "x"),
    ("", "=", ""),
    ("", "#", ""),
    ("", '"', ""),
    ("", "9", "="),
]


@pytest.mark.parametrize(("prefix", "filler", "ending"), INFO_LINES)
def test_a_megabyte_information_file_line_is_read_within_budget(
    prefix: str, filler: str, ending: str
) -> None:
    real = (submissions_root() / "submission-66" / "system-information.txt").read_bytes()
    line = _filled(prefix, filler, ending, MAX_SYSTEM_FILE_BYTES - len(real) - 1)
    assert _read_file(real + line.encode() + b"\n") < BUDGET_S


@pytest.mark.parametrize(
    "value", ["1.2" + " " * 1_000_000 + "x PiB", "1 a" + " " * 1_000_000 + "b", "9" * 1_000_000]
)
def test_a_megabyte_quantity_in_a_community_document_is_read_within_budget(value: str) -> None:
    document = copy.deepcopy(VALID)
    document["DATA"]["childs"][0]["att"]["storage net capacity"] = value
    assert _read_file(json.dumps(document).encode()) < BUDGET_S


def test_a_megabyte_network_rate_is_refused_within_budget() -> None:
    started = time.process_time()
    with pytest.raises(Exception, match="bandwidth"):
        parse_gbps("100" + " " * 1_000_000 + "x")
    assert time.process_time() - started < BUDGET_S
