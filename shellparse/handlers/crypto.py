"""Handlers of ``knowledge/crypto.yaml``: gpg without an operation."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from clearance.shellparse.facts import HandlerCall


def gpg(call: HandlerCall) -> None:
    """gpg without an operation guesses one from its input -- decrypting, usually -- so it
    may read with the secret key: a secret read (``knowledge/crypto.yaml``)."""
    fact, parsed = call.fact, call.parsed
    if not any(opt is not None and opt.adds for opt, _, _ in parsed.options):
        fact.classes.add("secret_read")


def ssh_keygen(call: HandlerCall) -> None:
    """ssh-keygen by mode: fingerprints, hashes and lookups (``-l -B -F -L -Y verify``) read
    (a key file's fingerprint is its metadata, not the key); printing the public half of a
    private key (``-y``), signing (``-s``, ``-Y sign``) use the secret key: secret reads;
    changing a passphrase or comment (``-p -c``) rewrites the key and removing a host
    (``-R``) rewrites ``known_hosts``: writes (system); anything else generates a key into
    ``-f`` (``~/.ssh`` by default): a write."""
    fact, parsed = call.fact, call.parsed
    names = {spelling for _, spelling, _ in parsed.options}
    values = {spelling: value for _, spelling, value in parsed.options if value is not None}
    key = values.get("-f")
    sign = values.get("-Y", "")
    if names & {"-l", "-B", "-F", "-L", "-H"} or sign in (
        "verify",
        "check-novalidate",
        "find-principals",
        "match-principals",
    ):
        fact.classes.add("read_only")
        if key:
            call.add_path(key, "read", source="option", meta=True)
    elif names & {"-y", "-s", "-e", "-i", "-m"} or sign == "sign":
        fact.classes.add("secret_read")
        if key:
            call.add_path(key, "read", source="option")
    elif names & {"-p", "-c", "-R", "-u", "-k", "-A"}:
        fact.classes.update(("write", "system"))
        if key:
            call.add_path(key, "write", source="option")
    else:
        fact.classes.add("write")
        call.add_path(key or "~/.ssh", "write", source="option")


#: The handlers the tables may name (``handler: crypto.NAME``), by name: the registry
#: ``clearance.shellparse.handlers.resolve`` reads.
# fmt: off
HANDLERS: Final = {f.__name__: f for f in (
    gpg, ssh_keygen,
)}
# fmt: on
