"""The minimal agent runner: the model proposes, the policy decides, the runner executes.

One run is one `core.AgentRun` (built by `launch.build_run`). Each turn the core projects
the event log into a model request (`projection`), calls a provider (`providers`), and
takes every proposed tool call through the intent pipeline (`pipeline`): validate (the
tool's schema, then the runtime state it depends on) -> approve (`approval`: the engine
decides, the ledger records, a human or `--on-ask` settles an ask) -> execute (`tools`,
the only code that touches the workspace) -> observe (`observation`). Every stage is an
event in the run's JSON Lines log (`events`), which `run_replay` reads back without executing
anything.

May import: ``clearance`` (the version), ``clearance.engine``, ``clearance.shellparse``,
``clearance.policies``, ``clearance.sandbox`` (the bash tool's confinement). Never the hooks
or the CLI (tests/test_architecture.py checks).
"""
