"""Shells and language interpreters: code from a file, from the command line, or from stdin.

The ``interpreter`` handler decides where the program comes from: a script operand (a file
clearance cannot see: ``code_exec``), inline code (``inline_code``), or standard input
(``stdin_code`` -- analysed as a script when the input is known text and the program a shell).
"""

from __future__ import annotations

from clearance.shellparse.spec import Opt, Spec

_SHELL_OPTIONS = [
    Opt("-c", role="shell", value="required", ends=True),
    Opt("-o +o -O +O --rcfile --init-file", value="required"),
    Opt("-s", adds=""),
    Opt(
        "-i -l --login -e -u -x -v -n -f -h -m -p -r -a -b -B -C -E -H -k -P -T "
        "--norc --noprofile --posix --restricted --noediting --verbose --debugger "
        "--dump-strings --dump-po-strings --pretty-print"
    ),
]

SPECS = [
    Spec(
        "sh|bash|dash|zsh|ksh|mksh|ash|yash|rbash|tcsh|csh|fish|busybox-sh",
        "",
        operands=("exec", "none"),
        options=_SHELL_OPTIONS,
        permute=False,
        handler="interpreter",
    ),
    Spec("source|.", "code_exec", operands=("exec", "none"), permute=False),
    Spec(
        "python|python2|python3|pypy|pypy3|ipython|py",
        "",
        operands=("exec", "none"),
        permute=False,
        handler="interpreter",
        options=[
            Opt("-c", value="required", role="code", ends=True),
            Opt("-m", value="required", role="module", ends=True),
            Opt("-W -X --check-hash-based-pycs", value="required"),
            Opt("-b -B -d -E -h -i -I -O -OO -P -q -s -S -u -v -V -x --version --help"),
        ],
    ),
    Spec(
        "node|nodejs|deno-eval|tsx|ts-node|esno|bun-eval",
        "",
        operands=("exec", "none"),
        permute=False,
        handler="interpreter",
        options=[
            Opt("-e --eval -p --print", value="required", role="code", ends=True),
            Opt(
                "-r --require --import --loader --experimental-loader --input-type "
                "--env-file --conditions -C --title --inspect-port",
                value="required",
            ),
            Opt(
                "-i --interactive -v --version -h --help -c --check --inspect "
                "--inspect-brk --watch --test --no-warnings --enable-source-maps "
                "--trace-warnings --experimental-vm-modules --expose-gc"
            ),
        ],
    ),
    Spec(
        "deno",
        "",
        subcommands={
            "run": Spec("run", "", operands=("exec", "none"), permute=False, handler="interpreter"),
            "eval": Spec("eval", "code_exec", operands="code"),
            "test": Spec("test", "test"),
            "fmt": Spec("fmt", "build write"),
            "lint": Spec("lint", "build"),
            "check": Spec("check", "build"),
            "task": Spec("task", "code_exec"),
            "install": Spec("install", "package_install"),
            "compile": Spec("compile", "build write"),
            "info": Spec("info", "read_only"),
        },
        default=Spec("deno", "code_exec"),
    ),
    Spec(
        "perl|perl5",
        "",
        operands=("exec", "none"),
        permute=False,
        handler="interpreter",
        options=[
            Opt("-e -E", value="required", role="code"),
            Opt("-i", value="optional", adds="write", operands="write"),
            Opt("-M -m -I -x -F -l -0 -d -D", value="optional"),
            Opt("-n -p -a -s -T -t -U -w -W -X -c -v -V -h -S -C"),
        ],
    ),
    Spec(
        "ruby|jruby|irb",
        "",
        operands=("exec", "none"),
        permute=False,
        handler="interpreter",
        options=[
            Opt("-e", value="required", role="code"),
            Opt("-r -I -C -E -F -x", value="required"),
            Opt("-i", value="optional", adds="write"),
            Opt("-n -p -a -l -s -w -W -v -c -d -y"),
        ],
    ),
    Spec(
        "php",
        "",
        operands=("exec", "none"),
        permute=False,
        handler="interpreter",
        options=[
            Opt("-r", value="required", role="code"),
            Opt("-f", value="required", role="exec"),
            Opt("-S", value="required", adds="network process_control"),
            Opt("-d -c -t -z", value="required"),
        ],
    ),
    Spec(
        "lua|luajit|tclsh|wish|expect|julia|Rscript|R|octave|guile|racket|sbcl|clisp|"
        "scheme|ocaml|erl|elixir|iex|groovy|jshell|kotlin|scala|swipl|gforth|awk-script|"
        "osascript|pwsh|powershell|cscript|wscript|nu|elvish|xonsh|janet|gawk-script",
        "",
        operands=("exec", "none"),
        permute=False,
        handler="interpreter",
        options=[
            Opt(
                "-e -c --eval -E -Command -command -ex --exec --expression",
                value="required",
                role="code",
            )
        ],
    ),
    Spec(
        "java",
        "code_exec",
        operands=("exec", "none"),
        permute=False,
        options=[
            Opt("-jar", value="required", role="exec", ends=True),
            Opt(
                "-cp -classpath --class-path -p --module-path -m --module "
                "--add-opens --add-exports -agentlib -agentpath -javaagent",
                value="required",
            ),
        ],
        single_dash_long=True,
    ),
]
