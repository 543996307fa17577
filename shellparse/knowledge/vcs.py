"""Version control: git (subcommands, global options, config that runs programs) and gh."""

from __future__ import annotations

from clearance.shellparse.spec import Opt, Spec, sub

_READ = "vcs_read"
_WRITE = "vcs_write"

_PUSH_OPTIONS = [
    Opt(
        "-f --force --force-with-lease --force-if-includes --mirror --prune --delete -d",
        adds="vcs_destructive",
    ),
    Opt("--no-verify", adds="vcs_destructive"),
    Opt("--receive-pack --exec", value="required", role="shell"),
    Opt("-o --push-option --repo", value="required"),
    Opt(
        "-u --set-upstream --tags --follow-tags --all --dry-run -n -q -v --atomic "
        "--porcelain --signed --thin --no-thin --progress --ipv4 --ipv6"
    ),
]

GIT_SUBCOMMANDS = {
    # reading the repository
    **{
        name: sub(name, _READ)
        for name in (
            "status",
            "log",
            "show",
            "diff",
            "blame",
            "annotate",
            "shortlog",
            "describe",
            "rev-parse",
            "rev-list",
            "ls-files",
            "ls-tree",
            "cat-file",
            "grep",
            "reflog-show",
            "whatchanged",
            "show-ref",
            "show-branch",
            "for-each-ref",
            "name-rev",
            "count-objects",
            "verify-commit",
            "verify-tag",
            "check-ignore",
            "check-attr",
            "merge-base",
            "range-diff",
            "cherry",
            "help",
            "version",
            "var",
            "fsck",
            "diff-tree",
            "diff-files",
            "diff-index",
            "get-tar-commit-id",
            "instaweb-status",
            "bugreport",
            "request-pull",
            "format-patch",
            "archive",
            "bundle",
            "check-ref-format",
            "column",
            "hash-object",
        )
    },
    # changing the local repository
    **{
        name: sub(name, _WRITE)
        for name in (
            "add",
            "commit",
            "merge",
            "cherry-pick",
            "revert",
            "tag",
            "mv",
            "stage",
            "notes",
            "apply",
            "am",
            "init",
            "worktree",
            "sparse-checkout",
            "switch",
            "mergetool",
            "rerere",
            "update-index",
            "commit-tree",
            "mktree",
            "write-tree",
            "read-tree",
            "symbolic-ref",
            "pack-refs",
            "repack",
            "maintenance",
            "replace",
        )
    },
    "checkout": sub("checkout", _WRITE, handler="git_checkout"),
    "restore": sub("restore", _WRITE, handler="git_checkout"),
    "branch": sub(
        "branch",
        _READ,
        options=[
            Opt("-D --delete --force -f", adds="vcs_destructive"),
            Opt(
                "-d -m -M -c -C --move --copy --set-upstream-to -u --unset-upstream --track "
                "--no-track --edit-description",
                adds="vcs_write",
            ),
            Opt(
                "-a -r -l -v -vv --list --all --remotes --merged --no-merged --contains "
                "--show-current"
            ),
        ],
    ),
    "stash": sub(
        "stash",
        _WRITE,
        subcommands={
            "list": sub("list", _READ),
            "show": sub("show", _READ),
            "drop": sub("drop", "vcs_destructive"),
            "clear": sub("clear", "vcs_destructive"),
            "push": sub("push", _WRITE),
            "save": sub("save", _WRITE),
            "pop": sub("pop", _WRITE),
            "apply": sub("apply", _WRITE),
            "branch": sub("branch", _WRITE),
            "create": sub("create", _WRITE),
            "store": sub("store", _WRITE),
        },
        default=sub("stash", _WRITE),
    ),
    "reset": sub(
        "reset",
        _WRITE,
        options=[
            Opt("--hard --merge --keep", adds="vcs_destructive"),
            Opt("--soft --mixed -q --quiet -p --patch -N --intent-to-add"),
        ],
        abbrev=True,
    ),
    "clean": sub(
        "clean",
        "vcs_write delete",
        options=[
            Opt("-f --force", adds="vcs_destructive"),
            Opt("-d -x -X -n --dry-run -q -i"),
            Opt("-e --exclude", value="required"),
        ],
    ),
    "rm": sub(
        "rm",
        "vcs_write delete",
        operands="delete",
        short="rfnq",
        long="cached ignore-unmatch dry-run quiet force",
    ),
    "rebase": sub(
        "rebase",
        "vcs_destructive",
        options=[
            Opt("-x --exec", value="required", role="shell"),
            Opt("-i --interactive --continue --abort --skip --onto= --root --autosquash"),
        ],
        abbrev=True,
    ),
    "filter-branch": sub("filter-branch", "vcs_destructive code_exec"),
    "filter-repo": sub("filter-repo", "vcs_destructive"),
    "gc": sub(
        "gc",
        _WRITE,
        options=[
            Opt("--prune", value="optional", adds="vcs_destructive"),
            Opt("--aggressive --auto -q --quiet"),
        ],
    ),
    "prune": sub("prune", "vcs_destructive"),
    "reflog": sub(
        "reflog",
        _READ,
        subcommands={
            "show": sub("show", _READ),
            "expire": sub("expire", "vcs_destructive"),
            "delete": sub("delete", "vcs_destructive"),
            "exists": sub("exists", _READ),
        },
        default=sub("reflog", _READ),
    ),
    "update-ref": sub("update-ref", _WRITE, options=[Opt("-d", adds="vcs_destructive")]),
    "commit-graph": sub("commit-graph", _WRITE),
    # the network
    "push": sub(
        "push",
        "vcs_write network",
        operands=("remote", "none"),
        options=_PUSH_OPTIONS,
        abbrev=True,
        handler="git_push",
    ),
    "fetch": sub(
        "fetch",
        "vcs_write network",
        operands=("remote", "none"),
        options=[Opt("--upload-pack", value="required", role="shell")],
        abbrev=True,
    ),
    "pull": sub(
        "pull",
        "vcs_write network",
        operands=("remote", "none"),
        options=[
            Opt("--upload-pack", value="required", role="shell"),
            Opt("-f --force", adds="vcs_destructive"),
        ],
        abbrev=True,
    ),
    "clone": sub(
        "clone",
        "vcs_write network write",
        operands=("url_or_path", "write"),
        options=[
            Opt("-u --upload-pack", value="required", role="shell"),
            Opt("--template --separate-git-dir --reference", value="required", role="read"),
            Opt("-c --config", value="required", role="none"),
            Opt(
                "-b --branch -o --origin --depth --shallow-since --filter -j --jobs",
                value="required",
            ),
        ],
        abbrev=True,
        handler="git_clone",
    ),
    "ls-remote": sub(
        "ls-remote",
        "vcs_read network",
        operands=("remote", "none"),
        options=[Opt("--upload-pack", value="required", role="shell")],
    ),
    "remote": sub(
        "remote",
        _READ,
        subcommands={
            "add": sub("add", _WRITE, operands=("none", "remote")),
            "set-url": sub("set-url", _WRITE, operands=("none", "remote")),
            "remove": sub("remove", _WRITE),
            "rm": sub("rm", _WRITE),
            "rename": sub("rename", _WRITE),
            "prune": sub("prune", "vcs_write network"),
            "update": sub("update", "vcs_write network"),
            "show": sub("show", "vcs_read network"),
            "get-url": sub("get-url", _READ),
        },
        default=sub("remote", _READ),
    ),
    "submodule": sub(
        "submodule",
        "vcs_write network",
        subcommands={
            "foreach": sub("foreach", "vcs_write", operands="shell_words"),
            "status": sub("status", _READ),
            "summary": sub("summary", _READ),
        },
        default=sub("submodule", "vcs_write network"),
    ),
    "bisect": sub(
        "bisect",
        _WRITE,
        subcommands={
            "run": sub("run", _WRITE, operands="command", permute=False),
        },
        default=sub("bisect", _WRITE),
    ),
    "send-email": sub("send-email", "network"),
    "daemon": sub("daemon", "network process_control"),
    "difftool": sub(
        "difftool",
        "vcs_read",
        options=[Opt("-x --extcmd -t --tool", value="required", role="shell")],
    ),
    # configuration (the handler finds keys that make git run programs)
    "config": sub("config", _READ, handler="git_config"),
    "credential": sub("credential", "secret_read"),
    "credential-store": sub("credential-store", "secret_read"),
    "credential-cache": sub("credential-cache", "secret_read"),
    "hook": sub("hook", "code_exec"),
    "lfs": sub("lfs", "vcs_write network"),
}

GIT_GLOBAL_OPTIONS = [
    Opt("-C", value="required", role="cwd"),
    Opt("-c", value="required", role="none"),
    Opt(
        "--git-dir --work-tree --namespace --super-prefix --config-env --list-cmds",
        value="required",
    ),
    Opt("--exec-path", value="optional", adds="code_exec"),
    Opt(
        "-p --paginate -P --no-pager --bare --no-replace-objects --literal-pathspecs "
        "--glob-pathspecs --noglob-pathspecs --icase-pathspecs --no-optional-locks "
        "--html-path --man-path --info-path --version -v --help -h"
    ),
]

SPECS = [
    Spec(
        "git",
        "",
        options=GIT_GLOBAL_OPTIONS,
        subcommands=GIT_SUBCOMMANDS,
        default=sub("git", "unknown"),
        handler="git_global",
    ),
    Spec(
        "gh",
        "network",
        subcommands={
            "pr": sub(
                "pr",
                "network",
                subcommands={
                    **{
                        n: sub(n, "network vcs_read")
                        for n in ("view", "list", "status", "diff", "checks")
                    },
                    "checkout": sub("checkout", "network vcs_write"),
                    "merge": sub("merge", "network vcs_write"),
                    "close": sub("close", "network vcs_write"),
                },
                default=sub("pr", "network vcs_write"),
            ),
            "issue": sub(
                "issue",
                "network",
                subcommands={
                    **{n: sub(n, "network vcs_read") for n in ("view", "list", "status")},
                },
                default=sub("issue", "network vcs_write"),
            ),
            "repo": sub(
                "repo",
                "network",
                subcommands={
                    "view": sub("view", "network vcs_read"),
                    "list": sub("list", "network vcs_read"),
                    "clone": sub("clone", "network vcs_write write"),
                    "delete": sub("delete", "network vcs_destructive"),
                    "archive": sub("archive", "network vcs_destructive"),
                },
                default=sub("repo", "network vcs_write"),
            ),
            "run": sub(
                "run",
                "network",
                subcommands={
                    **{n: sub(n, "network vcs_read") for n in ("view", "list", "watch")},
                },
                default=sub("run", "network vcs_write"),
            ),
            "api": sub("api", "network", handler="gh_api"),
            "auth": sub(
                "auth",
                "network",
                subcommands={
                    "token": sub("token", "secret_read"),
                    "status": sub("status", "network vcs_read"),
                },
                default=sub("auth", "network system"),
            ),
            "secret": sub("secret", "network secret_read"),
            "release": sub(
                "release",
                "network",
                subcommands={
                    "view": sub("view", "network vcs_read"),
                    "list": sub("list", "network vcs_read"),
                    "delete": sub("delete", "network vcs_destructive"),
                },
                default=sub("release", "network vcs_write"),
            ),
            "workflow": sub(
                "workflow",
                "network",
                subcommands={
                    "view": sub("view", "network vcs_read"),
                    "list": sub("list", "network vcs_read"),
                },
                default=sub("workflow", "network vcs_write"),
            ),
            "extension": sub("extension", "network package_install code_exec"),
            "search": sub("search", "network vcs_read"),
            "browse": sub("browse", "network vcs_read"),
            "status": sub("status", "network vcs_read"),
        },
        default=sub("gh", "network unknown"),
    ),
]
