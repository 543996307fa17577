"""One module per CLI command: the work behind ``clearance <command>``, free of typer so
that the fast path can call it without importing typer."""
