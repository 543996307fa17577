"""The confinement a decision gets, and the command line that runs a command under it.

The profile follows the decision: the default confinement has no network, and a command gets
network only when a part the policy allowed is a network action (``network``,
``network_read`` or ``network_write``: a ``git fetch``, a ``curl`` the policy allowed); a
test or a build never gets it. Either way nothing outside the workspace is writable. A policy
profile widens this when the command runs a program it names or a rule it names allowed the
command, or when the caller names it (``--profile``); every widening is written into the
decision (``decision.sandbox``) so the ledger says what the command was allowed to reach.

When no sandbox can be set up here, ``sandbox.unavailable`` decides what an allow becomes:
``ask`` (the default), ``deny``, or ``run`` (unconfined, and the decision says so). Never a
silent unconfined run.
"""

from __future__ import annotations

import shlex
import sys
from dataclasses import dataclass, field

from clearance.sandbox.settings import BASE, Profile, SandboxSettings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.engine.decision import ApprovalDecision
    from clearance.sandbox.settings import Unavailable

#: Effect classes whose allow opens the network (decision #4: every network part has
#: ``network`` and one of the other two).
NETWORK_CLASSES = frozenset(("network", "network_read", "network_write"))


@dataclass(frozen=True)
class Confinement:
    """What one command is allowed inside the sandbox."""

    network: bool = False
    profiles: tuple[Profile, ...] = ()
    #: Why network is open: the part, or the profile that opened it.
    network_because: str | None = None
    widenings: tuple[str, ...] = field(default=())

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.profiles] or [BASE]

    def to_dict(self) -> dict[str, object]:
        return {
            "confined": True,
            "profile": "+".join(self.names),
            "network": self.network,
            "network_because": self.network_because,
            "widenings": list(self.widenings),
        }


def confinement_for(
    decision: ApprovalDecision,
    settings: SandboxSettings,
    *,
    explicit: list[str] | None = None,
    granted: tuple[str, ...] = ("allow",),
) -> Confinement:
    """The confinement of an allowed decision (raises ``KeyError`` for an unknown profile);
    ``granted``: the part decisions that count as allowed (an ask a human answered with yes
    also grants its parts)."""
    chosen: list[Profile] = []
    for name in explicit or ():
        profile = settings.profile(name)
        if profile is None:
            raise KeyError(name)
        chosen.append(profile)
    network_because: str | None = None
    for part in decision.parts:
        if part.decision not in granted:
            continue
        if network_because is None and NETWORK_CLASSES.intersection(part.classes):
            shown = " ".join(part.argv) or part.text
            network_because = f"allowed network part: {shown[:120]}"
        for profile in settings.profiles:
            if profile in chosen:
                continue
            program = (part.program or "").rsplit("/", 1)[-1]
            if (program and program in profile.programs) or (
                part.policy_id is not None and part.policy_id in profile.rules
            ):
                chosen.append(profile)
    widenings: list[str] = []
    for profile in chosen:
        widenings.extend(
            f"{w} (profile {profile.name}, {profile.source})" for w in profile.widenings()
        )
        if network_because is None and profile.network:
            network_because = f"profile {profile.name}"
    return Confinement(
        network=network_because is not None,
        profiles=tuple(chosen),
        network_because=network_because,
        widenings=tuple(widenings),
    )


def annotate(
    decision: ApprovalDecision,
    settings: SandboxSettings,
    problem: str | None,
    *,
    explicit: list[str] | None = None,
) -> tuple[ApprovalDecision, Confinement | None]:
    """An allowed ``decision`` with its sandbox written in, and the confinement to run it
    under (any other decision comes back as it is, with no confinement).

    ``problem`` says why no sandbox can be set up here (``None``: one can). Then the policy's
    ``sandbox.unavailable`` turns the allow into an ask or a deny (reason code
    ``sandbox_unavailable``), or lets it run unconfined, named as such; the confinement is
    ``None`` in every one of those cases.
    """
    if decision.decision != "allow":
        return decision, None
    if problem is None:
        try:
            confinement = confinement_for(decision, settings, explicit=explicit)
        except KeyError as exc:
            problem = f"no sandbox profile named {exc.args[0]!r} in the policy"
            return _unavailable(decision, problem, "deny"), None
        return decision.replaced(sandbox=confinement.to_dict()), confinement
    return _unavailable(decision, problem, settings.unavailable), None


def annotate_ask(
    decision: ApprovalDecision, settings: SandboxSettings, problem: str | None
) -> tuple[ApprovalDecision, Confinement | None]:
    """For an ``ask`` that a human may answer: the confinement it runs under if allowed (its
    asked parts granted too). The decision stays an ask; its ``sandbox`` says what a yes
    would run under, or that it would run unconfined (then the human is the one to decide)."""
    if decision.decision != "ask":
        return decision, None
    if problem is None:
        confinement = confinement_for(decision, settings, granted=("allow", "ask"))
        return decision.replaced(sandbox=confinement.to_dict()), confinement
    return decision.replaced(
        sandbox={"confined": False, "unavailable": problem, "policy": "ask"}
    ), None


def _unavailable(decision: ApprovalDecision, problem: str, choice: Unavailable) -> ApprovalDecision:
    sandbox: dict[str, object] = {"confined": False, "unavailable": problem, "policy": choice}
    if choice == "run":
        return decision.replaced(
            reason=decision.reason + f" (runs unconfined: {problem}; sandbox.unavailable is run)",
            sandbox=sandbox,
        )
    return decision.replaced(
        decision=choice,
        reason_code="sandbox_unavailable",
        reason=(
            f"allowed by {decision.policy_id or decision.reason_code}, but it cannot be "
            f"confined here: {problem} (sandbox.unavailable is {choice})"
        ),
        sandbox=sandbox,
    )


def wrapper_argv(
    confinement: Confinement,
    policies: list[str] | None = None,
    workspace: str | None = None,
) -> list[str]:
    """``clearance sandbox`` with this confinement's options, up to and including ``--``.

    The interpreter running clearance now is named by its absolute path and started with
    ``-P`` (no current directory on ``sys.path``), so neither ``$PATH`` nor a ``clearance``
    package planted in the workspace decides what the wrapper is.
    """
    argv = [sys.executable, "-P", "-m", "clearance", "sandbox"]
    for profile in confinement.profiles:
        argv += ["--profile", profile.name]
    if confinement.profiles:
        for path in policies or ():
            argv += ["--policy", path]
    if confinement.network:
        argv.append("--allow-network")
    if workspace:
        argv += ["--workspace", workspace]
    argv.append("--")
    return argv


def wrap_command(
    command: str,
    confinement: Confinement,
    policies: list[str] | None = None,
    workspace: str | None = None,
) -> str:
    """A shell command line that runs ``command`` (a bash command line) confined.

    The original is one single-quoted word given to ``bash -c``: nothing in it (quotes,
    ``;``, newlines, ``$(…)``) is seen by the outer shell, so nothing can run outside the
    wrapper.
    """
    argv = wrapper_argv(confinement, policies, workspace)
    return shlex.join([*argv, "bash", "-c", command])


def confine_tool_input(
    decision: ApprovalDecision,
    settings: SandboxSettings,
    tool_input: dict[str, object],
    *,
    policies: list[str] | None = None,
    workspace: str | None = None,
) -> tuple[ApprovalDecision, dict[str, object] | None]:
    """For a hook: the decision with its sandbox, and the shell tool's input rewritten to run
    confined, or ``None``.

    ``None`` when the decision is not an allow of a shell command (it comes back as it is),
    or when no sandbox can be set up (then the decision says what ``sandbox.unavailable``
    made of it).
    """
    if decision.decision != "allow" or decision.tool_kind != "shell":
        return decision, None
    command = tool_input.get("command")
    problem: str | None
    if not isinstance(command, str) or not command:
        problem = "this tool's input has no command line that can be rewritten"
    else:
        from clearance.sandbox.probe import probe

        problem = probe().problem
    decision, confinement = annotate(decision, settings, problem)
    if confinement is None or not isinstance(command, str):
        return decision, None
    wrapped = wrap_command(command, confinement, policies, workspace)
    return decision, {**tool_input, "command": wrapped}
