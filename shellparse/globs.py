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


def glob_regex_body(glob: str, star: str, one: str) -> str:
    """A glob as regex text: ``*`` becomes ``star``, ``?`` ``one``, ``[…]`` a class
    (``[!…]`` negated); everything else is literal."""
    out = []
    i = 0
    while i < len(glob):
        c = glob[i]
        if c == "*":
            out.append(star)
        elif c == "?":
            out.append(one)
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
    return "".join(out)


def _segment_regex(glob: str) -> re.Pattern[str]:
    found = _SEGMENT_REGEX.get(glob)
    if found is None:
        found = _SEGMENT_REGEX[glob] = re.compile(glob_regex_body(glob, "[^/]*", "[^/]"), re.DOTALL)
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


def regex_source(pattern: str, home: str, workspace: str) -> str:
    """The same pattern as a regular expression over absolute paths (for long-lived
    processes, where one compiled alternation beats string tests per pattern)."""
    from clearance.shellparse.paths import glob_to_regex

    exact = pattern.endswith("$")
    if exact:
        pattern = pattern[:-1]
    workspace = workspace.rstrip("/") or "/"
    home = home.rstrip("/") or "/"
    tail = "" if exact else "(?:/.*)?"
    if pattern == "/":
        return "/" if exact else "/.*"
    if pattern == "~":
        return re.escape(home) + tail
    if pattern.startswith("{workspace}"):
        rest = pattern[len("{workspace}") :]
        if not rest:
            return re.escape(workspace) + tail
        return re.escape(workspace) + glob_to_regex(rest, home, descendants=not exact)
    if "/" in pattern.rstrip("/") and not pattern.startswith(("/", "~/")):
        pattern = workspace + "/" + pattern
    return glob_to_regex(pattern, home, descendants=not exact)


class GlobSet:
    """Several patterns; matches when one does.

    A short-lived process (a hook) matches a handful of paths: string tests, nothing to
    compile. After ``COMPILE_AFTER`` matches the set compiles itself into one regex, which a
    long-lived process (``gate``, the runner, a benchmark) then uses.
    """

    COMPILE_AFTER = 64

    __slots__ = ("_calls", "_regex", "home", "patterns", "texts", "workspace")

    def __init__(self, patterns: list[str] | tuple[str, ...], home: str, workspace: str) -> None:
        self.texts = list(patterns)
        self.home = home
        self.workspace = workspace
        self.patterns = [PathPattern(p, home, workspace) for p in patterns]
        self._calls = 0
        self._regex: re.Pattern[str] | None = None

    def match(self, path: str) -> bool:
        regex = self._regex
        if regex is not None:
            return regex.fullmatch(path) is not None
        self._calls += 1
        if self._calls > self.COMPILE_AFTER and self.texts:
            self._regex = re.compile(
                "|".join(f"(?:{regex_source(p, self.home, self.workspace)})" for p in self.texts),
                re.DOTALL,
            )
        for pattern in self.patterns:
            if pattern.match(path):
                return True
        return False
