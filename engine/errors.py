"""Policy errors: each names the file, line, column and rule it is about.

Raised by loading and by example checks; every surface turns them into a fail-closed
decision (deny, reason code ``policy_error``) or exit status 2 -- never into an allow.
"""

from __future__ import annotations


class PolicyIssue:
    __slots__ = ("column", "file", "line", "message", "rule")

    def __init__(self, file: str, line: int, column: int, rule: str | None, message: str) -> None:
        self.file = file
        self.line = line
        self.column = column
        self.rule = rule
        self.message = message

    def __str__(self) -> str:
        where = self.file if not self.line else f"{self.file}:{self.line}:{self.column}"
        rule = f" [rule {self.rule}]" if self.rule else ""
        return f"{where}:{rule} {self.message}"

    def to_dict(self) -> dict[str, object]:
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "rule": self.rule,
            "message": self.message,
        }


class PolicyError(Exception):
    """One or more issues that make a policy set unusable."""

    def __init__(self, issues: list[PolicyIssue]) -> None:
        super().__init__("; ".join(str(i) for i in issues))
        self.issues = issues

    def summary(self) -> str:
        first = str(self.issues[0]) if self.issues else "policy error"
        more = len(self.issues) - 1
        return first + (f" (and {more} more)" if more > 0 else "")
