"""A private, production-like registry stack on this machine, for fault injection and load.

PostgreSQL (its own cluster from initdb, on its own port), Redis (its own server), gunicorn behind
nginx (as in production: the proxy buffers requests, so a slow client holds an nginx connection and
never a gunicorn worker), Celery workers and beat, all started and stopped here. Nothing touches
the machine's shared PostgreSQL or Redis, which other test runs use at the same time: killing and
restarting these private services is safe.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import resource
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from submissions.accounts.token_format import token_digest, token_new, token_shown_prefix

REPO = Path(__file__).resolve().parents[2]
# The collected static files are the same for every stack (settings from the environment change
# none of them): collected once per process, by the first stack, and served by all (whitenoise
# compresses every file as it collects, about two CPU-seconds a stack).
SHARED_STATIC = Path(tempfile.gettempdir()) / f"io500-stack-static-{os.getpid()}"
_static_collected = threading.Lock()
atexit.register(shutil.rmtree, SHARED_STATIC, ignore_errors=True)
# A stopped PostgreSQL cluster whose database MIGRATED holds every migration, made by the first stack
# of a process; the next ones start from a copy of it (initdb and the migrations cost each stack
# several CPU-seconds) and take their database from that template.
MIGRATED_CLUSTER = Path(tempfile.gettempdir()) / f"io500-stack-pgdata-{os.getpid()}"
MIGRATED = "io500_migrated"
_cluster_made = threading.Lock()
atexit.register(shutil.rmtree, MIGRATED_CLUSTER, ignore_errors=True)
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
PROXY_BIND_ATTEMPTS = 5
NGINX_MAIN = REPO / "docker" / "nginx-main.conf"
NGINX_SITE = REPO / "docker" / "nginx.conf"
# The stack runs compose's nginx configuration (docker/nginx-main.conf including docker/nginx.conf) with
# these lines replaced: the process, its files and logs in the stack folder, the upstream and the port
# its own. Each must be found, or the configurations drifted apart and the stack would test another one.
NGINX_STACK_MAIN = {
    "user nginx;\n": "",
    "error_log /var/log/nginx/error.log notice;": "error_log {root}/nginx-error.log warn;",
    "pid /var/run/nginx.pid;": "pid {root}/nginx.pid;",
    "access_log /var/log/nginx/access.log main;": "access_log off;",
    # Compose raises the container's limit; here nginx may go as far as this machine's hard limit.
    "worker_rlimit_nofile 65536;": "worker_rlimit_nofile {nofile};",
}
NGINX_STACK_SITE = {
    "server web:8000;": "server 127.0.0.1:{web_port};",
    "listen 80;": "listen 127.0.0.1:{proxy_port};",
    "/var/cache/nginx/": "{root}/nginx/",
}
NGINX_INCLUDE_SITE = "include /etc/nginx/conf.d/*.conf;"
NGINX_WORKER_CONNECTIONS = 16384
# The folders nginx spools request bodies to (client_body_temp_path in docker/nginx.conf).
NGINX_BODY_FOLDERS = ("client_temp", "upload_temp")


def _replaced(text: str, replacements: Mapping[str, str], values: Mapping[str, object], name: str) -> str:
    for old, new in replacements.items():
        if old not in text:
            raise StackError(f"{name} no longer holds {old!r}: update the stack's nginx replacements")
        text = text.replace(old, new.format(**values))
    return text


def nginx_stack_config(
    root: Path, web_port: int, proxy_port: int, worker_connections: int | None = None
) -> str:
    """The one nginx.conf of the stack: docker/nginx-main.conf with docker/nginx.conf in its include.

    `worker_connections` replaces nginx-main.conf's, for comparisons (benchmarks/proxy.py)."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    nofile = 65536 if hard == resource.RLIM_INFINITY else min(65536, hard)
    values = {"root": root, "web_port": web_port, "proxy_port": proxy_port, "nofile": nofile}
    site = _replaced(NGINX_SITE.read_text(), NGINX_STACK_SITE, values, "docker/nginx.conf")
    replacements = dict(NGINX_STACK_MAIN)
    if worker_connections is not None:
        replacements[f"worker_connections {NGINX_WORKER_CONNECTIONS};"] = (
            f"worker_connections {worker_connections};"
        )
    main = _replaced(NGINX_MAIN.read_text(), replacements, values, "docker/nginx-main.conf")
    if NGINX_INCLUDE_SITE not in main:
        raise StackError(f"docker/nginx-main.conf no longer holds {NGINX_INCLUDE_SITE!r}")
    return main.replace(NGINX_INCLUDE_SITE, site)


def _postgres_bin() -> Path:
    """PG_BIN, else the newest server installed the Debian way (/usr/lib/postgresql/<major>/bin)."""
    if os.environ.get("PG_BIN"):
        return Path(os.environ["PG_BIN"])
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3]))
    return found[-1].parent if found else Path("/usr/lib/postgresql/15/bin")


PG_BIN = _postgres_bin()
START_TIMEOUT_S = 60


class StackError(RuntimeError):
    """A service of the private stack could not be started or stopped."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_for(predicate: Any, what: str, timeout_s: float = START_TIMEOUT_S, log: Path | None = None) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    tail = log.read_text(errors="replace")[-3000:] if log and log.exists() else ""
    raise StackError(f"{what} did not come up within {timeout_s:.0f} s.\n{tail}")


def _as_postgres(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    # initdb and the server refuse to run as root; the machine has a `postgres` account.
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    return subprocess.run(prefix + command, capture_output=True, text=True, check=False, **kwargs)


def _copy_tree(source: Path, target: Path) -> None:
    # `cp -a` keeps the owner (the postgres account) and the modes PostgreSQL insists on.
    done = subprocess.run(["cp", "-a", str(source), str(target)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise StackError(f"copying {source} to {target} failed: {done.stderr}")


@dataclass
class Postgres:
    root: Path
    port: int = field(default_factory=free_port)
    _connections: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def data(self) -> Path:
        return self.root / "pgdata"

    @property
    def log(self) -> Path:
        return self.root / "postgres.log"

    def make_root(self) -> None:
        """The folder of the data, the log and the socket, the server's own."""
        self.root.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")

    def init(self) -> None:
        self.make_root()
        done = _as_postgres(
            [str(PG_BIN / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync"]
        )
        if done.returncode != 0:
            raise StackError(f"initdb failed: {done.stderr}")

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c full_page_writes=off -c max_connections=200"
        )
        done = _as_postgres(
            [str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start"]
        )
        if done.returncode != 0:
            raise StackError(f"PostgreSQL did not start: {done.stderr}\n{self.log.read_text()[-2000:]}")

    def stop(self, mode: str = "fast") -> None:
        """`immediate` is what a crash looks like to clients: connections are cut without goodbye."""
        self.close_connections()
        _as_postgres([str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop"])

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def sql(self, database: str, query: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """On one connection per database, kept: the tests poll a submission's status every few
        milliseconds, and a new connection each time cost the server a backend process each. A kept
        connection the server cut (a restart) is replaced once."""
        import psycopg

        kept = self._connections.pop(database, None)
        if kept is not None and not kept.closed:
            try:
                rows = self._run(kept, query, params)
            except psycopg.OperationalError:
                kept.close()
            else:
                self._connections[database] = kept
                return rows
        connection = psycopg.connect(self.url(database), autocommit=True)
        rows = self._run(connection, query, params)
        self._connections[database] = connection
        return rows

    @staticmethod
    def _run(connection: Any, query: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        cursor = connection.execute(query, params or None)
        return list(cursor.fetchall()) if cursor.description else []

    def close_connections(self) -> None:
        for connection in self._connections.values():
            connection.close()
        self._connections.clear()


@dataclass
class Redis:
    root: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        # No persistence: a restart loses every queued message, the worst case the registry must survive.
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        command += ["--appendonly", "no", "--dir", str(self.root)]
        with open(self.root / "redis.log", "ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        _wait_for(self.ping, "Redis", log=self.root / "redis.log")

    def ping(self) -> bool:
        import redis

        try:
            return bool(redis.Redis(port=self.port, socket_connect_timeout=0.5).ping())
        except redis.RedisError:
            return False

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(timeout=30)
        self.process = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"


@dataclass
class ObjectStore:
    """An S3-compatible server (moto's S3) holding the archives when the stack runs with
    ARCHIVE_STORAGE=s3, as a deployment with web and workers on separate machines does."""

    root: Path
    bucket: str = "registry-archives"
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        command = [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(self.port)]
        with open(self.root / "s3.log", "ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        _wait_for(self._answers, "the S3 server", log=self.root / "s3.log")
        self.client().create_bucket(Bucket=self.bucket)

    def client(self) -> Any:
        import boto3

        return boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            aws_access_key_id="stack",
            aws_secret_access_key="stack-secret",
            region_name="us-east-1",
        )

    def _answers(self) -> bool:
        try:
            with urllib.request.urlopen(self.endpoint, timeout=1):
                return True
        except urllib.error.HTTPError:
            return True  # it answered
        except (urllib.error.URLError, OSError):
            return False

    def keys(self) -> list[str]:
        listed = self.client().list_objects_v2(Bucket=self.bucket)
        return [item["Key"] for item in listed.get("Contents", [])]

    def env(self) -> dict[str, str]:
        return {
            "ARCHIVE_STORAGE": "s3",
            "S3_BUCKET": self.bucket,
            "S3_ENDPOINT_URL": self.endpoint,
            "S3_ACCESS_KEY_ID": "stack",
            "S3_SECRET_ACCESS_KEY": "stack-secret",
            "S3_REGION": "us-east-1",
        }

    def hang(self) -> None:
        """SIGSTOP: the kernel still accepts connections, nothing ever answers (a hung server)."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)  # a stopped process never handles SIGTERM
            self.process.terminate()
            self.process.wait(timeout=30)
        self.process = None


@dataclass
class Service:
    """One of our own processes (gunicorn, a Celery worker, beat) in its own process group."""

    name: str
    process: subprocess.Popen[bytes]
    log: Path

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Signal the whole group: a Celery worker's pool processes die with it, as in an OOM kill."""
        if self.alive():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, sig)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)

    def stop(self) -> None:
        self.kill(signal.SIGTERM)


@dataclass
class Stack:
    """The registry on private services. Use `Stack.create()` as a context manager."""

    root: Path
    postgres: Postgres
    redis: Redis
    database: str = "io500_private"
    media: Path | None = None
    extra_env: dict[str, str] = field(default_factory=dict)
    services: list[Service] = field(default_factory=list)
    web_port: int = field(default_factory=free_port)
    proxy_port: int = field(default_factory=free_port)
    proxied: bool = False
    objects: ObjectStore | None = None
    tokens: dict[str, str] = field(default_factory=dict)

    @classmethod
    @contextlib.contextmanager
    def create(
        cls,
        *,
        media: Path | None = None,
        database: str = "io500_private",
        env: Mapping[str, str] | None = None,
        object_storage: bool = False,
    ) -> Iterator[Stack]:
        """With `object_storage`, archives live in an S3-compatible server and every service gets a
        local folder of its own: web and workers share only PostgreSQL, Redis and the bucket."""
        root = Path(tempfile.mkdtemp(prefix="io500-stack-"))
        root.chmod(0o755)  # the postgres account must reach its data folder inside
        stack = cls(root, Postgres(root / "pg"), Redis(root / "redis"), database, media, dict(env or {}))
        if object_storage:
            stack.objects = ObjectStore(root / "s3")
        try:
            if stack.objects is not None:
                stack.objects.start()
            stack.start_migrated_postgres()
            stack.postgres.sql("postgres", f'CREATE DATABASE "{database}" TEMPLATE "{MIGRATED}"')
            stack.redis.start()
            with _static_collected:
                if not (SHARED_STATIC / "staticfiles.json").is_file():
                    stack.manage("collectstatic", "--noinput")
            yield stack
        finally:
            stack.shutdown()
            shutil.rmtree(root, ignore_errors=True)

    def start_migrated_postgres(self) -> None:
        """The private PostgreSQL started with database MIGRATED in it: from a copy of the process's
        MIGRATED_CLUSTER, which the first stack makes (initdb, every migration, a clean stop)."""
        with _cluster_made:
            if not (MIGRATED_CLUSTER / "PG_VERSION").is_file():
                self.postgres.init()
                self.postgres.start()
                self.postgres.sql("postgres", f'CREATE DATABASE "{MIGRATED}"')
                self.manage("migrate", "--noinput", database=MIGRATED)
                self.postgres.stop()
                _copy_tree(self.postgres.data, MIGRATED_CLUSTER)
            else:
                self.postgres.make_root()
                _copy_tree(MIGRATED_CLUSTER, self.postgres.data)
        self.postgres.start()

    @property
    def media_root(self) -> Path:
        return self.media or self.root / "media"

    def env(self, service: str = "") -> dict[str, str]:
        keep = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CELERY_", "SECURE_"))}
        separate: dict[str, str] = {}
        if self.objects is not None:
            # Each service on "its own machine": a local folder of its own, archives in the bucket.
            local = self.root / "local" / (service or "manage")
            local.mkdir(parents=True, exist_ok=True)
            separate = {**self.objects.env(), "MEDIA_ROOT": str(local), "INGEST_SCRATCH_DIR": str(local)}
        return {
            **keep,
            "DJANGO_SETTINGS_MODULE": "registry.settings",
            "DATABASE_URL": self.postgres.url(self.database),
            "REDIS_URL": self.redis.url(),
            # Apart from the Celery queue, as in production: a cache flush never drops queued work.
            "CACHE_URL": self.redis.url(1),
            "MEDIA_ROOT": str(self.media_root),
            "STATIC_ROOT": str(SHARED_STATIC),
            "SECRET_KEY": "private-stack-" + secrets.token_urlsafe(40),
            "DEBUG": "false",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            # nginx in front: the client's address comes in its header (docker/nginx.conf).
            "RATELIMIT_CLIENT_IP_HEADER": "HTTP_X_REAL_IP",
            # Plain HTTP on localhost: no TLS terminator in front of this stack.
            "SECURE_SSL_REDIRECT": "false",
            "SECURE_HSTS_SECONDS": "0",
            "SESSION_COOKIE_SECURE": "false",
            "CSRF_COOKIE_SECURE": "false",
            "CELERY_TASK_ALWAYS_EAGER": "false",
            "LOG_LEVEL": "WARNING",
            **separate,
            **self.extra_env,
        }

    def manage(self, *args: str, timeout: float = 300, database: str | None = None) -> str:
        """`manage.py ARGS` with the stack's settings, on its database or on `database`."""
        env = self.env()
        if database is not None:
            env["DATABASE_URL"] = self.postgres.url(database)
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        if done.returncode != 0:
            raise StackError(f"manage.py {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
        return done.stdout

    def _spawn(self, name: str, command: list[str], env: Mapping[str, str] | None = None) -> Service:
        log = self.root / f"{name}.log"
        with open(log, "ab") as out:
            process = subprocess.Popen(
                command,
                cwd=REPO,
                env={**self.env(name), **(env or {})},
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        service = Service(name, process, log)
        self.services.append(service)
        return service

    def start_web(self, workers: int = 2, threads: int = 8, proxy: bool = True) -> Service:
        """gunicorn, and nginx in front of it unless `proxy` is False; `url()` then names nginx."""
        command = [sys.executable, "-m", "gunicorn", "registry.wsgi", "--bind", f"127.0.0.1:{self.web_port}"]
        command += ["--workers", str(workers), "--worker-class", "gthread", "--threads", str(threads)]
        # Keep-alive longer than any client pause, as behind a proxy; gunicorn's 2 s default closes
        # connections that clients are about to reuse.
        command += ["--timeout", "120", "--keep-alive", "75", "--log-level", "warning"]
        service = self._spawn("web", command)
        _wait_for(lambda: self._answers("/healthz"), "gunicorn", log=service.log)
        if proxy:
            self.start_proxy()
        return service

    def start_proxy(self, worker_connections: int | None = None) -> Service:
        """nginx from Debian's package with the production configuration of docker/ (compose's), or
        with another number of connections per worker.

        The port is chosen right before nginx binds it, and chosen again when an outgoing connection
        of the stack took it meanwhile (free ports and client ports come from the same range)."""
        for folder in (*NGINX_BODY_FOLDERS, "proxy_temp"):
            (self.root / "nginx" / folder).mkdir(parents=True, exist_ok=True)
        error_log = self.root / "nginx-error.log"
        for attempt in range(PROXY_BIND_ATTEMPTS):
            self.proxy_port = free_port()
            config = self.root / "nginx.conf"
            config.write_text(
                nginx_stack_config(self.root, self.web_port, self.proxy_port, worker_connections)
            )
            command = [NGINX, "-c", str(config), "-e", str(error_log), "-g", "daemon off;"]
            service = self._spawn("nginx", command)
            self.proxied = True
            try:
                _wait_for(lambda: self._answers("/healthz"), "nginx", timeout_s=15, log=error_log)
                return service
            except StackError:
                self.proxied = False
                service.stop()
                self.services.remove(service)
                if attempt == PROXY_BIND_ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")

    def proxy_body_bytes(self) -> int:
        """Bytes of request bodies nginx holds in its temp folders right now.

        nginx deletes a body's temp file as soon as it has opened it, so the folders look empty: the
        bytes are counted through the open descriptors of nginx's processes (/proc/<pid>/fd)."""
        folders = tuple(str(self.root / "nginx" / folder) for folder in NGINX_BODY_FOLDERS)
        nginx = next((s for s in self.services if s.name == "nginx" and s.alive()), None)
        if nginx is None:
            return 0
        pids = [nginx.process.pid]
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError, IndexError, ValueError):
                # The parent pid is the second field after the command name in parentheses.
                if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == nginx.process.pid:
                    pids.append(int(stat.parent.name))
        held: dict[tuple[int, int], int] = {}
        for pid in pids:
            for descriptor in Path(f"/proc/{pid}/fd").glob("*"):
                with contextlib.suppress(OSError):
                    if str(descriptor.readlink()).startswith(folders):
                        info = descriptor.stat()
                        held[(info.st_dev, info.st_ino)] = info.st_size
        for folder in folders:
            for path in Path(folder).rglob("*"):
                with contextlib.suppress(OSError):
                    if path.is_file():
                        info = path.stat()
                        held[(info.st_dev, info.st_ino)] = info.st_size
        return sum(held.values())

    def start_worker(
        self, name: str = "worker", concurrency: int = 1, nice: int = 0, env: Mapping[str, str] | None = None
    ) -> Service:
        """`env` adds to the stack's environment for this worker only (a scratch folder of its own)."""
        command = ["nice", "-n", str(nice)] if nice else []
        command += [sys.executable, "-m", "celery", "-A", "registry", "worker", "--loglevel=INFO"]
        command += ["--pool=prefork", f"--concurrency={concurrency}", "-n", f"{name}@%h"]
        command += ["--without-gossip", "--without-mingle"]
        service = self._spawn(name, command, env)
        _wait_for(
            lambda: " ready." in service.log.read_text(errors="replace"), f"Celery {name}", log=service.log
        )
        return service

    def start_beat(self) -> Service:
        command = [sys.executable, "-m", "celery", "-A", "registry", "beat", "--loglevel=INFO"]
        command += ["--schedule", str(self.root / "beat-schedule")]
        service = self._spawn("beat", command)
        _wait_for(
            lambda: "beat: Starting" in service.log.read_text(errors="replace"),
            "Celery beat",
            log=service.log,
        )
        return service

    def _answers(self, path: str) -> bool:
        try:
            with urllib.request.urlopen(self.url(path), timeout=2) as response:
                return bool(response.status == 200)
        except (urllib.error.URLError, OSError):
            return False

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.proxy_port if self.proxied else self.web_port}{path}"

    def api_token(self, username: str) -> str:
        """A token of `username` (an account without a password is made if there is none), issued
        once per stack. Written straight into the stack's database in the format the registry issues
        (submissions/accounts/token_format.py): `manage.py create_api_token`'s process cost about
        2 CPU-s."""
        if username not in self.tokens:
            token = token_new()
            self.postgres.sql(
                self.database,
                # An account made before (with a password) is kept; its earlier tokens are revoked.
                "WITH account AS (INSERT INTO auth_user (password, is_superuser, username, first_name, "
                "last_name, email, is_staff, is_active, date_joined) "
                "VALUES (%s, false, %s, '', '', '', false, true, now()) "
                "ON CONFLICT (username) DO UPDATE SET username = EXCLUDED.username RETURNING id), "
                "revoked AS (DELETE FROM submissions_apitoken WHERE user_id IN (SELECT id FROM account)) "
                "INSERT INTO submissions_apitoken (digest, prefix, created_at, user_id) "
                "SELECT %s, %s, now(), id FROM account",
                (
                    "!" + secrets.token_urlsafe(30),  # Django's mark of an unusable password
                    username,
                    token_digest(token),
                    token_shown_prefix(token),
                ),
            )
            self.tokens[username] = token
        return self.tokens[username]

    def submissions(self) -> list[dict[str, Any]]:
        rows = self.postgres.sql(
            self.database,
            "SELECT s.id, s.status, s.error, s.attempts, "
            "(SELECT count(*) FROM submissions_result r WHERE r.submission_id = s.id), "
            "(SELECT count(*) FROM submissions_archive a "
            "WHERE a.submission_id = s.id AND a.kind = 'result'), "
            "(SELECT count(*) FROM submissions_finding f WHERE f.submission_id = s.id) "
            "FROM submissions_submission s ORDER BY s.id",
        )
        keys = ("id", "status", "error", "attempts", "results", "archives", "findings")
        return [dict(zip(keys, row, strict=True)) for row in rows]

    def logs(self) -> str:
        return "\n".join(f"--- {s.name}\n{s.log.read_text(errors='replace')[-3000:]}" for s in self.services)

    def shutdown(self) -> None:
        for service in reversed(self.services):
            service.stop()
        self.services.clear()
        self.redis.stop()
        with contextlib.suppress(Exception):
            self.postgres.stop("immediate")
        if self.objects is not None:
            self.objects.stop()


def http(
    method: str,
    url: str,
    *,
    token: str | None = None,
    files: Mapping[str, tuple[str, bytes]] | None = None,
    timeout: float = 60,
) -> tuple[int, dict[str, str], bytes]:
    """A tiny HTTP client on the standard library: (status, headers, body), never raising on 4xx/5xx."""
    headers = {"Accept": "application/json"} if "/api/" in url else {"Accept": "text/html"}
    data = None
    if token:
        headers["Authorization"] = f"Token {token}"
    if files:
        boundary = secrets.token_hex(16)
        parts = []
        for name, (filename, content) in files.items():
            parts.append(
                f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                "Content-Type: application/octet-stream\r\n\r\n".encode()
                + content
                + b"\r\n"
            )
        data = b"".join(parts) + f"--{boundary}--\r\n".encode()
        headers["Content-Type"] = f"multipart/form-data; boundary={boundary}"
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def json_body(body: bytes) -> Any:
    return json.loads(body.decode())
