"""What the ``gate`` tests share: the CI policy and the policy written to a file (the fixture
``policy``). Test modules import the fixture (and ask for ``isolated_cache``, a policy cache of
each test's own)."""

from __future__ import annotations

from pathlib import Path

import pytest

POLICY = """\
version: 1
id: ci
rules:
  - id: no-rm
    decision: deny
    reason: no deletes in CI
    when: {program: rm}
  - id: ls
    decision: allow
    reason: listing
    when: {program: [ls, cat]}
"""


@pytest.fixture(name="policy")
def policy_file(tmp_path: Path) -> str:
    path = tmp_path / "ci.yaml"
    path.write_text(POLICY)
    return str(path)
