"""Ways out of the sandbox, each tried with the real bubblewrap and confirmed to fail; each
malicious case has a benign twin that must work (writes inside the workspace, /tmp).

The workspace and the "outside" live under a directory that is not /tmp (the sandbox gives
/tmp a private tmpfs, which would make every outside write vanish for the wrong reason).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from clearance.sandbox.probe import find_bwrap

CHECKOUT = Path(__file__).resolve().parents[2]


@pytest.fixture
def place() -> Iterator[tuple[Path, Path]]:
    """(workspace, outside): siblings under the checkout's ignored scratch directory."""
    root = CHECKOUT / ".sandbox-test" / uuid.uuid4().hex[:10]
    workspace, outside = root / "ws", root / "outside"
    workspace.mkdir(parents=True)
    outside.mkdir()
    (workspace / ".git").mkdir()  # a project root
    (outside / "target.txt").write_text("original\n")
    try:
        yield workspace, outside
    finally:
        shutil.rmtree(root, ignore_errors=True)


def sandbox(workspace: Path, script: str, *extra: str) -> subprocess.CompletedProcess[str]:
    assert find_bwrap() is not None, "bubblewrap must be installed (.ci/run installs it)"
    return subprocess.run(
        # the scratch lies inside this checkout, whose own .git is the outermost project
        # root (decision #1): the test's workspace is named, as the hooks name it
        [
            sys.executable,
            "-m",
            "clearance",
            "sandbox",
            "--workspace",
            str(workspace),
            *extra,
            "--",
            "bash",
            "-c",
            script,
        ],
        cwd=workspace,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def unchanged(outside: Path) -> bool:
    return (outside / "target.txt").read_text() == "original\n" and sorted(
        p.name for p in outside.iterdir()
    ) == ["target.txt"]


def test_the_benign_twin_writes_inside_the_workspace_and_tmp(place: tuple[Path, Path]) -> None:
    workspace, outside = place
    done = sandbox(workspace, "echo ok > inside.txt && echo t > /tmp/t && cat /tmp/t; exit 3")
    assert done.returncode == 3, done.stderr
    assert done.stdout == "t\n"
    assert (workspace / "inside.txt").read_text() == "ok\n"
    assert unchanged(outside)


@pytest.mark.parametrize(
    "script",
    [
        "echo x > {outside}/target.txt",  # plain
        "echo x > {outside}/new.txt",
        "echo x > ../outside/target.txt",  # .. traversal
        "echo x > {ws}/../outside/new.txt",
        "echo x > /proc/self/root{outside}/target.txt",  # /proc/self/root
        "echo x > /proc/1/root{outside}/target.txt",
        "echo x > /proc/$$/cwd/../outside/target.txt",
        "echo x > planted-link/target.txt",  # a symlink planted in the workspace
        "ln -s {outside} mylink && echo x > mylink/new.txt",  # one made inside
        "ln {outside}/target.txt hard && echo x >> hard",  # a hard link made inside
        "mount --bind {ws} {outside} && echo x > {outside}/new.txt",  # bind-mount tricks
        "unshare -rm sh -c 'mount -o remount,rw {outside} && echo x > {outside}/new.txt'",
        "unshare -rm sh -c 'mount --bind {ws} {outside}; echo x > {outside}/new.txt'",
        "mv {outside}/target.txt {ws}/stolen.txt",
        # not ``rm -f``: where the checkout lies under /tmp, the sandbox's private /tmp hides
        # the outside folder, and ``rm -f`` of a missing file succeeds
        "rm {outside}/target.txt",
        "touch -d 2001-01-01 {outside}/target.txt",
        "chmod 000 {outside}/target.txt",
    ],
)
def test_writes_outside_the_workspace_fail(place: tuple[Path, Path], script: str) -> None:
    workspace, outside = place
    (workspace / "planted-link").symlink_to(outside)
    done = sandbox(workspace, script.format(outside=outside, ws=workspace))
    assert done.returncode != 0
    assert unchanged(outside)


def test_a_hard_link_planted_before_the_run_is_read_only(place: tuple[Path, Path]) -> None:
    workspace, outside = place
    os.link(outside / "target.txt", workspace / "door.txt")
    done = sandbox(workspace, "cat door.txt; echo x >> door.txt")
    assert done.stdout == "original\n"
    assert done.returncode != 0 and "Read-only" in done.stderr
    assert unchanged(outside)


def test_secrets_are_hidden_but_templates_are_not(place: tuple[Path, Path]) -> None:
    workspace, outside = place
    (workspace / ".env").write_text("TOKEN=hunter2\n")
    (workspace / ".env.example").write_text("TOKEN=\n")
    (workspace / "sub").mkdir()
    (workspace / "sub" / "server.pem").write_text("PEM\n")
    (outside / "deploy.key").write_text("KEY\n")
    (workspace / "innocent.txt").symlink_to(outside / "deploy.key")
    done = sandbox(
        workspace,
        "cat .env sub/server.pem innocent.txt; echo ---; cat .env.example",
    )
    assert "hunter2" not in done.stdout and "PEM" not in done.stdout and "KEY" not in done.stdout
    assert done.stdout.endswith("---\nTOKEN=\n")
    assert (outside / "deploy.key").read_text() == "KEY\n"


def test_a_unix_socket_outside_cannot_be_reached(place: tuple[Path, Path]) -> None:
    workspace, _ = place
    run_dir = Path("/run") / f"clearance-test-{uuid.uuid4().hex[:8]}"
    run_dir.mkdir()
    path = run_dir / "service.sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.listen(1)
    abstract = socket.socket(socket.AF_UNIX)
    name = f"clearance-test-{uuid.uuid4().hex[:8]}"
    abstract.bind("\0" + name)
    abstract.listen(1)
    try:
        probe = (
            "import socket,sys\n"
            "for a in sys.argv[1:]:\n"
            "    s=socket.socket(socket.AF_UNIX)\n"
            "    try: s.connect(a.replace('@','\\0',1)); print('connected', a)\n"
            "    except OSError as e: print('refused', a, e.strerror)\n"
        )
        done = sandbox(workspace, f"python3 -c {_q(probe)} {path} @{name}")
        assert "connected" not in done.stdout, done.stdout
        assert [line.split()[0] for line in done.stdout.splitlines()] == ["refused"] * 2
    finally:
        server.close()
        abstract.close()
        shutil.rmtree(run_dir, ignore_errors=True)


def test_processes_outside_cannot_be_seen_or_ptraced(place: tuple[Path, Path]) -> None:
    workspace, _ = place
    outside = subprocess.Popen(["sleep", "30"])
    try:
        script = (
            f"kill -0 {outside.pid} && echo visible; ls /proc | grep -qx {outside.pid} && "
            f"echo listed; python3 -c 'import ctypes; l=ctypes.CDLL(None); "
            f'print("ptrace", l.ptrace(16, {outside.pid}, 0, 0))\''
        )
        done = sandbox(workspace, script)
        assert "visible" not in done.stdout and "listed" not in done.stdout
        assert "ptrace -1" in done.stdout
        assert outside.poll() is None
    finally:
        outside.kill()
        outside.wait()


def test_no_network_unless_allowed(place: tuple[Path, Path]) -> None:
    workspace, _ = place
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    connect = f"python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", {port}), 3)'"
    try:
        assert sandbox(workspace, connect).returncode != 0
        assert sandbox(workspace, connect, "--allow-network").returncode == 0
    finally:
        server.close()


def test_background_children_die_with_the_command(place: tuple[Path, Path]) -> None:
    workspace, _ = place
    marker = f"clearance-sleeper-{uuid.uuid4().hex[:8]}"
    script = (
        f"(exec -a {marker} sleep 60) & disown; setsid bash -c 'exec -a {marker} sleep 60' & "
        f"nohup bash -c 'exec -a {marker} sleep 60' >/dev/null 2>&1 & echo started"
    )
    done = sandbox(workspace, script)
    assert done.stdout == "started\n"
    left = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True, check=False)
    assert left.stdout == ""


def test_no_capabilities_and_no_new_privileges_even_as_root(place: tuple[Path, Path]) -> None:
    workspace, _ = place
    done = sandbox(workspace, "grep -E '^(CapEff|NoNewPrivs)' /proc/self/status")
    assert "CapEff:\t0000000000000000" in done.stdout
    assert "NoNewPrivs:\t1" in done.stdout


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to switch to an unprivileged user")
def test_it_confines_an_unprivileged_user_as_well() -> None:
    """clearance's own bubblewrap command line (workspace walk, masks and all), run as
    ``nobody``: writable workspace, read-only system, the secret hidden, no capabilities."""
    from clearance.sandbox.bwrap import Layout, bwrap_argv
    from clearance.sandbox.mounts import _Collector, _walk

    scratch = Path("/var/tmp") / f"clearance-nobody-{uuid.uuid4().hex[:8]}"
    workspace = scratch / "ws"
    (workspace / ".git").mkdir(parents=True)
    (workspace / ".env").write_text("TOKEN=hunter2\n")
    for path in (scratch, workspace, workspace / ".env"):
        os.chmod(path, 0o777)
    bwrap = find_bwrap()
    assert bwrap is not None
    collect = _Collector("/nonexistent", str(workspace), [str(workspace)], None)
    _walk(collect, str(workspace))
    layout = Layout(
        bwrap=bwrap,
        cwd=str(workspace),
        workspace=str(workspace),
        writable=(),
        network=False,
        mounts=collect.mounts,
    )
    script = (
        "id -u; cat .env; echo ok > inside.txt; echo x > /etc/clearance-nobody || echo refused; "
        "grep CapEff /proc/self/status"
    )
    argv = bwrap_argv(layout, ["bash", "-c", script])
    try:
        done = subprocess.run(
            ["su", "-s", "/bin/sh", "nobody", "-c", " ".join(_q(a) for a in argv)],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert done.stdout.splitlines() == ["65534", "refused", "CapEff:\t0000000000000000"], (
            done.stdout + done.stderr
        )
        assert "hunter2" not in done.stdout
        assert (workspace / "inside.txt").read_text() == "ok\n"
        assert not Path("/etc/clearance-nobody").exists()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _q(text: str) -> str:
    import shlex

    return shlex.quote(text)


def test_a_masked_path_deleted_after_the_plan_does_not_stop_the_sandbox(
    place: tuple[Path, Path],
) -> None:
    """Another process removes a secret outside the workspace (a key, a secrets folder: the
    targets of links in the workspace, masked in the read-only tree where bwrap cannot make a
    mount point) between the plan and bwrap's mounts: the sandbox still starts, and what
    remains is still masked. The benign twin: the same layout with nothing removed."""
    from clearance.sandbox.mounts import FRESH

    workspace, outside = place
    # somewhere the sandbox shows read-only (under /tmp, where a checkout may lie, nothing
    # needs a mask: the sandbox's /tmp is a fresh one)
    keys = outside.parent / "keys"
    if any(str(keys).startswith(root + "/") for root in FRESH):
        keys = Path.home() / ".cache" / f"clearance-sandbox-test-{uuid.uuid4().hex[:10]}"
    if any(str(keys).startswith(root + "/") for root in FRESH):
        pytest.skip("no directory outside the sandbox's fresh roots to plant keys in")
    keys.mkdir(parents=True)
    try:
        _run_with_vanishing_masks(workspace, outside, keys)
    finally:
        shutil.rmtree(keys, ignore_errors=True)


def _run_with_vanishing_masks(workspace: Path, outside: Path, keys: Path) -> None:
    from clearance.sandbox.bwrap import run
    from clearance.sandbox.confine import layout_for
    from clearance.sandbox.plan import Confinement

    pem = "-----BEGIN PRIVATE KEY-----\nk\n-----END PRIVATE KEY-----\n"
    for name in ("gone.pem", "kept.pem"):
        (keys / name).write_text(pem)
        (workspace / name).symlink_to(keys / name)
    (keys / "terraform.tfstate.d").mkdir()
    (keys / "terraform.tfstate.d" / "prod").write_text("state\n")
    (workspace / "states").symlink_to(keys / "terraform.tfstate.d")
    os.link(outside / "target.txt", workspace / "door.txt")
    script = "cat kept.pem gone.pem door.txt; ls -a states/; echo x >> door.txt; echo ran"
    layout = layout_for(Confinement(), cwd=str(workspace), workspace=str(workspace))
    assert {str(keys / "gone.pem"), str(keys / "kept.pem")} <= set(layout.mounts.hide_files)
    assert str(keys / "terraform.tfstate.d") in layout.mounts.hide_dirs
    out = workspace / "out.txt"
    for remove in (False, True):
        if remove:
            (keys / "gone.pem").unlink()
            shutil.rmtree(keys / "terraform.tfstate.d")
            (workspace / "door.txt").unlink()
            (workspace / "door.txt").write_text("mine\n")
        with out.open("wb") as sink:
            finished = run(
                layout, ["bash", "-c", script], stdout=sink.fileno(), stderr=sink.fileno()
            )
        text = out.read_text()
        assert finished.started, (remove, finished, text)
        assert "ran" in text and "PRIVATE KEY" not in text and "prod" not in text, text
        if remove:
            assert "mine" in text
        else:
            assert "original" in text and "Read-only" in text
    assert unchanged(outside)
