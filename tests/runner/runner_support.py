"""Shared pieces of the runner tests: the test policy, scripts, and finished runs."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import dataclass

from clearance.runner.core import AgentRun, RunResult
from clearance.runner.events import Event
from clearance.runner.providers.scripted import ScriptedProvider

POLICY = """
version: 1
id: test
description: A small policy for runner tests.
defaults: {decision: ask}
rules:
  - id: no-hard-reset
    decision: deny
    reason: Hard resets destroy uncommitted work.
    when: {argv: ["git reset --hard **"]}
  - id: no-rm
    decision: deny
    reason: Nothing is deleted in these tests.
    when: {program: [rm]}
  - id: ask-curl
    decision: ask
    reason: Fetching needs a look.
    when: {program: [curl]}
  - id: allow-file-tools
    decision: allow
    reason: The runner's file tools may read and write the workspace.
    when: {tool: [read_file, write_file, edit_file, glob, grep]}
  - id: allow-harmless
    decision: allow
    reason: Printing, sleeping and counting change nothing.
    when: {program: [echo, printf, sleep, seq, pwd, cat, exit, "true", "false"]}
"""


def script(text: str) -> ScriptedProvider:
    return ScriptedProvider.from_text(textwrap.dedent(text))


@dataclass
class Finished:
    result: RunResult
    events: list[Event]
    run: AgentRun

    def of_type(self, kind: str) -> list[Event]:
        return [event for event in self.events if event["type"] == kind]

    def for_intent(self, intent_id: object) -> list[Event]:
        return [event for event in self.events if event.get("intent_id") == intent_id]


MakeRun = Callable[..., AgentRun]
PlayRun = Callable[..., Finished]
