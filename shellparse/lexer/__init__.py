"""The bash lexer: characters in, tokens of ``shell.lark`` out.

Bash decides how to read a word by where it stands, so the lexer is contextual: the driver
passes the set of terminals the parser accepts before every token. That set tells a keyword
(``if`` at the start of a command) from a word (``echo if``), an assignment from an argument,
and the ``)`` that ends a ``$(…)`` from one that closes a subshell inside it.

Words are scanned into typed parts (quotes, escapes, ``$…`` expansions). A command
substitution is parsed right where it stands by a nested run of the same parser over the same
text, which ends at the first ``)`` the nested parser cannot accept: exactly how bash finds the
end of ``$(case x in a) …;; esac)``.

The package, by what it reads:

- ``scanner``: the ``Lexer`` and its token stream (operators, reserved words, assignments);
- ``words``: words, quoting, extglob groups, arrays, ``[[ … ]]``;
- ``expansions``: ``$…``, ``${…}``, ``$(…)``, backquotes;
- ``arithmetic``: ``$((…))``, ``((…))``, subscripts;
- ``heredocs``: here-document delimiters and bodies;
- ``chars``: limits and character classes they share.
"""

from __future__ import annotations

from clearance.shellparse.lexer.chars import MAX_DEPTH
from clearance.shellparse.lexer.scanner import Lexer, Shared, parse_script

__all__ = ["MAX_DEPTH", "Lexer", "Shared", "parse_script"]
