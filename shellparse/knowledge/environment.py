"""Environment variables that ride along with a command: which may, which run code.

An assignment that reaches a program's environment -- a prefix (``CI=1 npm test``), ``env
VAR=… cmd``, or ``export VAR=…`` earlier on the line -- is judged against ``FAMILIES``: the
first pattern (a shell glob over the name) that matches gives the verdict. A name no family
matches is unknown. Verdicts are a closed set:

``harmless``
    changes output, locale, verbosity or a mode, nothing that loads code or configuration;
``workspace_path``
    a search path (``PYTHONPATH=src``): harmless when every entry resolves inside the
    workspace, code otherwise (modules are loaded from there);
``command``
    the value is a shell command line the program runs (``PAGER``, ``GIT_SSH_COMMAND``): code,
    and the command is analysed too;
``code``
    the program loads or runs code of the variable's choosing, or reads its configuration (and
    so its hooks, aliases and helpers) from somewhere else (``LD_PRELOAD``, ``NODE_OPTIONS``,
    ``GIT_DIR``, ``HOME``).

``unknown`` (no family) becomes the ``unknown_env`` marker, ``command`` and ``code`` the
``env_code`` marker with the ``code_exec`` class.
"""

from __future__ import annotations

from clearance.shellparse.knowledge.patterns import first

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

VERDICTS = ("harmless", "workspace_path", "command", "code", "unknown")

#: Values of a ``command`` variable that only page or print: ``GIT_PAGER=cat git log``.
HARMLESS_COMMANDS = frozenset(
    ("", "cat", "less", "more", "less -R", "less -FRX", "less -FR", "less -r", "tee", "true")
)

#: Values that make a variable harmless, by name (the whole value, stripped): make's
#: parallelism and output flags (``MAKEFLAGS=-j8``; any other flag or an assignment may name
#: a shell or a makefile), and a compiler by its name, a cross compiler's target prefix, the
#: system's bin directories, ccache (``CC=clang``, ``CC=aarch64-linux-gnu-gcc``; another value
#: is what its family says: MAKEFLAGS code, the compilers unknown).
_COMPILER = (
    r"(?:(?:ccache|sccache)\s+)?(?:/usr(?:/local)?/bin/)?(?:[a-z0-9_]+-)*"
    r"(?:gcc|g\+\+|cc|c\+\+|clang|clang\+\+|clang-cl|tcc|icx|icpx|gfortran)(?:-[0-9]+(?:\.[0-9]+)*)?"
)
_MAKE_FLAGS = (
    r"(?:\s*(?:-j[0-9]*|--jobs(?:=[0-9]+)?|-l[0-9.]*|-k|--keep-going|-s|--silent|-w"
    r"|--no-print-directory|-O(?:line|target|recurse|none)?|--output-sync(?:=[a-z]+)?))*\s*"
)
HARMLESS_VALUES: dict[str, str] = {
    "MAKEFLAGS": _MAKE_FLAGS,
    "MFLAGS": _MAKE_FLAGS,
    "GNUMAKEFLAGS": _MAKE_FLAGS,
    "CC": _COMPILER,
    "CXX": _COMPILER,
    "HOSTCC": _COMPILER,
    "FC": _COMPILER,
}

#: (pattern, verdict): the first match wins, so specific names come before their family.
FAMILIES: tuple[tuple[str, str], ...] = (
    # --- commands run by the program (the value is a shell command line) -------------------
    *(
        (name, "command")
        for name in (
            "PROMPT_COMMAND",
            "GIT_SSH_COMMAND",
            "GIT_PAGER",
            "GIT_EDITOR",
            "GIT_SEQUENCE_EDITOR",
            "GIT_EXTERNAL_DIFF",
            "GIT_PROXY_COMMAND",
            "GIT_ASKPASS",
            "PAGER",
            "MANPAGER",
            "SYSTEMD_PAGER",
            "BAT_PAGER",
            "DELTA_PAGER",
            "GH_PAGER",
            "EDITOR",
            "VISUAL",
            "SUDO_EDITOR",
            "BROWSER",
            "LESSOPEN",
            "LESSCLOSE",
            "SSH_ASKPASS",
            "SUDO_ASKPASS",
            "FZF_DEFAULT_COMMAND",
        )
    ),
    # --- git: everything else that changes git's repository, config or programs is code ------
    *(
        (name, "harmless")
        for name in (
            "GIT_AUTHOR_NAME",
            "GIT_AUTHOR_EMAIL",
            "GIT_AUTHOR_DATE",
            "GIT_COMMITTER_NAME",
            "GIT_COMMITTER_EMAIL",
            "GIT_COMMITTER_DATE",
            "GIT_TERMINAL_PROMPT",
            "GIT_TRACE",
            "GIT_TRACE2",
            "GIT_CURL_VERBOSE",
            "GIT_FLUSH",
            "GIT_OPTIONAL_LOCKS",
            "GIT_MERGE_AUTOEDIT",
            "GIT_LFS_SKIP_SMUDGE",
            "GIT_PROGRESS_DELAY",
            "GIT_ADVICE",
            "GIT_DEFAULT_HASH",
        )
    ),
    ("GIT_*", "code"),  # GIT_DIR, GIT_WORK_TREE, GIT_CONFIG_*, GIT_EXEC_PATH, GIT_TEMPLATE_DIR…
    # --- loaders ----------------------------------------------------------------------------
    ("LD_*", "code"),
    ("DYLD_*", "code"),
    ("GCONV_PATH", "code"),
    ("GLIBC_TUNABLES", "code"),
    ("MALLOC_*", "code"),
    ("HOSTALIASES", "code"),
    ("RESOLV_HOST_CONF", "code"),
    ("LOCPATH", "code"),
    ("NLSPATH", "code"),
    # --- shells -----------------------------------------------------------------------------
    ("BASH_ENV", "code"),
    ("ENV", "code"),
    ("BASH_FUNC_*", "code"),
    ("BASHOPTS", "code"),
    ("SHELLOPTS", "code"),
    ("PS4", "code"),
    ("IFS", "code"),
    ("CDPATH", "code"),
    ("GLOBIGNORE", "code"),
    ("ZDOTDIR", "code"),
    ("INPUTRC", "code"),
    ("SHELL", "code"),
    # --- where programs read their configuration (and its hooks, aliases, helpers) ----------
    ("HOME", "code"),
    ("XDG_CONFIG_HOME", "code"),
    ("XDG_CONFIG_DIRS", "code"),
    ("XDG_DATA_HOME", "code"),
    ("XDG_DATA_DIRS", "code"),
    ("SSL_CERT_FILE", "code"),
    ("SSL_CERT_DIR", "code"),
    ("CURL_CA_BUNDLE", "code"),
    ("REQUESTS_CA_BUNDLE", "code"),
    ("CURL_HOME", "code"),
    ("WGETRC", "code"),
    ("*_CONFIG", "code"),  # KUBECONFIG-likes: RIPGREP_CONFIG_PATH is below too
    ("*_CONFIG_PATH", "code"),
    ("*_CONFIG_FILE", "code"),
    ("*_CONFIG_DIR", "code"),
    ("KUBECONFIG", "code"),
    ("DOCKER_HOST", "code"),
    ("DOCKER_CONFIG", "code"),
    # --- runtimes: options, start-up files, hooks, module paths outside the workspace -------
    ("JAVA_TOOL_OPTIONS", "code"),
    ("JDK_JAVA_OPTIONS", "code"),
    ("_JAVA_OPTIONS", "code"),
    ("*_OPTS", "code"),  # JAVA_OPTS, MAVEN_OPTS, GRADLE_OPTS, SBT_OPTS, ERL_*…
    ("*_OPTIONS", "code"),  # NODE_OPTIONS, DENO_*, …
    ("NODE_PATH", "workspace_path"),
    ("PYTHONPATH", "workspace_path"),
    ("PERL5LIB", "workspace_path"),
    ("PERLLIB", "workspace_path"),
    ("RUBYLIB", "workspace_path"),
    ("CLASSPATH", "workspace_path"),
    ("GOPATH", "workspace_path"),
    ("PYTHONDONTWRITEBYTECODE", "harmless"),
    ("PYTHONUNBUFFERED", "harmless"),
    ("PYTHONIOENCODING", "harmless"),
    ("PYTHONUTF8", "harmless"),
    ("PYTHONHASHSEED", "harmless"),
    ("PYTHONFAULTHANDLER", "harmless"),
    ("PYTHONDEVMODE", "harmless"),
    ("PYTHONWARNINGS", "harmless"),
    ("PYTHONTRACEMALLOC", "harmless"),
    ("PYTHON*", "code"),  # PYTHONSTARTUP, PYTHONHOME, PYTHONINSPECT, PYTHONUSERBASE…
    ("PERL5OPT", "code"),
    ("PERL5DB", "code"),
    ("PERL*", "code"),
    ("RUBYOPT", "code"),
    ("RUBY*", "code"),
    ("NODE_ENV", "harmless"),
    ("NODE_NO_WARNINGS", "harmless"),
    ("NODE_DEBUG", "harmless"),
    ("NODE_*", "code"),  # NODE_OPTIONS, NODE_EXTRA_CA_CERTS, NODE_REPL_EXTERNAL_MODULE…
    ("DOTNET_STARTUP_HOOKS", "code"),
    ("DOTNET_CLI_TELEMETRY_OPTOUT", "harmless"),
    ("DOTNET_NOLOGO", "harmless"),
    ("DOTNET_*", "code"),
    ("COMPlus_*", "code"),
    ("CORECLR_*", "code"),
    ("PHP_INI_*", "code"),
    ("PHPRC", "code"),
    ("LUA_PATH*", "code"),
    ("LUA_INIT*", "code"),
    ("R_PROFILE*", "code"),
    ("R_ENVIRON*", "code"),
    ("JULIA_*", "code"),
    ("ERL_*", "code"),
    ("ELIXIR_*", "code"),
    ("TCLLIBPATH", "code"),
    # --- package managers and build tools: registries, scripts, shells, hooks ---------------
    ("npm_config_*", "code"),
    ("NPM_CONFIG_*", "code"),
    ("YARN_*", "code"),
    ("PNPM_*", "code"),
    ("BUN_*", "code"),
    ("PIP_*", "code"),
    ("UV_*", "code"),
    ("POETRY_*", "code"),
    ("PIPENV_*", "code"),
    ("PDM_*", "code"),
    ("HATCH_*", "code"),
    ("CONDA_*", "code"),
    ("VIRTUAL_ENV", "code"),
    ("CARGO_TERM_COLOR", "harmless"),
    ("CARGO_INCREMENTAL", "harmless"),
    ("CARGO_*", "code"),  # CARGO_HOME, CARGO_BUILD_RUSTC_WRAPPER, CARGO_TARGET_*_RUNNER…
    ("RUSTC_WRAPPER", "code"),
    ("RUSTUP_*", "code"),
    ("GOFLAGS", "code"),
    ("GOTESTFLAGS", "code"),
    ("GOPROXY", "code"),
    ("GONOSUMDB", "code"),
    ("GONOSUMCHECK", "code"),
    ("GOINSECURE", "code"),
    ("GOPRIVATE", "code"),
    ("GOTOOLCHAIN", "code"),
    ("GOOS", "harmless"),
    ("GOARCH", "harmless"),
    ("CGO_ENABLED", "harmless"),
    ("GO111MODULE", "harmless"),
    ("GOMAXPROCS", "harmless"),
    ("MAKEFLAGS", "code"),
    ("MAKEFILES", "code"),
    ("MFLAGS", "code"),
    ("GNUMAKEFLAGS", "code"),
    ("GRADLE_*", "code"),
    ("MAVEN_*", "code"),
    ("ANT_*", "code"),
    ("SBT_*", "code"),
    ("BUNDLE_*", "code"),
    ("GEM_*", "code"),
    ("COMPOSER_*", "code"),
    ("NUGET_*", "code"),
    ("DENO_*", "code"),
    # --- test runners -----------------------------------------------------------------------
    ("PYTEST_ADDOPTS", "code"),
    ("PYTEST_PLUGINS", "code"),
    ("PYTEST_*", "code"),
    ("TOX_*", "code"),
    ("NOX_*", "code"),
    ("JEST_*", "code"),
    ("VITEST_*", "code"),
    ("MOCHA_*", "code"),
    ("CYPRESS_*", "code"),
    ("PLAYWRIGHT_*", "code"),
    ("RSPEC_*", "code"),
    ("HYPOTHESIS_PROFILE", "harmless"),
    # --- harmless: CI flags, modes, output, locale, time, verbosity -------------------------
    ("CI", "harmless"),
    ("CONTINUOUS_INTEGRATION", "harmless"),
    ("GITHUB_ACTIONS", "harmless"),
    ("BUILDKITE", "harmless"),
    ("DEBIAN_FRONTEND", "harmless"),
    ("FORCE_COLOR", "harmless"),
    ("NO_COLOR", "harmless"),
    ("CLICOLOR", "harmless"),
    ("CLICOLOR_FORCE", "harmless"),
    ("COLORTERM", "harmless"),
    ("TERM", "harmless"),
    ("COLUMNS", "harmless"),
    ("LINES", "harmless"),
    ("TZ", "harmless"),
    ("LANG", "harmless"),
    ("LANGUAGE", "harmless"),
    ("LC_*", "harmless"),
    ("RUST_LOG", "harmless"),
    ("RUST_BACKTRACE", "harmless"),
    ("RUST_TEST_THREADS", "harmless"),
    ("RUST_MIN_STACK", "harmless"),
    ("DEBUG", "harmless"),
    ("VERBOSE", "harmless"),
    ("LOG_LEVEL", "harmless"),
    ("LOGLEVEL", "harmless"),
    ("ENVIRONMENT", "harmless"),
    ("APP_ENV", "harmless"),
    ("RAILS_ENV", "harmless"),
    ("RACK_ENV", "harmless"),
    ("MIX_ENV", "harmless"),
    ("FLASK_ENV", "harmless"),
    ("FLASK_DEBUG", "harmless"),
    ("DJANGO_SETTINGS_MODULE", "harmless"),
    ("BABEL_ENV", "harmless"),
    ("SOURCE_DATE_EPOCH", "harmless"),
    ("TMPDIR", "harmless"),
    ("TEMP", "harmless"),
    ("TMP", "harmless"),
    ("HYPERFINE_*", "code"),
    ("NEXT_TELEMETRY_DISABLED", "harmless"),
    ("HOMEBREW_NO_AUTO_UPDATE", "harmless"),
    ("HOMEBREW_NO_ANALYTICS", "harmless"),
    ("PIPX_*", "code"),
    ("UPDATE_SNAPSHOTS", "harmless"),
    ("SNAPSHOT_UPDATE", "harmless"),
    ("INSTA_UPDATE", "harmless"),
    ("INSTA_FORCE_PASS", "harmless"),
    ("TEST_*", "harmless"),
    ("OMP_NUM_THREADS", "harmless"),
    ("MKL_NUM_THREADS", "harmless"),
    ("CUDA_VISIBLE_DEVICES", "harmless"),
    ("JOBS", "harmless"),
    ("NUM_JOBS", "harmless"),
    ("PORT", "harmless"),
    ("HOST", "harmless"),
    ("USER", "harmless"),
    ("LOGNAME", "harmless"),
    ("PWD", "harmless"),
    ("OLDPWD", "harmless"),
    ("SHLVL", "harmless"),
    ("HISTFILE", "harmless"),
    ("HISTSIZE", "harmless"),
    ("HISTFILESIZE", "harmless"),
    ("HISTCONTROL", "harmless"),
    ("TIMEFORMAT", "harmless"),
    ("POSIXLY_CORRECT", "harmless"),
    ("GPG_TTY", "harmless"),
    # --- the clouds' CLIs: which profile, project or region (the command itself is judged) --
    ("AWS_PAGER", "command"),
    ("AWS_PROFILE", "harmless"),
    ("AWS_REGION", "harmless"),
    ("AWS_DEFAULT_REGION", "harmless"),
    ("AWS_DEFAULT_OUTPUT", "harmless"),
    ("AWS_PAGE_SIZE", "harmless"),
    ("CLOUDSDK_CORE_PROJECT", "harmless"),
    ("CLOUDSDK_COMPUTE_REGION", "harmless"),
    ("CLOUDSDK_COMPUTE_ZONE", "harmless"),
    ("CLOUDSDK_CORE_DISABLE_PROMPTS", "harmless"),
    ("GOOGLE_CLOUD_PROJECT", "harmless"),
    ("AZURE_CORE_OUTPUT", "harmless"),
    ("AZURE_CORE_NO_COLOR", "harmless"),
)


def family_verdict(name: str) -> str:
    """The verdict of the first family whose pattern matches ``name`` (``unknown`` if none).
    A name a family names itself is looked up first: the table never lists a name after a
    pattern that matches it with another verdict (a test holds it). ``FAMILIES`` is looked up
    through the generated ``_index`` (``patterns.split`` of it), not scanned."""
    from clearance.shellparse.knowledge._index import ENVIRONMENT

    hit = first(ENVIRONMENT, name)
    return "unknown" if hit is None else hit[1]


def judge(
    name: str,
    value: str | None,
    dynamic: bool,
    inside_workspace: Callable[[str], bool | None],
) -> str:
    """The verdict for ``name=value`` riding along with a command: ``harmless``, ``command``,
    ``code`` or ``unknown``.

    ``inside_workspace(path) -> bool | None`` says where one entry of a search path lies;
    ``dynamic``: the value is not in the text.
    """
    verdict = family_verdict(name)
    harmless = HARMLESS_VALUES.get(name)
    if harmless is not None and value is not None and not dynamic:
        import re

        if re.fullmatch(harmless, value.strip()):
            return "harmless"
    if verdict == "command":
        if value is not None and not dynamic and value.strip() in HARMLESS_COMMANDS:
            return "harmless"
        return "command"
    if verdict != "workspace_path":
        return verdict
    if value is None:
        return "harmless"
    own = ("$" + name, "${" + name + "}")
    for entry in value.split(":"):
        if entry in own or entry == "":
            continue  # the value it already had: the user's own environment
        if dynamic and "$" in entry:
            return "unknown"
        if inside_workspace(entry) is not True:
            return "code"
    return "harmless"


def named(name: str) -> bool:
    """Whether a family names ``name`` itself rather than by a pattern (``HOME``, not
    ``*_OPTIONS``): such names are usually exported already, so even a plain assignment
    (``HOME=/tmp; git log``) reaches the programs run after it."""
    from clearance.shellparse.knowledge._index import ENVIRONMENT

    return name in ENVIRONMENT[0]
