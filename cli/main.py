"""Entry point of the ``clearance`` command."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    print("clearance", args)
    return 0
