"""clearance: allow / ask / deny for every action an AI coding agent proposes.

The import root. Subpackages: ``clearance.shellparse`` (bash command lines to facts),
``clearance.engine`` (YAML policies to decisions), ``clearance.runner`` (a minimal agent
runner), ``clearance.policies`` (the shipped policy packs). Nothing heavy is imported here:
the hook and ``parse`` paths start a process per call and must stay fast.
"""

__version__ = "0.1.0"
