"""Scope discovery, the compiled-policy cache, and precedence between scopes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from clearance.engine import cache
from clearance.engine.api import decide, load_policy
from clearance.engine.errors import PolicyError
from clearance.engine.intents import ToolIntent
from clearance.engine.scopes import discover, workspace_of

RULE = "  - {{id: rm, decision: %s, reason: %s, when: {{program: rm}}}}\n"
ALLOW_RM = "version: 1\nid: {id}\nrules:\n" + RULE % ("allow", "fine here")
DENY_RM = "version: 1\nid: {id}\nrules:\n" + RULE % ("deny", "not here")


def layout(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    repo = tmp_path / "repo"
    sub = repo / "pkg" / "sub"
    sub.mkdir(parents=True)
    (repo / ".git").mkdir()
    home = tmp_path / "home"
    (home / ".config" / "clearance").mkdir(parents=True)
    env = {
        "HOME": str(home),
        "CLEARANCE_MANAGED_POLICY": "",
        "CLEARANCE_CACHE_DIR": str(tmp_path / "c"),
    }
    return repo, sub, env


def test_discovery_order_and_repository_bound(tmp_path: Path) -> None:
    repo, sub, env = layout(tmp_path)
    (repo / ".clearance").mkdir()
    (repo / ".clearance" / "policy.yaml").write_text(ALLOW_RM.format(id="root"))
    (sub / ".clearance").mkdir()
    (sub / ".clearance" / "policy.yaml").write_text(ALLOW_RM.format(id="sub"))
    # a sibling's policy is no policy of this project
    (tmp_path / "other" / ".clearance").mkdir(parents=True)
    (tmp_path / "other" / ".clearance" / "policy.yaml").write_text(ALLOW_RM.format(id="outside"))
    user = Path(env["HOME"]) / ".config" / "clearance" / "policy.yaml"
    user.write_text(DENY_RM.format(id="user"))
    found = discover(str(sub), env)
    assert [scope for scope, _ in found] == ["user", "project", "project"]
    paths = [p for _, p in found]
    assert paths[1].startswith(str(repo / ".clearance")) and paths[2].startswith(str(sub))
    assert not any("other" in p for p in paths)
    assert workspace_of(str(sub)) == str(repo)


def test_user_deny_beats_project_allow(tmp_path: Path) -> None:
    repo, sub, env = layout(tmp_path)
    (repo / ".clearance").mkdir()
    (repo / ".clearance" / "policy.yaml").write_text(ALLOW_RM.format(id="proj"))
    (Path(env["HOME"]) / ".config" / "clearance" / "policy.yaml").write_text(
        DENY_RM.format(id="mine")
    )
    policy = load_policy(str(sub), env=env, check=False)
    decision = decide(
        ToolIntent("bash", {"command": "rm notes.txt"}), policy, cwd=str(sub), home=env["HOME"]
    )
    assert decision.decision == "deny"
    assert decision.policy_id == "mine/rm" and decision.scope == "user"


def test_named_managed_policy_must_exist(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "CLEARANCE_MANAGED_POLICY": str(tmp_path / "missing.yaml")}
    with pytest.raises(PolicyError) as exc:
        discover(str(tmp_path), env)
    assert "CLEARANCE_MANAGED_POLICY" in str(exc.value)


def test_cache_hit_miss_and_tamper(tmp_path: Path) -> None:
    env = {"CLEARANCE_CACHE_DIR": str(tmp_path / "cache"), "HOME": str(tmp_path)}
    policy_file = tmp_path / "p.yaml"
    policy_file.write_text(DENY_RM.format(id="p"))
    first = load_policy(str(tmp_path), files=[str(policy_file)], env=env)
    entries = list((tmp_path / "cache").glob("policy-*.json"))
    assert len(entries) == 1
    again = load_policy(str(tmp_path), files=[str(policy_file)], env=env)
    assert again.digest == first.digest
    # an edit misses the cache
    policy_file.write_text(ALLOW_RM.format(id="p"))
    edited = load_policy(str(tmp_path), files=[str(policy_file)], env=env)
    assert edited.rules[0].decision == "allow"
    # a planted entry that allows more than the file says does not verify
    policy_file.write_text(DENY_RM.format(id="p"))
    load_policy(str(tmp_path), files=[str(policy_file)], env=env)
    entry = sorted((tmp_path / "cache").glob("policy-*.json"), key=os.path.getmtime)[-1]
    mac, _, body = entry.read_text().partition("\n")
    data = json.loads(body)
    data["packs"][0]["rules"][0]["decision"] = "allow"
    entry.write_text(mac + "\n" + json.dumps(data))
    assert cache.load(entry.stem.removeprefix("policy-"), env) is None
    reloaded = load_policy(str(tmp_path), files=[str(policy_file)], env=env)
    assert reloaded.rules[0].decision == "deny"
