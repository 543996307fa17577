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


PolicyOption = Annotated[
    list[str] | None,
    typer.Option(
        "--policy",
        help="Evaluate with exactly these policy files (repeatable); no discovery, no "
        "default pack unless a file says 'extends: default'.",
    ),
]


def _check(
    explain: bool,
    command: list[str] | None,
    as_json: bool,
    policy: list[str] | None,
    cwd: str | None,
    tool: str | None,
    input_json: str | None,
    ledger: str | None,
    no_ledger: bool,
) -> None:
    from clearance.commands.check import run_check

    raise typer.Exit(
        run_check(
            shell_join(command) if command else None,
            as_json=as_json,
            policies=policy,
            cwd=cwd,
            tool=tool,
            input_json=input_json,
            explain=explain,
            ledger=ledger,
            no_ledger=no_ledger or ledger is None,
        )
    )


@app.command("check")
def check_command(
    command: Annotated[
        list[str] | None,
        typer.Argument(help="The command line: one quoted argument, or the words after --."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the decision as JSON.")] = False,
    policy: PolicyOption = None,
    cwd: Annotated[str | None, typer.Option("--cwd", help="Directory it would run in.")] = None,
    tool: Annotated[
        str | None, typer.Option("--tool", help="Tool name (default: bash); e.g. Read, WebFetch.")
    ] = None,
    input_json: Annotated[
        str | None, typer.Option("--input", help="The tool input as a JSON object.")
    ] = None,
    ledger: Annotated[
        str | None, typer.Option("--ledger", help="Append the decision to this ledger.")
    ] = None,
    no_ledger: Annotated[bool, typer.Option("--no-ledger", help="Do not record.")] = False,
) -> None:
    """Decide one command (or tool call). Exit: 0 allow, 3 ask, 4 deny, 2 error, 1 bug."""
    _check(False, command, as_json, policy, cwd, tool, input_json, ledger, no_ledger)


@app.command("explain")
def explain_command(
    command: Annotated[
        list[str] | None,
        typer.Argument(help="The command line, or a decision id recorded in the ledger."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the decision as JSON.")] = False,
    policy: PolicyOption = None,
    cwd: Annotated[str | None, typer.Option("--cwd", help="Directory it would run in.")] = None,
    tool: Annotated[str | None, typer.Option("--tool", help="Tool name (default: bash).")] = None,
    input_json: Annotated[
        str | None, typer.Option("--input", help="The tool input as a JSON object.")
    ] = None,
    ledger: Annotated[
        str | None, typer.Option("--ledger", help="Ledger to look decision ids up in.")
    ] = None,
    no_ledger: Annotated[bool, typer.Option("--no-ledger", help="Do not record.")] = False,
) -> None:
    """The full trace of a decision: every rule considered for each part, and why."""
    _check(True, command, as_json, policy, cwd, tool, input_json, ledger, True)


@app.command("test")
def test_command(
    paths: Annotated[
        list[str] | None,
        typer.Argument(help="Policy files, *.test.yaml files or directories (default: the "
                       "policies in force here)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print results as JSON.")] = False,
    cwd: Annotated[str | None, typer.Option("--cwd", help="Directory to discover from.")] = None,
) -> None:
    """Run every rule's examples and every *.test.yaml case; report rule coverage."""
    from clearance.commands.policy import run_test

    raise typer.Exit(run_test(paths or [], as_json=as_json, cwd=cwd))


@app.command("lint")
def lint_command(
    paths: Annotated[list[str] | None, typer.Argument(help="Policy files or directories.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print findings as JSON.")] = False,
    cwd: Annotated[str | None, typer.Option("--cwd", help="Directory to discover from.")] = None,
    strict: Annotated[bool, typer.Option("--strict", help="Fail on warnings too.")] = False,
) -> None:
    """Find rules that never match, shadowed rules, duplicate ids, rules without examples."""
    from clearance.commands.policy import run_lint

    raise typer.Exit(run_lint(paths or [], as_json=as_json, cwd=cwd, strict=strict))


policy_app = typer.Typer(help="Inspect the policy in force.", no_args_is_help=True)
app.add_typer(policy_app, name="policy")


@policy_app.command("show")
def policy_show_command(
    policy: PolicyOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print as JSON.")] = False,
    cwd: Annotated[str | None, typer.Option("--cwd", help="Directory to discover from.")] = None,
) -> None:
    """The effective merged policy: every rule with its scope and source."""
    from clearance.commands.policy import run_policy_show

    raise typer.Exit(run_policy_show(policy, as_json=as_json, cwd=cwd))


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
