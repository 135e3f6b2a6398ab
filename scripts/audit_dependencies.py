"""Audit the pinned dependencies with pip-audit; fail on known vulnerabilities only.

    .venv/bin/python scripts/audit_dependencies.py [requirements.txt]

pip-audit asks an advisory service (PyPI's JSON API by default) about every pinned version. Where
that service cannot be reached, or answers nothing for the versions (a PyPI mirror without the
per-version JSON API), nothing is audited: this script then says so plainly, as a warning and not
as a pass, and exits 0 so that an offline CI is not blocked; AUDIT_STRICT=1 makes that an error.
Known vulnerabilities always fail (exit 1).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _pip_audit(requirements: Path) -> tuple[int, str, str]:
    command = [sys.executable, "-m", "pip_audit", "-r", str(requirements), "--no-deps", "--disable-pip"]
    command += ["--format", "json", "--progress-spinner", "off"]
    done = subprocess.run(command, capture_output=True, text=True, cwd=REPO, check=False, timeout=900)
    return done.returncode, done.stdout, done.stderr


def _not_audited(reason: str) -> int:
    print(f"DEPENDENCIES NOT AUDITED: {reason}")
    print("This is not a pass. Run `make audit` where the package index advisory service is reachable.")
    return 2 if os.environ.get("AUDIT_STRICT") == "1" else 0


def evaluate(code: int, out: str, err: str) -> int:
    """The exit status for one pip-audit run (its exit code, JSON output and standard error)."""
    try:
        report = json.loads(out)
    except json.JSONDecodeError:
        last = (err.strip().splitlines() or ["no output"])[-1]
        return _not_audited(f"pip-audit could not run against the advisory service ({last}).")
    dependencies = report.get("dependencies", [])
    vulnerable = [d for d in dependencies if d.get("vulns")]
    skipped = [d for d in dependencies if d.get("skip_reason")]
    audited = len(dependencies) - len(skipped)
    for dependency in vulnerable:
        for vuln in dependency["vulns"]:
            fixes = ", ".join(vuln.get("fix_versions") or []) or "no fixed version yet"
            print(f"VULNERABLE {dependency['name']} {dependency['version']}: {vuln['id']} (fixed in {fixes})")
    if vulnerable:
        print(f"{len(vulnerable)} of {len(dependencies)} pinned packages have known vulnerabilities.")
        return 1
    if code not in (0, 1):
        return _not_audited(f"pip-audit exited with {code}: {err.strip()[-300:]}")
    if audited == 0:
        example = skipped[0]["skip_reason"] if skipped else "no dependencies listed"
        return _not_audited(
            f"the advisory service answered for none of the {len(dependencies)} pinned packages "
            f"(e.g. {example})."
        )
    if skipped:
        print(f"{len(skipped)} package(s) could not be audited: " + ", ".join(d["name"] for d in skipped))
    print(f"No known vulnerabilities in {audited} audited package(s).")
    return 0


def main() -> int:
    requirements = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "requirements.txt"
    return evaluate(*_pip_audit(requirements))


if __name__ == "__main__":
    sys.exit(main())
