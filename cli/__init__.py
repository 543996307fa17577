"""The ``clearance`` command: argument reading, the typer application and one module per command.

``clearance.cli.main`` serves the per-tool-call commands (``parse``, ``check``, ``hook``) without
importing typer; ``clearance.cli.app`` is the typer application for everything else;
``clearance.cli.commands`` holds one module per command, each a thin layer over the engine, the
runner and the agent adapters (``clearance.hooks``).

May import: everything (``clearance.vocab``, ``clearance.engine``, ``clearance.shellparse``,
``clearance.runner``, ``clearance.hooks``, ``clearance.sandbox``, ``clearance.service`` -- the
last only inside the org-scale commands: ``serve``, ``audit ship``, ``audit verify --db``,
``replay --db``). Nothing below it imports the CLI, except the service, which answers with
``clearance.cli.commands.gate``'s per-line code.
"""
