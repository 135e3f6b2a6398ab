"""A client-facts file as the bundled runner writes it (runner/src/facts.c), for the ingest tests."""

from __future__ import annotations

import json

from tests.support.data import submission_folder

TIB_KIB = 2**30  # one TiB in the KiB the runner writes MemTotal in
COLLECTED = "2026-11-20T08:00:00Z"
# Where the runner leaves it: inside the result folder.
FACTS_MEMBER = f"{submission_folder(33).name}/client-facts.json"


def facts(memory: str = f"{900 * TIB_KIB} KiB", nic: dict[str, str] | None = None) -> bytes:
    """A facts file as the runner writes it (runner/src/facts.c): one group of 10 identical nodes."""
    interconnect = {"type": "Ethernet", "speed": "1 Gbit", "peak throughput": "125000 KB/s"}
    nodes = {
        "type": "Nodes",
        "att": {"kernel version": "6.1.0-runner", "count": 10},
        "childs": [
            {"type": "Processor", "att": {"model": "Test CPU", "cores per socket": 4}, "childs": []},
            {"type": "Memory", "att": {"net capacity": memory}, "childs": []},
            {"type": "Interconnect", "att": nic if nic is not None else interconnect, "childs": []},
        ],
    }
    data = {
        "DATA": {
            "type": "Site",
            "att": {},
            "childs": [{"type": "Supercomputer", "att": {}, "childs": [nodes]}],
        },
        "runner": {
            "version": "io500-runner-1.0.0",
            "collected": COLLECTED,
            "nodes": 10,
            "groups": [
                {
                    "count": 10,
                    "data directory": {
                        "mount point": "/lustre",
                        "file system": "lustre",
                        "mount options": "rw,flock",
                        "client version": "2.15.4",
                    },
                }
            ],
        },
    }
    return json.dumps(data).encode()
