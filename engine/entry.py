"""The one way in: load the policy in force, decide, fail closed -- and decide a record again.

Every surface decides through :func:`decide_in_force` (or :func:`decide_intent`, the same
without the policy): ``check``/``explain`` of a command, the agents' hooks, ``gate`` and the
decision service (``clearance.hooks.gate``), and the runner. It never raises and never allows
what it could not judge: a policy that does not load is a deny with reason code
``policy_error`` (with every issue in ``errors``), a bug anywhere is ``internal_error``.

Where the policy comes from is the caller's choice, one of:

* ``policy``: already loaded (the runner loads once per run and after each grant);
* ``policy_for(cwd)``: a batch's lookup (``PolicyCache.get``, the service's policy state),
  answering the policy set or its load error as text; ``workspace_for(cwd)`` beside it gives
  the batch's memo of project roots;
* neither: exactly ``files`` (``--policy``), or the scopes discovered at the directory, with
  ``session`` packs (grants) on top.

:func:`redecide` decides a recorded intent again as it was recorded (its directory, workspace
and home): ``replay``, ``audit explain`` and the runner's dry run ride on it. Nothing a record
describes is ever executed.
"""

from __future__ import annotations

import os

from clearance.engine.api import decide, load_policy
from clearance.engine.decision import failure
from clearance.engine.errors import PolicyError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from clearance.engine.decision import ApprovalDecision
    from clearance.engine.intents import ToolIntent
    from clearance.engine.rules import PolicySet
    from clearance.engine.types import PackData


def decide_in_force(
    intent: ToolIntent,
    *,
    policy: PolicySet | None = None,
    policy_for: Callable[[str], PolicySet | str] | None = None,
    workspace_for: Callable[[str], str | None] | None = None,
    files: list[str] | None = None,
    session: list[PackData] | None = None,
    cwd: str | None = None,
    workspace: str | None = None,
    home: str | None = None,
    env: Mapping[str, str] | None = None,
    trace: bool = False,
) -> tuple[ApprovalDecision, PolicySet | None]:
    """The decision for ``intent`` under the policy in force, and that policy (``None`` when
    it did not load). Never raises.

    ``cwd``: the directory the intent runs in (default: the intent's, else the process's).
    ``workspace``: the project root (default: ``workspace_for(cwd)``, else looked up);
    ``""``: the cwd belongs to no project."""
    try:
        cwd = cwd or intent.cwd or os.getcwd()
        if policy is None:
            if policy_for is not None:
                found = policy_for(cwd)
                if isinstance(found, str):
                    return failure("policy_error", f"policy error: {found}", tool=intent.tool), None
                policy = found
            else:
                policy = load_policy(os.path.abspath(cwd), files=files, session=session, env=env)
        if workspace is None and workspace_for is not None:
            workspace = workspace_for(cwd) or ""
    except PolicyError as broken:
        return failure(
            "policy_error",
            f"policy error: {broken.summary()}",
            tool=intent.tool,
            errors=[str(issue) for issue in broken.issues],
        ), None
    except Exception as bug:  # a bug: fail closed, and say so
        return failure(
            "internal_error", f"internal error loading policy: {bug!r}", tool=intent.tool
        ), None
    return decide(intent, policy, cwd=cwd, workspace=workspace, home=home, trace=trace), policy


def decide_intent(
    intent: ToolIntent,
    *,
    files: list[str] | None = None,
    cwd: str | None = None,
    workspace: str | None = None,
    home: str | None = None,
    env: Mapping[str, str] | None = None,
    trace: bool = False,
) -> ApprovalDecision:
    """Load the policy in force at the intent's directory and decide it. Never raises."""
    decision, _ = decide_in_force(
        intent,
        files=files,
        cwd=os.path.abspath(cwd or intent.cwd or os.getcwd()),
        workspace=workspace,
        home=home,
        env=env,
        trace=trace,
    )
    return decision


class Unreplayable:
    """Why a record cannot be decided again: ``code`` is ``bounded`` (the intent was too large
    to record whole), ``no_intent`` (a malformed payload was recorded), ``policy`` (the policy
    at its directory does not load: ``where`` is that directory, ``error`` the policy error) or
    ``error`` (deciding failed)."""

    __slots__ = ("code", "error", "where", "why")

    def __init__(self, code: str, why: str, where: str = "", error: str = "") -> None:
        self.code = code
        self.why = why
        self.where = where
        self.error = error


def cut_short(record: Mapping[str, object]) -> Unreplayable | None:
    """``bounded`` when the ledger kept only a digest and an excerpt of the record's intent."""
    bounded = record.get("bounded")
    if isinstance(bounded, dict) and any(str(k).startswith("intent") for k in bounded):
        return Unreplayable(
            "bounded",
            "the intent was too large to record whole (the ledger keeps a digest and an "
            "excerpt): it cannot be re-decided",
        )
    return None


def redecide(
    record: Mapping[str, object],
    policy_for: Callable[[str], PolicySet | str],
    *,
    cwd: str | None = None,
    trace: bool = False,
) -> ApprovalDecision | Unreplayable:
    """The recorded intent decided again under ``policy_for(its directory)`` -- with the
    workspace and home the record names. ``cwd``: the directory of a record that names none
    (default: the process's)."""
    from clearance.engine.ledger_replay import intent_from_record

    cut = cut_short(record)
    if cut is not None:
        return cut
    intent = intent_from_record(record)
    if intent is None:
        return Unreplayable("no_intent", "the record holds no intent (a malformed payload)")
    where = intent.cwd or _text(record.get("cwd")) or cwd or os.getcwd()
    policy = policy_for(where)
    if isinstance(policy, str):
        return Unreplayable("policy", f"policy at {where}: {policy}", where, policy)
    try:
        return decide(
            intent,
            policy,
            cwd=where,
            workspace=_text(record.get("workspace")),
            home=_text(record.get("home")),
            trace=trace,
        )
    except Exception as exc:  # a malformed record is a finding, never a traceback
        return Unreplayable("error", f"the record cannot be re-decided: {exc!r}"[:300])


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None
