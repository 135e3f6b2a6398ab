"""System descriptions in the IO500 community schema, for the tests.

VALID is io500.org's empty site template (IO500/submission-system webroot/model/site-io500.json)
filled in with the values of a real submission: LRZ's SuperMUC-NG Phase2 DAOS system as its
system-information.txt describes it (IO500 submission-data, submission-774), with every field the
schema requires of the parts it uses. Values are written as io500.org's editor stores them (numbers
as strings, quantities as [number, unit]) and, in places, as VI4IO's cdcl tools write them
("100 Gbit", "512 GiB"). The wrong documents are VALID with some values broken; the one with
unknown fields is a real corpus file (submission-585, io500.org's editor of 2021).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from tests.support.data import IO500_DATA

VALID: dict[str, Any] = {
    "DATA": {
        "type": "Site",
        "att": {
            "abbreviation": "LRZ",
            "institution": "LRZ",
            "nationality": "DEU",
            "webpage": "https://www.lrz.de",
        },
        "childs": [
            {
                "type": "IO500",
                "att": {
                    "exclusive_cluster_usage": "yes",
                    "version": "io500-isc25_v2",
                    "number_clientNodes": "10",
                    "procsPerNode": "112",
                    "number_serverNodes": 42,
                    "storage type": "PMEM",
                    "storage net capacity": ["1.2", "PiB"],
                    "clients network bandwidth": "250 GB/s",
                    "servers network bandwidth": ["1050", "GB/s"],
                    "type of filesystem": "DAOS",
                },
                "childs": [],
            },
            {
                "type": "StorageSystem",
                "att": {
                    "name": "daos",
                    "model": "Lenovo SR630v2",
                    "usage": "production",
                    "overlapping_compute_storage": "no",
                    "overlapping_metadata_dataServers": "yes",
                    "vendor": "Lenovo",
                    "type": "object storage",
                    "software": "DAOS",
                    "frameworks": "SPDK",
                    "client storage access": "library linked to IO500",
                    "client mount options": "none",
                    "version": "2.6.4-2",
                    "net capacity": ["1.2", "PiB"],
                    "Servers": "42",
                },
                "childs": [
                    {
                        "type": "DAOS",
                        "att": {},
                        "childs": [
                            {
                                "type": "Servers",
                                "att": {
                                    "name": "daos-server",
                                    "count": "42",
                                    "distribution": "SUSE Enterprise",
                                    "distribution version": "15.5",
                                    "kernel version": "5.14.21-150500.55.65-default",
                                },
                                "childs": [
                                    {
                                        "type": "StorageMedia",
                                        "att": {
                                            "type": "PMEM",
                                            "count": "16",
                                            "interface": "NVDIMM",
                                            "file system": "none",
                                            "vendor": "Intel",
                                            "model": "Optane DC PMem 200",
                                            "net capacity": ["128", "GB"],
                                        },
                                        "childs": [],
                                    },
                                    {
                                        "type": "Interconnect",
                                        "att": {
                                            "model": "ConnectX-6",
                                            "type": "Infiniband",
                                            "speed": "200 Gbit",
                                            "features": "RDMA",
                                            "vendor": "NVIDIA",
                                            "links": "2",
                                        },
                                        "childs": [],
                                    },
                                ],
                            }
                        ],
                    }
                ],
            },
            {
                "type": "Supercomputer",
                "att": {
                    "name": "SuperMUC-NG Phase2",
                    "total nodes": "240",
                    "total cores": "26880",
                    "memory capacity": "122 TB",
                },
                "childs": [
                    {
                        "type": "Nodes",
                        "att": {
                            "name": "sng2",
                            "vendor": "Lenovo",
                            "count": "240",
                            "distribution": "SUSE Enterprise",
                            "distribution version": "15.5",
                            "kernel version": "5.14.21-150500.55.65-default",
                        },
                        "childs": [
                            {
                                "type": "Interconnect",
                                "att": {
                                    "model": "ConnectX-7",
                                    "type": "Infiniband",
                                    "speed": "200 Gbit",
                                    "features": ["RDMA"],
                                    "vendor": "NVIDIA",
                                    "links": "1",
                                },
                                "childs": [],
                            }
                        ],
                    }
                ],
            },
        ],
    },
    "GRAPH": {"Network": {"pos": [], "edges": []}, "Building": {"pos": [], "edges": []}},
}


def node(document: dict[str, Any], *path: str) -> dict[str, Any]:
    """The node reached by child types from the Site, e.g. node(doc, "StorageSystem", "DAOS")."""
    current: dict[str, Any] = document["DATA"]
    for type_name in path:
        current = next(child for child in current["childs"] if child["type"] == type_name)
    return current


def with_unit_and_type_errors() -> dict[str, Any]:
    """Three unit errors, three type errors and a choice not offered, each in a different place."""
    document = copy.deepcopy(VALID)
    io500 = node(document, "IO500")["att"]
    io500["storage net capacity"] = ["1.2", "PiB/s"]  # a bandwidth unit for a capacity
    io500["clients network bandwidth"] = 250  # no unit at all
    io500["number_clientNodes"] = "ten"  # not a whole number
    io500["procsPerNode"] = 11.5  # not whole either
    io500["exclusive_cluster_usage"] = "sometimes"  # not a choice
    storage = node(document, "StorageSystem")["att"]
    storage["net capacity"] = "lots"  # no number
    media = node(document, "StorageSystem", "DAOS", "Servers", "StorageMedia")["att"]
    media["net capacity"] = ["128", "GHz"]  # a unit of another kind
    return document


def with_unknown_fields() -> dict[str, Any]:
    """VALID with a field IO500 does not have, a part the Site cannot hold and a top-level key."""
    document = copy.deepcopy(VALID)
    node(document, "IO500")["att"]["cooling"] = "water"
    document["DATA"]["childs"].append({"type": "Datacenter", "att": {"name": "Garching"}, "childs": []})
    document["COMMENT"] = "from the cdcl tools"
    return document


REAL_2021_DOCUMENT = Path(IO500_DATA) / "submissions" / "submission-585" / "system-information.txt"


def as_bytes(document: dict[str, Any]) -> bytes:
    return json.dumps(document, indent=1).encode()
