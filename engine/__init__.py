"""YAML policies to decisions: the policy engine and the audit ledger.

Entry point: ``entry.decide_in_force`` / ``entry.decide_intent`` (load the policy in force at a
directory, decide an intent, never raise, fail closed) and ``entry.redecide`` (a recorded intent
again: ledger replay, explain, the runner's dry run), over ``api.load_policy`` and
``api.decide``; ``policycache`` holds a batch's policy sets and workspaces. Policies:
``yamlsrc`` (YAML with positions) → ``policy_schema`` (the file's pydantic schema) →
``loader``/``rules`` (compiled packs, ``matchers`` built by ``compile_when``) → ``evaluator``
(deny-first across scopes, found by ``scopes``) → ``decision`` (the ApprovalDecision;
``decision_schema`` is its JSON contract). Beside them: ``ledger`` (the hash-chained, keyed
audit log), ``state`` (where clearance keeps its own state, per user, outside every workspace),
``safefiles`` (files opened without following links), ``regex`` (rule regexes in linear time),
``ledger_replay`` (a ledger re-decided under another policy), ``lint``, ``policy_tests`` (the
work of ``clearance test``), ``types`` (TypedDicts of packs, rules, triggers and trace
entries), ``telemetry`` (a decision as OpenTelemetry attributes, for every exporter),
``cache`` (validated packs between processes), ``canonical`` (the
argv ``argv`` patterns match: global options taken out), ``amend`` (session grants, built
beside the policy), ``messages`` (validation errors in the policy's words).

May import: ``clearance`` (the version), ``clearance.vocab`` (the closed vocabularies),
``clearance.shellparse``, ``clearance.policies``,
and ``re2`` (the ``google-re2`` wheel, lazily, only when a rule has a regex).
Never the runner, the hooks or the CLI (tests/test_architecture.py checks).
"""
