"""Gitignore-style path globs matched segment by segment, without compiling regexes.

A hook is one process per tool call; compiling the secrets set and the policy's path sets
into regular expressions cost it more than all its other work. Most patterns are literal
paths or names, or have a single ``*``: plain string tests decide them. Only a segment with
``?``, ``[…]`` or several ``*`` is turned into a (small, cached) regex.

Semantics: ``~/`` is the home, ``{workspace}`` the workspace root; a pattern with a ``/`` is
anchored (absolute, or relative to the workspace), one without matches a name at any depth;
``**`` spans segments; a pattern covers what it names and everything under it, unless it ends
with ``$`` (exactly that path).
"""

from __future__ import annotations

import re

_SEGMENT_REGEX: dict[str, re.Pattern[str]] = {}


def _segment_regex(glob: str) -> re.Pattern[str]:
    found = _SEGMENT_REGEX.get(glob)
    if found is None:
        out = []
        i = 0
        while i < len(glob):
            c = glob[i]
            if c == "*":
                out.append("[^/]*")
            elif c == "?":
                out.append("[^/]")
            elif c == "[":
                end = glob.find("]", i + 1)
                if end < 0:
                    out.append(re.escape(c))
                else:
                    chars = glob[i + 1 : end]
                    if chars.startswith("!"):
                        chars = "^" + chars[1:]
                    out.append("[" + chars.replace("\\", "\\\\") + "]")
                    i = end
            else:
                out.append(re.escape(c))
            i += 1
        found = _SEGMENT_REGEX[glob] = re.compile("".join(out), re.DOTALL)
    return found


def segment_match(glob: str, segment: str) -> bool:
    """One path segment against one glob segment (``*``, ``?``, ``[…]``)."""
    if "*" not in glob and "?" not in glob and "[" not in glob:
        return glob == segment
    if "?" in glob or "[" in glob or glob.count("*") > 1:
        return _segment_regex(glob).fullmatch(segment) is not None
    head, _, tail = glob.partition("*")
    return (
        len(segment) >= len(head) + len(tail)
        and segment.startswith(head)
        and segment.endswith(tail)
    )


def _match_segments(
    pattern: tuple[str, ...], path: list[str], pi: int, si: int, prefix: bool
) -> bool:
    """Whether ``pattern[pi:]`` matches ``path[si:]`` (or a prefix of it, with ``prefix``)."""
    while pi < len(pattern):
        glob = pattern[pi]
        if glob == "**":
            # a final ``**`` is what is inside: at least one segment (``src/**`` is not ``src``)
            first = si + 1 if pi == len(pattern) - 1 else si
            return any(
                _match_segments(pattern, path, pi + 1, k, prefix)
                for k in range(first, len(path) + 1)
            )
        if si >= len(path) or not segment_match(glob, path[si]):
            return False
        pi += 1
        si += 1
    return prefix or si == len(path)


class PathPattern:
    """One compiled pattern; ``match`` takes an absolute, normalised path."""

    __slots__ = ("anchored", "exact", "literal", "segments", "text")

    def __init__(self, pattern: str, home: str, workspace: str) -> None:
        self.text = pattern
        self.exact = pattern.endswith("$")
        if self.exact:
            pattern = pattern[:-1]
        home = home.rstrip("/") or "/"
        workspace = workspace.rstrip("/") or "/"
        if pattern == "~" or pattern.startswith("~/"):
            pattern = home + pattern[1:]
        elif pattern.startswith("{workspace}"):
            pattern = workspace + pattern[len("{workspace}") :]
        stripped = pattern.rstrip("/")
        self.anchored = "/" in stripped or pattern.startswith("/")
        if self.anchored and stripped and not stripped.startswith("/"):
            stripped = workspace.rstrip("/") + "/" + stripped
        self.segments = tuple(s for s in stripped.split("/") if s) if self.anchored else (stripped,)
        self.literal = (
            ("/" + "/".join(self.segments))
            if self.anchored and not any(c in stripped for c in "*?[")
            else None
        )

    def match(self, path: str) -> bool:
        if self.literal is not None:
            if path == self.literal:
                return True
            if self.literal == "/":
                return not self.exact
            return not self.exact and path.startswith(self.literal + "/")
        if self.anchored and self.segments == () and path == "/":
            return True
        parts = [p for p in path.split("/") if p]
        if self.anchored:
            return _match_segments(self.segments, parts, 0, 0, not self.exact)
        name = self.segments[0]
        if self.exact:
            return bool(parts) and segment_match(name, parts[-1])
        return any(segment_match(name, part) for part in parts)


class GlobSet:
    """Several patterns; matches when one does."""

    __slots__ = ("patterns",)

    def __init__(self, patterns: list[str] | tuple[str, ...], home: str, workspace: str) -> None:
        self.patterns = [PathPattern(p, home, workspace) for p in patterns]

    def match(self, path: str) -> bool:
        for pattern in self.patterns:
            if pattern.match(path):
                return True
        return False
