"""``python -m clearance`` is the same as the ``clearance`` command."""

from clearance.cli.main import main

raise SystemExit(main())
