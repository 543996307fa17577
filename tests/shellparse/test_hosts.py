"""Hosts in one spelling: an address in every form the C resolver and curl take, so that a
rule naming a host names each way of writing it."""

from __future__ import annotations

import pytest

from clearance.shellparse import classify
from clearance.shellparse.classifier import canonical_host


@pytest.mark.parametrize(
    ("written", "host"),
    [
        ("2852039166", "169.254.169.254"),
        ("0xa9fea9fe", "169.254.169.254"),
        ("0XA9FEA9FE", "169.254.169.254"),
        ("0251.0376.0251.0376", "169.254.169.254"),
        ("169.254.43518", "169.254.169.254"),
        ("169.16689662", "169.254.169.254"),
        ("[::ffff:a9fe:a9fe]", "169.254.169.254"),
        ("[::ffff:169.254.169.254]", "169.254.169.254"),
        ("[FD00:EC2:0:0::254]", "fd00:ec2::254"),
        ("Metadata.Google.Internal.", "metadata.google.internal"),
        ("127.1", "127.0.0.1"),
        ("0", "0.0.0.0"),
        # not addresses: kept as written (lower case)
        ("256.1.1.1", "256.1.1.1"),
        ("08.1.1.1", "08.1.1.1"),
        ("1.2.3.4.5", "1.2.3.4.5"),
        ("0x", "0x"),
        ("4294967296", "4294967296"),
        ("Example.COM", "example.com"),
        ("[not:an:address]", "not:an:address"),
    ],
)
def test_canonical_host(written: str, host: str) -> None:
    assert canonical_host(written) == host


@pytest.mark.parametrize(
    ("command", "hosts"),
    [
        ("curl http://2852039166/latest/meta-data/", ["169.254.169.254"]),
        ("wget -qO- 'http://[::ffff:169.254.169.254]/'", ["169.254.169.254"]),
        # a URL without a scheme is an HTTP one
        ("curl metadata.google.internal./computeMetadata/v1/", ["metadata.google.internal"]),
        ("curl localhost:3000/api", ["localhost"]),
        ("curl --url 0x7f000001:8080/x", ["127.0.0.1"]),
    ],
)
def test_the_host_a_client_contacts(command: str, hosts: list[str]) -> None:
    (part,) = classify(command, cwd="/work/proj", home="/home/u", resolve=False).commands
    assert part.hosts == hosts
