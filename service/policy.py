"""The policy in force in one worker: loaded at start, hot-reloaded, the last good kept.

Sources are exactly the ``--policy`` files, or (without any) the scopes discovered at the
server's directory over the shipped default pack -- the same sources ``gate`` would use there.
A reload happens when any source file's identity (inode, size, mtime) changes, checked every
``interval`` seconds, or on SIGHUP. A policy that fails to load is reported (log, ``/healthz``,
``clearance_policy_reloads_total{result="error"}``) and the last good one stays in force, as OPA
does with bundles. The digest in force is on every decision.
"""

from __future__ import annotations

import os
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.engine.rules import PolicySet

Signature = tuple[tuple[str, int, int, int] | tuple[str], ...]


class PolicyState:
    def __init__(self, files: list[str] | None, cwd: str) -> None:
        self.files = [os.path.abspath(path) for path in files] if files else None
        self.cwd = cwd
        self.policy: PolicySet | None = None
        self.digest = ""
        self.loaded_at: float | None = None
        self.last_error: str | None = None
        self.last_error_at: float | None = None
        self._signature: Signature | None = None

    def sources(self) -> list[str]:
        from clearance.engine.api import policy_sources

        return [path for _, path in policy_sources(self.cwd, self.files)]

    def signature(self) -> Signature:
        out: list[tuple[str, int, int, int] | tuple[str]] = []
        for path in self.sources():
            try:
                st = os.stat(path)
            except OSError:
                out.append((path,))
                continue
            out.append((path, st.st_ino, st.st_size, st.st_mtime_ns))
        return tuple(out)

    def load(self) -> bool:
        """Load the sources now; keep the last good policy when they do not load."""
        from clearance.engine.api import load_policy
        from clearance.engine.errors import PolicyError

        signature = self.signature()
        try:
            policy = load_policy(self.cwd, files=self.files, use_cache=False)
        except PolicyError as exc:
            self._signature = signature
            self.last_error = exc.summary()
            self.last_error_at = time.time()
            return False
        except Exception as exc:  # a bug in loading: still keep the last good policy
            self._signature = signature
            self.last_error = f"internal error loading policy: {exc!r}"
            self.last_error_at = time.time()
            return False
        self._signature = signature
        self.policy = policy
        self.digest = policy.digest
        self.loaded_at = time.time()
        self.last_error = None
        self.last_error_at = None
        return True

    def changed(self) -> bool:
        """Whether a source file changed since the last load attempt."""
        return self.signature() != self._signature

    def get(self, cwd: str) -> PolicySet | str:
        """The policy for an intent in ``cwd`` (the same set for every directory)."""
        if self.policy is None:
            return self.last_error or "no policy loaded"
        return self.policy

    def status(self) -> dict[str, object]:
        return {
            "ready": self.policy is not None,
            "digest": self.digest or None,
            "sources": self.files if self.files is not None else self.sources(),
            "loaded_at": _iso(self.loaded_at),
            "last_error": self.last_error,
            "last_error_at": _iso(self.last_error_at),
        }


def _iso(when: float | None) -> str | None:
    if when is None:
        return None
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(when))
