"""Slow connections from many addresses against the proxy, with our connection settings and with the
nginx image's 1,024 connections per worker: do health probes still pass?

    .venv/bin/python benchmarks/proxy.py [--addresses 64] [--per-address 62] [--seconds 10]

The larger version of tests/reliability/test_proxy.py's attack (issue 23: 2,043 slow connections from
46 addresses failed every health probe of compose's proxy). Each run starts a private stack
(tests/reliability/stack.py: PostgreSQL, Redis, gunicorn, nginx with docker/nginx-main.conf and
docker/nginx.conf), opens the connections from 127.0.0.2, 127.0.0.3, ... (each address under the
per-address limit of 64: half unfinished request heads, half unfinished bodies within 1 MiB) and
opens a new one for each that nginx answers or closes, probes /healthz every 0.1 s meanwhile, and
prints the probes' latencies and failures with the load average.
The image's setting differs from ours in worker_connections only.
"""

from __future__ import annotations

import argparse
import os
import select
import socket
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.reliability.stack import NGINX_WORKER_CONNECTIONS, Stack  # noqa: E402
from tests.reliability.test_proxy import _probe, _raise_descriptor_limit, _slow_connection  # noqa: E402

# The nginx image's default main configuration: worker_processes auto, 1,024 connections per worker.
IMAGE_WORKER_CONNECTIONS = 1024


def _renew(held: dict[int, tuple[str, int, socket.socket]], port: int) -> int:
    """Replaces every connection nginx answered or closed by a new one from the same address, as a
    sustained attack does; returns how many were replaced."""
    answered = select.poll()
    for descriptor in held:
        answered.register(descriptor, select.POLLIN)
    renewed = 0
    for descriptor, _ in answered.poll(0):
        address, number, connection = held.pop(descriptor)
        connection.close()
        if (again := _slow_connection(port, address, number)) is not None:
            held[again.fileno()] = (address, number, again)
            renewed += 1
    return renewed


def attack(addresses: int, per_address: int, seconds: float, worker_connections: int) -> dict[str, Any]:
    with Stack.create(database="io500_proxy_bench", env={"UPLOAD_RATE": ""}) as stack:
        stack.start_web(workers=2, threads=4, proxy=False)
        stack.start_proxy(worker_connections=worker_connections)
        _raise_descriptor_limit(addresses * per_address + 512)
        held: dict[int, tuple[str, int, socket.socket]] = {}
        for a in range(addresses):
            address = f"127.0.{2 + a // 250}.{2 + a % 250}"
            for n in range(per_address):
                if (connection := _slow_connection(stack.proxy_port, address, n)) is not None:
                    held[connection.fileno()] = (address, n, connection)
        opened = len(held)
        outcome: dict[str, Any] = {}

        def probe() -> None:
            outcome["latencies"], outcome["failures"] = _probe(
                stack.url("/healthz"), time.monotonic() + seconds
            )

        prober = threading.Thread(target=probe)
        prober.start()
        renewed = 0
        try:
            while prober.is_alive():
                renewed += _renew(held, stack.proxy_port)
                prober.join(timeout=0.5)
        finally:
            for _, _, connection in held.values():
                connection.close()
    latencies, failures = outcome["latencies"], outcome["failures"]
    return {
        "worker_connections": worker_connections,
        "connections": addresses * per_address,
        "opened": opened,
        "renewed": renewed,
        "probes": len(latencies) + failures,
        "failures": failures,
        "median_ms": round(statistics.median(latencies) * 1000, 1) if latencies else None,
        "max_ms": round(max(latencies) * 1000, 1) if latencies else None,
        "loadavg": " ".join(f"{x:.2f}" for x in os.getloadavg()),
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--addresses", type=int, default=64)
    parser.add_argument("--per-address", type=int, default=62, help="under the per-address limit of 64")
    parser.add_argument("--seconds", type=float, default=10.0, help="how long /healthz is probed")
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores; load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    failed = 0
    for label, connections in (("ours", NGINX_WORKER_CONNECTIONS), ("image", IMAGE_WORKER_CONNECTIONS)):
        result = attack(args.addresses, args.per_address, args.seconds, connections)
        print(f"{label:5s} " + ", ".join(f"{key} {value}" for key, value in result.items()), flush=True)
        failed += result["failures"] if label == "ours" else 0
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
