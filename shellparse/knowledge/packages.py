"""Package managers and the runners that fetch and execute packages."""

from __future__ import annotations

from clearance.shellparse.spec import Opt, Spec, sub

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

_NPM_RUN = sub("run", _SCRIPT, operands=("none", "none"), handler="npm_run", permute=False)


def _node_pm(name: str) -> Spec:
    return Spec(
        name,
        "",
        subcommands={
            **{
                n: sub(
                    n,
                    _INSTALL,
                    operands="none",
                    options=[Opt("-g --global --location", adds="system")],
                )
                for n in (
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
                    "link",
                    "ln",
                    "import",
                    "prune",
                    "install-test",
                    "it",
                    "install-ci-test",
                )
            },
            **{
                n: sub(n, "package_install write")
                for n in ("uninstall", "remove", "rm", "un", "unlink", "r")
            },
            **{
                n: sub(n, "read_only")
                for n in (
                    "ls",
                    "list",
                    "ll",
                    "la",
                    "why",
                    "explain",
                    "outdated",
                    "help",
                    "version",
                    "-v",
                    "--version",
                    "root",
                    "bin",
                    "prefix",
                    "fund",
                    "doctor",
                    "licenses",
                    "store",
                )
            },
            **{
                n: sub(n, "read_only network")
                for n in (
                    "view",
                    "info",
                    "show",
                    "v",
                    "search",
                    "audit",
                    "ping",
                    "whoami",
                    "dist-tag",
                )
            },
            "test": sub("test", "test"),
            "t": sub("t", "test"),
            "tst": sub("tst", "test"),
            "start": sub("start", _SCRIPT),
            "stop": sub("stop", _SCRIPT),
            "restart": sub("restart", _SCRIPT),
            "run": _NPM_RUN,
            "run-script": _NPM_RUN,
            "rum": _NPM_RUN,
            "urn": _NPM_RUN,
            "exec": sub("exec", "package_install network", operands="command", permute=False),
            "x": sub("x", "package_install network", operands="command", permute=False),
            "dlx": sub("dlx", "package_install network", operands="command", permute=False),
            "create": sub("create", "package_install network write"),
            "init": sub("init", "write"),
            "publish": sub("publish", "network vcs_write"),
            "unpublish": sub("unpublish", "network vcs_destructive"),
            "deprecate": sub("deprecate", "network vcs_write"),
            "pack": sub("pack", "build write"),
            "config": sub(
                "config",
                "read_only",
                subcommands={
                    "set": sub("set", "system"),
                    "delete": sub("delete", "system"),
                    "edit": sub("edit", "system"),
                    "get": sub("get", "read_only"),
                    "list": sub("list", "read_only"),
                },
                default=sub("config", "read_only"),
            ),
            "set": sub("set", "system"),
            "get": sub("get", "read_only"),
            "cache": sub("cache", "write"),
            "login": sub("login", "network system"),
            "adduser": sub("adduser", "network system"),
            "logout": sub("logout", "network system"),
            "token": sub("token", "secret_read network"),
            "workspace": sub("workspace", _SCRIPT),
            "workspaces": sub("workspaces", _SCRIPT),
        },
        default=sub(name, _SCRIPT, handler="npm_run_implicit"),
        options=[
            Opt("-C --prefix --dir --cwd", value="required", role="cwd"),
            Opt("-w --workspace --filter -F", value="required"),
        ],
        handler="npm_global",
    )


SPECS = [
    _node_pm("npm"),
    _node_pm("pnpm"),
    _node_pm("yarn"),
    _node_pm("bun"),
    Spec(
        "npx|pnpx|bunx",
        "package_install network",
        operands="command",
        permute=False,
        options=[Opt("-p --package -c --call", value="required")],
        handler="npx",
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
                options=[
                    Opt("-r --requirement -c --constraint", value="required", role="read"),
                    Opt("-e --editable", value="required", role="read"),
                    Opt(
                        "-i --index-url --extra-index-url -f --find-links",
                        value="required",
                        role="url",
                    ),
                    Opt("-t --target --prefix --root", value="required", role="write"),
                ],
                abbrev=True,
            ),
            "download": sub("download", "network write"),
            "uninstall": sub("uninstall", "package_install write"),
            "wheel": sub("wheel", "build network write"),
            **{
                n: sub(n, "read_only")
                for n in (
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
                )
            },
            "search": sub("search", "read_only network"),
            "index": sub("index", "read_only network"),
            "cache": sub("cache", "write"),
            "config": sub("config", "system"),
        },
        default=sub("pip", "unknown"),
        abbrev=True,
    ),
    Spec(
        "pipx",
        "",
        subcommands={
            "run": sub("run", "package_install network", operands="command", permute=False),
            "install": sub("install", _INSTALL),
            "inject": sub("inject", _INSTALL),
            "upgrade": sub("upgrade", _INSTALL),
            "upgrade-all": sub("upgrade-all", _INSTALL),
            "uninstall": sub("uninstall", "package_install write"),
            "list": sub("list", "read_only"),
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
                    "install": sub(
                        "install",
                        _INSTALL,
                        options=[
                            Opt("-r --requirement -c --constraint", value="required", role="read")
                        ],
                    ),
                    "sync": sub("sync", _INSTALL),
                    "compile": sub("compile", "build network write"),
                    "uninstall": sub("uninstall", "package_install write"),
                    **{n: sub(n, "read_only") for n in ("list", "show", "freeze", "check", "tree")},
                },
                default=sub("pip", "unknown"),
            ),
            "sync": sub("sync", _INSTALL),
            "lock": sub("lock", "package_install network write"),
            "add": sub("add", _INSTALL),
            "remove": sub("remove", "package_install write"),
            "venv": sub("venv", "write build"),
            "init": sub("init", "write"),
            "build": sub("build", "build write"),
            "publish": sub("publish", "network vcs_write"),
            "run": sub(
                "run",
                "",
                operands="command",
                permute=False,
                options=[
                    Opt(
                        "--with --from --python -p --directory --project --package "
                        "--env-file --group --extra",
                        value="required",
                    ),
                    Opt("--script -m --module", value="required", role="module"),
                ],
            ),
            "tool": sub(
                "tool",
                "",
                subcommands={
                    "run": sub(
                        "run",
                        "package_install network",
                        operands="command",
                        permute=False,
                        options=[Opt("--from --with --python", value="required")],
                    ),
                    "install": sub("install", _INSTALL),
                    "upgrade": sub("upgrade", _INSTALL),
                    "uninstall": sub("uninstall", "package_install write"),
                    "list": sub("list", "read_only"),
                    "dir": sub("dir", "read_only"),
                },
                default=sub("tool", "unknown"),
            ),
            "python": sub(
                "python",
                "read_only",
                subcommands={
                    "install": sub("install", _INSTALL),
                    "uninstall": sub("uninstall", _INSTALL),
                    "list": sub("list", "read_only"),
                    "find": sub("find", "read_only"),
                    "pin": sub("pin", "write"),
                },
                default=sub("python", "read_only"),
            ),
            "tree": sub("tree", "read_only"),
            "version": sub("version", "read_only"),
            "help": sub("help", "read_only"),
            "cache": sub("cache", "write"),
            "self": sub("self", "package_install network"),
            "export": sub("export", "read_only"),
            "format": sub("format", "write build"),
        },
        default=sub("uv", "unknown"),
        options=[
            Opt("--directory --project --config-file --cache-dir", value="required", role="cwd")
        ],
    ),
    Spec(
        "uvx",
        "package_install network",
        operands="command",
        permute=False,
        options=[Opt("--from --with --python -p", value="required")],
    ),
    Spec(
        "poetry",
        "",
        subcommands={
            "install": sub("install", _INSTALL),
            "add": sub("add", _INSTALL),
            "update": sub("update", _INSTALL),
            "lock": sub("lock", "package_install network write"),
            "remove": sub("remove", "package_install write"),
            "build": sub("build", "build write"),
            "publish": sub("publish", "network vcs_write"),
            "run": sub("run", "", operands="command", permute=False),
            **{
                n: sub(n, "read_only")
                for n in ("show", "check", "version", "about", "env", "config", "search", "list")
            },
            "shell": sub("shell", "code_exec"),
            "new": sub("new", "write"),
            "init": sub("init", "write"),
        },
        default=sub("poetry", "unknown"),
    ),
    Spec(
        "pipenv",
        "",
        subcommands={
            "install": sub("install", _INSTALL),
            "sync": sub("sync", _INSTALL),
            "lock": sub("lock", "package_install network write"),
            "uninstall": sub("uninstall", "package_install write"),
            "run": sub("run", "", operands="command", permute=False),
            "graph": sub("graph", "read_only"),
            "check": sub("check", "read_only network"),
            "shell": sub("shell", "code_exec"),
        },
        default=sub("pipenv", "unknown"),
    ),
    Spec(
        "conda|mamba|micromamba",
        "",
        subcommands={
            "install": sub("install", _INSTALL),
            "create": sub("create", _INSTALL),
            "update": sub("update", _INSTALL),
            "remove": sub("remove", "package_install write"),
            "list": sub("list", "read_only"),
            "info": sub("info", "read_only"),
            "search": sub("search", "read_only network"),
            "run": sub(
                "run",
                "",
                operands="command",
                permute=False,
                options=[Opt("-n --name -p --prefix", value="required")],
            ),
            "activate": sub("activate", "read_only"),
            "deactivate": sub("deactivate", "read_only"),
            "env": sub("env", "read_only"),
        },
        default=sub("conda", "unknown"),
    ),
    # Rust, Go and other ecosystems
    Spec(
        "cargo",
        "",
        subcommands={
            **{
                n: sub(n, "build")
                for n in (
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
                    "fix",
                    "bloat",
                    "expand",
                    "udeps",
                    "machete",
                    "deny",
                    "audit",
                    "outdated",
                    "semver-checks",
                    "hack",
                )
            },
            **{
                n: sub(n, "test")
                for n in (
                    "test",
                    "t",
                    "bench",
                    "nextest",
                    "miri",
                    "llvm-cov",
                    "tarpaulin",
                    "insta",
                    "mutants",
                )
            },
            "run": sub("run", "build code_exec"),
            "r": sub("r", "build code_exec"),
            "fmt": sub("fmt", "build write"),
            "install": sub("install", _INSTALL),
            "uninstall": sub("uninstall", "package_install"),
            "add": sub("add", _INSTALL),
            "remove": sub("remove", "package_install write"),
            "rm": sub("rm", "package_install write"),
            "update": sub("update", _INSTALL),
            "fetch": sub("fetch", "package_install network"),
            "generate-lockfile": sub("generate-lockfile", "package_install network write"),
            "vendor": sub("vendor", _INSTALL),
            "publish": sub("publish", "network vcs_write"),
            "yank": sub("yank", "network vcs_write"),
            "login": sub("login", "network system"),
            "owner": sub("owner", "network"),
            "new": sub("new", "write"),
            "init": sub("init", "write"),
            "clean": sub("clean", "delete build"),
            "package": sub("package", "build write"),
            "search": sub("search", "read_only network"),
            "version": sub("version", "read_only"),
            "help": sub("help", "read_only"),
            "locate-project": sub("locate-project", "read_only"),
            "pkgid": sub("pkgid", "read_only"),
            "verify-project": sub("verify-project", "read_only"),
            "watch": sub("watch", "build code_exec"),
        },
        default=sub("cargo", "unknown"),
        options=[Opt("-C --manifest-path --config -Z", value="required")],
    ),
    Spec(
        "rustup",
        "package_install network",
        subcommands={
            "show": sub("show", "read_only"),
            "which": sub("which", "read_only"),
            "--version": sub("--version", "read_only"),
            "run": sub("run", "", operands=("none", "command"), permute=False),
        },
        default=sub("rustup", "package_install network"),
    ),
    Spec(
        "go",
        "",
        subcommands={
            **{
                n: sub(n, "build")
                for n in ("build", "vet", "list", "doc", "tool", "fix", "version", "help", "env")
            },
            "test": sub(
                "test",
                "test",
                options=[
                    Opt("-exec", value="required", role="shell"),
                    Opt("-toolexec", value="required", role="shell"),
                ],
                single_dash_long=True,
            ),
            "run": sub("run", "build code_exec"),
            "generate": sub("generate", "code_exec"),
            "fmt": sub("fmt", "write build"),
            "get": sub("get", _INSTALL),
            "install": sub("install", _INSTALL),
            "mod": sub(
                "mod",
                "",
                subcommands={
                    "tidy": sub("tidy", _INSTALL),
                    "download": sub("download", _INSTALL),
                    "vendor": sub("vendor", _INSTALL),
                    "init": sub("init", "write"),
                    "edit": sub("edit", "write"),
                    "graph": sub("graph", "read_only"),
                    "verify": sub("verify", "read_only network"),
                    "why": sub("why", "read_only"),
                },
                default=sub("mod", "unknown"),
            ),
            "work": sub("work", "write"),
            "clean": sub("clean", "delete build"),
            "telemetry": sub("telemetry", "system"),
        },
        default=sub("go", "unknown"),
    ),
    Spec(
        "gem",
        "",
        subcommands={
            "install": sub("install", _INSTALL),
            "update": sub("update", _INSTALL),
            "uninstall": sub("uninstall", "package_install write"),
            "list": sub("list", "read_only"),
            "search": sub("search", "read_only network"),
            "build": sub("build", "build write"),
            "push": sub("push", "network vcs_write"),
        },
        default=sub("gem", "unknown"),
    ),
    Spec(
        "bundle|bundler",
        "",
        subcommands={
            "install": sub("install", _INSTALL),
            "update": sub("update", _INSTALL),
            "add": sub("add", _INSTALL),
            "exec": sub("exec", "", operands="command", permute=False),
            "list": sub("list", "read_only"),
            "check": sub("check", "read_only"),
            "outdated": sub("outdated", "read_only network"),
        },
        default=sub("bundle", _INSTALL),
    ),
    Spec(
        "composer",
        "",
        subcommands={
            "install": sub("install", _INSTALL),
            "update": sub("update", _INSTALL),
            "require": sub("require", _INSTALL),
            "remove": sub("remove", "package_install"),
            "dump-autoload": sub("dump-autoload", "build write"),
            "show": sub("show", "read_only"),
            "validate": sub("validate", "read_only"),
            "run-script": sub("run-script", _SCRIPT),
            "run": sub("run", _SCRIPT),
            "test": sub("test", "test"),
        },
        default=sub("composer", _SCRIPT),
    ),
    Spec(
        "dotnet",
        "",
        subcommands={
            "build": sub("build", "build"),
            "test": sub("test", "test"),
            "run": sub("run", "build code_exec"),
            "restore": sub("restore", _INSTALL),
            "add": sub("add", _INSTALL),
            "format": sub("format", "write build"),
            "publish": sub("publish", "build write"),
            "pack": sub("pack", "build write"),
            "clean": sub("clean", "delete build"),
            "new": sub("new", "write"),
            "tool": sub("tool", _INSTALL),
            "--version": sub("--version", "read_only"),
            "--info": sub("--info", "read_only"),
            "list": sub("list", "read_only"),
        },
        default=sub("dotnet", "code_exec"),
    ),
    # system package managers
    Spec(
        "apt|apt-get|aptitude|dnf|yum|zypper|pacman|apk|emerge|pkg|port|snap|flatpak|nix-env",
        "package_install network system",
        subcommands={
            **{
                n: sub(n, "read_only")
                for n in (
                    "list",
                    "search",
                    "show",
                    "info",
                    "policy",
                    "madison",
                    "depends",
                    "rdepends",
                    "-Q",
                    "-Ss",
                    "-Qi",
                    "query",
                    "list-installed",
                )
            },
        },
        default=sub("apt", "package_install network system"),
    ),
    Spec(
        "dpkg|rpm",
        "read_only",
        options=[
            Opt(
                "-i --install -r --remove -P --purge --configure -U -e --erase --unpack",
                adds="package_install system",
            )
        ],
    ),
    Spec(
        "brew",
        "",
        subcommands={
            **{
                n: sub(n, "package_install network write")
                for n in (
                    "install",
                    "reinstall",
                    "upgrade",
                    "update",
                    "tap",
                    "bundle",
                    "link",
                    "pin",
                )
            },
            **{
                n: sub(n, "package_install write")
                for n in ("uninstall", "remove", "rm", "untap", "unlink", "cleanup", "autoremove")
            },
            **{
                n: sub(n, "read_only")
                for n in (
                    "list",
                    "ls",
                    "info",
                    "search",
                    "outdated",
                    "deps",
                    "uses",
                    "doctor",
                    "config",
                    "--prefix",
                    "--version",
                    "leaves",
                    "desc",
                    "home",
                    "log",
                )
            },
            "services": sub("services", "system process_control"),
        },
        default=sub("brew", "unknown"),
    ),
]
