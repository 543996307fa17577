"""Options that set where a program acts: one table.

A program told to work somewhere else (``git -C DIR``, ``make -C DIR``, ``terraform
-chdir=DIR``, ``cargo --manifest-path DIR/Cargo.toml``, ``env -C DIR CMD``) resolves its
relative paths from there, loads the build and configuration files it finds there, and writes
there. Judged from the caller's directory, ``tar -C ~/.ssh -cf - id_rsa`` would read a file
``id_rsa`` in the project, and ``make -C /elsewhere`` would build in the project.

The classifier gives these options the roles below (``spec`` documents the roles):

``dir``
    the value is the directory the program works in (role ``cwd``): later relative paths, a
    wrapped command, and a build's or a test's writes are there;
``file``
    the value is a file the program reads (role ``cwd_file``) and works beside: the project
    of ``cargo --manifest-path``, ``docker compose -f``;
``place``
    the value is a directory the program builds or writes in, while its relative paths stay
    relative to the caller (role ``write``): ``cmake -S SRC -B BUILD``.

A program's knowledge (``knowledge/*``) declares each option with the role this table says
(``tests/shellparse/test_workdirs.py`` holds the two to each other and judges every row with
a directory inside the workspace and one outside it). The path each gives is a fact with
source ``cwd`` (``file``: the file as a read, its directory as the place), judged inside or
outside the workspace like any other; a value not known from the text moves the program to an
unknown place (``unknown_cwd``), never "still in the workspace".
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

#: (program and subcommands, the option's spellings joined by ``/``, kind).
WORKDIR_OPTIONS: Final[tuple[tuple[str, str, str], ...]] = (
    ("git", "-C", "dir"),
    ("git", "--work-tree", "dir"),
    ("make", "-C/--directory", "dir"),
    ("tar", "-C/--directory", "dir"),
    ("terraform", "-chdir", "dir"),
    ("cargo", "-C", "dir"),
    ("cargo", "--manifest-path", "file"),
    ("cargo build", "--manifest-path", "file"),
    ("npm", "-C/--prefix", "dir"),
    ("pnpm", "-C/--dir", "dir"),
    ("yarn", "--cwd", "dir"),
    ("go", "-C", "dir"),
    ("cmake", "-S", "place"),
    ("cmake", "-B", "place"),
    ("cmake", "--build", "dir"),
    ("docker compose", "--project-directory", "dir"),
    ("docker compose", "-f/--file", "file"),
    ("env", "-C/--chdir", "dir"),
    ("sudo", "-D/--chdir", "dir"),
    ("ninja", "-C", "dir"),
    ("gradle", "-p/--project-dir", "dir"),
    ("just", "-d/--working-directory", "dir"),
    ("uv run", "--directory", "dir"),
    ("poetry", "-C/--directory", "dir"),
    ("poetry", "-P/--project", "dir"),
    ("ctest", "--test-dir", "dir"),
)

#: The classifier's role for each kind.
ROLE_OF_KIND: Final = {"dir": "cwd", "file": "cwd_file", "place": "write"}
