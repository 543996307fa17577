"""A project on disk with its own home, and the ``clearance`` command run in it."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path


def clearance_bin() -> str:
    beside = Path(sys.executable).with_name("clearance")
    return str(beside) if beside.exists() else "clearance"


class Project:
    def __init__(self, root: Path) -> None:
        self.root = root / "project"
        (self.root / ".git").mkdir(parents=True)
        self.home = root / "home"
        self.home.mkdir()
        self.env = {
            **os.environ,
            "HOME": str(self.home),
            "XDG_CONFIG_HOME": str(self.home / ".config"),
            "CLEARANCE_MANAGED_POLICY": "",
            "CLEARANCE_CACHE_DIR": str(root / "cache"),
        }

    def write(self, relative: str, text: str) -> Path:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
        return path

    def managed(self, text: str) -> Path:
        path = self.home.parent / "etc" / "policy.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
        self.env["CLEARANCE_MANAGED_POLICY"] = str(path)
        return path

    def run(self, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [clearance_bin(), *args],
            cwd=cwd or self.root,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
