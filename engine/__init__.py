"""YAML policies to decisions: the policy engine and the audit ledger.

Entry points: ``api.load_policy`` / ``api.decide_intent`` (load the policy in force at a
directory, decide an intent, never raise, fail closed). Policies: ``yamlsrc`` (YAML with
positions) → ``policy_schema`` (the file's pydantic schema) → ``loader``/``rules`` (compiled
packs, ``matchers`` built by ``compile_when``) → ``evaluator`` (deny-first across scopes, found
by ``scopes``) → ``decision`` (the ApprovalDecision; ``decision_schema`` is its JSON
contract). Beside them: ``ledger`` (the hash-chained, keyed audit log), ``state`` (where
clearance keeps its own state, per user, outside every workspace), ``safefiles`` (files opened
without following links), ``regex`` (rule regexes in linear time), ``ledger_replay`` (a ledger
re-decided under another policy), ``lint``, ``policy_tests`` (the work of ``clearance test``),
``cache`` (validated packs between processes), ``canonical`` (the argv ``argv`` patterns match:
global options taken out), ``amend`` (session grants, built beside the policy), ``messages``
(validation errors in the policy's words).

May import: ``clearance`` (the version), ``clearance.shellparse``, ``clearance.policies``,
and ``re2`` (the ``google-re2`` wheel, lazily, only when a rule has a regex).
Never the runner, the hooks or the CLI (tests/test_architecture.py checks).
"""
