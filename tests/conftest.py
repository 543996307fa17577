"""The whole suite runs on this checkout: ``clearance`` imports from the repository root (its
``clearance/`` folder links the top-level packages), in this process and in every subprocess a
test starts (``python -m clearance``, the ``clearance`` script, agent CLIs running the hook)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
_prior = os.environ.get("PYTHONPATH")
os.environ["PYTHONPATH"] = str(ROOT) if not _prior else os.pathsep.join((str(ROOT), _prior))
