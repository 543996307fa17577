"""The ``clearance`` command: argument reading, the typer application and one module per command.

``clearance.cli.main`` serves the per-tool-call commands (``parse``, ``check``, ``hook``) without
importing typer; ``clearance.cli.app`` is the typer application for everything else;
``clearance.cli.commands`` holds one module per command, each a thin layer over the engine, the
runner and the agent adapters (``clearance.hooks``).

May import: everything (``clearance.engine``, ``clearance.shellparse``, ``clearance.runner``,
``clearance.hooks``, ``clearance.sandbox``). Nothing below it imports the CLI.
"""
