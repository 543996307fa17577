"""The typer application: every ``clearance`` command, with help text and validation.

``clearance.cli.main`` serves the hot commands without it; both call the same functions in
``clearance.cli.commands``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Annotated, Any, get_type_hints

import typer

from clearance.cli.fast_args import command_line
from clearance.vocab import AuditExit


def _value_label(self: object, ctx: object) -> str:
    """What help shows for an option's value: TEXT, INTEGER, NUMBER -- not Python's type
    names (``<list[str]>``); nothing for a flag."""
    if getattr(self, "is_flag", False):
        return ""
    name = str(getattr(getattr(self, "type", None), "name", "text"))
    return {"text": "TEXT", "integer": "INTEGER", "float": "NUMBER", "boolean": ""}.get(
        name, name.upper()
    )


def _plain_help_labels() -> None:
    from typer import core

    parameter = getattr(core, "_TyperParameter", None)
    if parameter is not None and hasattr(parameter, "display_type"):
        parameter.display_type = _value_label


_plain_help_labels()

app = typer.Typer(
    name="clearance",
    help="Allow, ask or deny every action an AI coding agent proposes, by policy.",
    no_args_is_help=True,
    add_completion=True,
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
    from clearance.cli.commands.parse import run_parse

    raise typer.Exit(
        run_parse(
            command_line(command),
            as_json=as_json,
            cwd=cwd,
            batch=batch,
            workspace=workspace,
        )
    )


DecisionJsonOption = Annotated[bool, typer.Option("--json", help="Print the decision as JSON.")]
CwdOption = Annotated[str | None, typer.Option("--cwd", help="Directory it would run in.")]
ToolInputOption = Annotated[
    str | None, typer.Option("--input", help="The tool input as a JSON object.")
]
NoLedgerOption = Annotated[bool, typer.Option("--no-ledger", help="Do not record.")]
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
    from clearance.cli.commands.check import run_check

    raise typer.Exit(
        run_check(
            command_line(command),
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
    as_json: DecisionJsonOption = False,
    policy: PolicyOption = None,
    cwd: CwdOption = None,
    tool: Annotated[
        str | None, typer.Option("--tool", help="Tool name (default: bash); e.g. Read, WebFetch.")
    ] = None,
    input_json: ToolInputOption = None,
    ledger: Annotated[
        str | None, typer.Option("--ledger", help="Append the decision to this ledger.")
    ] = None,
    no_ledger: NoLedgerOption = False,
) -> None:
    """Decide one command (or tool call). Exit: 0 allow, 3 ask, 4 deny, 2 error, 1 bug."""
    _check(False, command, as_json, policy, cwd, tool, input_json, ledger, no_ledger)


@app.command("explain")
def explain_command(
    command: Annotated[
        list[str] | None,
        typer.Argument(help="The command line, or a decision id recorded in the ledger."),
    ] = None,
    as_json: DecisionJsonOption = False,
    policy: PolicyOption = None,
    cwd: CwdOption = None,
    tool: Annotated[str | None, typer.Option("--tool", help="Tool name (default: bash).")] = None,
    input_json: ToolInputOption = None,
    ledger: Annotated[
        str | None, typer.Option("--ledger", help="Ledger to look decision ids up in.")
    ] = None,
    no_ledger: NoLedgerOption = False,
) -> None:
    """The full trace of a decision: every rule considered for each part, and why."""
    _check(True, command, as_json, policy, cwd, tool, input_json, ledger, True)


@app.command("test")
def test_command(
    paths: Annotated[
        list[str] | None,
        typer.Argument(
            help="Test files (*.test.yaml) or directories to find them in (default: every "
            "*.test.yaml under the project root, .clearance/ included).",
            show_default=False,
        ),
    ] = None,
    policy: PolicyOption = None,
    output: Annotated[
        str, typer.Option("--format", help="text (failures and a summary) or json.")
    ] = "text",
    as_json: Annotated[bool, typer.Option("--json", help="Same as --format json.")] = False,
    verbose: Annotated[bool, typer.Option("-v", "--verbose", help="Show every case.")] = False,
    junit: Annotated[
        str | None,
        typer.Option("--junit", help="Also write the results as JUnit XML to this file."),
    ] = None,
    cwd: Annotated[
        str | None, typer.Option("--cwd", help="Directory to test from (default: here).")
    ] = None,
) -> None:
    """Judge every *.test.yaml case and every rule's examples under the policy in force
    (managed, user, project, default, as the hook loads it); report rule coverage.

    Exit: 0 all pass, 1 a case failed, 2 a policy or test file does not load (a failing
    inline example included: the hook would refuse that policy).
    """
    from clearance.cli.commands.policy import run_test

    raise typer.Exit(
        run_test(
            paths or [],
            policies=policy,
            output="json" if as_json else output,
            verbose=verbose,
            junit=junit,
            cwd=cwd,
        )
    )


@app.command("lint")
def lint_command(
    paths: Annotated[
        list[str] | None,
        typer.Argument(
            help="Policy files or directories (default: the policy in force here).",
            show_default=False,
        ),
    ] = None,
    policy: PolicyOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print findings as JSON.")] = False,
    cwd: Annotated[str | None, typer.Option("--cwd", help="Directory to discover from.")] = None,
    strict: Annotated[bool, typer.Option("--strict", help="Fail on warnings too.")] = False,
) -> None:
    """Find what stops a policy loading, rules that never match, shadowed rules, overrides
    that never apply, position-dependent argv patterns, duplicate ids.

    Exit: 0 clean or only warnings, 1 errors (or warnings with --strict).
    """
    from clearance.cli.commands.policy import run_lint

    raise typer.Exit(
        run_lint(paths or [], as_json=as_json, cwd=cwd, strict=strict, policies=policy)
    )


policy_app = typer.Typer(help="Inspect the policy in force.", no_args_is_help=True)
app.add_typer(policy_app, name="policy")


@policy_app.command("show")
def policy_show_command(
    policy: PolicyOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print as JSON.")] = False,
    cwd: Annotated[str | None, typer.Option("--cwd", help="Directory to discover from.")] = None,
) -> None:
    """The effective merged policy: every rule with its scope and source."""
    from clearance.cli.commands.policy import run_policy_show

    raise typer.Exit(run_policy_show(policy, as_json=as_json, cwd=cwd))


@policy_app.command("schema")
def policy_schema_command() -> None:
    """Print the policy file's JSON Schema (for editors' YAML language servers).

    Save it beside your policy and name it on the file's first line:
    # yaml-language-server: $schema=./policy.schema.json
    """
    from clearance.cli.commands.policy import run_policy_schema

    raise typer.Exit(run_policy_schema())


@app.command("run")
def run_command(
    task: Annotated[
        str | None,
        typer.Argument(help="What the agent should do. Without --script: the built-in demo."),
    ] = None,
    provider: Annotated[
        str, typer.Option("--provider", help="scripted (default), openai or anthropic.")
    ] = "scripted",
    script: Annotated[
        str | None,
        typer.Option("--script", help="Script (YAML/JSON) for the scripted provider."),
    ] = None,
    model: Annotated[str | None, typer.Option("--model", help="Model name.")] = None,
    base_url: Annotated[
        str | None, typer.Option("--base-url", help="API base URL (e.g. a local server).")
    ] = None,
    workspace: Annotated[
        str | None, typer.Option("--workspace", help="Directory the agent works in (default: .).")
    ] = None,
    log: Annotated[
        str | None,
        typer.Option("--log", help="Event log (default: WORKSPACE/.clearance/runs/RUN.jsonl)."),
    ] = None,
    policy: PolicyOption = None,
    on_ask: Annotated[
        str | None,
        typer.Option(
            "--on-ask",
            help="Answer to 'ask' decisions: deny or allow (once). Default: prompt on a "
            "terminal, else deny.",
        ),
    ] = None,
    max_turns: Annotated[int, typer.Option("--max-turns", help="Model turns at most.")] = 30,
    max_tool_calls: Annotated[
        int, typer.Option("--max-tool-calls", help="Tool calls at most (the budget).")
    ] = 100,
    bash_timeout: Annotated[
        float, typer.Option("--bash-timeout", help="Seconds a bash call may take.")
    ] = 120.0,
    no_sandbox: Annotated[
        bool,
        typer.Option(
            "--no-sandbox",
            help="Run bash commands unconfined (recorded in the run log). Default: each "
            "allowed command runs in the sandbox its decision gives it.",
        ),
    ] = False,
    ledger: Annotated[
        str | None,
        typer.Option(
            "--ledger",
            help="Audit ledger (default: the workspace's, in $XDG_STATE_HOME/clearance/ledgers).",
        ),
    ] = None,
    no_ledger: Annotated[
        bool, typer.Option("--no-ledger", help="Do not record decisions in the ledger.")
    ] = False,
    replay: Annotated[
        str | None,
        typer.Option("--replay", help="Replay this event log; executes nothing."),
    ] = None,
    mode: Annotated[
        str, typer.Option("--mode", help="Replay mode: trace, dry-run or model.")
    ] = "trace",
    turn: Annotated[
        int | None, typer.Option("--turn", help="--mode model: ask the model this turn again.")
    ] = None,
) -> None:
    """Run an agent: the model proposes, the policy decides, the runner executes.

    Exit: 0 final answer, 1 internal error, 2 usage or policy error, 3 turn limit,
    4 tool-call budget, 5 provider error, 130 interrupted.
    """
    from clearance.cli.commands.run import RunArgs, run_run

    raise typer.Exit(
        run_run(
            RunArgs(
                task=task,
                provider=provider,
                script=script,
                model=model,
                base_url=base_url,
                workspace=workspace,
                log=log,
                policies=policy,
                on_ask=on_ask,
                max_turns=max_turns,
                max_tool_calls=max_tool_calls,
                no_sandbox=no_sandbox,
                bash_timeout=bash_timeout,
                ledger=ledger,
                no_ledger=no_ledger,
                replay=replay,
                mode=mode,
                turn=turn,
            )
        )
    )


# ---- hooks, gate, audit, replay ----------------------------------------------------------------

LedgerOption = Annotated[
    str | None,
    typer.Option(
        "--ledger",
        help="Ledger file (default: this project's, in $XDG_STATE_HOME/clearance/ledgers).",
    ),
]

hook_app = typer.Typer(
    help="Pre-tool hooks for agent CLIs: decide each tool call before it runs.",
    no_args_is_help=True,
)
app.add_typer(hook_app, name="hook")


def _hook(
    agent: str,
    policy: list[str] | None,
    ledger: str | None,
    no_ledger: bool,
    sandbox: bool = False,
    deadline: float | None = None,
) -> None:
    from clearance.cli.commands.hook import run_hook

    args = [arg for path in policy or [] for arg in ("--policy", path)]
    args += ["--ledger", ledger] if ledger else []
    args += ["--no-ledger"] if no_ledger else []
    args += ["--sandbox"] if sandbox else []
    args += ["--deadline", str(deadline)] if deadline is not None else []
    raise typer.Exit(run_hook(agent, args))


SandboxOption = Annotated[
    bool,
    typer.Option(
        "--sandbox",
        help="Rewrite an allowed shell command to run under `clearance sandbox` "
        "(the decision's profile).",
    ),
]


_HOOK_HELP = (
    "Reads the agent's pre-tool payload on stdin and prints its decision format. Any error "
    "(bad payload, broken policy, unwritable ledger, no decision within the deadline) blocks "
    "the call: exit 2, reason on stderr."
)


def _hook_command(name: str) -> Callable[..., None]:
    def command(
        policy: PolicyOption = None,
        ledger: LedgerOption = None,
        no_ledger: NoLedgerOption = False,
        sandbox: SandboxOption = False,
        deadline: Annotated[
            float | None,
            typer.Option("--deadline", help="Seconds before the hook answers deny (timeout)."),
        ] = None,
    ) -> None:
        _hook(name, policy, ledger, no_ledger, sandbox, deadline)

    return command


def _register_hook_commands() -> None:
    from clearance.hooks.agents import REGISTRY

    for agent in REGISTRY:
        hook_app.command(agent.name, help=f"{agent.title} {agent.pre_event} hook. " + _HOOK_HELP)(
            _hook_command(agent.name)
        )


_register_hook_commands()


@hook_app.command("install")
def hook_install_command(
    agent: Annotated[str, typer.Argument(help="claude-code, gemini-cli or codex.")],
    scope: Annotated[
        str, typer.Option("--scope", help="project (this repository) or user (your home).")
    ] = "project",
    project: Annotated[
        str | None, typer.Option("--project", help="Project directory (default: repository root).")
    ] = None,
    command: Annotated[
        str | None, typer.Option("--command", help="Hook command (default: this clearance).")
    ] = None,
    matcher: Annotated[
        str, typer.Option("--matcher", help="Which tools the hook sees (agent's regex).")
    ] = ".*",
    timeout: Annotated[
        int, typer.Option("--timeout", help="Seconds the agent grants the hook.")
    ] = 30,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Print the new settings file, write nothing.")
    ] = False,
    sandbox: SandboxOption = False,
) -> None:
    """Merge the clearance hook into an agent's settings, keeping everything already there."""
    from clearance.hooks.install import run_install

    raise typer.Exit(
        run_install(
            agent,
            scope=scope,
            project=project,
            command=command,
            matcher=matcher,
            timeout_s=timeout,
            dry_run=dry_run,
            sandbox=sandbox,
        )
    )


@app.command(
    "sandbox",
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
)
def sandbox_command(ctx: typer.Context) -> None:
    """Run a command confined (bubblewrap): `clearance sandbox [--profile NAME]...
    [--allow-network] [--cwd DIR] [--policy FILE]... -- COMMAND...`. The file system is
    read-only but the workspace and a private /tmp, secrets are hidden, no network unless
    allowed; exit 125 when no sandbox can be set up (the command does not run)."""
    from clearance.cli.commands.sandbox import run_sandbox

    raise typer.Exit(run_sandbox(list(ctx.args)))


@app.command("doctor")
def doctor_command(
    agent: Annotated[
        str | None, typer.Option("--agent", help="claude-code, gemini-cli or codex (default: all).")
    ] = None,
    project: Annotated[
        str | None, typer.Option("--project", help="Project directory (default: repository root).")
    ] = None,
) -> None:
    """Check that every installed hook will run, answer in time and block when it must; exit 1
    when anything would let a tool run unguarded."""
    from clearance.hooks.doctor import run_doctor

    raise typer.Exit(run_doctor(agent, project=project))


@app.command("gate")
def gate_command(
    source: Annotated[
        str | None, typer.Argument(help="JSON Lines of intents or hook payloads (- for stdin).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Same as --format json.")] = False,
    policy: PolicyOption = None,
    output: Annotated[
        str,
        typer.Option(
            "--format",
            help="json (one decision per line), text, github (annotations) or sarif "
            "(SARIF 2.1.0 for code scanning).",
        ),
    ] = "json",
    summary: Annotated[
        bool, typer.Option("--summary", help="Add a table of counts by decision and rule.")
    ] = False,
    cwd: Annotated[
        str | None, typer.Option("--cwd", help="Directory of intents that name none.")
    ] = None,
    ledger: Annotated[
        str | None, typer.Option("--ledger", help="Also append every decision to this ledger.")
    ] = None,
    no_ledger: Annotated[
        bool, typer.Option("--no-ledger", help="Do not record (the default).")
    ] = False,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            help="Decide in this many processes (output in input order; one process with "
            "--ledger).",
        ),
    ] = 1,
) -> None:
    """Decide a batch of intents. Exit: 0 all allowed, 3 some ask, 4 any deny, 2 error."""
    from clearance.cli.commands.gate import run_gate

    raise typer.Exit(
        run_gate(
            source,
            policies=policy,
            output="json" if as_json else output,
            summary=summary,
            cwd=cwd,
            ledger=None if no_ledger else ledger,
            jobs=jobs,
        )
    )


audit_app = typer.Typer(help="Read the audit ledger.", no_args_is_help=True)
app.add_typer(audit_app, name="audit")


@audit_app.command("verify")
def audit_verify_command(
    path: Annotated[
        str | None, typer.Argument(help="The ledger (default: this project's).")
    ] = None,
    ledger: LedgerOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    plain: Annotated[
        bool,
        typer.Option("--plain", help="Check the plain hash chain only (no ledger key here)."),
    ] = False,
    db: Annotated[
        str | None, typer.Option("--db", help="Verify every source in this PostgreSQL store.")
    ] = None,
) -> None:
    """Check the hash chain and MACs; exit 1 naming the first edited, deleted, reordered,
    forged or cut record, or tampering an append recorded."""
    if db is not None:
        from clearance.cli.commands.audit_db import run_verify_db

        raise typer.Exit(run_verify_db(db, as_json=as_json))
    from clearance.cli.commands.audit import run_verify

    raise typer.Exit(run_verify(path or ledger, as_json=as_json, plain=plain))


#: The options that select audit records (``clearance.cli.commands.audit.Filters``), shared by
#: ``audit show``, ``tail`` and ``stats``: each command lists them after its own (``_filtered``).
FILTER_OPTIONS: dict[str, Any] = {
    "since": Annotated[
        str | None,
        typer.Option("--since", help="Records at or after: ISO date/time or age (2h, 7d)."),
    ],
    "until": Annotated[
        str | None, typer.Option("--until", help="Records at or before: ISO date/time or age.")
    ],
    "decision": Annotated[
        list[str] | None, typer.Option("--decision", help="allow, ask or deny (repeatable).")
    ],
    "rule": Annotated[
        str | None,
        typer.Option("--rule", help="Rule id that decided or matched (or a reason code)."),
    ],
    "agent": Annotated[str | None, typer.Option("--agent", help="Agent (or surface).")],
    "session": Annotated[str | None, typer.Option("--session", help="Session id.")],
    "user": Annotated[str | None, typer.Option("--user", help="User who made the call.")],
}


def _filtered(command: Callable[..., None]) -> Callable[..., None]:
    """``command``, whose last parameter is ``**filters``, with the :data:`FILTER_OPTIONS`
    after its own options in the signature typer reads (typer calls it with every option by
    name, so the filters arrive in ``filters``)."""
    hints = get_type_hints(command, include_extras=True)
    own = [
        parameter.replace(annotation=hints[parameter.name])
        for parameter in inspect.signature(command).parameters.values()
        if parameter.kind is not inspect.Parameter.VAR_KEYWORD
    ]
    added = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=option)
        for name, option in FILTER_OPTIONS.items()
    ]
    command.__signature__ = inspect.Signature([*own, *added])  # type: ignore[attr-defined]
    return command


def _filters(values: dict[str, Any]) -> Any:
    """The ``Filters`` of a command's filter options; a bad one exits 2, saying why."""
    from clearance.cli.commands.audit import FilterError, Filters

    try:
        return Filters(**{name: values[name] for name in FILTER_OPTIONS})
    except FilterError as exc:
        typer.echo(f"clearance audit: {exc}", err=True)
        raise typer.Exit(AuditExit.USAGE) from None


@audit_app.command("show")
@_filtered
def audit_show_command(
    decision_id: Annotated[
        str | None, typer.Argument(help="The decision id (default: every matching record).")
    ] = None,
    ledger: LedgerOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print records as JSON.")] = False,
    **filters: Any,
) -> None:
    """The recorded intent and decision of one decision id, or every record the filters
    match (one per line; one JSON object per line with --json)."""
    from clearance.cli.commands.audit import run_show

    raise typer.Exit(run_show(decision_id, ledger, as_json=as_json, filters=_filters(filters)))


@audit_app.command("tail")
@_filtered
def audit_tail_command(
    ledger: LedgerOption = None,
    lines: Annotated[int, typer.Option("-n", "--lines", help="How many records.")] = 10,
    follow: Annotated[bool, typer.Option("-f", "--follow", help="Print new records.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print records as JSON.")] = False,
    **filters: Any,
) -> None:
    """The latest decisions the filters match, one line each."""
    from clearance.cli.commands.audit import run_tail

    raise typer.Exit(
        run_tail(ledger, lines=lines, follow=follow, as_json=as_json, filters=_filters(filters))
    )


@audit_app.command("stats")
@_filtered
def audit_stats_command(
    ledger: LedgerOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print as JSON.")] = False,
    **filters: Any,
) -> None:
    """Counts by decision, rule, program, agent and user."""
    from clearance.cli.commands.audit import run_stats

    raise typer.Exit(run_stats(ledger, as_json=as_json, filters=_filters(filters)))


@app.command("replay")
def replay_command(
    ledger: Annotated[str | None, typer.Argument(help="The ledger to replay.")] = None,
    policy: PolicyOption = None,
    allow_loosening: Annotated[
        bool, typer.Option("--allow-loosening", help="Exit 0 even if decisions got less strict.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the diff as JSON.")] = False,
    plain: Annotated[
        bool,
        typer.Option("--plain", help="Verify the plain hash chain only (no ledger key here)."),
    ] = False,
    db: Annotated[
        str | None, typer.Option("--db", help="Replay the whole org's store (PostgreSQL DSN).")
    ] = None,
    since: Annotated[
        str | None, typer.Option("--since", help="With --db: decisions at or after this time.")
    ] = None,
) -> None:
    """Re-decide every recorded intent under a policy (nothing is executed); print the diff.

    Exit: 0 nothing became less strict, 4 something did, 2 usage/policy/ledger error."""
    if db is not None or since is not None:
        from clearance.cli.commands.replay_db import run_replay_db

        raise typer.Exit(
            run_replay_db(
                db,
                ledger=ledger,
                policies=policy,
                since=since,
                allow_loosening=allow_loosening,
                as_json=as_json,
            )
        )
    if ledger is None:
        raise typer.BadParameter("give a LEDGER, or --db DSN", param_hint="LEDGER")
    from clearance.cli.commands.replay import run_replay

    raise typer.Exit(
        run_replay(
            ledger, policies=policy, allow_loosening=allow_loosening, as_json=as_json, plain=plain
        )
    )


def _version(value: bool) -> None:
    if value:
        from clearance import __version__

        typer.echo(f"clearance {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            help="Print the version and exit.",
            callback=_version,
            is_eager=True,
        ),
    ] = False,
) -> None:
    """Policy-as-code governance for AI coding agents."""


from clearance.cli import service_cli  # noqa: E402  (registers serve and audit ship)

_ = service_cli


def run_app(args: list[str]) -> int:
    """Run the typer application; its usage errors exit 2, a crash exits 1."""
    try:
        app(args=args, prog_name="clearance")
    except SystemExit as exc:
        if exc.code is None:
            return 0
        return exc.code if isinstance(exc.code, int) else 1
    return 0
