"""What the run itself tells about the system: client nodes and processes from the outputs, the IO500
version the tools printed, and the file system from the configured API or data directory.

Each value comes with the evidence it was read from, which the submission page shows next to it.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.model import RunResult

# The schema's "type of filesystem" choices, by the IOR/mdtest API that only that file system has.
_API_FILESYSTEMS = {"dfs": "DAOS", "daos": "DAOS", "cephfs": "Ceph", "rados": "Ceph", "ime": "IME"}
# ... and by a word its mount points are usually named after (a path component starting with it).
_PATH_FILESYSTEMS = (
    ("lustre", "Lustre"),
    ("gpfs", "SpectrumScale"),
    ("beegfs", "BeeGFS"),
    ("daos", "DAOS"),
    ("weka", "WekaIO"),
    ("cephfs", "Ceph"),
)
_DATA_DIR_KEYS = ("datadir", "io500_workdir", "workdir")


@dataclass(frozen=True)
class RunFact:
    value: object
    evidence: str


def _apis(config: dict[str, dict[str, str]]) -> list[tuple[str, str]]:
    found = []
    for section, values in config.items():
        for key, value in values.items():
            if key.lower() == "api" and value.strip():
                found.append((f"[{section}] {key}", value.strip()))
    return found


def filesystem_from_config(config: dict[str, dict[str, str]]) -> RunFact | None:
    for where, value in _apis(config):
        name = value.split()[0].lower()
        if name in _API_FILESYSTEMS:
            return RunFact(_API_FILESYSTEMS[name], f"the run's configuration: {where} = {value.split()[0]}")
    for section, values in config.items():
        for key, value in values.items():
            if key.lower() not in _DATA_DIR_KEYS:
                continue
            for component in value.replace("\\", "/").split("/"):
                lowered = component.lower()
                for word, filesystem in _PATH_FILESYSTEMS:
                    if lowered.startswith(word):
                        return RunFact(filesystem, f"the run's configuration: [{section}] {key} = {value}")
    return None


def facts_from_run(run: RunResult) -> dict[str, RunFact]:
    """SystemDescription field -> what the run shows for it."""
    facts: dict[str, RunFact] = {}
    # The tools count every process as a node when they cannot tell hosts apart: no node count then.
    nodes_known = (
        run.nodes is not None
        and run.nodes > 0
        and not (run.procs not in (None, 1) and run.nodes == run.procs)
    )
    if nodes_known:
        facts["client_nodes"] = RunFact(run.nodes, "the run's outputs (the hosts the benchmark ran on)")
        if run.procs and run.nodes and run.procs % run.nodes == 0:
            facts["procs_per_node"] = RunFact(
                run.procs // run.nodes, f"the run's outputs ({run.procs} processes on {run.nodes} nodes)"
            )
    if run.version:
        facts["io500_version"] = RunFact(run.version, "the version the IO500 tools printed")
    filesystem = filesystem_from_config(run.config)
    if filesystem is not None:
        facts["filesystem_type"] = filesystem
    return facts
