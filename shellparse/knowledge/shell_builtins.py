"""The shell's builtins, each with its whole option table (closed world, see ``spec``).

Builtins whose words are not options (``echo``'s text, ``test``'s expression, ``:``'s
arguments) read their words themselves (``own_options``). Options that run something --
``enable -f`` loads a shared object, ``fc -s`` re-runs a command, ``mapfile -C`` and
``compgen -C/-F`` call back, ``hash -p`` rebinds a name, ``jobs -x`` runs a command -- carry
``code_exec``. This table is small and looked at first: ``echo``, ``cd`` and ``[`` are in
most command lines, and a hook call should not import the larger tables to find them.
"""

from __future__ import annotations

from clearance.shellparse.spec import GNU_HELP, Opt, Spec

SPECS = [
    # --- shell builtins ---------------------------------------------------------------------
    Spec(":|true|false|test|[|echo|let", "read_only", own_options=True),
    Spec("printf", "read_only", flags="-v=", permute=False),
    Spec(
        "jobs",
        "read_only",
        options=[Opt("-x", adds="code_exec", operands="command")],
        flags="-l -n -p -r -s",
    ),
    Spec("wait", "read_only", flags="-f -n -p="),
    Spec("type", "read_only", flags="-a -f -P -p -t"),
    Spec(
        "which",
        "read_only",
        flags="-a/--all -s -i/--read-alias --skip-alias --read-functions --skip-functions "
        "--skip-dot --skip-tilde --show-dot --show-tilde --tty-only -v -V" + GNU_HELP,
    ),
    Spec("whereis", "read_only", flags="-b -m -s -u -l -g -B= -M= -S= -f -h -V"),
    Spec(
        "hash",
        "read_only",
        options=[Opt("-p", value="required", adds="code_exec")],
        flags="-r -d -l -t",
    ),
    Spec("help", "read_only", flags="-d -m -s"),
    Spec("dirs", "read_only", flags="-c -l -p -v", families="-[0-9]*"),
    Spec("pwd", "read_only", flags="-L -P" + GNU_HELP),
    Spec("cd|chdir|pushd|popd", "read_only", flags="-L -P -e -@ -n", families="-[0-9]*"),
    Spec("shopt", "read_only", flags="-s -u -p -q -o"),
    Spec("umask", "read_only", flags="-p -S"),
    Spec("ulimit", "read_only", short="abcdefHiklmnpqrsStTuvxPR"),
    Spec(
        "times|caller|shift|return|exit|break|continue|logout|getopts|command_not_found_handle",
        "read_only",
    ),
    Spec("suspend", "read_only", flags="-f"),
    Spec("local|readonly", "read_only", short="aAfFgiIlnprtux"),
    Spec("read", "read_only", flags="-a= -d= -e -E -i= -n= -N= -p= -r -s -t= -u="),
    Spec(
        "mapfile|readarray",
        "read_only",
        options=[Opt("-C", value="required", adds="code_exec")],
        flags="-d= -n= -O= -s= -t -u= -c=",
    ),
    Spec("unset", "read_only", flags="-f -v -n"),
    Spec("unalias", "read_only", flags="-a"),
    Spec(
        "compgen|complete|compopt",
        "read_only",
        # ``-C`` runs a command string (judged as nested code by the extractor too); ``-F``
        # names a function, judged by its body where the line defines it
        options=[Opt("-C", value="required", adds="code_exec"), Opt("-F", value="required")],
        flags="-a -b -c -d -e -f -g -j -k -s -u -v -p -r -D -E -I -o= -A= -G= -W= -P= -S= -X= -V=",
    ),
    Spec(
        "fc",
        "read_only",
        options=[Opt("-e", value="required", adds="code_exec"), Opt("-s", adds="code_exec")],
        flags="-l -n -r",
        families="-[0-9]*",
    ),
    Spec(
        "enable",
        "read_only",
        options=[Opt("-f", value="required", adds="code_exec", role="exec")],
        flags="-a -n -p -s -d",
    ),
]
