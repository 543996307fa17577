"""The rule index never changes an answer: a part is tested only against the rules whose
necessary condition it meets (a program or a glob of programs, an effect class, a marker, a
path access, a host, the tool), and every rule it skips is one that could not have matched."""

from __future__ import annotations

import pytest
from engine_support import HOME, WORKSPACE, Write, policy_of

from clearance.engine.api import intent_parts, load_policy
from clearance.engine.evaluator import _matching, candidates
from clearance.engine.intents import ToolIntent
from clearance.engine.rules import PolicySet
from clearance.engine.views import Context, PartView

#: One rule per shape of condition the index reads (and the shapes it must not read).
SHAPES = """
version: 1
id: shapes
rules:
  - id: writes-anywhere
    decision: ask
    reason: r
    when: {paths: {access: [write]}}
  - id: deletes-only
    decision: ask
    reason: r
    when: {paths: {access: [delete]}}
  - id: any-path
    decision: ask
    reason: r
    when: {paths: {match: ["**/*.md"]}}
  - id: every-path-inside
    decision: ask
    reason: r
    when: {paths: {every: true, location: inside}}
  - id: not-a-write
    decision: ask
    reason: r
    when: {not: {paths: {access: [write, delete]}}}
  - id: glob-program-or-device
    decision: ask
    reason: r
    when:
      any:
        - program: ["mk*"]
        - paths: {match: ["/dev/**"], access: [write]}
  - id: program-or-read
    decision: ask
    reason: r
    when:
      any:
        - program: [tee]
        - paths: {access: [read]}
  - id: shell-writes
    decision: ask
    reason: r
    when:
      all:
        - tool: [shell]
        - paths: {access: [write, delete]}
  - id: a-write-tool
    decision: ask
    reason: r
    when: {tool: [Write]}
  - id: tool-glob
    decision: ask
    reason: r
    when: {tool: ["Tod*"]}
  - id: marker
    decision: ask
    reason: r
    when: {markers: [dynamic_argument]}
  - id: argv
    decision: ask
    reason: r
    when: {argv: ["git push **"]}
  - id: redirect
    decision: ask
    reason: r
    when: {redirects: ["**/*.log"]}
  - id: host
    decision: ask
    reason: r
    when: {hosts: ["example.com"]}
  - id: only-hosts
    decision: ask
    reason: r
    when: {only_hosts: ["example.com"]}
  - id: markers-or-glob-program
    decision: ask
    reason: r
    when:
      any:
        - markers: [unknown_program]
        - program: ["gi?", "*sh"]
"""

#: Each shape above with something that meets it and something that does not.
INTENTS = [
    ToolIntent("Bash", {"command": c})
    for c in (
        "cat README.md",
        "ls",
        "echo hi > notes.txt",
        "echo hi >> build.log",
        "rm -rf build",
        "rm notes.md",
        "mkdir -p out",
        "mkfs.ext4 /dev/sdb1",
        "dd if=in.img of=/dev/sda",
        "tee out.txt < in.txt",
        "some-unknown-tool ./a ./b",
        "git push origin main",
        "git status",
        "$cmd ./x",
        "ls $dir",
        "cp a.md /tmp/b.md",
        "true",
        "cat ../outside.txt ./inside.txt",
        "find . -name '*.md' -delete",
        "curl -o page.html https://example.com",
        "curl https://example.org/x",
        "bash -c 'ls'",
    )
] + [
    ToolIntent("Write", {"file_path": f"{WORKSPACE}/doc.md", "content": "x"}),
    ToolIntent("Edit", {"file_path": f"{WORKSPACE}/a.py", "old_string": "a", "new_string": "b"}),
    ToolIntent("Read", {"file_path": f"{HOME}/.bashrc"}),
    ToolIntent("TodoWrite", {"todos": []}),
    ToolIntent("WebSearch", {"query": "x"}),
]


def _every_rule_that_matches(policy: PolicySet, part: PartView, ctx: Context) -> list[str]:
    return [
        rule.policy_id
        for rule in policy.rules
        if rule.target == "part"
        and rule.applies_to(ctx.tool, ctx.tool_kind)
        and rule.matcher.test(part, ctx)
    ]


def _parts(policy: PolicySet, intent: ToolIntent) -> list[tuple[PartView, Context]]:
    kind, parts, subject, markers, _ = intent_parts(
        intent, policy, cwd=WORKSPACE, workspace=WORKSPACE, home=HOME, resolve=False
    )
    ctx = Context(intent.tool, kind, WORKSPACE, HOME, WORKSPACE, subject)
    return [(PartView(part, markers), ctx) for part in parts]


@pytest.mark.parametrize("pack", ["shapes", "default"])
def test_the_index_finds_every_rule_that_matches(write_policy: Write, pack: str) -> None:
    policy = (
        policy_of(write_policy(SHAPES))
        if pack == "shapes"
        else load_policy(WORKSPACE, use_cache=False)
    )
    matched_somewhere: set[str] = set()
    for intent in INTENTS:
        for part, ctx in _parts(policy, intent):
            expected = _every_rule_that_matches(policy, part, ctx)
            found = [rule.policy_id for rule in _matching(policy, part, ctx)]
            assert found == expected, (intent.tool, intent.input, part.argv)
            # the candidates (traits' and program's rules merged) in rule order, each once
            orders = [rule.order for rule in candidates(policy, part, ctx)]
            assert orders == sorted(set(orders)), (intent.tool, intent.input, part.argv)
            matched_somewhere.update(expected)
    if pack == "shapes":
        # every shape is met by some intent, so each was really put to the test
        assert matched_somewhere == {rule.policy_id for rule in policy.rules}


def test_a_read_is_not_tested_against_rules_about_writes(write_policy: Write) -> None:
    policy = policy_of(write_policy(SHAPES))
    (read, ctx), *_ = _parts(policy, ToolIntent("Bash", {"command": "cat README.md"}))
    tested = _tested(policy, read, ctx)
    assert "shapes/writes-anywhere" not in tested and "shapes/deletes-only" not in tested
    assert "shapes/a-write-tool" not in tested and "shapes/argv" not in tested
    # nor against a glob of programs it does not run, a marker it lacks, a host it has not
    assert "shapes/glob-program-or-device" not in tested and "shapes/marker" not in tested
    assert "shapes/host" not in tested and "shapes/markers-or-glob-program" not in tested
    # what it cannot rule out stays: a path of any access, a negation, hosts only among some
    assert {"shapes/any-path", "shapes/not-a-write", "shapes/only-hosts"} <= tested
    (write, ctx), *_ = _parts(policy, ToolIntent("Bash", {"command": "echo hi > notes.txt"}))
    assert {"shapes/writes-anywhere", "shapes/shell-writes"} <= _tested(policy, write, ctx)
    (made, ctx), *_ = _parts(policy, ToolIntent("Bash", {"command": "mkfs.ext4 disk.img"}))
    assert "shapes/glob-program-or-device" in _tested(policy, made, ctx)
    (fetch, ctx), *_ = _parts(policy, ToolIntent("Bash", {"command": "curl https://x.org/"}))
    assert "shapes/host" in _tested(policy, fetch, ctx)
    (odd, ctx), *_ = _parts(policy, ToolIntent("Bash", {"command": "frobnicate x"}))
    assert "shapes/markers-or-glob-program" in _tested(policy, odd, ctx)
    (shell, ctx), *_ = _parts(policy, ToolIntent("Bash", {"command": "zsh -c ls"}))
    assert "shapes/markers-or-glob-program" in _tested(policy, shell, ctx)


def _tested(policy: PolicySet, part: PartView, ctx: Context) -> set[str]:
    return {r.policy_id for r in candidates(policy, part, ctx)}
