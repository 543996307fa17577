"""Identifiers for runs, intents and invocations.

They are ULIDs (the engine's decision ids are too), so every id in an event log sorts by
the time it was made and stays unique across runs: an intent id found in the audit ledger
or in a bug report points at exactly one proposal of exactly one run. The prefix says what
kind of thing an id names, so a reader never mistakes an invocation for an intent.
"""

from __future__ import annotations

from clearance.engine.decision import new_decision_id


def new_run_id() -> str:
    """A run's id; also the name of its event log and its artifact directory."""
    return f"run_{new_decision_id()}"


def new_intent_id() -> str:
    """The id of one proposal (a tool call the model made)."""
    return f"int_{new_decision_id()}"


def new_invocation_id() -> str:
    """The id of one execution of an approved intent."""
    return f"inv_{new_decision_id()}"
