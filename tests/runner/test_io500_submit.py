"""runner/io500-submit against a small stand-in for the registry API (standard library HTTP server)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.runner

SUBMIT = Path(__file__).resolve().parents[2] / "runner" / "io500-submit"
TOKEN = "s3cret-token"
RUN_TOKEN = "io500-run-abcdefghijklmnopqrstuvwxyz"


class FakeRegistry:
    """Records the upload and answers polls from a scripted list of statuses."""

    def __init__(self, statuses: list[dict[str, Any]], upload_status: int = 201) -> None:
        self.statuses = statuses
        self.upload_status = upload_status
        self.uploads: list[tuple[dict[str, str], bytes]] = []
        self.polls = 0
        # The review steps after the verdict: (method, path, JSON body), and scripted refusals by path.
        self.steps: list[tuple[str, str, Any]] = []
        self.refuse: dict[str, tuple[int, dict[str, Any]]] = {}


def make_handler(registry: FakeRegistry) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # keep pytest output clean
            pass

        def reply(self, status: int, body: Any) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def step(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            assert self.headers["Content-Type"] == "application/json"
            registry.steps.append((self.command, self.path, body))
            if self.path in registry.refuse:
                self.reply(*registry.refuse[self.path])
            elif self.path.endswith("/submit/"):
                self.reply(200, {"id": 7, "review_state": "submitted"})
            else:
                self.reply(200, body)

        def do_PUT(self) -> None:
            self.step()

        def do_POST(self) -> None:
            if self.headers.get("Authorization") != f"Token {TOKEN}":
                self.reply(401, {"detail": "Invalid token."})
                return
            if self.path not in ("/api/v1/submissions/", "/api/v1/run-tokens/"):
                self.step()
                return
            body = self.rfile.read(int(self.headers["Content-Length"]))
            registry.uploads.append((dict(self.headers), body))
            if self.path == "/api/v1/run-tokens/":
                asked = json.loads(body)
                self.reply(
                    201,
                    {
                        "token": RUN_TOKEN,
                        "release": asked["release"],
                        "system_name": asked["system_name"],
                        "expires_at": "2026-12-05T03:00:00Z",
                    },
                )
                return
            if registry.upload_status != 201:
                self.reply(registry.upload_status, {"archive": ["The file is not an archive."]})
                return
            self.reply(201, {"id": 7, "status": "received", "url": "/api/v1/submissions/7/"})

        def do_GET(self) -> None:
            assert self.path == "/api/v1/submissions/7/"
            answer = registry.statuses[min(registry.polls, len(registry.statuses) - 1)]
            registry.polls += 1
            self.reply(200, answer)

    return Handler


@pytest.fixture
def serve() -> Iterator[Any]:
    servers: list[ThreadingHTTPServer] = []

    def start(registry: FakeRegistry) -> str:
        server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(registry))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_port}"

    yield start
    for server in servers:
        server.shutdown()


def submit(tarball: Path, url: str, *extra: str) -> subprocess.CompletedProcess[str]:
    command = [
        sys.executable,
        str(SUBMIT),
        str(tarball),
        "--url",
        url,
        "--token",
        TOKEN,
        "--interval",
        "0.05",
    ]
    return subprocess.run([*command, *extra], capture_output=True, text=True, timeout=60, check=False)


@pytest.fixture
def tarball(tmp_path: Path) -> Path:
    path = tmp_path / "io500-host-2026.01.01-00.00.00.tgz"
    path.write_bytes(b"\x1f\x8b fake archive bytes")
    return path


def test_it_uploads_the_archive_and_system_and_exits_0_when_verified(
    serve: Any, tarball: Path, tmp_path: Path
) -> None:
    registry = FakeRegistry(
        [
            {"status": "processing"},
            {"status": "verified", "score": 12.5, "bw": 2.0, "md": 78.125, "findings": [], "page": "/s/7/"},
        ]
    )
    system = tmp_path / "system.json"
    system.write_text('{"system_name": "Wolf"}')
    done = submit(tarball, serve(registry), "--system", str(system))
    assert done.returncode == 0, done.stderr
    headers, body = registry.uploads[0]
    assert headers["Content-Type"].startswith("multipart/form-data; boundary=")
    assert b'name="archive"; filename="io500-host-2026.01.01-00.00.00.tgz"' in body
    assert b"fake archive bytes" in body
    assert b'name="system"' in body and b'{"system_name": "Wolf"}' in body
    assert registry.polls == 2
    assert "status: verified" in done.stdout
    assert "score:  12.500000" in done.stdout


def test_it_prints_the_findings_and_exits_1_when_invalid(serve: Any, tarball: Path) -> None:
    finding = {
        "severity": "error",
        "code": "write-phase-short",
        "phase": "ior-easy-write",
        "message": "too short",
    }
    registry = FakeRegistry(
        [{"status": "invalid", "score": 1.0, "bw": 1.0, "md": 1.0, "findings": [finding]}]
    )
    done = submit(tarball, serve(registry))
    assert done.returncode == 1
    assert "error   write-phase-short [ior-easy-write]: too short" in done.stdout


def test_it_exits_1_when_rejected(serve: Any, tarball: Path) -> None:
    registry = FakeRegistry([{"status": "rejected", "score": None, "error": "No result files found."}])
    done = submit(tarball, serve(registry))
    assert done.returncode == 1
    assert "No result files found." in done.stdout


def test_it_explains_a_refused_upload_and_exits_2(serve: Any, tarball: Path) -> None:
    done = submit(tarball, serve(FakeRegistry([], upload_status=400)))
    assert done.returncode == 2
    assert "answered 400" in done.stderr and "The file is not an archive." in done.stderr
    assert "Traceback" not in done.stderr


def test_it_refuses_a_system_file_that_is_not_json(serve: Any, tarball: Path, tmp_path: Path) -> None:
    system = tmp_path / "system.json"
    system.write_text("system_name: Wolf\n")
    registry = FakeRegistry([])
    done = submit(tarball, serve(registry), "--system", str(system))
    assert done.returncode == 2
    assert "is not valid JSON" in done.stderr
    assert registry.uploads == []


def test_it_gives_up_after_the_timeout_with_exit_2(serve: Any, tarball: Path) -> None:
    done = submit(tarball, serve(FakeRegistry([{"status": "processing"}])), "--timeout", "0.3")
    assert done.returncode == 2
    assert "No verdict after" in done.stderr


def test_it_reports_an_unreachable_registry_with_exit_2(tarball: Path) -> None:
    done = submit(tarball, "http://127.0.0.1:9")
    assert done.returncode == 2
    assert "Cannot reach" in done.stderr


def test_it_asks_for_a_run_token_and_prints_it_alone_on_stdout(serve: Any) -> None:
    registry = FakeRegistry([])
    url = serve(registry)
    command = [sys.executable, str(SUBMIT), "--new-run-token", "--url", url, "--token", TOKEN]
    done = subprocess.run(
        [*command, "--release", "isc27", "--system-name", "Wolf"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == RUN_TOKEN + "\n"  # ready for --timestamp="$(io500-submit --new-run-token ...)"
    assert f"--timestamp={RUN_TOKEN}" in done.stderr
    headers, body = registry.uploads[0]
    assert headers["Content-Type"] == "application/json"
    assert json.loads(body) == {"release": "isc27", "system_name": "Wolf"}
    missing = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert missing.returncode == 2 and "--release" in missing.stderr


VERIFIED = {"status": "verified", "score": 12.5, "bw": 2.0, "md": 78.125, "findings": []}


def test_it_answers_the_questionnaire_and_submits_for_review_once_verified(
    serve: Any, tarball: Path, tmp_path: Path
) -> None:
    registry = FakeRegistry([{"status": "processing"}, VERIFIED])
    answers = tmp_path / "answers.json"
    answers.write_text('{"system_purpose": "Ten nodes, two rails of 200 Gb/s each."}')
    done = submit(
        tarball,
        serve(registry),
        "--questionnaire",
        str(answers),
        "--submit",
        "--release",
        "isc40",
        "--anonymous",
    )
    assert done.returncode == 0, done.stderr
    assert registry.steps == [
        (
            "PUT",
            "/api/v1/submissions/7/questionnaire/",
            {"system_purpose": "Ten nodes, two rails of 200 Gb/s each."},
        ),
        (
            "POST",
            "/api/v1/submissions/7/submit/",
            {
                "reviewed": True,
                "followed_rules": True,
                "permission_to_publish": True,
                "release": "isc40",
                "anonymous": True,
            },
        ),
    ]
    assert "questionnaire: answered" in done.stdout and "review: submitted" in done.stdout


def test_an_invalid_run_is_neither_answered_nor_submitted(serve: Any, tarball: Path, tmp_path: Path) -> None:
    registry = FakeRegistry([{"status": "invalid", "score": 1.0, "bw": 1.0, "md": 1.0, "findings": []}])
    answers = tmp_path / "answers.json"
    answers.write_text("{}")
    done = submit(tarball, serve(registry), "--questionnaire", str(answers), "--submit")
    assert done.returncode == 1 and registry.steps == []


def test_a_refused_step_says_why_and_exits_2(serve: Any, tarball: Path) -> None:
    registry = FakeRegistry([VERIFIED])
    registry.refuse["/api/v1/submissions/7/submit/"] = (400, {"detail": "Answer the questionnaire first."})
    done = submit(tarball, serve(registry), "--submit")
    assert done.returncode == 2
    assert "answered 400" in done.stderr and "Answer the questionnaire first." in done.stderr


def test_a_questionnaire_file_that_is_no_object_is_refused_before_the_upload(
    serve: Any, tarball: Path, tmp_path: Path
) -> None:
    answers = tmp_path / "answers.json"
    answers.write_text('["system_purpose"]')
    registry = FakeRegistry([VERIFIED])
    done = submit(tarball, serve(registry), "--questionnaire", str(answers))
    assert done.returncode == 2 and "must hold a JSON object" in done.stderr
    assert registry.uploads == []


def test_release_without_submit_is_a_usage_error(tarball: Path) -> None:
    done = submit(tarball, "http://127.0.0.1:9", "--release", "isc40")
    assert done.returncode == 2 and "go with --submit" in done.stderr
