"""The canonical argv of a part: what ``argv`` patterns match.

Programs with subcommands take global options before them (``git -C dir push``,
``terraform -chdir=x destroy``, ``docker --context c rm``, ``kubectl -n ns delete``,
``npm --prefix p install``). Matched against argv as written, ``terraform destroy **`` would
miss ``terraform -chdir=x destroy``. The canonical form takes out the options that stand
before each subcommand word -- exactly the walk the classifier makes to find the part's
``subcommand`` (the same tables, the same option parser) -- and keeps everything after the
last subcommand word as written: ``terraform destroy``, ``git push --force``.

Programs without subcommands are unchanged (their options are the command's own).
"""

from __future__ import annotations

from clearance.shellparse.knowledge import lookup
from clearance.shellparse.options import parse_program_args

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.shellparse.spec import Spec


def canonical_argv(program: str | None, argv: list[str]) -> list[str] | None:
    """``[program, sub…, rest…]`` without the options before each subcommand word; ``None``
    when it is the same as argv as written (nothing to take out)."""
    if program is None or len(argv) < 3:
        return None
    for arg in argv[1:-1]:
        if arg.startswith("-") and len(arg) > 1:
            break
    else:
        return None  # no option stands before a later word: nothing to take out
    spec = lookup(program)
    if spec is None or spec.subcommands is None:
        return None
    out = [program]
    args = argv[1:]
    removed = False
    current: Spec | None = spec
    while current is not None and current.subcommands is not None:
        parsed = parse_program_args(current, args, stop_at_operand=True)
        if parsed.rest_index >= len(args):
            break  # no subcommand follows: the options are the command's own, kept
        if parsed.rest_index > 0:
            removed = True
        name = args[parsed.rest_index]
        out.append(name)
        args = args[parsed.rest_index + 1 :]
        current = current.subcommands.get(name) or current.default
    if not removed:
        return None
    out.extend(args)
    return out
