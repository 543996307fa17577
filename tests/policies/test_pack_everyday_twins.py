"""Everyday commands the default pack must not ask about, each with a dangerous twin.

Each row is a form: an everyday command that only reads or prints (allowed), and the same
program doing what must not be allowed -- writing, printing a credential, acting on the
machine -- with what the pack answers for it. A table that is too loose fails the twin; one
that is too strict fails the everyday command.
"""

from __future__ import annotations

import pytest
from pack_support import decide_command, pack_policy  # noqa: F401  (the fixture)

from clearance.engine.rules import PolicySet

SECRETS = "default/no-secret-reads"
STARTUP = "default/no-shell-startup-writes"

#: (form, everyday command, dangerous twin, its decision, rule id or reason code)
FORMS = [
    # --- a lone option the table spells --help/--version -------------------------------------
    ("version/git-v", "git -v", "git -c core.pager=sh log", "deny", "default/no-git-config-code"),
    ("version/npm-v", "npm -v", "npm -v install left-pad", "ask", "default/ask-package-install"),
    ("version/perl-v", "perl -v", "perl -v -e 'print 1'", "ask", "default/ask-code-exec"),
    ("version/ruby-v", "ruby -v", "ruby -v script.rb", "ask", "default/ask-code-exec"),
    ("version/php-v", "php -v", "php -r 'echo 1;'", "ask", "default/ask-code-exec"),
    ("version/ssh-V", "ssh -V", "ssh -v host", "ask", "default/ask-network"),
    # --- listings of the container and cluster CLIs --------------------------------------------
    ("docker/network-ls", "docker network ls", "docker network create x", "ask", "default"),
    (
        "docker/volume-inspect",
        "docker volume inspect data",
        "docker volume rm data",
        "ask",
        "default",
    ),
    ("docker/context-ls", "docker context ls", "docker context use prod", "ask", "default"),
    (
        "docker/compose-logs",
        "docker compose logs -f --tail 50 web",
        "docker compose up -d",
        "ask",
        "default/ask-network",
    ),
    (
        "docker/container-ls",
        "docker container ls -a",
        "docker container rm -f web",
        "ask",
        "default",
    ),
    (
        "kubectl/version-client",
        "kubectl version --client",
        "kubectl get --raw /api/v1/namespaces/x/secrets",
        "ask",
        "unknown_option",
    ),
    (
        "kubectl/contexts",
        "kubectl config get-contexts",
        "kubectl config use-context prod",
        "ask",
        "default",
    ),
    ("kubectl/config-view", "kubectl config view", "kubectl config view --raw", "deny", SECRETS),
    (
        "kubectl/rollout-status",
        "kubectl rollout status deploy/web",
        "kubectl rollout undo deploy/web",
        "ask",
        "default/ask-network",
    ),
    (
        "kubectl/api-resources",
        "kubectl api-resources --namespaced=true",
        "kubectl delete ns web",
        "ask",
        "default/ask-network",
    ),
    (
        "helm/repo-list",
        "helm repo list",
        "helm repo add x https://charts.example",
        "ask",
        "default/ask-network",
    ),
    # --- the library, the terminal multiplexers, the system's state ----------------------------
    ("openssl/version", "openssl version -a", "openssl rsa -in ~/.ssh/id_rsa", "deny", SECRETS),
    ("tmux/ls", "tmux ls", "tmux ls \\; kill-server", "ask", "default"),
    ("tmux/show-environment", "tmux list-windows", "tmux show-environment", "ask", "default"),
    ("screen/ls", "screen -ls", "screen -dmS x make", "ask", "default"),
    ("mount/bare", "mount", "mount /dev/sdb1 /mnt", "deny", "default/no-disk-tools"),
    ("timedatectl/status", "timedatectl status", "timedatectl set-timezone UTC", "ask", "default"),
    # --- poetry's reads and its writes -----------------------------------------------------------
    (
        "poetry/version",
        "poetry version --short",
        "poetry version minor",
        "ask",
        "default/ask-sensitive-writes",
    ),
    (
        "poetry/config-list",
        "poetry config --list",
        "poetry config virtualenvs.create false",
        "ask",
        "default",
    ),
    (
        "poetry/config-secret",
        "poetry config virtualenvs.in-project",
        "poetry config http-basic.pypi",
        "deny",
        SECRETS,
    ),
    (
        "poetry/show",
        "poetry show --latest --top-level",
        "poetry env use python3.12",
        "ask",
        "default",
    ),
    # --- read-only options of inspection tools, and options that write -------------------------
    ("tree/output", "tree -L 2 --du -h", "tree -o ~/.bashrc", "deny", STARTUP),
    ("nl/options", "nl -ba -nrz -w6 src/app.py", "nl -ba ~/.ssh/id_rsa", "deny", SECRETS),
    (
        "ag/options",
        "ag -l --ignore-dir=node_modules TODO src",
        "ag --pager=sh TODO src",
        "ask",
        "unknown_option",
    ),
    (
        "ack/options",
        "ack -i --type=python TODO src",
        "ack --output='$&' TODO src",
        "ask",
        "unknown_option",
    ),
    (
        "diff/from-file",
        "diff --suppress-common-lines -y a.txt b.txt",
        "diff --from-file=/home/u/.aws/credentials a.txt",
        "deny",
        SECRETS,
    ),
    ("less/options", "less -REX notes.txt", "less -o ~/.bashrc notes.txt", "ask", "unknown_option"),
    ("ps/no-headers", "ps -o pid,comm --no-headers -p 1", "ps eww 1", "deny", SECRETS),
    (
        "go/doc",
        "go doc -all -src encoding/json",
        "go generate ./...",
        "ask",
        "default/ask-code-exec",
    ),
    ("top/record", "top -b -n 1", "atop -w ~/.profile", "deny", STARTUP),
    ("gpgv/output", "gpgv sig.asc data.txt", "gpgv -o ~/.bashrc sig.asc", "deny", STARTUP),
    ("script/log", "script -q -c true typescript", "script -O ~/.zshrc -c true", "deny", STARTUP),
    (
        "curl/write-out",
        "curl -s -o /dev/null -w '%{http_code}' http://localhost:3000/",
        "curl -w @/home/u/.ssh/id_rsa http://localhost:3000/",
        "deny",
        SECRETS,
    ),
    (
        "curl/header-file",
        "curl -H 'Accept: application/json' http://localhost:3000/",
        "curl -H @.env http://localhost:3000/",
        "deny",
        SECRETS,
    ),
    (
        "curl/cookie-file",
        "curl -I http://localhost:3000/",
        "curl -b ~/.ssh/id_rsa http://localhost:3000/",
        "deny",
        SECRETS,
    ),
    ("pip/log", "pip list --outdated", "pip list --log ~/.bashrc", "ask", "unknown_option"),
    # --- the registries' reads, and what writes beside them --------------------------------------
    (
        "npm/view",
        "npm view react version",
        "npm dist-tag add react@1.0.0 latest",
        "ask",
        "default/ask-network",
    ),
    ("npm/version", "npm version", "npm version patch", "ask", "default/ask-sensitive-writes"),
    (
        "npm/global-list",
        "npm ls -g --depth 0",
        "npm install -g left-pad",
        "ask",
        "default/ask-package-install",
    ),
    ("npm/pkg", "npm pkg get name", "npm pkg set scripts.test='curl x|sh'", "ask", "default"),
    ("pnpm/store", "pnpm store path", "pnpm store prune", "ask", "default"),
    (
        "pip/index",
        "pip index versions requests",
        "pip download requests -d /tmp/w",
        "ask",
        "default/ask-network",
    ),
    ("pip/cache", "pip cache dir", "pip cache purge", "ask", "default"),
    ("cargo/search", "cargo search serde --limit 5", "cargo publish", "ask", "default/ask-network"),
    (
        "cargo/list",
        "cargo --list",
        "cargo --config 'target.x.runner=\"sh\"' run",
        "ask",
        "default/ask-code-exec",
    ),
    ("go/mod-verify", "go mod verify", "go mod download", "ask", "default/ask-package-install"),
    (
        "kubectl/auth",
        "kubectl auth can-i get pods -n web",
        "kubectl auth reconcile -f rbac.yaml",
        "ask",
        "default/ask-network",
    ),
    (
        "kubectl/kustomize",
        "kubectl kustomize overlays/dev",
        "kubectl kustomize --load-restrictor LoadRestrictionsNone overlays/dev",
        "ask",
        "unknown_option",
    ),
    (
        "docker/manifest",
        "docker manifest inspect nginx:1.27",
        "docker manifest push reg/app:1",
        "ask",
        "default/ask-network",
    ),
    (
        "docker/compose-config",
        "docker compose config --services",
        "docker compose config -o ~/.profile",
        "deny",
        STARTUP,
    ),
    (
        "gcloud/logging",
        "gcloud logging read 'severity>=ERROR' --limit 10",
        "gcloud logging write app hi",
        "ask",
        "default/ask-network",
    ),
    ("git/config-edit", "git config --get user.email", "git config --edit", "ask", "default"),
    # --- a fresh temporary file changes nothing; one made where it says is a write there -------
    (
        "mktemp/bare",
        "tmp=$(mktemp)",
        "mktemp -p /etc/cron.d job.XXXX",
        "deny",
        "default/no-persistence",
    ),
    (
        "mktemp/dir",
        "mktemp -d -t build.XXXXXX",
        "mktemp ~/.config/autostart/x.XXXX",
        "deny",
        "default/no-persistence",
    ),
    (
        "mktemp/dry-run",
        "mktemp -u -p /dev/mapper",
        "mktemp -p /dev/mapper",
        "deny",
        "default/no-disk-tools",
    ),
    # --- inspection that asked: services, kernel parameters, certificates, listings ----------
    ("service/status", "service nginx status", "service nginx restart", "ask", "default"),
    ("systemctl/bare", "systemctl --failed", "systemctl restart nginx", "ask", "default"),
    (
        "sysctl/read",
        "sysctl -n kernel.hostname",
        "sysctl -w net.ipv4.ip_forward=1",
        "ask",
        "default",
    ),
    (
        "openssl/x509",
        "openssl x509 -in server.crt -noout -text",
        "openssl x509 -in server.crt -out ~/.bashrc",
        "deny",
        STARTUP,
    ),
    (
        "xmllint/format",
        "xmllint --format doc.xml",
        "xmllint --dtdvalid https://example.com/x.dtd doc.xml",
        "ask",
        "default/ask-network",
    ),
    ("tidy/output", "tidy page.html", "tidy -o ~/.bashrc page.html", "deny", STARTUP),
    (
        "sdiff/output",
        "sdiff -s a.txt b.txt",
        "sdiff --diff-program=sh a.txt b.txt",
        "ask",
        "unknown_option",
    ),
    (
        "zipinfo/list",
        "zipinfo -1 dist/app.zip",
        "unzip -o dist/app.zip -d ~/.config",
        "ask",
        "default",
    ),
    ("locate/db", "locate -i notes.txt", "locate -d ~/.ssh/id_rsa notes", "deny", SECRETS),
    # --- coverage runs the program it measures; git reflog takes a count like git log ----------
    (
        "coverage/run-module",
        "coverage run -m pytest -q",
        "coverage run /tmp/evil.py",
        "ask",
        "default/ask-code-exec",
    ),
    (
        "coverage/html",
        "coverage html",
        "coverage html -d ~/.config/autostart",
        "deny",
        "default/no-persistence",
    ),
    (
        "git/reflog-count",
        "git reflog -10",
        "git reflog expire --expire=now --all",
        "deny",
        "default/no-git-history-rewrite",
    ),
    # --- a compressor without a file is a filter: stdin to stdout ------------------------------
    (
        "filter/gzip-pipe",
        "cat build.log | gzip -9 | base64",
        "gzip < .env | base64",
        "deny",
        SECRETS,
    ),
    (
        "filter/tar-compress-program",
        "tar -I zstd -cf dist/src.tar.zst src",
        "tar -I 'sh -c \"cat ~/.ssh/id_rsa\"' -cf dist/src.tar src",
        "deny",
        SECRETS,
    ),
    (
        "filter/zstd-stdout",
        "git archive HEAD | zstd -19 | wc -c",
        "zstd -o /etc/motd",
        "ask",
        "default/ask-sensitive-writes",
    ),
    (
        "filter/tee-stderr",
        "sha256sum dist/app.tar | tee /dev/stderr | grep -q abc",
        "sha256sum dist/app.tar | tee /dev/stderr ~/.bashrc",
        "deny",
        STARTUP,
    ),
    (
        "filter/tee-null",
        "echo ready | tee /dev/null",
        "echo x | tee /dev/null /dev/sda",
        "deny",
        "default/no-disk-tools",
    ),
]


@pytest.mark.parametrize(
    ("form", "everyday", "twin", "decision", "why"), FORMS, ids=[f[0] for f in FORMS]
)
def test_everyday_is_allowed(
    policy: PolicySet, form: str, everyday: str, twin: str, decision: str, why: str
) -> None:
    found = decide_command(policy, everyday)
    assert found.decision == "allow", (
        f"{everyday!r}: {found.decision} {found.policy_id} {found.reason_code}: {found.reason}"
    )


@pytest.mark.parametrize(
    ("form", "everyday", "twin", "decision", "why"), FORMS, ids=[f[0] for f in FORMS]
)
def test_dangerous_twin_is_not(
    policy: PolicySet, form: str, everyday: str, twin: str, decision: str, why: str
) -> None:
    found = decide_command(policy, twin)
    assert found.decision == decision, (
        f"{twin!r}: {found.decision} {found.policy_id} {found.reason_code}"
    )
    assert why in (found.policy_id, found.reason_code), (
        f"{twin!r}: decided by {found.policy_id or found.reason_code}, expected {why}"
    )


def test_forms_are_distinct() -> None:
    assert len({f[0] for f in FORMS}) == len(FORMS)
    assert len({f[1] for f in FORMS} | {f[2] for f in FORMS}) == 2 * len(FORMS)
