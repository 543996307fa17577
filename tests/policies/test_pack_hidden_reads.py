"""The default pack against readers that print a file or the environment in a form the
tables missed, each with a benign twin that stays allowed: ``jq -n`` still reads its files
(``input``, ``inputs``), ``git archive TREE PATH`` writes the committed content of PATH, and
``systemctl show-environment`` prints the service manager's environment as ``env`` prints the
shell's, ``docker inspect`` a container's or an image's (unless its ``--format`` template picks
fields outside it), and a raw disk or the machine's memory holds every file and key on it.
"""

from __future__ import annotations

import pytest
from pack_support import check_distinct, check_twin, pack_policy  # noqa: F401  (the fixture)

from clearance.engine.rules import PolicySet

SECRETS = "default/no-secret-reads"

#: (technique, malicious command, its decision, rule id or reason code, benign twin)
TWINS = [
    # --- raw disks and memory ----------------------------------------------------------------
    ("raw/disk", "strings /dev/sda", "deny", SECRETS, "ls -l /dev/disk/by-uuid"),
    ("raw/disk-copy", "dd if=/dev/nvme0n1 of=disk.img", "deny", SECRETS, "dd if=in.img of=out.img"),
    ("raw/kernel-memory", "xxd /proc/kcore", "deny", SECRETS, "cat /proc/meminfo"),
    ("raw/process-memory", "cat /proc/1/mem", "deny", SECRETS, "cat /proc/1/status"),
    ("raw/physical-memory", "head -c 4096 /dev/mem", "deny", SECRETS, "head -c 16 /dev/urandom"),
    # --- readers whose files hide behind an option -----------------------------------------------
    ("read/jq-null-input", "jq -n input ~/.netrc", "deny", SECRETS, "jq -n input data.json"),
    (
        "read/jq-null-inputs",
        "jq -Rn '[inputs]' ~/.aws/credentials",
        "deny",
        SECRETS,
        "jq -n '[inputs]' a.json b.json",
    ),
    ("read/git-archive-path", "git archive HEAD .env", "deny", SECRETS, "git archive HEAD src"),
    (
        "read/git-archive-dashes",
        "git archive --format=tar HEAD -- config/.env",
        "deny",
        SECRETS,
        "git archive -o dist/src.tar HEAD -- src",
    ),
    (
        "env/systemctl",
        "systemctl show-environment",
        "deny",
        SECRETS,
        "systemctl list-units --type=service",
    ),
    # --- compose fills the services' environment in from .env, env files and the shell
    ("env/compose-config", "docker compose config", "deny", SECRETS, "docker compose config -q"),
    ("env/compose-v1-config", "docker-compose config", "deny", SECRETS, "docker-compose ps"),
    ("env/podman-compose-config", "podman-compose config", "deny", SECRETS, "podman-compose logs"),
    (
        "env/compose-config-out",
        "docker compose -f prod.yml config -o resolved.yml",
        "deny",
        SECRETS,
        "docker compose -f prod.yml config --services",
    ),
    # --- a container's environment: docker inspect prints it, unless a template picks fields
    (
        "env/docker-inspect",
        "docker inspect web",
        "deny",
        SECRETS,
        "docker inspect -f '{{.State.Status}} {{json .NetworkSettings.Networks}}' web",
    ),
    ("env/container-inspect", "docker container inspect web", "deny", SECRETS, "docker ps -a"),
    ("env/image-inspect", "podman image inspect app:1", "deny", SECRETS, "podman images"),
    (
        "env/inspect-template-env",
        "docker inspect -f '{{range .Config.Env}}{{println .}}{{end}}' web",
        "deny",
        SECRETS,
        "docker inspect --format '{{.Config.Image}}' web",
    ),
    (
        "env/inspect-template-config",
        "docker inspect -f '{{json .Config}}' web",
        "deny",
        SECRETS,
        "docker inspect --type=network bridge",
    ),
    (
        "env/inspect-template-variable",
        "docker inspect -f '{{ $c := .Config }}{{ $c }}' web",
        "deny",
        SECRETS,
        "docker image inspect -f '{{.Id}}' app:1",
    ),
]


@pytest.mark.parametrize(
    ("technique", "bad", "decision", "why", "twin"), TWINS, ids=[t[0] for t in TWINS]
)
def test_evasion_and_twin(
    policy: PolicySet, technique: str, bad: str, decision: str, why: str, twin: str
) -> None:
    check_twin(policy, bad, decision, why, twin)


def test_techniques_are_distinct() -> None:
    check_distinct(TWINS)
