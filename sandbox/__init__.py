"""Confined execution: what a policy cannot see, the operating system confines.

An allowed command may still run code nobody reviewed (a test module, a build script). This
package runs such commands inside a sandbox whose profile follows the decision:

- ``settings``: the policy's ``sandbox:`` key (profiles, what to do when no sandbox can be set
  up), merged across scopes (stdlib only: the hook reads it).
- ``plan``: the confinement a decision gets (network or not, the profiles that widen it, every
  widening named) and how a command line is rewritten to run under ``clearance sandbox``.
- ``probe``: whether bubblewrap can confine here (cached, for the hook's budget).
- ``mounts``: what is hidden and what is read-only inside the workspace (secret files, links
  to secrets outside, hard-linked files, clearance's and the agents' own settings).
- ``bwrap``: the bubblewrap command line and the run of one confined process.
- ``reaper``: ending every process a command left behind when it runs unconfined.
- ``refusal``: does a failure look like the sandbox refusing (read-only file system, no
  network)? The runner tells the model so.

It imports the engine's named path sets and shellparse's secret matcher (one notion of a
secret).

May import: ``clearance`` (the version), ``clearance.vocab``, ``clearance.engine``,
``clearance.shellparse``, ``clearance.policies``. Never the runner, the hooks or the CLI
(tests/test_architecture.py checks).
"""
