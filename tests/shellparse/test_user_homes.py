"""``~user``: another user's home, looked up in this machine's user database when the facts
come from the machine, and not known when only the text is judged (policy examples)."""

from __future__ import annotations

import pwd

from clearance.shellparse import classify
from clearance.shellparse.expand import Env

ROOT_HOME = pwd.getpwnam("root").pw_dir


def _paths(command: str, *, resolve: bool) -> list[tuple[str, str | None]]:
    facts = classify(command, cwd="/work/proj", home="/home/u", resolve=resolve)
    return [(p.path, p.resolved) for c in facts.commands for p in c.paths]


def test_a_known_user_is_resolved_on_the_machine() -> None:
    paths = _paths("cat ~root/.ssh/id_rsa", resolve=True)
    assert paths and paths[0][1] == ROOT_HOME.rstrip("/") + "/.ssh/id_rsa"
    markers = classify("cat ~root/x", cwd="/work/proj", home="/home/u").commands[0].markers
    assert "tilde" in markers


def test_the_text_alone_does_not_know_another_home() -> None:
    assert _paths("cat ~root/.ssh/id_rsa", resolve=False)[0][1] is None


def test_a_user_that_does_not_exist_stays_unknown() -> None:
    assert _paths("cat ~no-such-user-here/x", resolve=True)[0][1] is None


def test_home_of_looks_up_once_and_only_plain_names() -> None:
    homes: dict[str, str | None] = {}
    env = Env("/home/u", "/work/proj", homes=homes)
    assert env.home_of("root") == ROOT_HOME
    assert env.copy().home_of("no-such-user-here") is None
    assert homes == {"root": ROOT_HOME, "no-such-user-here": None}  # shared by copies
    assert env.home_of("a b") is None and env.home_of("-x") is None
    assert "a b" not in homes
    assert Env("/home/u", "/work/proj").home_of("root") is None
