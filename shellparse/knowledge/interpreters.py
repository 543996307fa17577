"""Shells and language interpreters: code from a file, from the command line, or from stdin.

The ``interpreter`` handler decides where the program comes from: a script operand (a file
clearance cannot see: ``code_exec``), inline code (``inline_code``), or standard input
(``stdin_code`` -- analysed as a script when the input is known text and the program a shell).
"""

from __future__ import annotations

from clearance.shellparse.spec import Opt, Spec, opts

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
        ],
        flags="-W= -X= --check-hash-based-pycs= -b -bb -B -d -E -h -? --help --help-env "
        "--help-xoptions --help-all -i -I -O -OO -P -q -s -S -u -v -V --version -x",
    ),
    Spec(
        "node|nodejs|tsx|ts-node|esno",
        "",
        operands=("exec", "none"),
        permute=False,
        handler="interpreter",
        options=[
            Opt("-e/--eval", value="required", role="code", ends=True),
            Opt("-p/--print", value="required", role="code", ends=True),
            # a module loaded before the program: code from wherever it is named
            *opts(
                "-r/--require --import --loader --experimental-loader",
                value="required",
                role="exec",
            ),
            Opt("--env-file --env-file-if-exists", value="required", role="read"),
            Opt("--run", value="required", adds="code_exec"),
        ],
        flags="--input-type= -C/--conditions= --title= --inspect-port= --inspect=? "
        "--inspect-brk=? --inspect-wait=? -i/--interactive -v/--version -h/--help -c/--check "
        "--watch --watch-path= --test --test-name-pattern= --test-reporter= "
        "--no-warnings --enable-source-maps --trace-warnings --experimental-vm-modules "
        "--expose-gc --experimental-strip-types --no-experimental-strip-types "
        "--max-old-space-size= --stack-size= --unhandled-rejections= --trace-uncaught "
        "--no-deprecation --throw-deprecation --experimental-specifier-resolution= "
        "--experimental-modules --abort-on-uncaught-exception --preserve-symlinks",
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
            Opt("-e", value="required", role="code"),
            Opt("-E", value="required", role="code"),
            Opt("-i", value="optional", adds="write", operands="write"),
            # ``-M``/``-m`` load a module, ``-I`` adds where modules come from
            *opts("-M -m", value="optional", adds="code_exec"),
        ],
        flags="-I=? -x=? -F=? -l=? -0=? -d=? -D=? -C=? -n -p -a -s -T -t -U -w -W -X -c "
        "-v -V -h -S",
    ),
    Spec(
        "ruby|jruby|irb",
        "",
        operands=("exec", "none"),
        permute=False,
        handler="interpreter",
        options=[
            Opt("-e", value="required", role="code"),
            Opt("-r", value="required", adds="code_exec"),
            Opt("-i", value="optional", adds="write", operands="write"),
            Opt("-C", value="required", role="cwd"),
        ],
        flags="-I= -E= -F= -x=? -W=? -n -p -a -l -s -w -v -c -d -y --version -h --help "
        "--disable-gems --jit --yjit --enable= --disable= --encoding=",
    ),
    Spec(
        "php",
        "",
        operands=("exec", "none"),
        permute=False,
        handler="interpreter",
        options=[
            *opts("-r -B -R -E", value="required", role="code"),
            *opts("-f -F -z", value="required", role="exec"),
            Opt("-S", value="required", adds="network process_control"),
            Opt("-t", value="required", role="read"),
            Opt("-c", value="required", role="read"),
            Opt("-l", adds="read_only"),
        ],
        flags="-d= -a -n -q -i -m -v -s -w -H -h -e",
    ),
    *(
        Spec(
            names,
            "",
            operands=("exec", "none"),
            permute=False,
            handler="interpreter",
            options=opts(code_options, value="required", role="code"),
        )
        for names, code_options in (
            ("lua|luajit", "-e"),
            ("tclsh|wish|expect", "-c"),
            ("julia", "-e/--eval -E/--print"),
            ("Rscript", "-e"),
            ("R", "-e"),
            ("octave", "--eval"),
            ("guile|racket|sbcl|clisp|scheme", "-c -e --eval --expression"),
            ("ocaml", "-e"),
            ("erl", "-eval"),
            ("elixir|iex", "-e --eval"),
            ("groovy", "-e"),
            ("jshell|kotlin|scala|swipl|gforth|janet|nu|elvish|xonsh", "-c -e --eval -g"),
            ("osascript", "-e"),
            ("pwsh|powershell", "-c -Command -command -EncodedCommand -e -ec"),
            ("cscript|wscript", "-e"),
        )
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
