"""The policy sets of one batch, each discovered and loaded once.

A batch (``gate`` over a file, ``replay`` of a ledger, ``audit explain``) is judged at one
moment: the policy in force at a directory is what discovery finds there when the batch first
meets that directory, and it is not looked for again for every record -- which is what made
policy discovery (five ``stat`` calls a record, more below the project root, a walk up to
``/`` outside a project) a tenth of a decision. The same holds for the workspace (the project
root, ``scopes.workspace_of``) of each directory.

With exactly ``files`` (``--policy``), every directory has the same set, loaded once. A policy
that does not load is remembered as its error, so a batch of records in a broken project costs
one failed load, and each of those records is decided ``policy_error``.

A long-running process whose policy may change under it does not use this memo: the decision
service keeps its own policy state, re-checked by the identity of every source file
(``clearance.service.policy``).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from clearance.engine.rules import PolicySet


class PolicyCache:
    """Loads each policy set once: exactly ``files`` for every record, or the scopes in force
    at each record's directory (one discovery and one load per distinct directory)."""

    __slots__ = ("_by_dir", "_by_key", "_workspaces", "env", "files")

    def __init__(self, files: list[str] | None, env: Mapping[str, str] | None = None) -> None:
        self.files = files
        self.env = env
        #: Directory -> the key of the policy set in force there (or an error's key).
        self._by_dir: dict[str, str] = {}
        #: Key -> the policy set, or its load error as text.
        self._by_key: dict[str, PolicySet | str] = {}
        self._workspaces: dict[tuple[str, str | None], str | None] = {}

    def get(self, cwd: str, *, strict: bool = False) -> PolicySet | str:
        """The policy set in force at ``cwd``, or its policy error as text (raised instead when
        ``strict``: a ``PolicyError``)."""
        if not strict:
            key = self._by_dir.get(cwd)
            if key is not None:
                return self._by_key[key]
        from clearance.engine.api import load_policy, policy_sources
        from clearance.engine.cache import key_for
        from clearance.engine.errors import PolicyError

        found: PolicySet | str | None
        try:
            key = key_for(policy_sources(cwd, self.files, self.env))
            found = self._by_key.get(key)
            if found is None:
                found = load_policy(cwd, files=self.files, env=self.env)
        except PolicyError as exc:
            if strict:
                raise
            found = exc.summary()
            key = f"error:{cwd}"
        self._by_key[key] = found
        self._by_dir[cwd] = key
        return found

    def workspace(self, cwd: str, home: str | None = None) -> str | None:
        """The project root holding ``cwd`` (``workspace_of``), looked up once per directory."""
        memo_key = (cwd, home)
        if memo_key in self._workspaces:
            return self._workspaces[memo_key]
        from clearance.engine.scopes import workspace_of

        found = workspace_of(cwd, home)
        self._workspaces[memo_key] = found
        return found
