"""The typer application: every ``clearance`` command, with help text and validation.

``clearance.main`` serves the hot commands without it; both call the same functions in
``clearance.commands``.
"""

from __future__ import annotations

from typing import Annotated

import typer
from clearance.argv import shell_join

app = typer.Typer(
    name="clearance",
    help="Allow, ask or deny every action an AI coding agent proposes, by policy.",
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
)


@app.command("parse")
def parse_command(
    command: Annotated[
        list[str] | None, typer.Argument(help="The command line (one argument, or words after --).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the facts as JSON.")] = False,
    cwd: Annotated[
        str | None, typer.Option("--cwd", help="Directory the command would run in.")
    ] = None,
    workspace: Annotated[
        str | None, typer.Option("--workspace", help="The agent's workspace (default: --cwd).")
    ] = None,
    batch: Annotated[
        str | None,
        typer.Option("--batch", help="Read one command per line from FILE (- for stdin)."),
    ] = None,
) -> None:
    """Print what a command line would run: programs, effect classes, paths, markers."""
    from clearance.commands.parse import run_parse

    raise typer.Exit(
        run_parse(
            shell_join(command) if command else None,
            as_json=as_json,
            cwd=cwd,
            batch=batch,
            workspace=workspace,
        )
    )


@app.callback()
def _root() -> None:
    """Policy-as-code governance for AI coding agents."""


def run_app(args: list[str]) -> int:
    """Run the typer application; its usage errors exit 2, a crash exits 1."""
    try:
        app(args=args, prog_name="clearance")
    except SystemExit as exc:
        if exc.code is None:
            return 0
        return exc.code if isinstance(exc.code, int) else 1
    return 0
