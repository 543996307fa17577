"""The closed vocabularies: every word a decision, a fact or an exit status is spelt with.

One place per word. Decisions, reason codes (each with its one-line meaning), risks, effect
classes and markers of command facts, which markers fail closed (and the reason code and
sentence a decision they escalate carries), path accesses, tool kinds and the pseudo-program
names of file and web tools, and the exit statuses of the commands. Every other place derives
from here: the engine's decisions and their pydantic schema (``engine/decision_schema.py``,
checked by ``tests/test_vocab.py``), the policy file's schema (``engine/policy_schema.py``),
``policies/README.md``'s tables (checked by a test), shellparse's facts.

The ``Literal`` types exist for the type checker only (``typing`` is not imported on the hook
path); each has a runtime twin (a tuple or a dict keyed by it) and ``tests/test_vocab.py``
holds the two equal.

May import: nothing of clearance, nothing outside the standard library (it is imported on
the start-up path of every hook call). Every package may import it. tests/test_architecture.py
checks.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal, TypeAlias

    Decision: TypeAlias = Literal["allow", "ask", "deny"]
    Risk: TypeAlias = Literal["low", "medium", "high", "critical"]
    ReasonCode: TypeAlias = Literal[
        "rule_matched",
        "default",
        "parse_error",
        "dynamic_command",
        "unknown_program",
        "unknown_option",
        "inline_code",
        "depth_limit",
        "unknown_tool",
        "managed_lock",
        "no_op",
        "policy_error",
        "bad_input",
        "internal_error",
        "sandbox_unavailable",
        "input_too_large",
        "timeout",
        "interrupted",
        "unknown_environment",
        "workspace_wide",
        "unresolved_path",
        "archive_escape",
    ]
    EffectClass: TypeAlias = Literal[
        "read_only",
        "test",
        "build",
        "write",
        "delete",
        "network",
        "network_read",
        "network_write",
        "package_install",
        "vcs_read",
        "vcs_write",
        "vcs_destructive",
        "privilege",
        "code_exec",
        "remote_code_exec",
        "secret_read",
        "process_control",
        "system",
        "unknown",
    ]
    Marker: TypeAlias = Literal[
        "parse_error",
        "dynamic_program",
        "dynamic_argument",
        "glob",
        "tilde",
        "brace_expansion",
        "unknown_program",
        "unknown_option",
        "depth_limit",
        "inline_code",
        "stdin_code",
        "unknown_cwd",
        "path_modified",
        "env_code",
        "resolved_variable",
        "invalid_substitution",
        "remote",
        "background",
        "function_body",
        "truncated",
        "too_large",
        "sensitive_write",
        "unknown_env",
        "dynamic_arithmetic",
        "workspace_wide",
        "unresolved_path",
        "archive_escape",
        "secret_overwrite",
    ]
    Access: TypeAlias = Literal["read", "write", "delete", "exec", "unknown"]
    ToolKind: TypeAlias = Literal[
        "shell", "read", "write", "edit", "fetch", "search", "list", "agent", "unknown"
    ]
    PseudoProgram: TypeAlias = Literal[
        "read_file", "write_file", "edit_file", "list", "web_fetch", "web_search"
    ]

# -- decisions -------------------------------------------------------------------------------

DECISIONS: tuple[Decision, ...] = ("allow", "ask", "deny")
#: deny > ask > allow: the strictest wins.
STRICTNESS: dict[str, int] = {"allow": 0, "ask": 1, "deny": 2}

RISKS: tuple[Risk, ...] = ("low", "medium", "high", "critical")
#: Each risk's place in ``RISKS`` (the higher, the riskier).
RISK_RANK: dict[str, int] = {risk: rank for rank, risk in enumerate(RISKS)}
#: The risk of a decision no rule gave one.
DEFAULT_RISK: dict[str, Risk] = {"allow": "low", "ask": "medium", "deny": "high"}

#: Why a decision is what it is (closed set), with its one-line meaning.
REASON_CODES: dict[ReasonCode, str] = {
    "rule_matched": "a rule decided",
    "default": "no rule matched; the policy's default decision",
    "parse_error": "the command does not parse",
    "dynamic_command": "the program to run is computed at run time",
    "unknown_program": "a program nothing knows about and no rule names",
    "unknown_option": "an option of a known program that its table does not know",
    "inline_code": "an interpreter runs code given inline or on stdin",
    "depth_limit": "unwrapping stopped at its bound",
    "unknown_tool": "a tool the mapping does not know",
    "managed_lock": "an allow from a lower scope, discarded by the managed lock",
    "no_op": "nothing would run (an empty script, comments only)",
    "policy_error": "the policy could not be loaded: fail closed",
    "bad_input": "the intent or hook payload is malformed",
    "internal_error": "a bug in clearance: fail closed",
    "sandbox_unavailable": "allowed, but nothing can confine it here (sandbox.unavailable)",
    "input_too_large": "the input is over a size limit, or its analysis over a step budget",
    "timeout": "no decision within the hook's deadline: the hook blocked",
    "interrupted": "the hook was sent a signal before it could answer: it blocked",
    "unknown_environment": "an environment variable nothing knows about rides along",
    "workspace_wide": "the whole workspace (every file in it, or .git) would be destroyed",
    "unresolved_path": "a path could not be resolved on this machine (permission, loop, bound)",
    "archive_escape": "an extracted archive holds a member that lands outside its destination",
}

# -- command facts ---------------------------------------------------------------------------

#: Effect classes (closed set): what a part does, with the one-line meaning of each.
CLASSES: dict[EffectClass, str] = {
    "read_only": "reads or lists, changes nothing",
    "test": "runs the project's tests",
    "build": "builds, lints, formats or type-checks the project",
    "write": "creates or changes files",
    "delete": "deletes files or directories",
    "network": "talks to the network",
    "network_read": "with network: a query that sends nothing local (listings, fetches, plans)",
    "network_write": "with network: sends, creates, applies, deletes, runs, uploads, publishes",
    "package_install": "installs or updates packages",
    "vcs_read": "reads version-control state (status, log, diff)",
    "vcs_write": "records in version control (commit, branch, tag, push)",
    "vcs_destructive": "discards version-control history or work (reset --hard, clean, force)",
    "privilege": "runs with raised privileges (sudo, su, doas)",
    "code_exec": "runs code the line does not show (a script, an interpreter, a build hook)",
    "remote_code_exec": "runs code fetched from the network (curl … | sh)",
    "secret_read": "reads a secret: a key, a credential, a token, the environment",
    "process_control": "signals or controls other processes (kill, pkill)",
    "system": "changes the system: services, mounts, disks, users, the kernel",
    "unknown": "what it does is not known",
}

#: Markers (closed set): what the analysis could not establish, or must flag.
MARKERS: dict[Marker, str] = {
    "parse_error": "the text (or part of it) does not parse",
    "dynamic_program": "the program name comes from $x, $(…), a glob…",
    "dynamic_argument": "an argument's value is not in the text",
    "glob": "an unquoted glob the shell expands to file names",
    "tilde": "~ or ~user expansion",
    "brace_expansion": "{a,b} produced the arguments",
    "unknown_program": "no knowledge about this program",
    "unknown_option": "an option (or option family) the program's table does not know",
    "depth_limit": "unwrapping stopped at the nesting bound",
    "inline_code": "an interpreter given code on its command line (python -c, node -e, …)",
    "stdin_code": "an interpreter reading its program from a pipe, here-doc or here-string",
    "unknown_cwd": "a cd to an unknown place ran before: relative paths are not resolved",
    "path_modified": "PATH was changed before: program names may resolve elsewhere",
    "env_code": "an environment variable that makes the program run code (PAGER, LD_PRELOAD…)",
    "resolved_variable": "a variable was replaced by the value assigned earlier in the line",
    "invalid_substitution": "${…} that fails when bash runs it",
    "remote": "runs on another machine (ssh)",
    "background": "runs in the background (&, coproc, setsid, nohup)",
    "function_body": "inside a function definition: runs only when called",
    "truncated": "an expansion was cut at its bound",
    "too_large": "the input is over a size limit or its analysis over a step budget",
    "sensitive_write": "writes where code runs later or agents take rules from (hooks, rc files)",
    "unknown_env": "an environment variable the tables do not know rides along with the program",
    "dynamic_arithmetic": "bash evaluates a value not in the text as arithmetic or a subscript",
    "workspace_wide": "deletes, truncates or rewrites the workspace, every file in it, or .git",
    "unresolved_path": "a path could not be resolved here (permission, link loop, a bound hit)",
    "archive_escape": "an extracted archive holds a member landing outside its destination",
    "secret_overwrite": "overwrites, truncates or deletes a credentials file that exists here",
}

#: Markers that can never be allowed by a default or by a rule that does not name them, in
#: the order they are reported: the reason code a decision they escalate carries, and its
#: sentence (``{program}`` is the part's program).
FAIL_CLOSED: dict[Marker, tuple[ReasonCode, str]] = {
    # first: it says why the other markers are there
    "too_large": (
        "input_too_large",
        "the command is larger than clearance analyses (a size or step budget)",
    ),
    "parse_error": ("parse_error", "the command does not parse"),
    "dynamic_program": (
        "dynamic_command",
        "the program to run is computed when the command runs",
    ),
    "unknown_program": (
        "unknown_program",
        "clearance knows nothing about the program {program!r}",
    ),
    "unknown_option": (
        "unknown_option",
        "{program!r} is given an option its table does not know",
    ),
    "depth_limit": ("depth_limit", "commands are nested deeper than the analysis follows"),
    "inline_code": ("inline_code", "an interpreter runs code given on its command line"),
    "stdin_code": ("inline_code", "an interpreter runs code it reads from its input"),
    "invalid_substitution": (
        "parse_error",
        "the command holds a substitution bash rejects when it runs",
    ),
    "truncated": ("depth_limit", "an expansion is larger than the analysis follows"),
    "path_modified": (
        "dynamic_command",
        "PATH was changed before, so which program runs is not known",
    ),
    "env_code": (
        "inline_code",
        "an environment variable makes the program load or run other code",
    ),
    "unknown_env": (
        "unknown_environment",
        "an environment variable clearance knows nothing about rides along",
    ),
    "dynamic_arithmetic": (
        "dynamic_command",
        "bash evaluates a value not in the text as arithmetic ($(…) in it runs)",
    ),
    "workspace_wide": (
        "workspace_wide",
        "it deletes, truncates or rewrites the workspace, every file in it, or .git",
    ),
    "unresolved_path": (
        "unresolved_path",
        "a path it uses cannot be resolved here (its value is not known before it runs, or a "
        "permission, a link loop or a bound stopped the resolution)",
    ),
    "archive_escape": (
        "archive_escape",
        "the archive it extracts holds a member that would land outside the destination (an "
        "absolute name, '..', or a link pointing out)",
    ),
}

#: How a path is used (``PathFact.access``); ``unknown``: an argument of a program clearance
#: knows nothing about, which may be any of them.
ACCESSES: tuple[Access, ...] = ("read", "write", "delete", "exec", "unknown")

# -- tools -----------------------------------------------------------------------------------

#: Kinds of tool, ours. ``agent`` tools act only inside the agent (plans, todo lists).
TOOL_KINDS: tuple[ToolKind, ...] = (
    "shell",
    "read",
    "write",
    "edit",
    "fetch",
    "search",
    "list",
    "agent",
    "unknown",
)

#: The program of the one part a file or web tool is judged as, by tool kind.
PSEUDO_PROGRAMS: dict[str, PseudoProgram] = {
    "read": "read_file",
    "write": "write_file",
    "edit": "edit_file",
    "list": "list",
    "fetch": "web_fetch",
    "search": "web_search",
}
#: The tool kinds whose part carries paths, and those whose part carries a URL or a query.
FILE_TOOL_KINDS = ("read", "write", "edit", "list")
WEB_TOOL_KINDS = ("fetch", "search")
#: The pseudo-programs that only read (their paths are read, or listed).
READING_PSEUDO_PROGRAMS = ("read_file", "list")

# -- exit statuses ---------------------------------------------------------------------------
# Plain classes of int constants, not ``IntEnum``s: building an enum class costs milliseconds
# at import, and this module is imported by every hook call.


class DecisionExit:
    """Exit status of ``clearance check`` and ``clearance gate`` (the worst line's)."""

    ALLOW = 0
    INTERNAL = 1  # an internal error decided (a bug in clearance)
    USAGE = 2  # a usage or policy error, or malformed input
    ASK = 3
    DENY = 4


def _statuses_by_name(statuses: type, names: tuple[str, ...]) -> dict[str, int]:
    """``name`` -> the status of ``statuses`` spelt ``NAME`` (a class's constants, named by
    the words of another vocabulary, are not written down a second time as a table)."""
    return {name: getattr(statuses, name.upper()) for name in names}


#: The exit status each decision gives ``check`` and ``gate``.
EXIT_FOR_DECISION: dict[str, int] = _statuses_by_name(DecisionExit, DECISIONS)


class InstallExit:
    """Exit status of ``clearance hook install``."""

    OK = 0
    REFUSED = 2  # nothing written: the reason is printed


class PolicyTestExit:
    """Exit status of ``clearance test``."""

    OK = 0  # every case and example passes
    FAILED = 1  # a case failed
    USAGE = 2  # a policy or test file does not load (a failing inline example included)


class LintExit:
    """Exit status of ``clearance lint`` (and of ``policy show``, which has no findings)."""

    CLEAN = 0  # clean, or only warnings
    FOUND = 1  # errors (the policy does not load, or a finding is one), or warnings with --strict
    USAGE = 2


class ParseExit:
    """Exit status of ``clearance parse``."""

    OK = 0
    NOT_PARSED = 1  # the command does not parse: the error is printed, the facts still are
    USAGE = 2


class ReplayExit:
    """Exit status of ``clearance replay`` (a ledger, or the org's store with ``--db``)."""

    OK = 0  # no decision became less strict
    USAGE = 2  # a usage or policy error; a ledger or store unreadable, or tampered with
    LOOSENED = 4  # a decision became less strict (and ``--allow-loosening`` was not given)


class AuditExit:
    """Exit status of ``clearance audit verify|show|tail|stats`` (a ledger, or ``--db``)."""

    OK = 0
    BROKEN = 1  # ``verify``: a chain is broken (its first bad record is named)
    USAGE = 2


class ShipExit:
    """Exit status of ``clearance audit ship``."""

    OK = 0  # every record is stored on the server
    FAILED = 1  # the server or its database is down, or refused the token or a record
    USAGE = 2


class ServeExit:
    """Exit status of ``clearance serve``."""

    OK = 0  # stopped by SIGTERM/SIGINT
    ERROR = 1  # it cannot listen, or its workers keep dying
    USAGE = 2  # a usage or policy error


class RunExit:
    """Exit status of ``clearance run``, by how the run ended (``RunEndReason``)."""

    FINAL_ANSWER = 0
    INTERNAL_ERROR = 1
    POLICY_ERROR = 2
    TURN_LIMIT = 3
    BUDGET_LIMIT = 4
    PROVIDER_ERROR = 5
    INTERRUPTED = 130


#: ``RunEndReason`` -> exit status of ``clearance run`` (each reason's constant in ``RunExit``).
RUN_EXIT: dict[str, int] = _statuses_by_name(
    RunExit, tuple(name.lower() for name in vars(RunExit) if name.isupper())
)


class RunReplayExit:
    """Exit status of ``clearance run --replay LOG`` (every ``--mode``)."""

    OK = 0
    USAGE = RunExit.POLICY_ERROR  # a usage or policy error, or a log that cannot be read
    PROVIDER_ERROR = RunExit.PROVIDER_ERROR  # ``--mode model``: the provider failed


class HookExit:
    """Exit status of ``clearance hook AGENT`` (what the agent acts on)."""

    ANSWERED = 0  # the decision on stdout in the agent's format (or a post-tool event seen)
    BLOCKED = (
        2  # any failure: the reason on stderr (and the agent's deny on stdout, if it reads one)
    )


class DoctorExit:
    """Exit status of ``clearance doctor``."""

    OK = 0  # nothing would let a tool run unguarded (``warn`` lines are advice)
    FAILED = 1  # a ``FAIL`` finding: some tool would run unguarded
    USAGE = 2


class SandboxExit:
    """Exit status of ``clearance sandbox`` where it is not the confined command's own."""

    USAGE = 2  # the command line is wrong: nothing ran
    SETUP_FAILED = 125  # the sandbox could not be set up: nothing ran (never unconfined)
