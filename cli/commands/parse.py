"""``clearance parse``: print the facts of a command line, or of a batch of them."""

from __future__ import annotations

import json
import os
import sys

from clearance.vocab import ParseExit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.shellparse.facts import CommandFacts

EXIT_OK, EXIT_NOT_PARSED, EXIT_USAGE = ParseExit.OK, ParseExit.NOT_PARSED, ParseExit.USAGE


def render_human(facts: CommandFacts) -> str:
    lines: list[str] = []
    if facts.error is not None:
        lines.append(f"parse error [{facts.error.code}] at {facts.error}")
    if facts.markers:
        lines.append("markers: " + ", ".join(sorted(facts.markers)))
    if not facts.commands:
        lines.append("no commands")
    for i, command in enumerate(facts.commands, 1):
        head = " ".join(json.dumps(a) if (" " in a or not a) else a for a in command.argv)
        lines.append(f"{i}. {head or '(redirections only)'}")
        detail = [f"program={command.program or '-'}"]
        if command.subcommand:
            detail.append(f"subcommand={command.subcommand}")
        detail.append("classes=" + (",".join(sorted(command.classes)) or "-"))
        if command.markers:
            detail.append("markers=" + ",".join(sorted(command.markers)))
        lines.append("   " + " ".join(detail))
        if command.via:
            lines.append("   via: " + " > ".join(command.via))
        if command.context:
            lines.append("   context: " + ", ".join(command.context))
        for path in command.paths:
            where = {True: "inside", False: "outside", None: "unknown location"}[
                path.inside_workspace
            ]
            lines.append(f"   {path.access}: {path.path} -> {path.resolved or '?'} ({where})")
        for redirect in command.redirects:
            lines.append(
                f"   redirect {redirect.fd or ''}{redirect.op} {redirect.target or ''}"
                f" ({redirect.mode})"
            )
        if command.hosts:
            lines.append("   hosts: " + ", ".join(command.hosts))
    return "\n".join(lines)


def batch_record(facts: CommandFacts) -> dict[str, object]:
    return {
        "ok": facts.ok,
        "error": None if facts.error is None else facts.error.to_dict(),
        "commands": [
            {
                "argv": c.argv,
                "program": c.program,
                "classes": sorted(c.classes),
                "markers": sorted(c.markers),
            }
            for c in facts.commands
        ],
    }


def run_parse(
    command: str | None,
    *,
    as_json: bool,
    cwd: str | None,
    batch: str | None,
    workspace: str | None = None,
) -> int:
    from clearance.shellparse import classify

    if batch is not None:
        try:
            if batch == "-":
                source = sys.stdin.read()
            else:
                with open(batch, encoding="utf-8", errors="surrogateescape") as fh:
                    source = fh.read()
        except OSError as exc:
            sys.stderr.write(f"clearance parse: cannot read {batch}: {exc.strerror}\n")
            return EXIT_USAGE
        out = sys.stdout
        lines = source.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        for line in lines:
            facts = classify(line, cwd=cwd, workspace=workspace)
            out.write(json.dumps(batch_record(facts), ensure_ascii=False) + "\n")
        return EXIT_OK
    if command is None:
        sys.stderr.write("clearance parse: give a COMMAND or --batch FILE\n")
        return EXIT_USAGE
    if cwd is not None and not os.path.isdir(cwd):
        sys.stderr.write(f"clearance parse: --cwd {cwd}: not a directory\n")
        return EXIT_USAGE
    facts = classify(command, cwd=cwd, workspace=workspace)
    if as_json:
        sys.stdout.write(json.dumps(facts.to_dict(), ensure_ascii=False, indent=2) + "\n")
    else:
        sys.stdout.write(render_human(facts) + "\n")
    return EXIT_OK if facts.ok else EXIT_NOT_PARSED
