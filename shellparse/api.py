"""``classify``: a bash command line in, ``CommandFacts`` out -- never an exception."""

from __future__ import annotations

import os
import re

from clearance.shellparse.classifier import network_direction
from clearance.shellparse.errors import ParseError
from clearance.shellparse.expand import Env
from clearance.shellparse.extract import AnalysisBudget, Extractor, Scope, unknown_reads
from clearance.shellparse.facts import CommandFacts, SimpleCommandFacts
from clearance.shellparse.parser import parse
from clearance.shellparse.paths import absolute
from clearance.shellparse.resolve import Resolver, case_insensitive

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

_FALLBACK_SPLIT: Final = re.compile(r"""(?:"(?:\\.|[^"\\])*"?|'[^']*'?|[^\s;&|()"']+)+|[;&|()\n]""")


def classify(
    command: str,
    *,
    cwd: str | None = None,
    home: str | None = None,
    workspace: str | None = None,
    resolve: bool = True,
) -> CommandFacts:
    """The facts of ``command`` run in ``cwd`` by a user whose home is ``home``.

    ``workspace`` (default: ``cwd``; ``""``: there is none, the cwd belongs to no project) is
    the directory the agent may work in; every path is marked inside or outside it.
    ``resolve``: check the paths against this machine's file system (globs expanded, links
    resolved, trees searched; see ``resolve``), as the hook and ``check`` do; off, the facts
    come from the text alone (policy examples, which must mean the same on every machine).
    A text that does not parse still yields facts: ``ok`` is false, ``error`` says why, and
    the commands of a best-effort split carry ``parse_error`` so that deny rules still see
    them.
    """
    cwd = absolute(cwd or os.getcwd())
    home = home or os.path.expanduser("~")
    root = None if workspace == "" else absolute(workspace or cwd)
    result = parse(command)
    facts = CommandFacts(command, [], result.error, cwd, root)
    resolver = None
    fold = False
    if resolve:
        resolver = Resolver()
        fold = case_insensitive(root or cwd)
    extractor = Extractor(command, root, home, cwd=cwd, resolver=resolver, fold=fold)
    # ``~user`` is a fact of the machine's user database, looked up only when resolving
    homes: dict[str, str | None] | None = {} if resolve else None
    if result.script is None:
        facts.markers.add("parse_error")
        facts.commands = _fallback(command, extractor, Env(home, cwd, homes=homes))
        if result.error is not None and result.error.code == "input_too_large":
            facts.markers.add("too_large")
            for fact in facts.commands:
                fact.markers.add("too_large")
        return facts
    try:
        extractor.script(result.script, Env(home, cwd, homes=homes), Scope())
    except AnalysisBudget as exc:
        facts.error = ParseError.at(command, "input_too_large", str(exc), 0)
        facts.markers.add("too_large")
    except RecursionError:
        facts.error = ParseError.at(command, "depth_limit", "nesting is too deep to analyse", 0)
        facts.markers.add("depth_limit")
    except Exception as crash:  # a bug: reported as an error value, never as clean facts
        facts.error = ParseError.at(
            command, "internal_error", f"internal analysis error: {crash!r}", 0
        )
        facts.markers.add("parse_error")
    facts.commands = extractor.out
    for fact in facts.commands:
        network_direction(fact)
        unknown_reads(fact)
    if facts.error is not None:
        for fact in facts.commands:
            fact.markers.add("parse_error")
            if "too_large" in facts.markers:
                fact.markers.add("too_large")
    return facts


def _fallback(command: str, extractor: Extractor, env: Env) -> list[SimpleCommandFacts]:
    """Commands of a text that does not parse, split on operators, quotes taken off."""
    chunks: list[list[str]] = [[]]
    for m in _FALLBACK_SPLIT.finditer(command[:20000]):
        token = m.group()
        if token in ";&|()\n":
            if chunks[-1]:
                chunks.append([])
            continue
        chunks[-1].append(re.sub(r"""["'\\]""", "", token))
    out: list[SimpleCommandFacts] = []
    for argv in chunks[:200]:
        fact = SimpleCommandFacts(argv, command, 0, len(command))
        fact.markers.add("parse_error")
        if argv:
            try:
                extractor.classifier.classify(fact, argv, [0] * len(argv), env)
            except Exception:
                fact.classes.add("unknown")
            network_direction(fact)
        else:
            fact.classes.add("unknown")
        out.append(fact)
    return out
