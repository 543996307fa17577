"""``python -m clearance.shellparse.knowledge``: rewrite the program index (``_index.py``)."""

from clearance.shellparse.knowledge import main

raise SystemExit(main())
