"""Package managers and the runners that fetch and execute packages."""

from __future__ import annotations

from clearance.shellparse.handlers import build, packages, system
from clearance.shellparse.spec import Opt, Spec, opts, runs_command, shared, sub, verbs

_INSTALL = "package_install network"
_SCRIPT = "code_exec"

# npm-style script names that are the project's own tests, builds and linters.
TEST_SCRIPTS = frozenset(("test", "tests", "test:unit", "test:ci", "unit", "e2e", "spec"))
BUILD_SCRIPTS = frozenset(
    (
        "build",
        "lint",
        "lint:fix",
        "format",
        "fmt",
        "typecheck",
        "type-check",
        "check",
        "tsc",
        "compile",
        "prettier",
        "eslint",
        "check-types",
        "verify",
        "ci",
    )
)

# Options every npm-like command accepts. ``--script-shell`` names the program scripts run
# under, ``--node-options`` what node loads: both are code. ``-g`` makes an install
# system-wide.
_NODE_OPTIONS = [
    *opts("-C/--prefix --dir --cwd", value="required", role="cwd"),
    *opts("-g/--global --location", adds="system"),
    Opt("--script-shell", value="required", role="exec"),
    Opt("--node-options", value="required", adds="code_exec"),
    Opt("--registry", value="required", role="url"),
    *opts("--userconfig --globalconfig", value="required", role="read"),
]
#: The same for the commands that only list or print: ``npm ls -g`` reads the global tree.
_NODE_READ_OPTIONS = [
    *(o for o in _NODE_OPTIONS if o.name not in ("--global", "--location")),
    *opts("-g/--global --location"),
]
_NODE_FLAGS = (
    "-w/--workspace= --filter/-F= --workspaces -ws --include-workspace-root "
    "-r/--recursive -y/--yes --no -f/--force -D/--save-dev/--dev -P/--save-prod/--prod "
    "-O/--save-optional/--optional -E/--save-exact/--exact -B/--save-bundle --no-save "
    "-S/--save --dry-run --omit= --include= --legacy-peer-deps --strict-peer-deps "
    "--production --loglevel= -s/--silent -q/--quiet -d -dd --json --parseable "
    "-l/--long --depth= --tag= --access= --otp= --scope= --audit --no-audit --fund "
    "--no-fund --package-lock --no-package-lock --package-lock-only --foreground-scripts "
    "--if-present --ignore-scripts --before= --engine-strict --strict-ssl --color=? "
    "--no-color --progress --no-progress --unicode --update-notifier --offline "
    "--prefer-offline --prefer-online --frozen-lockfile --no-frozen-lockfile "
    "--immutable --pure-lockfile --check-files --network-timeout= --cache= --cache-dir= "
    "--ignore-engines --non-interactive --mutex= --stream --parallel --sequential "
    "--reporter= --aggregate-output --workspace-root -W --shamefully-hoist "
    "--lockfile-only --fix-lockfile --resolution-only --reporter-hide-prefix "
    "--use-stderr --report-summary --changed-files-ignore-pattern= --test-pattern= "
    "--fail-if-no-match --no-bail --bail --sort --no-sort --resume-from= "
    "-v/--version -h/--help --verbose"
)
#: Publishing a package (npm, bun, uv, poetry, cargo): it goes to a registry (a network write,
#: a release of the project); ``--dry-run`` / ``-n`` only packs and checks it.
_PUBLISH = sub("publish", "network network_write vcs_write", "--dry-run -n", handler=system.dry_run)
#: ``poetry run``, ``pipenv run``, ``bundle exec``: a command run in the project's environment
#: (judged on its own; the environment is the project's, installed by its own verbs).
_IN_ENVIRONMENT = runs_command("run|exec", "")
_NPM_RUN = sub("run", _SCRIPT, operands=("none", "none"), handler=packages.npm_run, permute=False)


_INSTALL_SPEC = sub(
    "install",
    _INSTALL,
    operands="none",
    options=list(_NODE_OPTIONS),
    flags=_NODE_FLAGS,
    abbrev=True,
)
_RUNNER_OPTIONS = [
    Opt("-c/--call", value="required", role="shell"),
    Opt("-p/--package", value="required"),
    *_NODE_OPTIONS,
]
_FETCHER = runs_command(
    "dlx",
    "package_install network",
    options=[
        Opt("-c/--shell-mode", value="required", role="shell"),
        Opt("-p/--package", value="required"),
    ],
)
#: What npm, pnpm and yarn share (built once: three copies would cost start-up time).
#: The options every poetry command takes that change nothing a policy cares about.
_POETRY_FLAGS = (
    " -h/--help -q/--quiet -V/--version --ansi --no-ansi -n/--no-interaction "
    "--no-plugins --no-cache -v/--verbose -vv -vvv"
)

#: ``npm config get KEY`` prints the value, a credential's too (``//registry/:_authToken``).
_CONFIG_GET = sub("get", "read_only", handler=packages.config_get)

_NODE_SUBCOMMANDS: dict[str, Spec] = {
    **dict.fromkeys(
        (
            "install",
            "i",
            "ci",
            "add",
            "isntall",
            "update",
            "up",
            "upgrade",
            "dedupe",
            "rebuild",
            "rb",
            "link",
            "ln",
            "import",
            "prune",
            "install-test",
            "it",
            "install-ci-test",
            "cit",
            "fetch",
        ),
        _INSTALL_SPEC,
    ),
    **shared(
        ("uninstall", "remove", "rm", "un", "unlink", "r"),
        "package_install write",
        flags=_NODE_FLAGS,
        options=_NODE_OPTIONS,
        abbrev=True,
    ),
    **shared(
        (
            "ls",
            "list",
            "ll",
            "la",
            "why",
            "explain",
            "outdated",
            "help",
            "help-search",
            "-v",
            "--version",
            "root",
            "bin",
            "prefix",
            "fund",
            "doctor",
            "licenses",
            "query",
            "sbom",
            "find-dupes",
            "completion",
        ),
        "read_only",
        flags=_NODE_FLAGS + " -a/--all --all-workspaces --omit-lockfile-deps --package-lock-only",
        options=_NODE_READ_OPTIONS,
        abbrev=True,
    ),
    # ``npm version`` prints the versions; ``npm version patch|1.2.3`` rewrites package.json,
    # commits and tags, running the package's version scripts
    "version": sub(
        "version",
        "read_only",
        flags=_NODE_FLAGS + " --no-git-tag-version --allow-same-version --preid= -m/--message= "
        "--sign-git-tag --commit-hooks --no-commit-hooks",
        options=_NODE_READ_OPTIONS,
        abbrev=True,
        handler=packages.npm_version,
    ),
    # pnpm's content store: where it is and whether it is sound; ``prune``/``add`` change it
    "store": sub(
        "store",
        "write",
        subcommands=shared(("path", "status"), "read_only", _NODE_FLAGS),
        default=sub("store", "write"),
    ),
    # ``npm pkg get KEY`` prints package.json; ``set``/``delete``/``fix`` rewrite it
    "pkg": sub(
        "pkg",
        "write",
        subcommands=shared(("get",), "read_only", _NODE_FLAGS + " --json"),
        default=sub("pkg", "write"),
    ),
    # a package's metadata asked of the registry: a name goes out, nothing local
    **shared(
        ("view", "info", "show", "v", "search", "s", "se", "find"),
        "read_only network network_read",
        flags=_NODE_FLAGS,
        options=_NODE_READ_OPTIONS,
        abbrev=True,
    ),
    **shared(
        (
            "audit",
            "ping",
            "whoami",
            "dist-tag",
            "repo",
            "docs",
            "bugs",
            "home",
            "stars",
            "diff",
        ),
        "read_only network",
        flags=_NODE_FLAGS,
        options=_NODE_OPTIONS,
        abbrev=True,
    ),
    **shared(("test", "t", "tst"), "test", flags=_NODE_FLAGS, options=_NODE_OPTIONS, abbrev=True),
    **verbs(
        {
            "start stop restart workspaces recursive": _SCRIPT,
            "create": "package_install network write",
            "init shrinkwrap cache": "write",
            "unpublish": "network vcs_destructive",
            "deprecate undeprecate owner access team org hook": "network vcs_write",
            "star unstar": "network",
            "pack": "build write",
            "edit": "write code_exec",
            "set": "system",
            "login adduser logout": "network system",
            "token profile": "secret_read network",
        }
    ),
    "run": _NPM_RUN,
    "run-script": _NPM_RUN,
    "rum": _NPM_RUN,
    "urn": _NPM_RUN,
    "dlx": _FETCHER,
    "publish": _PUBLISH,
    # runs a shell in a package's directory
    "explore": sub("explore", "code_exec", operands=("none", "shell_words")),
    "get": _CONFIG_GET,
    "config": sub(
        "config",
        "read_only",
        subcommands={
            **verbs({"set delete edit fix": "system", "list": "read_only"}),
            "get": _CONFIG_GET,
        },
        default=sub("config", "read_only"),
    ),
    "workspace": sub("workspace", _SCRIPT, operands=("none", "command"), permute=False),
}


def _node_pm(name: str, *, implicit_run: bool, local_exec: bool) -> Spec:
    """npm, pnpm, yarn: the same verbs, a few differences.

    ``implicit_run``: ``pnpm build`` runs the ``build`` script (npm refuses an unknown verb);
    ``local_exec``: ``pnpm exec`` runs an installed binary, ``npm exec`` may fetch one.
    """
    runner = runs_command(
        "exec",
        "" if local_exec else "package_install network",
        options=_RUNNER_OPTIONS,
        flags=_NODE_FLAGS,
    )
    return Spec(
        name,
        "",
        subcommands={
            **_NODE_SUBCOMMANDS,
            "exec": runner,
            "x": runs_command(
                "x",
                "package_install network",
                options=_RUNNER_OPTIONS,
                flags=_NODE_FLAGS,
            ),
        },
        default=(
            sub(name, _SCRIPT, handler=packages.npm_run_implicit)
            if implicit_run
            else sub(name, "unknown")
        ),
        options=_NODE_OPTIONS,
        flags=_NODE_FLAGS,
        abbrev=True,
        handler=packages.npm_global,
    )


_PIP_GENERAL = (
    "-h/--help --debug --isolated --require-virtualenv --python= -v/--verbose -V/--version "
    "-q/--quiet --no-input --keyring-provider= --proxy= --retries= --timeout= "
    "--exists-action= --cert= --client-cert= --cache-dir= --no-cache-dir "
    "--disable-pip-version-check --no-color --no-python-version-warning --use-feature= "
    "--use-deprecated= --resume-retries="
)
_PIP_INSTALL = [
    *opts("-r/--requirement -c/--constraint --report", value="required", role="read"),
    Opt("-e/--editable", value="required", role="url_or_path"),
    *opts("-t/--target --prefix --root --src", value="required", role="write"),
    *opts("-i/--index-url --extra-index-url", value="required", role="url"),
    Opt("-f/--find-links", value="required", role="url_or_path"),
    Opt("--trusted-host", value="required", role="host"),
    *opts("--break-system-packages --user", adds="system"),
]
_PIP_INSTALL_FLAGS = (
    _PIP_GENERAL + " -U/--upgrade --upgrade-strategy= --force-reinstall -I/--ignore-installed "
    "--no-deps --pre --no-index --no-binary= --only-binary= --prefer-binary --require-hashes "
    "--no-build-isolation --use-pep517 --no-use-pep517 --check-build-dependencies "
    "-C/--config-settings= --global-option= --dry-run --no-warn-script-location "
    "--no-warn-conflicts --progress-bar= --root-user-action= --compile --no-compile "
    "--platform= --python-version= --implementation= --abi= --group= --no-clean "
    "--ignore-requires-python -d/--dest= --no-index"
)

_CARGO_OPTIONS = [
    *opts("--target-dir --artifact-dir --out-dir", value="required", role="write"),
    Opt("--manifest-path", value="required", role="cwd_file"),
    Opt("--lockfile-path", value="required", role="read"),
    Opt("--config", value="required", adds="code_exec"),
]
_CARGO_FLAGS = (
    "-p/--package= --workspace --all --exclude= --lib --bins --bin= --examples --example= "
    "--tests --test= --benches --bench= --all-targets -F/--features= --all-features "
    "--no-default-features -r/--release --profile= -j/--jobs= --target= "
    "--message-format= --keep-going --timings=? --future-incompat-report "
    "--ignore-rust-version --frozen --locked --offline -v/--verbose -q/--quiet --color= "
    "-Z= --unit-graph --build-plan -e/--edges= -i/--invert= --depth= --prefix= "
    "--no-dedupe -d/--duplicates --charset= --format= --open --no-deps --document-private-items "
    "--fix --allow-dirty --allow-staged"
)

# ``-toolexec`` runs every compiler tool through a program of the caller's choosing.
_GO_OPTIONS = [
    Opt("-o", value="required", role="write"),
    Opt("-C", value="required", role="cwd"),
    Opt("-toolexec", value="required", role="shell"),
    Opt("-modfile -overlay -pgo", value="required", role="read"),
]
_GO_FLAGS = (
    "-a -n -p= -race -msan -asan -cover -covermode= -coverpkg= -v -work -x -asmflags= "
    "-buildmode= -buildvcs=? -compiler= -gccgoflags= -gcflags= -installsuffix= -ldflags= "
    "-linkshared -mod= -modcacherw -pkgdir= -tags= -trimpath -json -m -u -f= -e -deps "
    "-test -export -find -compiled -retracted -reuse= -versions"
)
_GO_TEST_FLAGS = (
    "-run= -bench= -benchtime= -benchmem -count= -cpu= -failfast -fullpath -list= "
    "-parallel= -short -shuffle= -skip= -timeout= -vet= -fuzz= -fuzztime= -fuzzminimizetime= "
    "-covermode= -coverpkg= -c -i -json"
)

_UV_FLAGS = (
    "--cache-dir= -n/--no-cache -q/--quiet -v/--verbose --color= --native-tls --offline "
    "--no-progress --python-preference= --no-python-downloads --allow-insecure-host= "
    "--no-config --index= --default-index= -i/--index-url= --extra-index-url= "
    "-f/--find-links= --index-strategy= --keyring-provider= --resolution= --prerelease= "
    "--exclude-newer= --link-mode= --compile-bytecode --refresh --refresh-package= "
    "--reinstall --reinstall-package= --upgrade -U --upgrade-package= -P= "
    "--no-build-isolation --no-sources --managed-python --no-managed-python -h/--help "
    "-V/--version"
)
#: conda/mamba options that choose the environment, channels and how it prints (a channel
#: is where code comes from: installs ask anyway).
_CONDA_FLAGS = (
    "-y/--yes --dry-run -q/--quiet -v/--verbose --json --offline -c/--channel= "
    "--override-channels --strict-channel-priority --no-deps --only-deps --freeze-installed "
    "--update-deps --all --no-pin --force-reinstall --copy --clone= --file= --explicit "
    "--export --md5 --revisions --show-channel-urls --canonical --full-name --no-pip "
    "-f/--full-name --use-local --solver= --experimental-solver= --no-default-packages "
    "--no-banner -h/--help -V/--version --override-frozen --satisfied-skip-solve "
    "--platform= --subdir= --repodata-fn= --insecure --no-channel-priority --debug "
    "--console= --no-rc"
)
_CONDA_OPTIONS = [*opts("-n/--name -p/--prefix", value="required")]
#: rustup's toolchain selection and output options.
_RUSTUP_FLAGS = (
    "--toolchain= --profile= -c/--component= -t/--target= --no-self-update --force "
    "--force-non-host --allow-downgrade -v/--verbose -q/--quiet --installed --default "
    "--path= --nonexistent -h/--help -V/--version"
)

#: Options of uv's project commands (add, remove, sync, lock, export, tree, version, init,
#: venv, pip …) that choose what is resolved, where, and how it is printed.
_UV_PROJECT = _UV_FLAGS + (
    " --dev --group= --optional= --editable --raw/--raw-sources --bounds= --rev= --tag= "
    "--branch= --extra= --all-extras --no-extra= --no-dev --only-dev --only-group= "
    "--no-group= --no-default-groups --all-groups --frozen --locked --no-sync --active "
    "--package= --script= -p/--python= --workspace --no-workspace --no-install-project "
    "--no-install-workspace --no-install-package= --no-editable --inexact --exact --check "
    "--dry-run --format= --no-hashes --no-header --no-annotate --prune= --all-packages "
    "--bump= --short --output-format= --lib --app --no-package --bare --name= --vcs= "
    "--build-backend= --no-readme --author-from= --pin-python --no-pin-python --seed "
    "--prompt= --system-site-packages --relocatable --allow-existing --clear --marker= "
    "-m= --no-binary= --only-binary= --require-hashes --verify-hashes --no-verify-hashes "
    "--strict --invert --depth= --universal --outdated --show-sizes --no-dedupe "
    "--python-platform= --python-version= --no-strip-extras --no-strip-markers "
    "--emit-index-url --no-emit-package= --generate-hashes --annotation-style= "
    "--custom-compile-command= --all --upgrade-group= --no-emit-project --no-emit-workspace "
    "--only-emit-package= --editable= --preview --preview-features= --no-build "
    "--no-build-package= --config-setting= -C= --exclude= --no-deps --user --force "
    "--reinstall --with= --with-editable= --from= --lfs --index-url= --build-constraints= "
    "--overrides= --excludes= --torch-backend="
)
_UV_OPTIONS = [
    *opts("-o/--output-file", value="required", role="write"),
    *opts("--directory --project", value="required", role="cwd"),
    *opts(
        "-r/--requirement/--requirements -c/--constraint --with-requirements --env-file",
        value="required",
        role="read",
    ),
    # where an install lands: elsewhere than the project's environment
    *opts("--target --prefix", value="required", role="write"),
    *opts("--system --break-system-packages", adds="system"),
]


def _uv(name: str, classes: str, **kwargs: object) -> Spec:
    """A uv project command: the project options, and what ``kwargs`` add."""
    return sub(name, classes, _UV_PROJECT, options=_UV_OPTIONS, **kwargs)


SPECS = [
    _node_pm("npm", implicit_run=False, local_exec=False),
    _node_pm("pnpm", implicit_run=True, local_exec=True),
    _node_pm("yarn", implicit_run=True, local_exec=True),
    Spec(
        "bun",
        "",
        subcommands={
            "run": sub(
                "run", _SCRIPT, operands=("none", "none"), handler=packages.npm_run, permute=False
            ),
            **verbs(
                {
                    "test": "test",
                    "remove rm": "package_install write",
                    "init": "write",
                    "create": "package_install network write",
                    "pm": "read_only",
                    "outdated": "read_only network",
                    "upgrade": "package_install network system",
                    "link": _INSTALL,
                }
            ),
            **shared(
                ("install", "i", "add", "update"), _INSTALL, _NODE_FLAGS, options=_NODE_OPTIONS
            ),
            "x": runs_command("x", "package_install network"),
            "build": sub(
                "build",
                "build write",
                options=[*opts("--outdir --outfile", value="required", role="write")],
            ),
            "publish": _PUBLISH,
        },
        # ``bun file.ts`` runs a file; ``bun build`` a script of that name.
        default=sub("bun", _SCRIPT, handler=packages.npm_run_implicit),
        options=[
            *opts("-e/--eval -p/--print", value="required", role="code", ends=True),
            Opt("--cwd", value="required", role="cwd"),
        ],
        flags="--watch --hot --smol -r/--preload= --env-file= --silent --bun "
        "-v/--version -h/--help --revision",
    ),
    runs_command(
        "npx|pnpx|bunx",
        "package_install network",
        options=[
            Opt("-c/--call", value="required", role="shell"),
            Opt("-p/--package", value="required"),
        ],
        flags="-y/--yes --no -q/--quiet --ignore-existing --prefer-offline --prefer-online "
        "--offline -w/--workspace= --workspaces --include-workspace-root --registry= "
        "--node-options= --shell= --bun",
        handler=packages.npx,
    ),
    Spec("corepack", "package_install network"),
    # Python
    Spec(
        "pip|pip3",
        "",
        subcommands={
            "install": sub(
                "install",
                _INSTALL,
                options=_PIP_INSTALL,
                flags=_PIP_INSTALL_FLAGS,
                abbrev=True,
                handler=packages.pip_install,
            ),
            "download": sub(
                "download",
                "network write",
                options=_PIP_INSTALL,
                flags=_PIP_INSTALL_FLAGS,
                abbrev=True,
            ),
            "uninstall": sub(
                "uninstall",
                "package_install write",
                options=[
                    Opt("-r/--requirement", value="required", role="read"),
                    Opt("--break-system-packages", adds="system"),
                ],
                flags=_PIP_GENERAL + " -y/--yes --root-user-action=",
                abbrev=True,
            ),
            "wheel": sub(
                "wheel",
                "build network write",
                options=[*_PIP_INSTALL, Opt("-w/--wheel-dir", value="required", role="write")],
                flags=_PIP_INSTALL_FLAGS,
                abbrev=True,
            ),
            **shared(
                (
                    "list",
                    "show",
                    "freeze",
                    "check",
                    "help",
                    "debug",
                    "inspect",
                    "hash",
                    "--version",
                    "-V",
                ),
                "read_only",
                flags=_PIP_GENERAL + " --path= --user --local "
                "-o/--outdated -u/--uptodate -e/--editable --format= --not-required "
                "--exclude-editable --include-editable --exclude= -f/--files "
                "--all --pre",
                abbrev=True,
            ),
            **verbs({"search index": "read_only network network_read", "config": "system"}),
            # where the cache is and what it holds; ``purge``/``remove`` empty it
            "cache": sub(
                "cache",
                "delete",
                subcommands=shared(
                    ("dir", "list", "info"), "read_only", _PIP_GENERAL + " --format="
                ),
                default=sub("cache", "delete"),
            ),
        },
        default=sub("pip", "unknown"),
        flags=_PIP_GENERAL,
        abbrev=True,
    ),
    Spec(
        "pipx",
        "",
        subcommands={
            "run": runs_command("run", "package_install network"),
            **verbs(
                {
                    "install inject upgrade upgrade-all": _INSTALL,
                    "uninstall": "package_install write",
                    "list": "read_only",
                }
            ),
        },
        default=sub("pipx", "unknown"),
    ),
    Spec(
        "uv",
        "",
        subcommands={
            "pip": sub(
                "pip",
                "",
                subcommands={
                    "install": _uv("install", _INSTALL),
                    "sync": _uv("sync", _INSTALL),
                    "compile": _uv("compile", "build network write"),
                    "uninstall": _uv("uninstall", "package_install write"),
                    **shared(
                        ("list", "show", "freeze", "check", "tree"),
                        "read_only",
                        _UV_PROJECT,
                        options=_UV_OPTIONS,
                    ),
                },
                default=sub("pip", "unknown"),
            ),
            "sync": _uv("sync", _INSTALL),
            "lock": _uv("lock", "package_install network write"),
            "add": _uv("add", _INSTALL),
            "remove": _uv("remove", "package_install write"),
            "venv": _uv("venv", "write build"),
            "init": _uv("init", "write"),
            "build": _uv("build", "build write"),
            "publish": _PUBLISH,
            "run": runs_command(
                "run",
                "",
                options=[
                    Opt("-m/--module", value="required", role="module"),
                    *opts("--with-requirements --env-file", value="required", role="read"),
                    *opts("--directory --project", value="required", role="cwd"),
                ],
                flags=_UV_FLAGS + " --with= --with-editable= -p/--python= --package= "
                "--group= --only-group= --extra= --all-extras --no-extra= --no-dev --dev "
                "--frozen --locked --isolated --no-sync --no-project --script -s --gui-script "
                "--all-packages --active --no-env-file --exact --inexact --no-editable",
            ),
            "tool": sub(
                "tool",
                "",
                subcommands={
                    "run": runs_command(
                        "run",
                        "package_install network",
                        flags=_UV_FLAGS + " --from= --with= --with-editable= "
                        "--with-requirements= -p/--python= --isolated",
                    ),
                    "install": _uv("install", _INSTALL),
                    "upgrade": _uv("upgrade", _INSTALL),
                    "uninstall": _uv("uninstall", "package_install write"),
                    "list": _uv("list", "read_only"),
                    "dir": _uv("dir", "read_only"),
                },
                default=sub("tool", "unknown"),
            ),
            "python": sub(
                "python",
                "read_only",
                subcommands={
                    "install": _uv("install", _INSTALL),
                    "uninstall": _uv("uninstall", _INSTALL),
                    "list": _uv("list", "read_only"),
                    "find": _uv("find", "read_only"),
                    "pin": _uv("pin", "write"),
                },
                default=sub("python", "read_only"),
            ),
            "tree": _uv("tree", "read_only"),
            "version": _uv("version", "read_only", handler=packages.uv_version),
            "help": sub("help", "read_only"),
            "cache": sub("cache", "write", _UV_FLAGS),
            "self": sub("self", "package_install network", _UV_FLAGS),
            "export": _uv("export", "read_only"),
            "format": _uv("format", "write build"),
        },
        default=sub("uv", "unknown"),
        options=[
            *opts("--directory --project", value="required", role="cwd"),
            Opt("--config-file", value="required", role="read"),
        ],
        flags=_UV_FLAGS,
    ),
    runs_command(
        "uvx",
        "package_install network",
        flags=_UV_FLAGS + " --from= --with= --with-editable= --with-requirements= "
        "-p/--python= --isolated",
    ),
    Spec(
        "poetry",
        "",
        options=[
            Opt("-C/--directory", value="required", role="cwd"),
            Opt("-P/--project", value="required", role="cwd"),
        ],
        subcommands={
            **verbs(
                {
                    "install add update": _INSTALL,
                    "lock": "package_install network write",
                    "remove": "package_install write",
                    "build": "build write",
                    "about list": "read_only",
                    "search": "read_only network",
                    "shell": "code_exec",
                    "new init": "write",
                }
            ),
            "show": sub(
                "show",
                "read_only",
                "-l/--latest -o/--outdated -T/--top-level -t/--tree --only= --with= "
                "--without= --no-dev -a/--all --why --no-truncate" + _POETRY_FLAGS,
            ),
            "check": sub("check", "read_only", "--lock --strict" + _POETRY_FLAGS),
            # ``poetry version`` prints it; ``poetry version minor|1.2.3`` rewrites pyproject.toml
            "version": sub(
                "version",
                "read_only",
                "-s/--short --dry-run --next-phase" + _POETRY_FLAGS,
                handler=packages.poetry_version,
            ),
            # ``config --list``, ``config KEY`` print; ``config KEY VALUE``, ``--unset`` set
            "config": sub(
                "config",
                "read_only",
                "--list --local" + _POETRY_FLAGS,
                handler=packages.poetry_config,
                options=[Opt("--unset", adds="system")],
            ),
            "env": sub(
                "env",
                "system",
                subcommands={
                    **shared(
                        ("info", "list", "activate"),
                        "read_only",
                        "-p/--path -e/--executable --full-path" + _POETRY_FLAGS,
                    ),
                },
                default=sub("env", "system"),
            ),
            "publish": _PUBLISH,
            "run": _IN_ENVIRONMENT,
        },
        default=sub("poetry", "unknown"),
    ),
    Spec(
        "pipenv",
        "",
        subcommands={
            **verbs(
                {
                    "install sync": _INSTALL,
                    "lock": "package_install network write",
                    "uninstall": "package_install write",
                    "graph": "read_only",
                    "check": "read_only network",
                    "shell": "code_exec",
                }
            ),
            "run": _IN_ENVIRONMENT,
        },
        default=sub("pipenv", "unknown"),
    ),
    Spec(
        "conda|mamba|micromamba",
        "",
        subcommands={
            **shared(
                ("install", "create", "update"), _INSTALL, _CONDA_FLAGS, options=_CONDA_OPTIONS
            ),
            "remove": sub("remove", "package_install write", _CONDA_FLAGS, options=_CONDA_OPTIONS),
            "list": sub("list", "read_only", _CONDA_FLAGS, options=_CONDA_OPTIONS),
            "info": sub("info", "read_only", _CONDA_FLAGS + " -e/--envs -s/--system"),
            "search": sub("search", "read_only network", _CONDA_FLAGS, options=_CONDA_OPTIONS),
            "run": runs_command("run", "", options=_CONDA_OPTIONS),
            **verbs({"activate deactivate env": "read_only"}),
        },
        flags=_CONDA_FLAGS,
        default=sub("conda", "unknown"),
    ),
    # Rust, Go and other ecosystems
    Spec(
        "cargo",
        "",
        subcommands={
            **shared(
                (
                    "build",
                    "b",
                    "check",
                    "c",
                    "clippy",
                    "doc",
                    "d",
                    "rustc",
                    "rustdoc",
                    "metadata",
                    "tree",
                    "bloat",
                    "expand",
                    "udeps",
                    "machete",
                    "deny",
                    "audit",
                    "outdated",
                    "semver-checks",
                    "hack",
                ),
                "build",
                _CARGO_FLAGS,
                options=_CARGO_OPTIONS,
            ),
            "fix": sub(
                "fix",
                "build write",
                _CARGO_FLAGS + " --allow-dirty --allow-staged "
                "--allow-no-vcs --broken-code --edition --edition-idioms",
                options=_CARGO_OPTIONS,
            ),
            **shared(
                (
                    "test",
                    "t",
                    "bench",
                    "nextest",
                    "miri",
                    "llvm-cov",
                    "tarpaulin",
                    "insta",
                    "mutants",
                ),
                "test",
                _CARGO_FLAGS + " --no-run --no-fail-fast --doc",
                options=_CARGO_OPTIONS,
            ),
            **shared(("run", "r"), "build code_exec", _CARGO_FLAGS, options=_CARGO_OPTIONS),
            "fmt": sub(
                "fmt",
                "build write",
                "--all -p/--package= --message-format= -v/--verbose -q/--quiet",
                # the crate it formats is where the manifest is (a write there)
                options=[Opt("--check"), Opt("--manifest-path", value="required", role="cwd_file")],
                handler=build.check_only,
            ),
            "install": sub(
                "install",
                _INSTALL,
                _CARGO_FLAGS + " --version= --vers= --branch= --tag= --rev= "
                "--registry= --index= --list -f/--force --no-track --debug --bin= --example=",
                options=[
                    Opt("--path", value="required", role="read"),
                    Opt("--root", value="required", role="write"),
                    Opt("--git --index --registry", value="required", role="url"),
                ],
            ),
            **verbs(
                {
                    "uninstall": "package_install",
                    "add update vendor": _INSTALL,
                    "remove rm": "package_install write",
                    "fetch": "package_install network",
                    "generate-lockfile": "package_install network write",
                    "yank": "network vcs_write",
                    "login logout": "network system",
                    "owner": "network",
                    "package": "build write",
                    "version help locate-project pkgid verify-project": "read_only",
                    "watch": "build code_exec",
                    "init": "write",
                }
            ),
            "publish": _PUBLISH,
            **shared(
                ("search", "info"),
                "read_only network network_read",
                "--limit= --registry= -q/--quiet -v/--verbose --color= --locked --offline --frozen",
                options=[Opt("--index", value="required", role="url")],
            ),
            "new": sub("new", "write", operands="write"),
            "clean": sub(
                "clean",
                "delete build",
                _CARGO_FLAGS + " --doc -n/--dry-run",
                options=_CARGO_OPTIONS,
            ),
        },
        default=sub("cargo", "unknown"),
        options=[
            Opt("-C", value="required", role="cwd"),
            Opt("--manifest-path", value="required", role="cwd_file"),
            # ``--config KEY=VALUE`` can name programs cargo runs (a rustc wrapper, a runner)
            Opt("--config", value="required", adds="code_exec"),
            Opt("--list", adds="read_only"),  # the commands installed
        ],
        flags="-Z= -v/--verbose -vv -q/--quiet --color= --frozen --locked --offline "
        "--explain= -V/--version -h/--help",
    ),
    Spec(
        "rustup",
        "package_install network",
        flags=_RUSTUP_FLAGS,
        subcommands={
            **verbs({"show which --version": "read_only"}),
            "run": sub("run", "", operands=("none", "command"), permute=False),
            # listing what is installed reads; adding and removing install
            **{
                name: sub(
                    name,
                    "package_install network",
                    _RUSTUP_FLAGS,
                    subcommands={"list": sub("list", "read_only", _RUSTUP_FLAGS)},
                    default=sub(name, "package_install network", _RUSTUP_FLAGS),
                )
                for name in ("toolchain", "target", "component")
            },
        },
        default=sub("rustup", "package_install network", _RUSTUP_FLAGS),
    ),
    Spec(
        "go",
        "",
        options=[Opt("-C", value="required", role="cwd")],
        subcommands={
            **shared(
                ("build", "vet", "list", "fix"),
                "build",
                _GO_FLAGS,
                options=_GO_OPTIONS,
                single_dash_long=True,
            ),
            "doc": sub(
                "doc",
                "build",
                _GO_FLAGS + " -all -src -short -cmd -c -u -http=",
                options=_GO_OPTIONS,
                single_dash_long=True,
            ),
            "tool": sub("tool", "build", operands="none"),
            "env": sub(
                "env",
                "read_only",
                single_dash_long=True,
                # ``go env -w GOFLAGS=-toolexec=…`` persists into every later go command
                options=[Opt("-w -u", adds="system code_exec")],
                flags="-json -changed",
            ),
            "test": sub(
                "test",
                "test",
                _GO_FLAGS + " " + _GO_TEST_FLAGS,
                options=[
                    *_GO_OPTIONS,
                    Opt("-exec", value="required", role="shell"),
                    Opt(
                        "-coverprofile -cpuprofile -memprofile -blockprofile -mutexprofile "
                        "-trace -outputdir -o",
                        value="required",
                        role="write",
                    ),
                    Opt("-args", ends=True),
                ],
                single_dash_long=True,
                handler=build.go_test,
            ),
            "run": sub(
                "run",
                "build code_exec",
                _GO_FLAGS,
                options=[*_GO_OPTIONS, Opt("-exec", value="required", role="shell")],
                single_dash_long=True,
            ),
            "generate": sub(
                "generate", "code_exec", single_dash_long=True, flags="-run= -skip= -n -v -x"
            ),
            # ``go fmt PACKAGES``: a package given by its directory is rewritten there
            "fmt": sub("fmt", "write build", flags="-n -x -mod=", handler=build.go_fmt),
            "get": sub("get", _INSTALL, _GO_FLAGS + " -t -u -tool", single_dash_long=True),
            "install": sub(
                "install", _INSTALL, _GO_FLAGS, options=_GO_OPTIONS, single_dash_long=True
            ),
            "mod": sub(
                "mod",
                "",
                subcommands={
                    **verbs(
                        {
                            "tidy download vendor": _INSTALL,
                            "init edit": "write",
                            "graph why": "read_only",
                            "verify": "read_only network network_read",
                        }
                    ),
                },
                default=sub("mod", "unknown"),
            ),
            **verbs({"work": "write", "telemetry": "system", "bug": "read_only"}),
            "clean": sub(
                "clean",
                "delete build",
                single_dash_long=True,
                flags="-i -n -r -x -cache -testcache -modcache -fuzzcache",
            ),
        },
        default=sub("go", "unknown"),
    ),
    Spec(
        "gem",
        "",
        subcommands={
            **verbs(
                {
                    "install update": _INSTALL,
                    "uninstall": "package_install write",
                    "list": "read_only",
                    "search": "read_only network",
                    "build": "build write",
                    "push": "network vcs_write",
                }
            ),
        },
        default=sub("gem", "unknown"),
    ),
    Spec(
        "bundle|bundler",
        "",
        subcommands={
            **verbs(
                {
                    "install update add": _INSTALL,
                    "list check": "read_only",
                    "outdated": "read_only network",
                }
            ),
            "exec": _IN_ENVIRONMENT,
        },
        default=sub("bundle", _INSTALL),
    ),
    Spec(
        "composer",
        "",
        subcommands={
            **verbs(
                {
                    "install update require": _INSTALL,
                    "remove": "package_install",
                    "dump-autoload": "build write",
                    "show validate": "read_only",
                    "run-script run": _SCRIPT,
                    "test": "test",
                }
            ),
        },
        default=sub("composer", _SCRIPT),
    ),
    Spec(
        "dotnet",
        "",
        subcommands={
            **verbs(
                {
                    "build": "build",
                    "test": "test",
                    "run": "build code_exec",
                    "restore add tool": _INSTALL,
                    "publish pack": "build write",
                    "clean": "delete build",
                    "new": "write",
                    "--version --info list": "read_only",
                }
            ),
            # ``dotnet format [PROJECT|SOLUTION]``: the project's files are rewritten
            "format": sub(
                "format",
                "write build",
                "--verify-no-changes -v/--verbosity= --severity= --diagnostics= --no-restore "
                "--include= --exclude= --folder --include-generated",
                operands="write",
                handler=build.check_only,
            ),
        },
        default=sub("dotnet", "code_exec"),
    ),
    # system package managers
    Spec(
        "aptitude|zypper|emerge|pkg|port|snap|flatpak|nix-env",
        "package_install network system",
        subcommands={
            **verbs(
                {
                    "list search show info policy madison depends rdepends -Q -Ss -Qi query "
                    "list-installed": "read_only",
                }
            ),
        },
        default=sub("apt", "package_install network system"),
    ),
    Spec(
        "dpkg|rpm",
        "read_only",
        options=[
            *opts(
                "-i/--install -r/--remove -P/--purge --configure -U -e/--erase --unpack",
                adds="package_install system",
            )
        ],
        # the queries: list, status, files, search, architecture (dpkg); -q and friends (rpm)
        flags="-l/--list -L/--listfiles -s/--status -S/--search -p/--print-avail "
        "-c/--contents -I/--info -C/--audit --get-selections --print-architecture "
        "--print-foreign-architectures --compare-versions --verify -V -q/--query -a/--all "
        "-f/--file --whatprovides --whatrequires --requires --provides --changelog "
        "--qf/--queryformat= -R --scripts --last -d/--docfiles --configfiles --info "
        "-K/--checksig --showformat= -W/--show --no-pager --help --version",
    ),
    Spec(
        "brew",
        "",
        subcommands={
            **verbs(
                {
                    "install reinstall upgrade update tap bundle "
                    "link pin": "package_install network write",
                    "uninstall remove rm untap unlink cleanup autoremove": "package_install write",
                    "list ls info search outdated deps uses doctor config --prefix "
                    "--version leaves desc home log": "read_only",
                    "services": "system process_control",
                }
            ),
        },
        default=sub("brew", "unknown"),
    ),
]
