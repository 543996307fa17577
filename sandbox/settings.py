"""The policy's ``sandbox:`` key, merged across the scopes in force.

```yaml
sandbox:
  unavailable: ask          # ask | deny | run: what an allow becomes when nothing can confine
  profiles:
    integration:
      description: the integration suite talks to the staging API
      network: true         # network even for a test or a build
      writable: [~/.cache/pip]
      expose: [.env.test]   # secret files left visible
      programs: [pytest]    # applied to a command that runs one of these…
      rules: [allow-pytest] # …or that one of these rules allowed
```

``unavailable``: the strictest value any scope sets wins (deny > ask > run); unset everywhere
it is ``ask``. Profiles: the first scope that names a profile defines it (managed before user
before project); under a managed ``lock`` only managed profiles count. Stdlib only: the hook
reads this from the compiled-policy cache.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal, TypeAlias

    from clearance.engine.rules import PolicySet

    #: What an allow becomes when nothing can confine it (``sandbox.unavailable``).
    Unavailable: TypeAlias = Literal["run", "ask", "deny"]

UNAVAILABLE: tuple[Unavailable, ...] = ("run", "ask", "deny")
#: The built-in confinement's name (no widening); not a name a policy can define.
BASE = "default"


@dataclass(frozen=True)
class Profile:
    """A named widening of the default confinement, and where it was defined."""

    name: str
    source: str
    description: str = ""
    network: bool = False
    writable: tuple[str, ...] = ()
    expose: tuple[str, ...] = ()
    programs: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()

    def widenings(self) -> list[str]:
        """Each widening in words, as the decision names it."""
        out: list[str] = []
        if self.network:
            out.append("network")
        out.extend(f"writable {path}" for path in self.writable)
        out.extend(f"expose {pattern}" for pattern in self.expose)
        return out

    def writable_paths(self, home: str, workspace: str | None) -> list[str]:
        return [_absolute(p, home, workspace) for p in self.writable]


@dataclass(frozen=True)
class SandboxSettings:
    unavailable: Unavailable = "ask"
    profiles: tuple[Profile, ...] = ()

    def profile(self, name: str) -> Profile | None:
        for profile in self.profiles:
            if profile.name == name:
                return profile
        return None


def settings_of(policy: PolicySet) -> SandboxSettings:
    """The sandbox settings of the policy in force."""
    unavailable: Unavailable | None = None
    profiles: dict[str, Profile] = {}
    for pack in policy.packs:  # most authoritative scope first
        raw = getattr(pack, "sandbox", None)
        if not isinstance(raw, dict):
            continue
        value = raw.get("unavailable")
        if (
            isinstance(value, str)
            and value in UNAVAILABLE
            and (unavailable is None or UNAVAILABLE.index(value) > UNAVAILABLE.index(unavailable))
        ):
            unavailable = value
        if policy.locked and pack.scope != "managed":
            continue
        named = raw.get("profiles") or {}
        if not isinstance(named, dict):
            continue
        for name, body in named.items():
            if name in profiles or not isinstance(body, dict):
                continue
            profiles[str(name)] = Profile(
                name=str(name),
                source=pack.display,
                description=str(body.get("description") or ""),
                network=bool(body.get("network")),
                writable=_strings(body.get("writable")),
                expose=_strings(body.get("expose")),
                programs=_strings(body.get("programs")),
                rules=_strings(body.get("rules")),
            )
    return SandboxSettings(unavailable or "ask", tuple(profiles.values()))


def _strings(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list):
        return tuple(str(v) for v in value)
    return ()


def _absolute(path: str, home: str, workspace: str | None) -> str:
    if path == "~" or path.startswith("~/"):
        path = home.rstrip("/") + path[1:]
    elif path.startswith("{workspace}"):
        path = (workspace or "/nonexistent-workspace") + path[len("{workspace}") :]
    elif not path.startswith("/"):
        path = os.path.join(workspace or "/nonexistent-workspace", path)
    return os.path.normpath(path)
