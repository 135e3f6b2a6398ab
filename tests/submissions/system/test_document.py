"""Community-schema documents: types, units, choices, required fields and unknown parts, each named."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from submissions.system.description import system_description_clean, system_description_read
from submissions.system.document import _number, read_document
from submissions.system.extract import _speed_gbps
from submissions.system.files import read_system_text
from submissions.system.schema import community_schema
from tests.submissions.system.documents import (
    REAL_2021_DOCUMENT,
    VALID,
    node,
    with_unit_and_type_errors,
    with_unknown_fields,
)


def test_the_schema_table_holds_the_parts_io500_org_asks_for() -> None:
    schema = community_schema()
    assert set(schema.root.children) >= {"IO500", "StorageSystem", "Supercomputer"}
    io500 = schema.types["IO500"]
    assert (
        io500.fields["number_clientNodes"].required and io500.fields["number_clientNodes"].dtype == "integer"
    )
    assert io500.fields["storage net capacity"].unit == "Byte"
    lustre = schema.types["Lustre"]
    assert lustre.children["OSS"].scheme == "Servers" and lustre.children["OSS"].multiple
    assert "9ea7ff4f" in schema.source


def test_a_valid_document_gives_the_registry_fields_with_units_converted() -> None:
    clean = system_description_clean(VALID)
    fields = clean.fields
    assert clean.format == "community" and clean.data is VALID
    assert (fields["system_name"], fields["institution_name"], fields["filesystem_type"]) == (
        "SuperMUC-NG Phase2",
        "LRZ",
        "DAOS",
    )
    assert (fields["client_nodes"], fields["procs_per_node"], fields["server_nodes"]) == (10, 112, 42)
    assert fields["storage_capacity_bytes"] == pytest.approx(1.2 * 2**50)
    assert fields["client_bandwidth_bytes_s"] == 250e9 and fields["server_bandwidth_bytes_s"] == 1050e9
    # 250 GB/s over 10 client nodes is 200 Gbit/s per node.
    assert fields["client_network_gbps"] == pytest.approx(200.0)
    assert fields["ds_servers"] == 42 and "Optane DC PMem 200" in fields["ds_devices"]
    assert fields["client_os"] == "SUSE Enterprise 15.5" and fields["exclusive_usage"] is True
    assert fields["server_network"] == "Infiniband 200 Gbit"


def test_unit_and_type_errors_are_each_named_by_path() -> None:
    with pytest.raises(ValidationError) as refused:
        system_description_clean(with_unit_and_type_errors())
    errors = refused.value.message_dict
    assert set(errors) == {
        "Site.IO500.storage net capacity",
        "Site.IO500.clients network bandwidth",
        "Site.IO500.number_clientNodes",
        "Site.IO500.procsPerNode",
        "Site.IO500.exclusive_cluster_usage",
        "Site.StorageSystem[0].net capacity",
        "Site.StorageSystem[0].DAOS[0].Servers[0].StorageMedia[0].net capacity",
    }
    assert 'the unit "PiB/s", which is not a unit of Byte' in errors["Site.IO500.storage net capacity"][0]
    assert "without a unit" in errors["Site.IO500.clients network bandwidth"][0]
    assert "whole number, not 'ten'" in errors["Site.IO500.number_clientNodes"][0]
    assert '"yes", "no"' in errors["Site.IO500.exclusive_cluster_usage"][0]
    assert '"GHz"' in errors["Site.StorageSystem[0].DAOS[0].Servers[0].StorageMedia[0].net capacity"][0]
    # Every message names its field, so it reads on its own in a form's error list.
    for path, messages in errors.items():
        assert all(path in message for message in messages)


def test_unknown_fields_parts_and_keys_are_refused_by_name() -> None:
    with pytest.raises(ValidationError) as refused:
        system_description_clean(with_unknown_fields())
    errors = refused.value.message_dict
    assert set(errors) == {"Site.IO500.cooling", "Site.Datacenter", "COMMENT"}
    assert "not a field of IO500" in errors["Site.IO500.cooling"][0]
    assert "Site has no part Datacenter" in errors["Site.Datacenter"][0]


def test_required_fields_and_parts_left_out_are_named() -> None:
    document = copy.deepcopy(VALID)
    del node(document, "IO500")["att"]["number_clientNodes"]
    node(document, "StorageSystem")["att"]["vendor"] = ""  # the editor's blank
    document["DATA"]["childs"] = [
        child for child in document["DATA"]["childs"] if child["type"] != "Supercomputer"
    ]
    with pytest.raises(ValidationError) as refused:
        system_description_clean(document)
    errors = refused.value.message_dict
    assert set(errors) == {
        "Site.IO500.number_clientNodes",
        "Site.StorageSystem[0].vendor",
        "Site.Supercomputer",
    }
    assert "required by the IO500 schema" in errors["Site.IO500.number_clientNodes"][0]


def test_the_forms_both_tools_write_are_read_alike() -> None:
    editor = copy.deepcopy(VALID)
    cdcl = copy.deepcopy(VALID)
    node(editor, "IO500")["att"]["storage net capacity"] = ["1.2", "PiB"]
    node(cdcl, "IO500")["att"]["storage net capacity"] = "1.2 PiB"
    node(cdcl, "StorageSystem")["att"]["frameworks"] = "SPDK;DPDK"
    node(cdcl, "IO500")["att"]["type of filesystem"] = "daos"  # io500.org matches without case
    a, b = system_description_clean(editor).fields, system_description_clean(cdcl).fields
    assert a["storage_capacity_bytes"] == b["storage_capacity_bytes"]
    assert b["filesystem_type"] == "DAOS"


def test_a_real_2021_document_is_read_leniently_with_each_problem_named() -> None:
    text = read_system_text(REAL_2021_DOCUMENT.read_text())
    assert text.format == "community-json"
    assert "line breaks fall inside strings" in text.problems[0]
    clean = system_description_read(text.data)
    assert clean.fields["institution_name"] == "Calcul Quebec"  # "Calcul\nQuebec" in the file
    assert (clean.fields["ds_servers"], clean.fields["md_servers"]) == (22, 4)
    # The distribution "Rocky 8" is no choice of the schema, but the text is kept for the OS.
    assert clean.fields["client_os"] == "Rocky 8"
    joined = " ".join(clean.problems)
    for unknown in ("Site.IO500.information", "Site.IO500.IOR", "Site.IO500.include_in_io500_ranked_list"):
        assert unknown in joined
    assert "Rocky 8" in joined
    # Strictly, the same document is refused with the same names.
    with pytest.raises(ValidationError) as refused:
        system_description_clean(text.data)
    assert "Site.IO500.IOR" in refused.value.message_dict


def test_nothing_in_a_hostile_document_raises() -> None:
    hostile: tuple[dict[str, Any], ...] = (
        {"DATA": []},
        {"DATA": {"type": "Site", "att": [], "childs": {}}},
        {"DATA": {"type": "Site", "childs": [1, {"type": 5}, {"type": "IO500", "att": {"version": ["x"]}}]}},
        {"DATA": {"type": "Building"}},
    )
    for document in hostile:
        reading = read_document(document)
        assert reading.errors
        assert system_description_read(document).problems


@pytest.mark.parametrize("speed", ["nan Gbit", "inf Gbit", "1e999 Gbit", "1_00 Gbit", "fast Gbit"])
def test_an_interconnect_speed_that_is_no_finite_number_gives_no_network_speed(speed: str) -> None:
    # The engine's number parser (scoring/readers/numbers.py): float() took "nan" and "inf", and a
    # nan speed is truthy, so it became the client network's Gbit/s.
    assert _speed_gbps(speed) is None
    assert _speed_gbps("200 Gbit") == 200.0 and _speed_gbps("400 Mbit") == pytest.approx(0.4)


@pytest.mark.parametrize(
    ("text", "integer", "number"), [("12", True, 12), ("1e3", True, 1000), (" 2.5 ", False, 2.5)]
)
def test_a_number_written_as_text_is_read_as_the_engine_reads_it(
    text: str, integer: bool, number: float
) -> None:
    assert _number(text, integer) == number
    assert (
        _number("nan", integer) is None
        and _number("inf", integer) is None
        and _number("1_0", integer) is None
    )


@pytest.mark.parametrize("count", ["²", "9" * 5_000])
def test_a_count_that_int_refuses_is_a_problem_not_a_crash(count: str) -> None:
    # "²" passes isdigit() and int() refuses it, as it refuses more than 4,300 digits: both once
    # escaped the reader as a ValueError.
    problems = system_description_read({"client_nodes": count}).problems
    # The echo of what was sent is clipped (a 5,000-digit value is not sent back whole).
    assert len(problems) == 1
    assert problems[0].startswith(
        f'client_nodes: The number of client nodes must be a whole number, not "{count[:40]}'
    )
    assert len(problems[0]) < 1_200


@pytest.mark.parametrize("amount", ["nan", "inf", "1_000", "-1", "lots"])
def test_amounts_are_read_as_the_scoring_readers_read_numbers(amount: str) -> None:
    clean = system_description_read({"storage_capacity_bytes": amount})
    assert "storage_capacity_bytes" not in clean.fields
    assert clean.problems and clean.problems[0].startswith("storage_capacity_bytes: ")


def test_an_amount_written_as_text_or_as_a_number_is_read() -> None:
    assert (
        system_description_read({"storage_capacity_bytes": " 1.5e3 "}).fields["storage_capacity_bytes"]
        == 1500.0
    )
    assert (
        system_description_read({"storage_capacity_bytes": 1500}).fields["storage_capacity_bytes"] == 1500.0
    )
