"""Closed-world program knowledge: unknown options are markers, families are bounded, help and
version only print, every network part has a direction, project-local tools are their tool."""

from __future__ import annotations

from typing import Any

import pytest

from clearance.shellparse import classify
from clearance.shellparse.classifier import only_prints
from clearance.shellparse.facts import SimpleCommandFacts
from clearance.shellparse.knowledge import all_programs
from clearance.shellparse.spec import Spec

WS = "/work/proj"
HOME = "/home/u"
PROBE = "--clearance-probe-option"


def parts(command: str) -> list[SimpleCommandFacts]:
    return classify(command, cwd=WS, home=HOME, workspace=WS).commands


def part(command: str, program: str | None = None) -> SimpleCommandFacts:
    found = parts(command)
    if program is None:
        return found[0]
    return next(p for p in found if p.program == program)


# --- the marker --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "program"),
    [
        ("ls --frobnicate", "ls"),
        ("grep --pre-evil x f", "grep"),
        ("cat -Z f", "cat"),
        ("git describe --frob", "git"),
        ("kubectl get pods --raw-evil", "kubectl"),
        ("gh pr list --evil", "gh"),
        ("timeout --frob 5 ls", "timeout"),
        ("find . -name x -fevil y", "find"),
        ("uname --evil", "uname"),
        ("ps --evil", "ps"),
        ("aws --endpoint-url https://evil.example s3 ls", "aws"),
    ],
)
def test_an_option_the_table_does_not_know_is_a_marker(command: str, program: str) -> None:
    assert "unknown_option" in part(command, program).markers


@pytest.mark.parametrize(
    "command",
    [
        "ls --color=auto -la",
        "grep -rn --color=always TODO src",
        "kill -9 123",
        "kill -KILL 1",
        "kill -15 1",
        "seq -5 5",
        "set -euo pipefail",
        "[ -f package.json ]",
        "test -d build",
        "echo -n hi",
        "read -r line",
        "uname -a",
        "ps aux",
        "ps -ef",
        "ss -tulpn",
        "chmod -x scripts/old.sh",
        "find . -name '*.py' -newermt 2024-01-01 -print",
        "git rev-parse --abbrev-ref HEAD",
        "gh pr list --state open --limit 5 --json number,title",
        "terraform plan -out=tfplan -no-color",
        "docker logs --tail 50 app",
        "readlink -f .",
        "sha256sum -c sums.txt",
        "comm -23 a b",
    ],
)
def test_known_options_and_families_carry_no_marker(command: str) -> None:
    for p in parts(command):
        assert "unknown_option" not in p.markers, (p.argv, p.options)


def test_a_family_may_not_mean_anything_goes() -> None:
    for pattern in ("-*", "--*", "-?*", "*", "--[a-z]*", "-[a-zA-Z]*"):
        with pytest.raises(ValueError):
            Spec("x", families=pattern).in_family("--color")
    spec = Spec("x", families="--color* -[0-9]*")
    assert spec.in_family("--color") and spec.in_family("--colour") is False
    assert spec.in_family("-9") and not spec.in_family("-x")


def test_every_family_in_the_tables_is_bounded() -> None:
    for name, spec in _every_spec():
        spec.in_family("--clearance-probe")  # raises ValueError on an unbounded family
        assert not spec.in_family(PROBE), name


def _every_spec() -> list[tuple[str, Spec]]:
    out: list[tuple[str, Spec]] = []
    seen: set[int] = set()
    for name, spec in sorted(all_programs().items()):
        if id(spec) not in seen:
            seen.add(id(spec))
            out.append((name, spec))
    return out


@pytest.mark.parametrize(
    ("name", "spec"), _every_spec(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_every_table_entry_is_closed_world(name: str, spec: Spec) -> None:
    """An option no table lists is never silently known: it is a marker on the part, or the
    program is one whose words are not options (``echo``'s text, ``test``'s expression) or
    whose handler reads them (and reports what it does not know)."""
    if spec.own_options:
        assert spec.handler is not None or name in OWN_WORDS, name
        return
    if spec.subcommands is not None and spec.default is not None:
        return  # the probe is read as a subcommand's option: covered below
    facts = [p for p in parts(f"{name} {PROBE} x") if p.program_raw == name]
    assert facts, name
    fact = facts[0]
    assert "unknown_option" in fact.markers or "unknown_program" in fact.markers, (
        name,
        sorted(fact.markers),
    )


#: Programs whose words are not options at all.
OWN_WORDS = frozenset((":", "true", "false", "test", "[", "echo", "let", "expr"))


@pytest.mark.parametrize(
    "command",
    [
        "git log --evil",
        "kubectl apply --evil -f x.yaml",
        "docker run --evil img",
        "gh repo view --evil",
    ],
)
def test_subcommand_options_are_closed_world_too(command: str) -> None:
    assert any("unknown_option" in p.markers for p in parts(command))


# --- help and version --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "spec"), _every_spec(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_help_and_version_only_print(name: str, spec: Spec) -> None:
    for flag in ("--help", "--version"):
        fact = next(p for p in parts(f"{name} {flag}") if p.program_raw == name)
        if not spec.prints_help or "unknown" in spec.classes:
            assert fact.classes != {"read_only"} or "read_only" in spec.classes, name
            continue
        assert fact.classes == {"read_only"}, (name, flag, fact.classes)


@pytest.mark.parametrize(
    "command",
    [
        "kubectl --help",
        "kubectl get pods --help",
        "gh pr list --help",
        "cargo help build",
        "npm help",
        "rm --help",
        "sudo --help",
        "python3 --version",
        "terraform -version",
        "docker version --help",
    ],
)
def test_help_is_read_only(command: str) -> None:
    first = parts(command)[0]
    assert first.classes == {"read_only"}, first.classes


@pytest.mark.parametrize(
    ("command", "program"),
    [
        ("shutdown -h", "shutdown"),  # -h halts
        ("fsck -V", "fsck"),  # verbose, and checks every file system
        ("make help", "make"),  # a target the Makefile defines
        ("docker run img --help", "docker"),  # --help goes to the container's command
        ("timeout 5 rm -rf x --help", "rm"),
        ("sudo -h", "sudo"),  # sudo's -h is --host
        ("ls -h", "ls"),  # --human-readable: lists the directory
        ("cat --help /etc/shadow", "cat"),  # a path among the words: not a help request alone
    ],
)
def test_the_exceptions_are_known(command: str, program: str) -> None:
    fact = part(command, program)
    if program == "cat":
        assert any(p.resolved == "/etc/shadow" for p in fact.paths)
        return
    if program == "ls":
        assert fact.options == ["--human-readable"]
        return
    assert fact.classes != {"read_only"}, fact.classes


def test_only_prints_reads_the_table() -> None:
    spec = Spec("x", flags="-h/--human-readable")
    assert not only_prints(spec, ["-h"])
    assert only_prints(spec, ["--version"])
    assert only_prints(Spec("y"), ["-h"])
    assert not only_prints(Spec("y", prints_help=False), ["--help"])


# --- network direction -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        "curl https://example.com",
        "curl -sSL http://localhost:3000/health",
        "wget https://example.com/a.tgz",
        "gh pr list",
        "gh issue view 12 --comments",
        "gh api repos/o/r/pulls",
        "gh auth status",
        "glab mr list",
        "kubectl get pods -A",
        "kubectl logs deploy/api",
        "kubectl apply -f k.yaml --dry-run=client",
        "helm list -A",
        "helm upgrade x ./chart --dry-run",
        "aws s3 ls",
        "aws secretsmanager list-secrets",
        "gcloud compute instances list",
        "az vm list -g rg",
        "terraform plan",
        "git fetch origin",
        "git pull",
        "docker pull alpine",
        "dig example.com",
        "ping -c 1 example.com",
    ],
)
def test_network_reads(command: str) -> None:
    net = [p for p in parts(command) if "network" in p.classes]
    assert net, command
    for p in net:
        assert "network_read" in p.classes and "network_write" not in p.classes, p.classes


@pytest.mark.parametrize(
    "command",
    [
        "curl -d @notes.txt https://example.com",
        "curl -X POST https://example.com",
        "curl -T f ftp://example.com/",
        "curl gopher://127.0.0.1:6379/_SET",
        "curl --frob https://example.com",
        "wget --post-file=notes.txt https://example.com",
        "gh pr create --title x --body y",
        "gh pr merge 12 --squash",
        "gh api -X POST repos/o/r/issues -f title=x",
        "gh api repos/o/r/issues -f title=x",
        "kubectl apply -f k.yaml",
        "kubectl delete pod x",
        "kubectl exec -it pod -- sh",
        "kubectl apply -f k.yaml --dry-run=server",
        "helm install x ./chart",
        "aws s3 cp notes.txt s3://bucket/",
        "aws s3api put-object --bucket b --key k --body fileb://notes.txt",
        "terraform apply -auto-approve",
        "git push origin main",
        "ssh host uptime",
        "nc example.com 80",
        "echo hi > /dev/tcp/example.com/80",
        "mvn deploy",
        "./gradlew publish",
        "hatch publish",
    ],
)
def test_network_writes(command: str) -> None:
    net = [p for p in parts(command) if "network" in p.classes]
    assert net, command
    assert any("network_write" in p.classes for p in net), [sorted(p.classes) for p in net]
    for p in net:
        assert ("network_read" in p.classes) != ("network_write" in p.classes), p.classes


@pytest.mark.parametrize(
    ("command", "secret"),
    [
        ("aws secretsmanager get-secret-value --secret-id db", True),
        ("gcloud secrets versions access latest --secret=db", True),
        ("az keyvault secret show --name db --vault-name v", True),
        ("gcloud auth print-access-token", True),
        ("aws ecr get-login-password", True),
        ("kubectl get secret db -o yaml", True),
        ("gh auth token", True),
        ("terraform output -raw db_password", True),
        ("aws secretsmanager list-secrets", False),
        ("aws secretsmanager describe-secret --secret-id db", False),
        ("az keyvault secret list --vault-name v", False),
        ("gh auth status", False),
        ("gh secret list", False),
        ("aws sts get-caller-identity", False),
    ],
)
def test_secrets_over_the_network_and_their_metadata(command: str, secret: bool) -> None:
    assert ("secret_read" in parts(command)[0].classes) is secret


def test_every_network_part_of_the_corpus_has_one_direction(corpus: Any) -> None:
    for line in corpus.commands[::10]:
        for p in parts(line):
            if p.classes & {"network", "network_read", "network_write"}:
                assert "network" in p.classes, (line, p.classes)
                assert ("network_read" in p.classes) != ("network_write" in p.classes), (
                    line,
                    p.classes,
                )


# --- project-local tools -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "program", "classes"),
    [
        ("./gradlew build", "gradle", {"build"}),
        ("./mvnw -q test", "mvn", {"build"}),
        ("node_modules/.bin/jest --ci", "jest", {"test"}),
        ("./node_modules/.bin/tsc --noEmit", "tsc", {"build"}),
        (".venv/bin/pytest -q", "pytest", {"test"}),
        ("vendor/bin/phpunit", "phpunit", {"test"}),
    ],
)
def test_project_local_tool_paths_are_their_tool(
    command: str, program: str, classes: set[str]
) -> None:
    fact = parts(command)[0]
    assert fact.program == program
    assert fact.classes == classes
    assert not any(p.access == "exec" for p in fact.paths)


@pytest.mark.parametrize(
    "command",
    [
        "/tmp/x/node_modules/.bin/jest",  # outside the workspace
        "../other/node_modules/.bin/jest",
        "./node_modules/.bin/not-a-known-tool",
        "./scripts/gradlew2 build",
    ],
)
def test_other_local_paths_stay_code(command: str) -> None:
    assert "code_exec" in parts(command)[0].classes


# --- unknown programs ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command", ["frobnicate /", "frobnicate -rf /", "frobnicate ~", "frob --delete /"]
)
def test_an_unknown_program_is_not_a_deleter(command: str) -> None:
    fact = parts(command)[0]
    assert "unknown_program" in fact.markers
    assert "delete" not in fact.classes
    assert all(p.access == "unknown" for p in fact.paths)


@pytest.mark.parametrize(
    ("command", "reads"),
    [
        # what people type to look at the network, each with the command that changes it
        ("ip a", True),
        ("ip addr add 10.0.0.2/24 dev eth0", False),
        ("ip -br -c addr show", True),
        ("ip -br addr flush dev eth0", False),
        ("ip route", True),
        ("ip route replace default via 10.0.0.1", False),
        ("ip -4 route get 1.1.1.1", True),
        ("ip route del default", False),
        ("ip -j -p link show eth0", True),
        ("ip link set eth0 down", False),
        ("ip neigh", True),
        ("ip neigh flush all", False),
        ("ip netns list", True),
        ("ip netns exec blue sh -c id", False),
        ("ip monitor all", True),
        ("ip -batch commands.txt", False),  # a file of commands: any of them
        ("ip -n blue link", True),
        ("ip -n blue link set lo up", False),
        ("ip link eth0", False),  # not a command ip knows: not read
        ("ip nosuchobject", False),
        ("ifconfig", True),
        ("ifconfig -a", True),
        ("ifconfig eth0", True),
        ("ifconfig eth0 down", False),
        ("ifconfig eth0 10.0.0.2 netmask 255.255.255.0", False),
        ("ifconfig $IFACE", False),  # not known before it runs
        ("route -n", True),
        ("route add default gw 10.0.0.1", False),
        ("route -n get default", True),
        ("route flush", False),
        ("arp -an", True),
        ("arp -s 10.0.0.9 00:11:22:33:44:55", False),
        ("arp -d 10.0.0.9", False),
    ],
)
def test_network_tools_read_or_configure(command: str, reads: bool) -> None:
    """``ip``, ``ifconfig``, ``route`` and ``arp`` print the network's state with some
    arguments and change it with others: each printing form has a configuring twin."""
    found = part(command)
    if reads:
        assert found.classes == {"read_only"} and not found.markers, (command, found.classes)
    else:
        assert found.classes & {"system", "code_exec"} or found.markers, (command, found.classes)
