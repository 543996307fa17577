"""Handlers of ``knowledge/crypto.py``: gpg without an operation."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.shellparse.facts import HandlerCall


def gpg(call: HandlerCall) -> None:
    """gpg without an operation guesses one from its input -- decrypting, usually -- so it
    may read with the secret key: a secret read (``knowledge.crypto``)."""
    fact, parsed = call.fact, call.parsed
    if not any(opt is not None and opt.adds for opt, _, _ in parsed.options):
        fact.classes.add("secret_read")
