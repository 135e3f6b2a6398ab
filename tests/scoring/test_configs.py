"""One rule for flattening and comparing run configurations (review diff and compare page)."""

from __future__ import annotations

from scoring.configs import config_table, flatten_config


def test_a_missing_value_flattens_to_empty_text_and_a_non_mapping_to_nothing() -> None:
    assert flatten_config({"ior-easy": {"transferSize": None, "blockSize": 4}, "top": "x"}) == {
        "ior-easy.transferSize": "",
        "ior-easy.blockSize": "4",
        "top": "x",
    }
    assert flatten_config(["not", "a", "config"]) == {}


def test_a_run_without_configuration_is_left_out_of_the_comparison() -> None:
    rows = config_table([{"a": {"x": "1"}}, None, {"a": {"x": "2", "y": "3"}}])
    assert [(row.key, row.values, row.differs) for row in rows] == [
        ("a.x", ("1", None, "2"), True),
        ("a.y", (None, None, "3"), True),
    ]
    assert [row.differs for row in config_table([{"a": {"x": "1"}}, {}])] == [False]
