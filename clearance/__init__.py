"""clearance: allow / ask / deny for every action an AI coding agent proposes.

The import root, and nothing else: the version, and this map. Subpackages: ``clearance.vocab``
(the closed vocabularies every package speaks: decisions, reason codes, risks, markers, exit
statuses), ``clearance.shellparse`` (bash command lines to facts), ``clearance.engine`` (YAML
policies to decisions, the audit ledger), ``clearance.runner`` (a minimal agent runner),
``clearance.hooks`` (the agent CLIs' hook protocols), ``clearance.service`` (the HTTP decision
service and the PostgreSQL audit store), ``clearance.cli`` (the ``clearance`` command),
``clearance.policies`` (the shipped policy packs). In a checkout the subpackages are the
top-level folders of the same names (linked from here); an installed copy maps them the
same way. Nothing heavy is imported here: the hook path starts a process per call.
"""

__version__ = "0.1.0"
