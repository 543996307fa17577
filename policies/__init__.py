"""Shipped policy packs; ``default.yaml`` is the embedded default.

May import: nothing of clearance (tests/test_architecture.py checks).
"""

from __future__ import annotations

import os

#: How the default pack is named in decisions and errors (``…/default.yaml:42``).
DEFAULT_DISPLAY = "clearance:policies/default.yaml"


def default_pack_path() -> str:
    """The shipped default pack, wherever the package is installed."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "default.yaml")
