"""Programs known only by their help and version: a lone ``--version``, ``-h``, ``version`` or
``help`` prints (allowed); anything else they do is not known and is never allowed -- an
editor given a script or a startup file, a cluster tool told to delete, a dump of a database.
Each everyday request has such a twin."""

from __future__ import annotations

import pytest
from pack_support import decide_command, pack_policy  # noqa: F401  (the fixture)

from clearance.engine.rules import PolicySet

STARTUP = "default/no-shell-startup-writes"

#: (everyday command, dangerous twin, its decision, rule id or reason code)
FORMS = [
    ("vim --version", "vim -c '!id' notes.txt", "ask", "default"),
    ("nvim -h", "nvim ~/.ssh/id_rsa", "deny", "default/no-secret-reads"),
    ("nano --version", "nano ~/.bashrc", "deny", STARTUP),
    ("kind version", "kind delete cluster", "ask", "default"),
    ("minikube help", "minikube delete --all", "ask", "default"),
    ("k9s --version", "k9s", "ask", "default"),
    ("ansible --version", "ansible all -m shell -a 'id'", "ask", "default"),
    ("pg_dump -V", "pg_dump -h db prod", "ask", "default"),
    ("mysqldump --version", "pg_dump prod > dump.sql", "ask", "default"),
    ("strace -V", "strace -o ~/.bashrc ls", "deny", STARTUP),
    ("screen -v", "screen -dmS x make", "ask", "default"),
    ("git lfs version", "git lfs push origin main", "ask", "default/ask-network"),
    ("twine --version", "twine upload dist/*", "ask", "default"),
    ("nvm --version", "nvm install 20", "ask", "default"),
    ("lazygit --version", "lazygit -p ~/other", "ask", "default"),
    ("ctop -v", "ctop", "ask", "default"),
    ("git-lfs --version", "git-lfs push origin main", "ask", "default"),
    ("lua -v", "lua -v script.lua", "ask", "default/ask-code-exec"),
]


@pytest.mark.parametrize(("everyday", "twin", "decision", "why"), FORMS, ids=[f[0] for f in FORMS])
def test_help_and_version_print_and_nothing_else_is_known(
    policy: PolicySet, everyday: str, twin: str, decision: str, why: str
) -> None:
    found = decide_command(policy, everyday)
    assert found.decision == "allow", (
        f"{everyday!r}: {found.decision} {found.policy_id} {found.reason_code}: {found.reason}"
    )
    danger = decide_command(policy, twin)
    assert danger.decision == decision, (
        f"{twin!r}: {danger.decision} {danger.policy_id} {danger.reason_code}"
    )
    assert why in (danger.policy_id, danger.reason_code), (
        f"{twin!r}: decided by {danger.policy_id or danger.reason_code}, expected {why}"
    )
