"""Fixtures of the service tests: one real PostgreSQL cluster per session, a fresh database per
test, ``clearance serve`` processes, policies in temporary files."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from service_support import Cluster, Server

POLICY = """\
version: 1
id: org
rules:
  - id: no-rm
    decision: deny
    reason: no deletes
    when: {program: rm}
  - id: ls
    decision: allow
    reason: listing
    when: {program: [ls, cat, echo]}
"""

_counter = itertools.count()


@pytest.fixture(autouse=True)
def _own_policy_cache(isolated_cache: Path) -> None:
    """Every test here has a policy cache of its own (``isolated_cache``, tests/conftest.py)."""


@pytest.fixture
def policy(tmp_path: Path) -> str:
    path = tmp_path / "org.yaml"
    path.write_text(POLICY)
    return str(path)


@pytest.fixture(scope="session")
def cluster() -> Iterator[Cluster]:
    made = Cluster()
    try:
        yield made
    finally:
        made.destroy()


@pytest.fixture
def dsn(cluster: Cluster) -> str:
    return cluster.create_database(f"t{next(_counter)}")


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    started: list[Server] = []

    def start(*args: str, **kw: object) -> Server:
        server = Server(*args, tmp=tmp_path, **kw)  # type: ignore[arg-type]
        started.append(server)
        return server

    yield start
    for server in started:
        server.close()
