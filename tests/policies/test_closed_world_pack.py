"""The default pack on closed-world knowledge: unknown options ask, network reads of the
developer CLIs run, network writes and secrets fetched over the network do not."""

from __future__ import annotations

from typing import Any

import pytest
from workspace_support import NOWHERE, decide_in, default_pack

from clearance.engine.api import default_pack_path, load_policy
from clearance.engine.decision import ApprovalDecision
from clearance.engine.rules import PolicySet


@pytest.fixture(scope="module")
def policy() -> PolicySet:
    return default_pack(NOWHERE)


def decide_command(policy: PolicySet, command: str) -> ApprovalDecision:
    return decide_in(policy, NOWHERE, command)


@pytest.mark.parametrize(
    ("command", "benign"),
    [
        ("ls --frobnicate", "ls --color=auto"),
        ("grep --evil-exec=x TODO src", "grep -rn TODO src"),
        ("git describe --evil", "git describe --tags"),
        ("gh pr list --evil", "gh pr list --state open"),
        ("aws --endpoint-url https://x.example s3 ls", "aws s3 ls"),
    ],
)
def test_an_unknown_option_asks_its_known_twin_runs(
    policy: PolicySet, command: str, benign: str
) -> None:
    d = decide_command(policy, command)
    assert d.decision == "ask" and d.reason_code == "unknown_option", (d.decision, d.reason_code)
    assert decide_command(policy, benign).decision == "allow"


def test_a_rule_naming_the_marker_can_allow_it(tmp_path: Any) -> None:
    extra = tmp_path / "p.yaml"
    extra.write_text(
        "version: 1\nid: p\nrules:\n"
        "  - id: ls-any\n    decision: allow\n    reason: x\n"
        "    when: {program: [ls], markers: [unknown_option]}\n"
    )
    both = load_policy(NOWHERE[0], files=[default_pack_path(), str(extra)], use_cache=False)
    assert decide_command(both, "ls --frobnicate").decision == "allow"


@pytest.mark.parametrize(
    "command",
    [
        "gh pr list",
        "gh issue view 7 --comments",
        "glab mr list",
        "kubectl get pods -A",
        "kubectl logs deploy/api --tail 100",
        "kubectl apply -f k8s.yaml --dry-run=client",
        "helm list -A",
        "helm status web",
        # a release's notes and metadata: the twins of its values and manifests below
        "helm get notes web",
        "helm get metadata web -n prod",
        "aws s3 ls",
        "aws ec2 describe-instances",
        "gcloud compute instances list",
        "az vm list -g rg",
        "fly status",
        "flyctl logs -a web",
        "vercel ls",
        "netlify status",
        "heroku logs --tail -a web",
        "hcloud server list",
        "terraform plan",
        "tofu plan",
        "git fetch origin",
        "docker ps",
        "kubectl --help",
        "terraform --version",
        "aws configure list-profiles",
    ],
)
def test_network_reads_of_developer_clis_run(policy: PolicySet, command: str) -> None:
    d = decide_command(policy, command)
    assert d.decision == "allow", (d.decision, d.reason_code, d.reason)


@pytest.mark.parametrize(
    ("command", "decision"),
    [
        ("gh pr create --title x --body y", "ask"),
        ("gh pr merge 3 --squash", "ask"),
        ("gh api -X DELETE repos/o/r", "deny"),
        ("kubectl apply -f k8s.yaml", "ask"),
        ("kubectl apply -f k8s.yaml --dry-run=server", "ask"),
        ("kubectl delete pod api-1", "ask"),
        ("kubectl exec -it api-1 -- sh", "ask"),
        ("helm install web ./chart", "ask"),
        ("aws s3 cp notes.txt s3://bucket/", "ask"),
        ("terraform apply -auto-approve", "ask"),
        ("git push origin main", "ask"),
        ("curl https://example.com", "ask"),
        ("kubectl get secret db -o yaml", "deny"),
        ("aws secretsmanager get-secret-value --secret-id db", "deny"),
        # the profiles' names are read; their keys are not, not even masked
        ("aws configure get aws_secret_access_key", "deny"),
        ("aws configure list", "deny"),
        ("gcloud auth print-access-token", "deny"),
        ("terraform output -raw db_password", "deny"),
        ("aws s3api put-object --bucket b --key k --body fileb://.env", "deny"),
        # the smaller clouds: what is not a read asks, a token printed is a secret
        ("fly deploy", "ask"),
        ("vercel env pull", "ask"),
        ("heroku config:get DATABASE_URL", "deny"),  # an app variable, printed with its value
        ("heroku auth:token", "deny"),
        ("fly auth token", "deny"),
        # a release's values (the chart's passwords), its rendered Secrets, or both
        ("helm get values web", "deny"),
        ("helm get values web -a -o json", "deny"),
        ("helm get manifest web -n prod", "deny"),
        ("helm get hooks web", "deny"),
        ("helm get all web --revision 3", "deny"),
        ("helm get newthing web", "ask"),
    ],
)
def test_network_writes_ask_and_secrets_are_denied(
    policy: PolicySet, command: str, decision: str
) -> None:
    d = decide_command(policy, command)
    assert d.decision == decision, (d.decision, d.reason_code, d.policy_id)


def test_an_unknown_program_is_never_a_deleter(policy: PolicySet) -> None:
    for command in ("frobnicate /", "frobnicate -rf ~", "frob --delete /home"):
        d = decide_command(policy, command)
        assert d.decision == "ask" and d.policy_id is None, (command, d.decision, d.policy_id)
