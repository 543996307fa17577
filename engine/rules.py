"""Compiled rules and the policy set: every rule of every scope, indexed by program.

A ``PolicySet`` is built from normalised pack data (what the loader validated, or what the
cache stored), never from YAML directly. Rules that require a program are filed under it;
the rest are candidates for every part. The set's digest covers the content of every file.
"""

from __future__ import annotations

import os

from clearance.engine.decision import STRICTNESS
from clearance.engine.digest import sha256_stream
from clearance.engine.matchers import NameSet, compile_when
from clearance.policies import DEFAULT_DISPLAY, default_pack_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final, TypeVar

    from clearance.engine.matchers import Matcher
    from clearance.engine.types import PackData, PackDefaults, RuleData
    from clearance.vocab import Decision, Risk

    #: A key of one of ``PolicySet.applicable``'s kept answers.
    _Key = TypeVar("_Key")

#: Order in which scopes are listed (and win ties between equally strict rules).
SCOPE_ORDER: Final = ("managed", "user", "project", "session", "cli", "default")


class CompiledRule:
    __slots__ = (
        "decision",
        "examples",
        "final",
        "id",
        "matcher",
        "named_markers",
        "named_programs",
        "order",
        "overrides",
        "pack",
        "policy_id",
        "programs",
        "reason",
        "risk",
        "scope",
        "settles",
        "source",
        "target",
        "tools",
        "when",
    )

    def __init__(self, data: RuleData, pack: Pack, order: int) -> None:
        self.id = str(data["id"])
        self.pack = pack
        self.policy_id = f"{pack.id}/{self.id}"
        self.scope = pack.scope
        self.decision: Decision = data["decision"]
        self.reason = str(data["reason"])
        risk = data.get("risk")
        self.risk: Risk | None = risk or None
        self.target = str(data.get("target") or "part")
        tools = data.get("tools")
        self.tools = NameSet([str(t) for t in tools]) if isinstance(tools, list) else None
        when = data["when"]
        assert isinstance(when, dict)
        self.when = when
        self.matcher: Matcher = compile_when(when)
        self.programs = self.matcher.programs()
        self.named_markers = frozenset(self.matcher.named_markers())
        self.named_programs = frozenset(self.matcher.named_programs())
        examples = data.get("examples") or {}
        assert isinstance(examples, dict)
        self.examples = examples
        line = data.get("line")
        self.source = f"{pack.display}:{line}" if line else pack.display
        self.order = order
        overrides = data.get("overrides") or []
        assert isinstance(overrides, list)
        #: Policy ids this rule names under ``overrides`` (as written).
        self.overrides = [str(o) for o in overrides]
        self.final = bool(data.get("final"))
        #: The rules it may settle (resolved by ``PolicySet``: named, existing, overridable).
        self.settles: frozenset[CompiledRule] = frozenset()

    def applies_to(self, tool: str, tool_kind: str) -> bool:
        return self.tools is None or self.tools.match(tool_kind) or self.tools.match(tool)


#: Answers ``PolicySet.applicable`` keeps per table (cleared when full: a batch of distinct
#: commands makes some thousands).
MAX_KEPT: Final = 16384


def _kept(
    memo: dict[_Key, list[CompiledRule]], key: _Key, found: list[CompiledRule]
) -> list[CompiledRule]:
    """``found``, kept in ``memo`` under ``key`` (cleared when full: ``MAX_KEPT``)."""
    if len(memo) >= MAX_KEPT:
        memo.clear()
    memo[key] = found
    return found


def _merged(first: list[CompiledRule], second: list[CompiledRule]) -> list[CompiledRule]:
    """Two lists of rules in rule order as one, each rule once."""
    out: list[CompiledRule] = []
    i = j = 0
    while i < len(first) and j < len(second):
        a, b = first[i], second[j]
        if a.order < b.order:
            out.append(a)
            i += 1
        elif b.order < a.order:
            out.append(b)
            j += 1
        else:
            out.append(a)
            i += 1
            j += 1
    out.extend(first[i:])
    out.extend(second[j:])
    return out


def override_refusal(target: CompiledRule, by: CompiledRule) -> str | None:
    """Why ``by`` may not override ``target`` (``None``: it may).

    A rule may relax a rule of the shipped default pack, a managed rule (unless the rule is
    ``final`` or its pack has ``lock: true``), or a rule of a scope below its own (a user rule
    over a project rule). It may settle asks; it settles a deny only when that deny is the
    default pack's and not ``critical`` (see policies/README.md, "Overrides")."""
    if target.final:
        return f"{target.policy_id} is final: nothing below it can override it"
    if target.pack is by.pack:
        return f"{target.policy_id} is in the same policy file"
    if target.target == "command" or by.target == "command":
        return "whole-command rules (target: command) neither override nor are overridden"
    if by.scope == "session":
        return "session grants cannot override rules"
    if STRICTNESS[target.decision] <= STRICTNESS[by.decision]:
        return (
            f"{target.policy_id} ({target.decision}) is no stricter than this rule "
            f"({by.decision}): there is nothing to relax"
        )
    default = target.pack.is_default
    if target.decision == "deny":
        if not default:
            return f"{target.policy_id} is a deny outside the default pack; denies stay denies"
        if (target.risk or "high") == "critical":
            return (
                f"{target.policy_id} is a critical deny of the default pack "
                "(destruction, escalation, persistence, remote code, secrets, the guard's own "
                "configuration): it cannot be overridden"
            )
    if default:
        return None
    if target.scope == "managed":
        if target.pack.lock:
            return f"{target.policy_id} belongs to a locked managed policy"
        return None
    if (
        target.scope in SCOPE_ORDER
        and by.scope in SCOPE_ORDER
        and SCOPE_ORDER.index(target.scope) > SCOPE_ORDER.index(by.scope)
    ):
        return None
    return f"{target.policy_id} ({target.scope}) is not below this rule's scope ({by.scope})"


def _is_default_path(path: str) -> bool:
    """``path`` is the shipped default pack (named by ``--policy``, say)."""
    if os.path.basename(path) != "default.yaml":
        return False
    return os.path.realpath(path) == os.path.realpath(default_pack_path())


class Pack:
    """One loaded policy file (or the shipped default)."""

    __slots__ = (
        "defaults",
        "description",
        "digest",
        "display",
        "id",
        "is_default",
        "lock",
        "path",
        "rules",
        "sandbox",
        "scope",
    )

    def __init__(self, data: PackData) -> None:
        self.id = str(data["id"])
        self.scope = str(data["scope"])
        self.path = str(data["path"])
        self.display = str(data.get("display") or data["path"])
        self.digest = str(data["digest"])
        self.description = str(data.get("description") or "")
        defaults = data.get("defaults") or {}
        assert isinstance(defaults, dict)
        self.defaults: PackDefaults = defaults.copy()
        self.lock = bool(data.get("lock"))
        self.rules: list[CompiledRule] = []
        #: The file's ``sandbox:`` settings as validated (read by ``clearance.sandbox``).
        self.sandbox = data.get("sandbox")
        #: The shipped default pack (loaded as the default scope or by ``extends: default``).
        self.is_default = self.display == DEFAULT_DISPLAY or _is_default_path(self.path)


class PolicySet:
    """All rules in force, with the index the evaluator uses."""

    def __init__(self, packs: list[PackData]) -> None:
        #: The pack data it was built from (session grants rebuild the set from it).
        self.sources = list(packs)
        self.packs: list[Pack] = []
        self.rules: list[CompiledRule] = []
        order = 0
        for data in sorted(
            packs,
            key=lambda d: (
                SCOPE_ORDER.index(str(d["scope"]))
                if str(d["scope"]) in SCOPE_ORDER
                else len(SCOPE_ORDER)
            ),
        ):
            pack = Pack(data)
            raw_rules = data.get("rules") or []
            assert isinstance(raw_rules, list)
            for raw in raw_rules:
                assert isinstance(raw, dict)
                rule = CompiledRule(raw, pack, order)
                order += 1
                pack.rules.append(rule)
                self.rules.append(rule)
            self.packs.append(pack)
        self.command_rules: list[CompiledRule] = [r for r in self.rules if r.target == "command"]
        # The index: each part rule filed under the atoms of its necessary condition
        # (``Matcher.needs``: a program or a glob of programs, an effect class, a marker, a
        # path access, a host, the tool), or tested on every part when it has none. It never
        # changes an answer, only how many rules a part is tested against (a read touches no
        # rule about writes); the fast path and ``explain``'s tracer both take a part's rules
        # from it.
        self.unconditional: list[CompiledRule] = []
        self.by_need: dict[tuple[str, str], list[CompiledRule]] = {}
        for rule in self.rules:
            if rule.target == "command":
                continue
            needs = rule.matcher.needs()
            if needs is None:
                self.unconditional.append(rule)
            else:
                for atom in needs:
                    self.by_need.setdefault(atom, []).append(rule)
        #: the globs of programs the index files rules under, each as the matcher reads it
        self.program_globs: list[tuple[str, NameSet]] = [
            (atom[1], NameSet([atom[1]])) for atom in self.by_need if atom[0] == "program_glob"
        ]
        self._applicable: dict[
            tuple[str | None, frozenset[str], frozenset[str], str, str, frozenset[str], bool],
            list[CompiledRule],
        ] = {}
        #: ``applicable``'s two halves, each kept: the rules a part's classes, accesses,
        #: markers, host and tool call for (a batch meets some hundreds of these), and those its
        #: program does (some thousands); a part's own list is the two merged in rule order
        self._by_traits: dict[
            tuple[frozenset[str], frozenset[str], str, str, frozenset[str], bool],
            list[CompiledRule],
        ] = {}
        self._by_program: dict[tuple[str, str, str], list[CompiledRule]] = {}
        # Overrides: each named rule that exists and may be relaxed; the others are kept as
        # problems (lint reports them; the rule simply does not settle them).
        by_id: dict[str, list[CompiledRule]] = {}
        for rule in self.rules:
            by_id.setdefault(rule.policy_id, []).append(rule)
        #: ``(overriding rule, named id, why it does not apply)`` for lint.
        self.override_problems: list[tuple[CompiledRule, str, str]] = []
        self.has_overrides = False
        for rule in self.rules:
            if not rule.overrides:
                continue
            settles: set[CompiledRule] = set()
            for name in rule.overrides:
                targets = by_id.get(name)
                if not targets:
                    self.override_problems.append((rule, name, "no rule has this id"))
                    continue
                for target in targets:
                    why = override_refusal(target, rule)
                    if why is None:
                        settles.add(target)
                    else:
                        self.override_problems.append((rule, name, why))
            rule.settles = frozenset(settles)
            self.has_overrides = self.has_overrides or bool(settles)
        self.default_decision: Decision = "allow"
        self.unknown_tool_decision: Decision = "ask"
        for pack in self.packs:
            if pack.scope == "session":
                continue  # grants add allows; they never set the default
            decision = pack.defaults.get("decision", "ask")
            if STRICTNESS[decision] > STRICTNESS[self.default_decision]:
                self.default_decision = decision
            unknown = pack.defaults.get("unknown_tool", "ask")
            if STRICTNESS[unknown] > STRICTNESS[self.unknown_tool_decision]:
                self.unknown_tool_decision = unknown
        if not self.packs:
            self.default_decision = "ask"
        self.locked = any(p.lock and p.scope == "managed" for p in self.packs)
        digest = sha256_stream()
        for pack in self.packs:
            digest.update(f"{pack.scope}\0{pack.id}\0{pack.digest}\n".encode())
        self.digest = "sha256:" + digest.hexdigest()

    def applicable(
        self,
        program: str | None,
        classes: frozenset[str],
        accesses: frozenset[str],
        tool: str,
        tool_kind: str,
        *,
        markers: frozenset[str],
        hosts: bool,
    ) -> list[CompiledRule]:
        """The rules that may match a part with this program, these classes, these markers,
        paths of these accesses (``*`` among them when it has any path) and a host or none,
        and that apply to this tool (``CompiledRule.applies_to``), in rule order: what the
        evaluator tests a part against. Every other rule is sure not to match it."""
        key = (program, classes, accesses, tool, tool_kind, markers, hosts)
        found = self._applicable.get(key)
        if found is None:
            common = self._traits((classes, accesses, tool, tool_kind, markers, hosts))
            own = self._program(program, tool, tool_kind) if program is not None else []
            found = _kept(self._applicable, key, _merged(common, own) if own else common)
        return found

    def _traits(
        self, key: tuple[frozenset[str], frozenset[str], str, str, frozenset[str], bool]
    ) -> list[CompiledRule]:
        """The unconditional rules and those filed under a part's traits (classes, accesses,
        tool, tool kind, markers, a host: ``key``), not its program."""
        found = self._by_traits.get(key)
        if found is None:
            classes, accesses, tool, tool_kind, markers, hosts = key
            atoms = [("class", name) for name in classes]
            atoms.extend(("access", kind) for kind in accesses)
            atoms.extend(("marker", name) for name in markers)
            atoms.extend((("tool", tool), ("tool", tool_kind)))
            if hosts:
                atoms.append(("host", "*"))
            found = _kept(self._by_traits, key, self._filed(atoms, tool, tool_kind, True))
        return found

    def _program(self, program: str, tool: str, tool_kind: str) -> list[CompiledRule]:
        """The rules filed under ``program`` and the program globs it matches."""
        key = (program, tool, tool_kind)
        found = self._by_program.get(key)
        if found is None:
            atoms = [("program", program)]
            atoms.extend(
                ("program_glob", pattern)
                for pattern, names in self.program_globs
                if names.match(program)
            )
            found = _kept(self._by_program, key, self._filed(atoms, tool, tool_kind, False))
        return found

    def _filed(
        self, atoms: list[tuple[str, str]], tool: str, tool_kind: str, unconditional: bool
    ) -> list[CompiledRule]:
        """The rules filed under ``atoms`` (and the unconditional ones, with
        ``unconditional``) that apply to the tool, in rule order, each once."""
        chosen: dict[int, CompiledRule] = (
            {r.order: r for r in self.unconditional} if unconditional else {}
        )
        for atom in atoms:
            for rule in self.by_need.get(atom, ()):
                chosen[rule.order] = rule
        return [chosen[o] for o in sorted(chosen) if chosen[o].applies_to(tool, tool_kind)]

    def find(self, policy_id: str) -> CompiledRule | None:
        for rule in self.rules:
            if rule.policy_id == policy_id:
                return rule
        return None
