"""Real parts for the service tests: a throwaway PostgreSQL cluster and ``clearance serve``
processes, both on free ports of 127.0.0.1.

The cluster is made with the Debian server binaries (``initdb``, ``pg_ctl`` from
``/usr/lib/postgresql/*/bin``) as an unprivileged user -- PostgreSQL refuses to run as root, so
under root the cluster belongs to ``nobody`` (or a ``clearance-pg`` system user made with
``useradd`` when there is no ``nobody``).
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    preferred = [p for p in found if "/15/" in p]
    chosen = (preferred or found or [None])[-1]
    return Path(chosen).parent if chosen else None


def _unprivileged_user() -> str | None:
    if os.geteuid() != 0:
        return None
    for name in ("nobody", "clearance-pg"):
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return name
    subprocess.run(
        ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "clearance-pg"],
        check=True,
    )
    return "clearance-pg"


class Cluster:
    """One PostgreSQL cluster: ``start``/``stop`` (the soak stops it mid-ship)."""

    def __init__(self) -> None:
        bindir = pg_bin()
        if bindir is None:
            raise RuntimeError("PostgreSQL server binaries not found in /usr/lib/postgresql")
        self.bin = bindir
        self.user = _unprivileged_user()
        self.root = Path(tempfile.mkdtemp(prefix="clearance-pg-"))
        self.data = self.root / "data"
        self.sockets = self.root / "sock"
        self.sockets.mkdir()
        self.port = free_port()
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            for path in (self.root, self.sockets):
                os.chown(path, entry.pw_uid, entry.pw_gid)
        self._run(
            [
                str(self.bin / "initdb"),
                "-D",
                str(self.data),
                "-U",
                "postgres",
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--no-sync",
                "--no-instructions",
            ]
        )
        self.start()

    def _run(self, argv: list[str], check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            argv,
            user=self.user,
            cwd=str(self.root),
            capture_output=True,
            text=True,
            check=check,
            timeout=120,
        )

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.sockets} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        self._run(
            [
                str(self.bin / "pg_ctl"),
                "-D",
                str(self.data),
                "-o",
                options,
                "-l",
                str(self.root / "log"),
                "-w",
                "-t",
                "60",
                "start",
            ]
        )

    def stop(self, mode: str = "fast") -> None:
        self._run([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop"], False)

    def dsn(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.dsn(name)

    def destroy(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)


class Server:
    """A ``clearance serve`` process; ``url``; stopped by ``close`` (or ``kill``)."""

    def __init__(
        self,
        *args: str,
        token: str | None = None,
        workers: int = 1,
        tmp: Path,
        env: dict[str, str] | None = None,
        port: int | None = None,
    ) -> None:
        self.port = port or free_port()
        self.token = token
        self.workers = workers
        argv = [
            sys.executable,
            "-m",
            "clearance",
            "serve",
            "--port",
            str(self.port),
            "--workers",
            str(workers),
            "--reload-interval",
            "0.3",
            *args,
        ]
        if token is not None:
            token_file = tmp / f"token-{self.port}"
            token_file.write_text(token + "\n")
            argv += ["--token-file", str(token_file)]
        self.log = tmp / f"serve-{self.port}.log"
        self._log_handle = open(self.log, "wb")  # noqa: SIM115
        full_env = {**os.environ, "CLEARANCE_CACHE_DIR": str(tmp / "cache"), **(env or {})}
        self.process = subprocess.Popen(
            argv,
            stdout=self._log_handle,
            stderr=subprocess.STDOUT,
            cwd=str(tmp),
            env=full_env,
            start_new_session=True,
        )
        self.url = f"http://127.0.0.1:{self.port}"
        self.wait_ready()

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"serve exited {self.process.returncode}: {self.output()}")
            try:
                status, _ = self.get("/healthz")
            except OSError:
                time.sleep(0.1)
                continue
            if status == 200 and self._all_workers_answer():
                return
            time.sleep(0.1)
        raise RuntimeError(f"serve not ready: {self.output()}")

    def _all_workers_answer(self) -> bool:
        """Every worker has loaded its policy (one answering is not all: a late one would load
        a policy file a test changed after start-up)."""
        if self.workers <= 1:
            return True
        status, body, _ = self.request("GET", "/metrics")
        if status != 200:
            return False
        for line in body.decode(errors="replace").splitlines():
            if line.startswith("clearance_workers "):
                return float(line.split()[1]) >= self.workers
        return False

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        *,
        token: str | bool | None = True,
        headers: dict[str, str] | None = None,
        timeout: float = 30,
    ) -> tuple[int, bytes, dict[str, str]]:
        request = urllib.request.Request(self.url + path, data=body, method=method)
        chosen = self.token if token is True else (token or None)
        if chosen:
            request.add_header("Authorization", f"Bearer {chosen}")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return (
                    response.status,
                    response.read(),
                    {k.lower(): v for k, v in response.headers.items()},
                )
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read(), {k.lower(): v for k, v in exc.headers.items()}

    def get(self, path: str, **kw: Any) -> tuple[int, Any]:
        status, body, _ = self.request("GET", path, **kw)
        try:
            return status, json.loads(body)
        except ValueError:
            return status, body.decode(errors="replace")

    def post_json(self, path: str, data: object, **kw: Any) -> tuple[int, Any]:
        status, body, _ = self.request("POST", path, json.dumps(data).encode(), **kw)
        return status, json.loads(body)

    def signal(self, signum: int) -> None:
        self.process.send_signal(signum)

    def kill(self) -> None:
        """``kill -9`` of the whole server (supervisor and workers)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)
        self._log_handle.close()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(15)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(5)
        self._log_handle.close()
