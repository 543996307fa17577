"""Shells and language interpreters: code from a file, from the command line, or from stdin.

The ``interpreter`` handler decides where the program comes from: a script operand (a file
clearance cannot see: ``code_exec``), inline code (``inline_code``), or standard input
(``stdin_code`` -- analysed as a script when the input is known text and the program a shell).
"""

from __future__ import annotations

from clearance.shellparse.handlers import build, interpreters, packages
from clearance.shellparse.spec import Opt, Spec, opts

_SHELL_OPTIONS = [
    Opt("-c", role="shell", value="required", ends=True),
    # start-up files the shell runs before anything else
    Opt("--rcfile --init-file", value="required", role="exec"),
    *opts("-o -O", value="required"),
    Opt("-s"),
]
_SHELL_FLAGS = (
    "-i -l/--login -e -u -x -v -n -f -h -m -p -r -a -b -B -C -E -H -k -P -T --norc "
    "--noprofile --posix --restricted --noediting --verbose --debugger --dump-strings "
    "--dump-po-strings --pretty-print --version --help"
)

_DENO_RUN_FLAGS = (
    "-A/--allow-all --allow-read=? --allow-write=? --allow-net=? --allow-env=? --allow-run=? "
    "--allow-ffi=? --allow-sys=? --allow-import=? --deny-read=? --deny-write=? "
    "--deny-net=? --deny-env=? --deny-run=? -q/--quiet --watch=? --reload=? --no-check=? "
    "--unstable -c/--config= --import-map= --lock=? --no-lock --cert= --v8-flags= --seed= "
    "--location= --env-file=? --no-prompt --node-modules-dir=? --cached-only"
)

_DENO_TEST_FLAGS = (
    " --filter= --coverage=? --doc --parallel --fail-fast=? --reporter= --trace-leaks "
    "--shuffle=? --permit-no-files --clean --junit-path= --hide-stacktraces --no-run "
    "--ignore= --json --ext= --trace-ops"
)
_DENO_FMT_FLAGS = (
    "--check --fail-fast -c/--config= --no-config --ext= --ignore= --line-width= "
    "--indent-width= --single-quote --prose-wrap= --no-semicolons --use-tabs -q/--quiet "
    "--watch=? --unstable-component --unstable-sql"
)
_DENO_LINT_FLAGS = (
    "--fix --rules --rules-tags= --rules-include= --rules-exclude= --json --compact "
    "--ignore= -c/--config= --no-config -q/--quiet --watch=? --permit-no-files"
)


def _interpreter(names: str, options: list[Opt] | None = None, flags: str = "") -> Spec:
    """A language interpreter: a script operand, then the script's own arguments (not
    parsed); the options whose role is ``code`` (``-c``, ``-e``) give the program inline. The
    ``interpreter`` handler decides where the program comes from (a file, the command line,
    standard input) and looks for command lines written into inline code."""
    return Spec(
        names,
        "",
        operands=("exec", "none"),
        permute=False,
        handler=interpreters.interpreter,
        options=options or (),
        flags=flags,
    )


# What ``python -m MODULE`` runs, for the modules that are not also programs of their own
# (``python -m pytest`` is looked up as ``pytest``). An unlisted module is an unknown program.
_PYTHON_MODULES = [
    Spec(
        "http.server",
        "network process_control",
        operands="none",
        options=[
            Opt("-d/--directory", value="required", role="read_tree"),
            Opt("--cgi", adds="code_exec"),
        ],
        flags="-b/--bind= -p/--protocol=",
    ),
    Spec(
        "venv|virtualenv",
        "write build",
        operands="write",
        flags="--system-site-packages --symlinks --copies --clear --upgrade --without-pip "
        "--prompt= --upgrade-deps --without-scm-ignore-files -p/--python=",
    ),
    Spec("unittest|doctest", "test", operands="none", flags="-v -q -f -c -b -k= -s= -p= -t="),
    Spec(
        "json.tool",
        "read_only",
        operands=("read", "write"),
        flags="--sort-keys --indent= --tab --no-indent --compact --json-lines --no-ensure-ascii",
    ),
    Spec(
        "compileall|py_compile",
        "build write",
        operands="read",
        flags="-l -r= -f -q -b -d= -s= -p= -x= -i= -j= --invalidation-mode= -o= -e=",
    ),
    Spec(
        "build",
        "build write",
        operands="read",
        options=[Opt("-o/--outdir", value="required", role="write")],
        flags="-s/--sdist -w/--wheel -n/--no-isolation -x/--skip-dependency-check "
        "-C/--config-setting= --installer=",
    ),
    Spec("twine", "network vcs_write"),
    Spec(
        "ensurepip", "package_install", flags="--upgrade --user --root= --altinstall --default-pip"
    ),
    Spec(
        "site|sysconfig|platform|this|tokenize|pydoc|tabnanny|pyclbr|calendar|"
        "base64|quopri|uu|filecmp|pickletools|dis|ast|inspect|locale|mimetypes|"
        "encodings.rot_13|sqlite3.dump",
        "read_only",
        operands="read",
    ),
    Spec(
        "zipfile|tarfile|gzip",
        "write",
        operands="read",
        options=[
            Opt("-e/--extract", value="required", role="read", operands="write"),
            Opt("-c/--create", value="required", role="write", operands="read"),
        ],
        flags="-l/--list= -t/--test= -v/--verbose -d/--decompress",
    ),
    # run the code they are given: a script, a statement, a REPL
    Spec(
        "timeit",
        "code_exec",
        operands="code",
        flags="-n/--number= -r/--repeat= -s/--setup= -p/--process -u/--unit= -v/--verbose",
    ),
    Spec(
        "cProfile|profile|pdb|trace|runpy|tracemalloc",
        "code_exec",
        operands=("exec", "none"),
        flags="-o= -s= -m= -c= --count --trace --listfuncs --trackcalls -C= --ignore-module= "
        "--ignore-dir=",
    ),
    Spec("code|asyncio|idlelib|IPython|jupyter|notebook|ptpython|bpython", "code_exec"),
    Spec("webbrowser", "code_exec network", operands="url", flags="-n -t"),
    Spec(
        "smtpd|smtplib|ftplib|telnetlib|poplib|imaplib|xmlrpc.server|wsgiref.simple_server|"
        "uvicorn|gunicorn|hypercorn|daphne|waitress|flask|django|streamlit|gradio",
        "network process_control code_exec",
    ),
    Spec("pip_audit|pipdeptree|pip_licenses", "read_only network"),
]

SPECS = [
    _interpreter(
        "sh|bash|dash|zsh|ksh|mksh|ash|yash|rbash|tcsh|csh|fish|busybox-sh",
        _SHELL_OPTIONS,
        _SHELL_FLAGS,
    ),
    Spec(
        "source|.",
        "code_exec",
        operands=("exec", "none"),
        permute=False,
        handler=interpreters.sourced,
    ),
    _interpreter(
        "python|python2|python3|pypy|pypy3|ipython|py",
        [
            Opt("-c", value="required", role="code", ends=True),
            Opt("-m", value="required", role="module", ends=True),
        ],
        "-W= -X= --check-hash-based-pycs= -b -bb -B -d -E -h/-?/--help --help-env "
        "--help-xoptions --help-all -i -I -O -OO -P -q -s -S -u -v -V/--version -x",
    ),
    _interpreter(
        "node|nodejs|tsx|ts-node|esno",
        [
            Opt("-e/--eval", value="required", role="code", ends=True),
            Opt("-p/--print", value="required", role="code", ends=True),
            # a module loaded before the program: code from wherever it is named
            *opts(
                "-r/--require --import --loader --experimental-loader",
                value="required",
                role="exec",
            ),
            *opts("--env-file --env-file-if-exists", value="required", role="read"),
            Opt("--run", value="required", adds="code_exec"),
        ],
        "--input-type= -C/--conditions= --title= --inspect-port= --inspect=? "
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
            "run": _interpreter("run", flags=_DENO_RUN_FLAGS),
            "eval": Spec("eval", "code_exec", operands="code"),
            # permissions granted to a test or benchmark run are the project's own tests'
            # (pytest has them all): known options, nothing added
            "test": Spec("test", "test", flags=_DENO_RUN_FLAGS + _DENO_TEST_FLAGS),
            "bench": Spec("bench", "test", flags=_DENO_RUN_FLAGS + _DENO_TEST_FLAGS),
            "fmt": Spec(
                "fmt",
                "build write",
                operands="write",
                flags=_DENO_FMT_FLAGS,
                handler=build.check_only,
            ),
            "lint": Spec("lint", "build", flags=_DENO_LINT_FLAGS),
            "check": Spec(
                "check", "build", flags=_DENO_RUN_FLAGS + " --all --remote --doc --doc-only"
            ),
            # ``deno task NAME``: a task of deno.json, judged by its name like ``npm run``
            "task": Spec(
                "task",
                "code_exec",
                permute=False,
                handler=packages.npm_run,
                flags="-c/--config= --cwd= -r/--recursive -f/--filter= -q/--quiet",
            ),
            "install": Spec("install", "package_install"),
            "add": Spec("add", "package_install network"),
            "remove": Spec("remove", "package_install"),
            "compile": Spec("compile", "build write"),
            "info": Spec("info", "read_only"),
            "doc": Spec("doc", "read_only", flags="--json --html --lint --filter= --private"),
            "types": Spec("types", "read_only"),
        },
        default=Spec("deno", "code_exec"),
    ),
    _interpreter(
        "perl|perl5",
        [
            Opt("-e", value="required", role="code"),
            Opt("-E", value="required", role="code"),
            Opt("-i", value="optional", adds="write", operands="write"),
            # ``-M``/``-m`` load a module, ``-I`` adds where modules come from
            *opts("-M -m", value="optional", adds="code_exec"),
        ],
        "-I=? -x=? -F=? -l=? -0=? -d=? -D=? -C=? -n -p -a -s -T -t -U -w -W -X -c -v/--version -V "
        "-h/--help -S",
    ),
    _interpreter(
        "ruby|jruby|irb",
        [
            Opt("-e", value="required", role="code"),
            Opt("-r", value="required", adds="code_exec"),
            Opt("-i", value="optional", adds="write", operands="write"),
            Opt("-C", value="required", role="cwd"),
        ],
        # ``-v`` alone prints the version and quits; before a script it also turns on warnings
        "-I= -E= -F= -x=? -W=? -n -p -a -l -s -w -v/--version -c -d -y -h/--help "
        "--disable-gems --jit --yjit --enable= --disable= --encoding=",
    ),
    _interpreter(
        "php",
        [
            *opts("-r -B -R -E", value="required", role="code"),
            *opts("-f -F -z", value="required", role="exec"),
            Opt("-S", value="required", adds="network process_control"),
            Opt("-t", value="required", role="read"),
            Opt("-c", value="required", role="read"),
            Opt("-l", adds="read_only"),
        ],
        "-d= -a -n -q -i -m -v/--version -s -w -H -h/--help -e",
    ),
    # ``lua -v`` alone prints the version (then runs a script if one is given)
    _interpreter("lua|luajit", opts("-e", value="required", role="code"), "-v/--version"),
    *(
        _interpreter(names, opts(code_options, value="required", role="code"))
        for names, code_options in (
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
            *opts(
                "-cp/-classpath/--class-path -p/--module-path -m/--module --add-opens "
                "--add-exports",
                value="required",
            ),
            # agents are code loaded into the program
            *opts("-agentlib -agentpath -javaagent", value="required", role="exec"),
        ],
        single_dash_long=True,
    ),
]

#: Specs of ``python -m`` modules, looked up apart from programs.
MODULES = _PYTHON_MODULES
