"""``python -m clearance`` is the same as the ``clearance`` command."""

from clearance.main import main

raise SystemExit(main())
