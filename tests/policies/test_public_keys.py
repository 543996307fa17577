"""Public material is for giving away. Reading a public key in ``~/.ssh`` is no secret read;
a glob that can only name public keys (``~/.ssh/id_*.pub``) is judged by what it expands to
here; a link named like one that leads to a private key is the key it leads to, and the rest of
``~/.ssh`` (private keys, ``config``, ``known_hosts``) stays secret. ``openssl x509`` (and
``verify``, ``crl``) print their input only as a certificate, never as a key: a ``.pem`` it
reads is judged by its name; the tools that print keys (``asn1parse``, ``rsa``, ``pkey``, ``cat``)
read it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from workspace_support import World, decide_in, default_pack, make_world

from clearance.engine.api import decide
from clearance.engine.intents import ToolIntent
from clearance.engine.rules import PolicySet


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    home_files = {
        ".ssh/id_ed25519": "PRIVATE\n",
        ".ssh/id_ed25519.pub": "ssh-ed25519 AAAA me\n",
        ".ssh/config": "Host x\n",
    }
    files = {
        "README.md": "x\n",
        "cert.pem": "-----BEGIN CERTIFICATE-----\nx\n",
        "key.pem": "-----BEGIN PRIVATE KEY-----\nx\n",
    }
    found = make_world(tmp_path_factory.mktemp("keys"), files, home_files)
    os.symlink("id_ed25519", os.path.join(found[1], ".ssh", "disguised.pub"))
    return found


@pytest.fixture(scope="module")
def policy(world: World) -> PolicySet:
    return default_pack(world)


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("cat ~/.ssh/id_ed25519.pub", "allow"),
        # a glob every expansion of which is a public key's name, today and any day
        ("cat ~/.ssh/id_*.pub", "allow"),
        ("ssh-keygen -l -f ~/.ssh/id_*.pub", "allow"),
        # its twins: today it also expands to the disguised link, or it could match a key
        ("cat ~/.ssh/*.pub", "deny"),
        ("cat ~/.ssh/id_*", "deny"),
        ("cat ~/.ssh/id_*.pu?", "deny"),
        ("ssh-keygen -l -f ~/.ssh/id_ed25519.pub", "allow"),
        ("cat ~/.ssh/id_ed25519", "deny"),
        ("cat ~/.ssh/disguised.pub", "deny"),
        ("cat ~/.ssh/config", "deny"),
        ("cp ~/.ssh/id_ed25519 /tmp/k.pub", "deny"),
        ("tar czf k.tgz ~/.ssh", "deny"),
    ],
)
def test_public_keys_and_their_twins(
    policy: PolicySet, world: World, command: str, expected: str
) -> None:
    assert decide_in(policy, world, command).decision == expected


def test_the_read_tool(policy: PolicySet, world: World) -> None:
    workspace, home = world

    def read(name: str) -> str:
        intent = ToolIntent("Read", {"file_path": str(Path(home) / ".ssh" / name)})
        return decide(intent, policy, cwd=workspace, workspace=workspace, home=home).decision

    assert read("id_ed25519.pub") == "allow"
    assert read("id_ed25519") == "deny"
    assert read("disguised.pub") == "deny"


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("openssl x509 -in cert.pem -noout -text", "allow"),
        ("openssl x509 -in cert.pem -noout -subject -dates", "allow"),
        ("openssl verify -CAfile cert.pem cert.pem", "allow"),
        # the twins: what prints a key, or signs with one
        ("openssl asn1parse -in key.pem", "deny"),
        ("openssl rsa -in key.pem -text", "deny"),
        ("openssl pkey -in key.pem", "deny"),
        ("cat cert.pem", "deny"),
        ("openssl x509 -in cert.pem -signkey key.pem -out new.pem", "deny"),
    ],
)
def test_certificates_are_printed_as_certificates(
    policy: PolicySet, world: World, command: str, expected: str
) -> None:
    assert decide_in(policy, world, command).decision == expected
