"""``clearance hook … --sandbox`` inside the real Claude Code, Codex and Gemini CLI: an
allowed test run whose test module tries to write into the home directory, read a key and
reach the network runs, its effects inside the workspace happen, and nothing outside the
workspace changes.

The same run without ``--sandbox`` is the control: there the module does all three, so the
assertions can fail. And the profile follows the decision: a fetch the policy allows gets the
network (``--allow-network``) and still cannot write outside the workspace.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from .harness import HOOK_NAMES, Agent, E2ESession

MODULE = """\
import json, os, socket, unittest

class Escape(unittest.TestCase):
    def test_escape(self):
        found = {{}}
        try:
            with open({home_target!r}, "w") as handle:
                handle.write("escaped")
            found["home_write"] = "written"
        except OSError as exc:
            found["home_write"] = exc.strerror
        try:
            with open({key!r}) as handle:
                found["key"] = handle.read()
        except OSError as exc:
            found["key"] = exc.strerror
        try:
            with socket.create_connection(("127.0.0.1", {port}), timeout=3) as conn:
                found["network"] = conn.recv(16).decode()
        except OSError as exc:
            found["network"] = exc.strerror
        with open("effects.json", "w") as handle:  # the workspace (the agent's cwd)
            json.dump(found, handle)
"""

SECRET = "E2E-PRIVATE-KEY-MATERIAL"


@pytest.fixture
def listener() -> Iterator[int]:
    """A TCP service outside the sandbox that greets whoever connects."""
    yield from _serve(b"HELLO")


@pytest.fixture
def http_listener() -> Iterator[int]:
    """The same, answering in HTTP."""
    yield from _serve(b"HTTP/1.0 200 OK\r\nContent-Length: 5\r\n\r\nHELLO")


def _serve(greeting: bytes) -> Iterator[int]:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            with conn:
                conn.sendall(greeting)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield int(server.getsockname()[1])
    stop.set()
    thread.join(2)
    server.close()


@pytest.fixture
def planted() -> Iterator[dict[str, Path]]:
    """The test module (outside /tmp, which the sandbox replaces), a key in the home
    directory, and the home path the module tries to write."""
    home = Path(os.path.expanduser("~"))
    nonce = uuid.uuid4().hex[:12]
    paths = {
        "tests": home / ".cache" / f"clearance-e2e-tests-{nonce}",
        # the agent's project must be a project (decision #1: a directory in no project has
        # no workspace, and nothing there is the project's own test run): the harness makes
        # its work directory under $TMPDIR, so $TMPDIR is a repository outside /tmp
        "projects": home / ".cache" / f"clearance-e2e-projects-{nonce}",
        "keydir": home / f".clearance-e2e-{nonce}",
        "home_target": home / f".clearance-e2e-written-{nonce}",
    }
    paths["key"] = paths["keydir"] / "id_ed25519"
    paths["tests"].mkdir(parents=True)
    (paths["projects"] / ".git").mkdir(parents=True)
    paths["keydir"].mkdir()
    paths["key"].write_text(SECRET)
    try:
        yield paths
    finally:
        shutil.rmtree(paths["tests"], ignore_errors=True)
        shutil.rmtree(paths["projects"], ignore_errors=True)
        shutil.rmtree(paths["keydir"], ignore_errors=True)
        paths["home_target"].unlink(missing_ok=True)


def _run(
    e2e: E2ESession, agent: Agent, planted: dict[str, Path], port: int, sandbox: bool
) -> tuple[dict[str, str], str]:
    (planted["tests"] / "test_escape.py").write_text(
        MODULE.format(home_target=str(planted["home_target"]), key=str(planted["key"]), port=port)
    )
    hook = f"{e2e.clearance()} hook {HOOK_NAMES[agent]} --no-ledger"
    if sandbox:
        hook += " --sandbox"
    command = f"python3 -m unittest discover -s {planted['tests']}"
    harness = e2e.harness()
    summary = harness.run(
        agent,
        hook,
        command,
        marker=planted["home_target"],
        extra_env={"E2E_KEEP": "1", "E2E_NETNS": "0", "TMPDIR": str(planted["projects"])},
    )
    workdir = summary.raw.get("workdir")
    assert isinstance(workdir, str), summary.describe()
    try:
        effects = Path(workdir, "proj", "effects.json")
        assert effects.is_file(), f"the test did not run in the workspace: {summary.describe()}"
        return json.loads(effects.read_text()), summary.hook_stdout
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.mark.parametrize("agent", ["claude", "codex", "gemini"])
def test_an_allowed_test_run_is_confined(
    e2e: E2ESession, agent: Agent, planted: dict[str, Path], listener: int
) -> None:
    found, answer = _run(e2e, agent, planted, listener, sandbox=True)
    rewritten = "tool_input" if agent == "gemini" else "updatedInput"
    assert "clearance sandbox" in answer and rewritten in answer
    assert found["home_write"] == "Read-only file system"
    assert not planted["home_target"].exists()
    assert SECRET not in found["key"]
    assert found["network"] in ("Network is unreachable", "Connection refused")
    assert planted["key"].read_text() == SECRET


@pytest.mark.parametrize("agent", ["claude", "codex", "gemini"])
def test_without_the_sandbox_the_same_module_escapes(
    e2e: E2ESession, agent: Agent, planted: dict[str, Path], listener: int
) -> None:
    found, answer = _run(e2e, agent, planted, listener, sandbox=False)
    assert "clearance sandbox" not in answer
    assert found == {"home_write": "written", "key": SECRET, "network": "HELLO"}
    assert planted["home_target"].read_text() == "escaped"


NETWORK_POLICY = """\
version: 1
id: e2e-network
rules:
  - id: allow-local-fetch
    decision: allow
    reason: fetching from the local test service is fine
    when: {program: [curl], hosts: ["127.0.0.1"]}
  - id: allow-touch-cat
    decision: allow
    reason: the sandbox decides where these may write
    when: {program: [touch, cat]}
"""


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_a_network_read_the_policy_allows_gets_network_but_no_writes_outside(
    e2e: E2ESession, agent: Agent, planted: dict[str, Path], http_listener: int, tmp_path: Path
) -> None:
    listener = http_listener
    policy = tmp_path / "network.yaml"
    policy.write_text(NETWORK_POLICY)
    target = planted["home_target"]
    command = f"curl -s http://127.0.0.1:{listener}/ > fetched.txt; touch {target}; cat fetched.txt"
    hook = f"{e2e.clearance()} hook {HOOK_NAMES[agent]} --no-ledger --sandbox --policy {policy}"
    summary = e2e.harness().run(
        agent, hook, command, marker=target, extra_env={"E2E_KEEP": "1", "E2E_NETNS": "0"}
    )
    workdir = summary.raw.get("workdir")
    assert isinstance(workdir, str), summary.describe()
    try:
        assert "--allow-network" in (summary.hook_stdout or ""), summary.describe()
        assert Path(workdir, "proj", "fetched.txt").read_text() == "HELLO"
        assert not target.exists()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
