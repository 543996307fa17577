"""The closed set of result codes a tool call can end with.

The model (and whoever reads the log) gets one of these next to every result text, so an
empty search, a missing file and a broken pattern are three different answers instead of
three kinds of silence. The first group comes from the tool runtime; the second from the
stages before it (a call that never ran says why it never ran).
"""

from __future__ import annotations

from enum import StrEnum


class Status(StrEnum):
    """What happened to one tool call."""

    # execution
    OK = "ok"
    NO_MATCH = "no_match"
    PATH_NOT_FOUND = "path_not_found"
    NOT_A_FILE = "not_a_file"
    NOT_A_DIRECTORY = "not_a_directory"
    NOT_TEXT = "not_text"
    INVALID_PATTERN = "invalid_pattern"
    NOT_READ_FIRST = "not_read_first"
    CHANGED_SINCE_READ = "changed_since_read"
    OLD_TEXT_NOT_FOUND = "old_text_not_found"
    OLD_TEXT_NOT_UNIQUE = "old_text_not_unique"
    TIMEOUT = "timeout"
    OUTPUT_TRUNCATED = "output_truncated"
    NONZERO_EXIT = "nonzero_exit"
    IO_ERROR = "io_error"
    INTERRUPTED = "interrupted"
    # before execution
    INVALID_INPUT = "invalid_input"
    UNKNOWN_TOOL = "unknown_tool"
    DENIED = "denied"
    BUDGET_EXHAUSTED = "budget_exhausted"


#: Results that are answers, not failures: the model asked and got a truthful reply.
NOT_ERRORS = frozenset({Status.OK, Status.NO_MATCH, Status.OUTPUT_TRUNCATED})
