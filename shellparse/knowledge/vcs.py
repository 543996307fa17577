"""Version control: git (subcommands, global options, config that runs programs); the forge
CLIs (gh, glab) are in ``network``."""

from __future__ import annotations

from clearance.shellparse.handlers import vcs
from clearance.shellparse.spec import Opt, Spec, opts, shared, sub

_READ = "vcs_read"
_WRITE = "vcs_write"

# Options of the diff machinery, shared by diff, log, show and friends. ``--output`` writes
# the result to a file; ``--ext-diff`` and ``--textconv`` run programs named in the
# configuration.
_DIFF_OPTIONS = [
    Opt("--output", value="required", role="write"),
    *opts("--ext-diff --textconv", adds="code_exec"),
]
_DIFF_FLAGS = (
    "-p/-u/--patch -s/--no-patch -U/--unified= --output-indicator-new= "
    "--output-indicator-old= --output-indicator-context= --raw --patch-with-raw -t "
    "--indent-heuristic --no-indent-heuristic --minimal --patience --histogram --anchored= "
    "--diff-algorithm= --stat=? --compact-summary --numstat --shortstat -X/--dirstat=? "
    "--cumulative --dirstat-by-file=? --summary --patch-with-stat -z --name-only "
    "--name-status --submodule=? --color=? --no-color --color-moved=? --no-color-moved "
    "--color-moved-ws= --no-color-moved-ws --word-diff=? --word-diff-regex= "
    "--color-words=? --no-renames --rename-empty --no-rename-empty --check "
    "--ws-error-highlight= --full-index --binary --abbrev=? -B/--break-rewrites=? "
    "-M/--find-renames=? -C/--find-copies=? --find-copies-harder -D/--irreversible-delete "
    "-l= --diff-filter= -S= -G= --find-object= --pickaxe-all --pickaxe-regex -O= "
    "--skip-to= --rotate-to= -R --relative=? --no-relative -a/--text "
    "--ignore-cr-at-eol --ignore-space-at-eol -b/--ignore-space-change "
    "-w/--ignore-all-space --ignore-blank-lines -I/--ignore-matching-lines= "
    "--inter-hunk-context= -W/--function-context --exit-code --quiet --no-ext-diff "
    "--no-textconv --ignore-submodules=? --src-prefix= --dst-prefix= --no-prefix "
    "--default-prefix --line-prefix= --ita-invisible-in-index --ita-visible-in-index "
    "--cached --staged --merge-base --no-index -1 -2 -3 --base --ours --theirs -0"
)
_LOG_FLAGS = (
    "-n/--max-count= --skip= --since/--after= --since-as-filter= --until/--before= "
    "--author= --committer= --grep-reflog= --grep= --all-match --invert-grep "
    "-i/--regexp-ignore-case --basic-regexp -E/--extended-regexp -F/--fixed-strings "
    "-P/--perl-regexp --remove-empty --merges --no-merges --min-parents= --max-parents= "
    "--no-min-parents --no-max-parents --first-parent --exclude-first-parent-only --not "
    "--all --branches=? --tags=? --remotes=? --glob= --exclude= --exclude-hidden= "
    "--reflog --alternate-refs --single-worktree --ignore-missing --bisect --stdin "
    "--cherry-mark --cherry-pick --left-only --right-only --cherry -g/--walk-reflogs "
    "--merge --boundary --simplify-by-decoration --show-pulls --full-history --dense "
    "--sparse --simplify-merges --ancestry-path=? --date-order --author-date-order "
    "--topo-order --reverse --no-walk=? --do-walk --pretty=? --format= --abbrev-commit "
    "--no-abbrev-commit --oneline --encoding= --expand-tabs=? --no-expand-tabs --notes=? "
    "--no-notes --show-notes-by-default --show-notes=? --standard-notes --no-standard-notes "
    "--show-signature --relative-date --date= --parents --children --left-right --graph "
    "--show-linear-break=? -c --cc --dd --remerge-diff -m --diff-merges= --no-diff-merges "
    "--combined-all-paths --follow --no-decorate --decorate=? --decorate-refs= "
    "--decorate-refs-exclude= --clear-decorations --source --mailmap --no-mailmap "
    "--use-mailmap --no-use-mailmap --full-diff --log-size -L= --stat=? -q --show-linear-break"
)
_PATHSPEC_FROM = Opt("--pathspec-from-file", value="required", role="read")
_PATHSPEC_FLAGS = "--pathspec-file-nul"

_PUSH_OPTIONS = [
    Opt("-f/--force", adds="vcs_destructive"),
    Opt("--force-with-lease", value="optional", adds="vcs_destructive"),
    *opts("--force-if-includes --mirror --prune", adds="vcs_destructive"),
    Opt("-d/--delete", adds="vcs_destructive"),
    # skips the pre-push hook, which is where a project's own checks live
    Opt("--no-verify", adds="vcs_destructive"),
    Opt("--receive-pack --exec", value="required", role="shell"),
]
_PUSH_FLAGS = (
    "--all --branches -n/--dry-run --porcelain --tags --follow-tags --no-follow-tags "
    "--signed=? --no-signed --atomic --no-atomic -o/--push-option= --repo= "
    "-u/--set-upstream --thin --no-thin -q/--quiet -v/--verbose --progress --no-progress "
    "--recurse-submodules= --no-recurse-submodules --verify -4/--ipv4 -6/--ipv6 "
    "--no-force-with-lease --no-force-if-includes"
)
_FETCH_FLAGS = (
    "--all -a/--append --atomic --depth= --deepen= --shallow-since= --shallow-exclude= "
    "--unshallow --update-shallow --negotiation-tip= --negotiate-only --dry-run --porcelain "
    "--write-fetch-head --no-write-fetch-head -k/--keep --multiple --auto-maintenance "
    "--no-auto-maintenance --auto-gc --no-auto-gc --write-commit-graph "
    "--no-write-commit-graph --prefetch -p/--prune -P/--prune-tags -n/--no-tags --refetch "
    "--refmap= -t/--tags --recurse-submodules=? --no-recurse-submodules -j/--jobs= "
    "--set-upstream --submodule-prefix= -q/--quiet -v/--verbose --progress --no-progress "
    "-o/--server-option= --show-forced-updates --no-show-forced-updates -4/--ipv4 -6/--ipv6 "
    "-u/--update-head-ok --stdin"
)
_MERGE_FLAGS = (
    "--commit --no-commit -e/--edit --no-edit --cleanup= --ff --no-ff --ff-only "
    "-S/--gpg-sign=? --no-gpg-sign --log=? --no-log --signoff --no-signoff --stat "
    "-n/--no-stat --squash --no-squash --verify --verify-signatures --no-verify-signatures "
    "-s/--strategy= -X/--strategy-option= -q/--quiet -v/--verbose --progress --no-progress "
    "--autostash --no-autostash --allow-unrelated-histories -m= --into-name= "
    "--rerere-autoupdate --no-rerere-autoupdate --overwrite-ignore --no-overwrite-ignore "
    "--abort --quit --continue"
)
#: ``git stash -u``/``--all`` takes untracked (and ignored) files out of the worktree: they
#: exist nowhere else, and a later ``stash drop`` loses them for good.
_STASH_UNTRACKED = opts("-u/--include-untracked -a/--all", adds="vcs_destructive")
_UPLOAD_PACK = Opt("--upload-pack", value="required", role="shell")
#: ``--abort``/``--quit`` of a merge, rebase, cherry-pick, revert or am: the work done on the
#: conflicts (and, for --abort, the worktree) is thrown away.
_ABORT = opts("--abort --quit", adds="vcs_destructive")
#: ``--pathspec-from-file`` of a command that restores paths: which files are overwritten is
#: in a file the text does not show.
_PATHSPEC_RESTORE = Opt(
    "--pathspec-from-file", value="required", role="read", adds="vcs_destructive"
)
#: Templates copy hooks into the new repository: code that runs at the next commit.
_TEMPLATE = Opt("--template", value="required", role="exec", adds="code_exec")


def _sub(name: str, classes: str, flags: str = "", **kwargs: object) -> Spec:
    """A git subcommand: git's own parser accepts unambiguous abbreviations of long options."""
    return sub(name, classes, flags=flags, abbrev=True, **kwargs)


GIT_SUBCOMMANDS = {
    # reading the repository
    **shared(
        ("log", "show", "whatchanged", "shortlog"),
        _READ,
        _DIFF_FLAGS + " " + _LOG_FLAGS,
        options=_DIFF_OPTIONS,
        number="--max-count",
        abbrev=True,
        handler=vcs.git_revision_paths,
    ),
    **shared(
        ("diff", "diff-tree", "diff-files", "diff-index", "range-diff"),
        _READ,
        _DIFF_FLAGS,
        options=_DIFF_OPTIONS,
        abbrev=True,
        handler=vcs.git_revision_paths,
    ),
    # reads: each with the options it prints with
    **{
        name: _sub(name, _READ, flags)
        for name, flags in {
            "show-branch": "-a/--all -r/--remotes --current --topo-order --date-order "
            "--sparse --more= --list --merge-base --independent --no-name --sha1-name "
            "--topics -g/--reflog=? --color=? --no-color",
            "count-objects": "-v/--verbose -H/--human-readable",
            "verify-commit": "-v/--verbose --raw",
            "verify-tag": "-v/--verbose --raw --format=",
            "check-attr": "-a/--all --cached --stdin -z --source=",
            "cherry": "-v --abbrev=?",
            "help": "-a/--all -g/--guides -c/--config -i/--info -m/--man --verbose "
            "--no-external-commands --no-aliases --user-interfaces --developer-interfaces",
            "version": "--build-options",
            "var": "-l",
            "fsck": "--full --no-full --strict --unreachable --dangling --no-dangling --root "
            "--tags --cache --no-reflogs --connectivity-only --name-objects --progress "
            "--no-progress -v/--verbose",
            "get-tar-commit-id": "",
            "bugreport": "",
            "request-pull": "-p",
            "check-ref-format": "--normalize --allow-onelevel --no-allow-onelevel "
            "--refspec-pattern --branch",
            "column": "--mode= --raw-mode= --width= --indent= --nl= --padding=",
            "merge-tree": "--name-only --messages --no-messages -z --merge-base= "
            "--trivial-merge --allow-unrelated-histories -X/--strategy-option=",
            "show-index": "--object-format=",
            "verify-pack": "-v/--verbose -s/--stat-only",
            "fmt-merge-msg": "--log=? --no-log -m/--message=",
            "stripspace": "-s/--strip-comments -c/--comment-lines",
            "check-mailmap": "--stdin",
        }.items()
    },
    # ``bundle create FILE``: a file of the repository's objects, written where it says
    "bundle": _sub(
        "bundle",
        _READ,
        subcommands={
            "create": _sub(
                "create",
                _READ + " write",
                "--all --branches --tags --remotes -q/--quiet --progress --no-progress --version=",
                operands=("write", "none"),
            ),
            **shared(("verify", "list-heads"), _READ, "-q/--quiet", operands="read"),
            # the bundle's objects into the repository (as a fetch from a file would)
            "unbundle": _sub("unbundle", "vcs_write", "--progress", operands="read"),
        },
        default=sub("bundle", "unknown"),
    ),
    # reads any file given to it (``git hash-object ~/.ssh/id_rsa`` prints its object id, and
    # ``-w`` stores it where ``git cat-file`` prints it back)
    "interpret-trailers": _sub(
        "interpret-trailers",
        _READ,
        "--in-place --trim-empty --where= --no-where --if-exists= --no-if-exists "
        "--if-missing= --no-if-missing --only-trailers --only-input --unfold --parse "
        "--no-divider --trailer=",
        operands="read",
    ),
    "hash-object": _sub(
        "hash-object",
        _READ,
        "-t= --stdin --stdin-paths --no-filters --literally --path=",
        operands="read",
        options=[Opt("-w", adds="vcs_write")],
    ),
    # the everyday plumbing reads, each with its options (closed world: knowa)
    "rev-parse": _sub(
        "rev-parse",
        _READ,
        "--abbrev-ref=? --short=? --verify -q/--quiet --symbolic --symbolic-full-name "
        "--show-toplevel --show-prefix --show-cdup --git-dir --git-common-dir --absolute-git-dir "
        "--is-inside-work-tree --is-inside-git-dir --is-bare-repository --is-shallow-repository "
        "--show-superproject-working-tree --show-object-format=? --show-ref-format "
        "--all --branches=? --tags=? --remotes=? --glob= --exclude= --disambiguate= "
        "--default= --prefix= --local-env-vars --resolve-git-dir= --git-path= --since= "
        "--until= --sq --sq-quote --not --revs-only --no-revs --flags --no-flags "
        "--parseopt --keep-dashdash --stop-at-non-option --stuck-long --path-format=",
    ),
    "describe": _sub(
        "describe",
        _READ,
        "--all --tags --contains --abbrev= --candidates= --exact-match --debug --long "
        "--match= --exclude= --always --first-parent --dirty=? --broken=?",
    ),
    "ls-files": _sub(
        "ls-files",
        _READ,
        "-c/--cached -d/--deleted -o/--others -i/--ignored -s/--stage -u/--unmerged "
        "-k/--killed -m/--modified -z -t -v -f --directory --no-empty-directory --eol "
        "--deduplicate -x/--exclude= -X/--exclude-from= --exclude-per-directory= "
        "--exclude-standard --error-unmatch --with-tree= --full-name --recurse-submodules "
        "--abbrev=? --debug --sparse --format= --resolve-undo",
    ),
    "ls-tree": _sub(
        "ls-tree",
        _READ,
        "-d -r -t -l/--long -z --name-only/--name-status --object-only --full-name "
        "--full-tree --abbrev=? --format=",
    ),
    "rev-list": _sub(
        "rev-list",
        _READ,
        _LOG_FLAGS + " --count --objects --objects-edge --all --no-walk=? --timestamp "
        "--header --bisect --left-right --max-count= -n= --disk-usage=? --missing= --quiet",
        number="--max-count",
    ),
    **shared(
        ("for-each-ref", "show-ref"),
        _READ,
        "--count= --sort= --format= --color=? --shell --perl --python --tcl --points-at= "
        "--merged=? --no-merged=? --contains=? --no-contains=? --ignore-case --omit-empty "
        "--exclude= --include-root-refs --head --branches --tags --heads --verify "
        "-d/--dereference -s/--hash=? --abbrev=? -q/--quiet --exists --exclude-existing=?",
        abbrev=True,
    ),
    "merge-base": _sub(
        "merge-base", _READ, "-a/--all --octopus --independent --is-ancestor --fork-point"
    ),
    "name-rev": _sub(
        "name-rev",
        _READ,
        "--tags --refs= --exclude= --all --annotate-stdin --stdin --name-only --no-undefined "
        "--always",
    ),
    "check-ignore": _sub(
        "check-ignore", _READ, "-q/--quiet -v/--verbose --stdin -z -n/--non-matching --no-index"
    ),
    "cat-file": _sub(
        "cat-file",
        _READ,
        "-t -s -e -p --batch=? --batch-check=? --batch-command=? --textconv --filters "
        "--path= --follow-symlinks -Z --buffer --unordered --allow-unknown-type",
        handler=vcs.git_revision_paths,
    ),
    "status": _sub(
        "status",
        _READ,
        "-s/--short -b/--branch --show-stash --porcelain=? --long -v/--verbose "
        "-u/--untracked-files=? --ignore-submodules=? --ignored=? -z --column=? --no-column "
        "--ahead-behind --no-ahead-behind --renames --no-renames --find-renames=?",
        operands="read",
    ),
    "blame": _sub(
        "blame",
        _READ,
        "-b --root --show-stats --progress --no-progress --score-debug -f/--show-name "
        "-n/--show-number -p/--porcelain --line-porcelain -l -t -S= --reverse= "
        "--first-parent -L= -M=? -C=? --ignore-rev= --ignore-revs-file= --color-lines "
        "--color-by-age -e/--show-email -w --abbrev=? -s -c --date= --incremental "
        "--encoding=",
        options=[Opt("--contents", value="required", role="read")],
        handler=vcs.git_revision_paths,
    ),
    "annotate": _sub("annotate", _READ),
    "grep": _sub(
        "grep",
        _READ,
        "--cached --untracked --no-index --no-exclude-standard --exclude-standard "
        "--recurse-submodules -a/--text --textconv --no-textconv -i/--ignore-case -I "
        "--max-depth= -r/--recursive --no-recursive -w/--word-regexp -v/--invert-match "
        "-h -H --full-name -E/--extended-regexp -G/--basic-regexp -P/--perl-regexp "
        "-F/--fixed-strings -n/--line-number --column -l/--files-with-matches "
        "--name-only -L/--files-without-match -z/--null -o/--only-matching -c/--count "
        "--color=? --no-color --break --heading -p/--show-function -A/--after-context= "
        "-B/--before-context= -C/--context= -W/--function-context -m/--max-count= "
        "--threads= -e= --and --or --not --all-match -q/--quiet",
        # ``-O`` opens the matches in a pager program of the caller's choosing
        options=[
            Opt("-O/--open-files-in-pager", value="optional", role="shell"),
            Opt("-f", value="required", role="read"),
        ],
        number="--context",
        handler=vcs.git_grep,
    ),
    "format-patch": _sub(
        "format-patch",
        _READ,
        _DIFF_FLAGS + " --stdout --cover-letter --numbered -n -N/--no-numbered "
        "--start-number= --numbered-files -k/--keep-subject -s/--signoff --attach=? "
        "--inline=? --thread=? --no-thread --in-reply-to= --ignore-if-in-upstream "
        "--subject-prefix= --rfc=? -v/--reroll-count= --to= --cc= --from=? --base= "
        "--add-header= --suffix= -q/--quiet --no-binary --zero-commit --progress",
        options=[Opt("-o/--output-directory", value="required", role="write"), *_DIFF_OPTIONS],
        number="--max-count",
    ),
    "archive": _sub(
        "archive",
        _READ,
        "--format= -l/--list -v/--verbose --prefix= --add-virtual-file= "
        "--worktree-attributes --mtime= -0 -1 -2 -3 -4 -5 -6 -7 -8 -9",
        options=[
            Opt("-o/--output", value="required", role="write"),
            Opt("--add-file", value="required", role="read"),
            Opt("--remote", value="required", role="remote"),
            Opt("--exec", value="required", role="shell"),
        ],
        handler=vcs.git_archive,
    ),
    # changing the local repository
    **shared(
        (
            "sparse-checkout",
            "mergetool",
            "rerere",
            "commit-tree",
            "mktree",
            "write-tree",
            "pack-refs",
            "repack",
            "unpack-objects",
            "index-pack",
            "fast-import",
            "merge-file",
        ),
        _WRITE,
        abbrev=True,
    ),
    # plumbing that overwrites the index or the worktree, or moves refs
    "read-tree": _sub("read-tree", "vcs_write vcs_destructive"),
    "replace": _sub(
        "replace",
        "vcs_write vcs_destructive",
        "-f/--force -d/--delete -e/--edit --graft --convert-graft-file --raw --format=",
        options=[Opt("-l/--list")],
        handler=vcs.git_replace,
    ),
    "checkout-index": _sub(
        "checkout-index",
        _WRITE,
        "-u/--index -q/--quiet -n/--no-create --prefix= --stage= --temp "
        "--ignore-skip-worktree-bits -z --stdin",
        operands="write",
        options=[
            Opt("-f/--force", adds="vcs_destructive"),
            Opt("-a/--all", adds="vcs_destructive"),
        ],
    ),
    "update-index": _sub(
        "update-index",
        _WRITE,
        "--add --remove --refresh --really-refresh -q --ignore-submodules --unmerged "
        "--ignore-missing --chmod= --assume-unchanged --no-assume-unchanged "
        "--skip-worktree --no-skip-worktree --info-only --again -g --unresolve "
        "--index-version= -z --split-index --no-split-index --untracked-cache "
        "--no-untracked-cache --test-untracked-cache --force-untracked-cache --fsmonitor "
        "--no-fsmonitor --fsmonitor-valid --no-fsmonitor-valid --verbose --stdin",
        operands="read",
        options=[
            *opts("--force-remove --index-info --cacheinfo --replace", adds="vcs_destructive"),
        ],
    ),
    "symbolic-ref": _sub(
        "symbolic-ref",
        _READ,
        "-q/--quiet --short --no-recurse --recurse -m=",
        options=[Opt("-d/--delete", adds="vcs_destructive")],
        handler=vcs.git_symbolic_ref,
    ),
    # ``start`` and ``register`` schedule git to run in the background, every hour
    "maintenance": _sub(
        "maintenance",
        _WRITE,
        subcommands={
            **shared(
                ("start", "register"),
                "vcs_write system",
                "--scheduler= --config-file=",
                abbrev=True,
            ),
            **shared(("stop", "unregister"), _WRITE, "--config-file= --force", abbrev=True),
            "run": _sub(
                "run", _WRITE, "--auto --schedule= --quiet --no-quiet --task= --detach --no-detach"
            ),
        },
        default=_sub("maintenance", _WRITE),
    ),
    "init": _sub(
        "init",
        _WRITE,
        "-q/--quiet --bare --object-format= --ref-format= -b/--initial-branch= --shared=? "
        "--separate-git-dir=",
        operands="write",
        options=[_TEMPLATE],
    ),
    "add": _sub(
        "add",
        _WRITE,
        "-n/--dry-run -v/--verbose -f/--force -i/--interactive -p/--patch -e/--edit "
        "-u/--update -A/--all/--no-ignore-removal --no-all/--ignore-removal "
        "-N/--intent-to-add --refresh --ignore-errors --ignore-missing --no-warn-embedded-repo "
        "--renormalize --chmod= --sparse " + _PATHSPEC_FLAGS,
        operands="read",
        options=[_PATHSPEC_FROM],
    ),
    "stage": _sub("stage", _WRITE, operands="read"),
    "notes": _sub(
        "notes",
        _WRITE,
        "--ref= -f/--force -m/--message= -c/--reedit-message= -C/--reuse-message= "
        "--allow-empty --stdin --for-rewrite= -n/--dry-run -v/--verbose -q/--quiet "
        "--ignore-missing -s/--strategy= --commit --abort --separator=? --no-separator "
        "--stripspace --no-stripspace -e/--edit",
        options=[Opt("-F/--file", value="required", role="read")],
    ),
    "am": _sub(
        "am",
        _WRITE,
        "-s/--signoff -k/--keep --keep-non-patch --keep-cr --no-keep-cr -c/--scissors "
        "--no-scissors --quoted-cr= -m/--message-id --no-message-id -q/--quiet -u/--utf8 "
        "--no-utf8 -3/--3way --no-3way --rerere-autoupdate --no-rerere-autoupdate "
        "--ignore-space-change --ignore-whitespace --whitespace= -C= -p= --directory= "
        "--exclude= --include= --reject -i/--interactive --commit-date-is-author-date "
        "--ignore-date --skip -S/--gpg-sign=? --no-gpg-sign --continue -r/--resolved "
        "--resolvemsg= --retry --show-current-patch=? --allow-empty --empty=",
        operands="read",
        options=_ABORT,
    ),
    "commit": _sub(
        "commit",
        _WRITE,
        "-a/--all -p/--patch --interactive -C/--reuse-message= -c/--reedit-message= "
        "--fixup= --squash= --reset-author --short --branch --porcelain --long -z/--null "
        "--author= --date= -m/--message= -s/--signoff --no-signoff --trailer= --verify "
        "--allow-empty --allow-empty-message --cleanup= -e/--edit --no-edit --amend "
        "--no-post-rewrite -i/--include -o/--only -u/--untracked-files=? -v/--verbose "
        "-q/--quiet --dry-run --status --no-status -S/--gpg-sign=? --no-gpg-sign "
        + _PATHSPEC_FLAGS,
        operands="read",
        options=[
            *opts("-F/--file -t/--template", value="required", role="read"),
            Opt("-n/--no-verify", adds="vcs_destructive"),
            _PATHSPEC_FROM,
        ],
    ),
    "merge": _sub(
        "merge",
        _WRITE,
        _MERGE_FLAGS,
        options=[*_ABORT, Opt("-F/--file", value="required", role="read")],
    ),
    "cherry-pick": _sub(
        "cherry-pick",
        _WRITE,
        "-e/--edit --cleanup= -x -r -m/--mainline= -n/--no-commit -s/--signoff "
        "-S/--gpg-sign=? --no-gpg-sign --ff --allow-empty --allow-empty-message --empty= "
        "--keep-redundant-commits --strategy= -X/--strategy-option= --rerere-autoupdate "
        "--no-rerere-autoupdate --continue --skip --quit --abort",
        options=_ABORT,
    ),
    "revert": _sub(
        "revert",
        _WRITE,
        "-e/--edit --no-edit --cleanup= -m/--mainline= -n/--no-commit -S/--gpg-sign=? "
        "--no-gpg-sign -s/--signoff --strategy= -X/--strategy-option= --rerere-autoupdate "
        "--no-rerere-autoupdate --reference --continue --skip --quit --abort",
        options=_ABORT,
    ),
    "tag": _sub(
        "tag",
        _WRITE,
        "-a/--annotate -s/--sign --no-sign -u/--local-user= -v/--verify -n=? -l/--list "
        "--sort= --contains=? --no-contains=? --merged=? --no-merged=? --points-at= "
        "--column=? --no-column -m/--message= -e/--edit --cleanup= "
        "--create-reflog --format= -i/--ignore-case --color=? --omit-empty --trailer=",
        options=[
            Opt("-f/--force", adds="vcs_destructive"),
            Opt("-d/--delete"),
            Opt("-F/--file", value="required", role="read"),
        ],
    ),
    "mv": _sub(
        "mv",
        _WRITE,
        "-k -n/--dry-run -v/--verbose --sparse",
        operands="move",
        options=[Opt("-f/--force", adds="vcs_destructive")],
    ),
    "apply": _sub(
        "apply",
        _WRITE,
        "--stat --numstat --summary --check --index -3/--3way --ours --theirs --union "
        "--cached --intent-to-add --build-fake-ancestor= -R/--reverse --reject -z -p= -C= "
        "--unidiff-zero --apply --no-add --allow-binary-replacement/--binary --exclude= "
        "--include= --ignore-space-change/--ignore-whitespace --whitespace= --inaccurate-eof "
        "-v/--verbose -q/--quiet --recount --directory= --unsafe-paths --allow-empty",
        operands="read",
    ),
    "worktree": _sub(
        "worktree",
        _WRITE,
        subcommands={
            "add": _sub(
                "add",
                _WRITE,
                "-f/--force --detach --checkout --no-checkout --guess-remote "
                "--no-guess-remote --track --no-track --lock --reason= -q/--quiet --orphan "
                "-b= -B=",
                operands=("write", "none"),
            ),
            "list": _sub("list", _READ, "--porcelain -v/--verbose --expire= -z"),
            "remove": _sub(
                "remove",
                _WRITE,
                operands="delete",
                options=[Opt("-f/--force", adds="vcs_destructive")],
            ),
            "prune": _sub("prune", _WRITE, "-n/--dry-run -v/--verbose --expire="),
            "move": _sub("move", _WRITE, operands="move"),
            "lock": _sub("lock", _WRITE, "--reason="),
            "unlock": _sub("unlock", _WRITE),
            "repair": _sub("repair", _WRITE),
        },
        default=_sub("worktree", _WRITE),
    ),
    "checkout": _sub(
        "checkout",
        _WRITE,
        "-q/--quiet --progress --no-progress --ours --theirs -b= -t/--track=? "
        "--no-track -l --guess --no-guess -d/--detach --orphan= "
        "--ignore-skip-worktree-bits -m/--merge --conflict= -p/--patch "
        "--ignore-other-worktrees --overwrite-ignore --no-overwrite-ignore "
        "--recurse-submodules=? --no-recurse-submodules --overlay --no-overlay " + _PATHSPEC_FLAGS,
        options=[
            Opt("-f/--force"),
            Opt("-B", value="required", adds="vcs_destructive"),
            _PATHSPEC_RESTORE,
        ],
        handler=vcs.git_checkout,
    ),
    "switch": _sub(
        "switch",
        _WRITE,
        "-c/--create= -d/--detach --guess --no-guess -m/--merge "
        "--conflict= -q/--quiet --progress --no-progress -t/--track=? --no-track --orphan= "
        "--ignore-other-worktrees --recurse-submodules=? --no-recurse-submodules",
        options=[
            Opt("-f/--force/--discard-changes", adds="vcs_destructive"),
            Opt("-C/--force-create", value="required", adds="vcs_destructive"),
        ],
    ),
    "restore": _sub(
        "restore",
        _WRITE,
        "-s/--source= -p/--patch -q/--quiet --progress --no-progress --ours --theirs "
        "-m/--merge --conflict= --ignore-unmerged --ignore-skip-worktree-bits "
        "--recurse-submodules --no-recurse-submodules --overlay --no-overlay " + _PATHSPEC_FLAGS,
        options=[Opt("-W/--worktree"), Opt("-S/--staged"), _PATHSPEC_RESTORE],
        handler=vcs.git_checkout,
    ),
    "branch": _sub(
        "branch",
        _READ,
        "--create-reflog --color=? --no-color -i/--ignore-case --omit-empty --column=? "
        "--no-column -r/--remotes -a/--all -l/--list --show-current -v/--verbose -vv "
        "-q/--quiet --abbrev= --no-abbrev --contains=? --no-contains=? --merged=? "
        "--no-merged=? --sort= --points-at= --format= --recurse-submodules",
        options=[
            Opt("-D", adds="vcs_destructive vcs_write"),
            Opt("-f/--force", adds="vcs_destructive vcs_write"),
            Opt("-d/--delete", adds="vcs_write"),
            *opts("-m/--move -c/--copy --unset-upstream --edit-description", adds="vcs_write"),
            # move or copy over an existing branch: its commits are no longer on it
            *opts("-M -C", adds="vcs_destructive vcs_write"),
            Opt("-t/--track", value="optional", adds="vcs_write"),
            Opt("--no-track", adds="vcs_write"),
            Opt("-u/--set-upstream-to", value="required", adds="vcs_write"),
        ],
    ),
    "stash": _sub(
        "stash",
        _WRITE,
        "-p/--patch -S/--staged -k/--keep-index --no-keep-index "
        "--no-include-untracked -q/--quiet -m/--message= " + _PATHSPEC_FLAGS,
        subcommands={
            "list": _sub("list", _READ, _LOG_FLAGS),
            "show": _sub("show", _READ, _DIFF_FLAGS + " -u/--include-untracked --only-untracked"),
            "drop": _sub("drop", "vcs_destructive", "-q/--quiet"),
            "clear": _sub("clear", "vcs_destructive"),
            **shared(
                ("push", "save", "pop", "apply", "branch", "create", "store"),
                _WRITE,
                "-p/--patch -S/--staged -k/--keep-index --no-keep-index "
                "--no-include-untracked -q/--quiet "
                "-m/--message= --index " + _PATHSPEC_FLAGS,
                options=[_PATHSPEC_FROM, *_STASH_UNTRACKED],
                abbrev=True,
            ),
        },
        default=_sub("stash", _WRITE),
        options=[_PATHSPEC_FROM, *_STASH_UNTRACKED],
    ),
    "reset": _sub(
        "reset",
        _WRITE,
        "--soft --mixed -q/--quiet --no-quiet -p/--patch -N/--intent-to-add "
        "--recurse-submodules=? --no-recurse-submodules --refresh --no-refresh " + _PATHSPEC_FLAGS,
        options=[*opts("--hard --merge --keep", adds="vcs_destructive"), _PATHSPEC_FROM],
    ),
    "clean": _sub(
        "clean",
        "vcs_write delete vcs_destructive",
        "-d -i/--interactive -q/--quiet -e/--exclude= -x -X",
        operands="delete",
        options=[
            Opt("-f/--force", adds="vcs_destructive"),
            Opt("-n/--dry-run", adds="read_only"),
        ],
        handler=vcs.git_clean,
    ),
    "rm": _sub(
        "rm",
        "vcs_write",
        "-n/--dry-run -r -q/--quiet --ignore-unmatch --sparse " + _PATHSPEC_FLAGS,
        operands="delete",
        options=[
            Opt("--cached", operands="read"),
            Opt("-f/--force", adds="vcs_destructive"),
            _PATHSPEC_FROM,
        ],
    ),
    "rebase": _sub(
        "rebase",
        "vcs_destructive",
        "--onto= --keep-base --no-keep-base --continue --skip --abort --quit --edit-todo "
        "--show-current-patch -m/--merge --apply --empty= --keep-empty --no-keep-empty "
        "--reapply-cherry-picks --no-reapply-cherry-picks --allow-empty-message "
        "-S/--gpg-sign=? --no-gpg-sign -q/--quiet -v/--verbose --stat -n/--no-stat "
        "--no-verify --verify -C= --ignore-whitespace --whitespace= "
        "--committer-date-is-author-date --ignore-date/--reset-author-date --signoff "
        "-i/--interactive -r/--rebase-merges=? --no-rebase-merges --root --autosquash "
        "--no-autosquash --autostash --no-autostash --reschedule-failed-exec "
        "--no-reschedule-failed-exec --update-refs --no-update-refs -s/--strategy= "
        "-X/--strategy-option= --fork-point --no-fork-point --no-ff -f/--force-rebase",
        options=[Opt("-x/--exec", value="required", role="shell")],
    ),
    "filter-branch": _sub("filter-branch", "vcs_destructive code_exec"),
    "filter-repo": _sub("filter-repo", "vcs_destructive"),
    "gc": _sub(
        "gc",
        _WRITE,
        "--aggressive --auto --detach --no-detach -q/--quiet --force --keep-largest-pack "
        "--cruft --no-cruft --max-cruft-size=",
        options=[Opt("--prune", value="optional", adds="vcs_destructive")],
    ),
    "prune": _sub("prune", "vcs_destructive"),
    "reflog": _sub(
        "reflog",
        _READ,
        _LOG_FLAGS,
        number="--max-count",
        subcommands={
            "show": _sub("show", _READ, _LOG_FLAGS, number="--max-count"),
            "list": _sub("list", _READ),
            "expire": _sub("expire", "vcs_destructive"),
            "delete": _sub("delete", "vcs_destructive"),
            "drop": _sub("drop", "vcs_destructive"),
            "exists": _sub("exists", _READ),
        },
        default=_sub("reflog", _READ, _LOG_FLAGS, number="--max-count"),
    ),
    # moves a ref wherever it is told: the commits it pointed to are no longer on it
    "update-ref": _sub(
        "update-ref",
        "vcs_write vcs_destructive",
        "-m= --no-deref --create-reflog --stdin -z",
        options=[Opt("-d")],
    ),
    "commit-graph": _sub("commit-graph", _WRITE),
    # the network
    "push": _sub(
        "push",
        "vcs_write network network_write",
        _PUSH_FLAGS,
        operands=("remote", "none"),
        options=_PUSH_OPTIONS,
        handler=vcs.git_push,
    ),
    "fetch": _sub(
        "fetch",
        "vcs_write network network_read",
        _FETCH_FLAGS,
        operands=("remote", "none"),
        options=[_UPLOAD_PACK, Opt("-f/--force")],
    ),
    "pull": _sub(
        "pull",
        "vcs_write network network_read",
        _FETCH_FLAGS + " " + _MERGE_FLAGS + " -r/--rebase=? --no-rebase",
        operands=("remote", "none"),
        options=[_UPLOAD_PACK, Opt("-f/--force", adds="vcs_destructive")],
    ),
    "clone": _sub(
        "clone",
        "vcs_write network network_read write",
        "-l/--local -s/--shared --no-hardlinks -q/--quiet -v/--verbose --progress "
        "-n/--no-checkout --bare --mirror -o/--origin= -b/--branch= --revision= "
        "--dissociate --depth= --shallow-since= --shallow-exclude= --single-branch "
        "--no-single-branch --no-tags --tags --recurse-submodules=? --shallow-submodules "
        "--no-shallow-submodules --remote-submodules --no-remote-submodules -j/--jobs= "
        "--sparse --filter= --also-filter-submodules --server-option= -4/--ipv4 -6/--ipv6 "
        "--bundle-uri= --reject-shallow --no-reject-shallow --ref-format=",
        operands=("url_or_path", "write"),
        options=[
            Opt("-u/--upload-pack", value="required", role="shell"),
            _TEMPLATE,
            Opt("--separate-git-dir", value="required", role="write"),
            *opts("--reference --reference-if-able", value="required", role="read"),
            Opt("-c/--config", value="required", role="none"),
        ],
        handler=vcs.git_clone,
    ),
    "ls-remote": _sub(
        "ls-remote",
        "vcs_read network network_read",
        "-h/--heads -b/--branches -t/--tags --refs -q/--quiet --exit-code --get-url "
        "--sort= --symref -o/--server-option=",
        operands=("remote", "none"),
        options=[_UPLOAD_PACK],
    ),
    "remote": _sub(
        "remote",
        _READ,
        "-v/--verbose",
        subcommands={
            "add": _sub(
                "add",
                _WRITE,
                "-t= -m= -f --tags --no-tags --mirror=?",
                operands=("none", "remote"),
            ),
            "set-url": _sub(
                "set-url", _WRITE, "--push --add --delete", operands=("none", "remote")
            ),
            "remove": _sub("remove", _WRITE),
            "rm": _sub("rm", _WRITE),
            "rename": _sub("rename", _WRITE, "--progress --no-progress"),
            "prune": _sub("prune", "vcs_write network", "-n/--dry-run"),
            "update": _sub("update", "vcs_write network network_read", "-p/--prune"),
            "show": _sub("show", "vcs_read network network_read", "-n"),
            "get-url": _sub("get-url", _READ, "--push --all"),
            "set-head": _sub("set-head", _WRITE, "-a/--auto -d/--delete"),
            "set-branches": _sub("set-branches", _WRITE, "--add"),
        },
        default=_sub("remote", _READ),
    ),
    "submodule": _sub(
        "submodule",
        "vcs_write network",
        "-q/--quiet --cached",
        subcommands={
            "foreach": _sub(
                "foreach",
                "vcs_write",
                "--recursive -q/--quiet",
                operands="shell_words",
                permute=False,
            ),
            "status": _sub("status", _READ, "--cached --recursive"),
            "summary": _sub("summary", _READ),
            "update": _sub(
                "update",
                "vcs_write network",
                "--init --remote -N/--no-fetch --recommend-shallow --no-recommend-shallow "
                "-f/--force --checkout --rebase --merge --reference= --dissociate "
                "--recursive --depth= --single-branch --no-single-branch --filter= "
                "-j/--jobs= --progress --no-progress",
            ),
            "deinit": _sub(
                "deinit",
                "vcs_write delete",
                "--all",
                options=[Opt("-f/--force", adds="vcs_destructive")],
            ),
        },
        default=_sub("submodule", "vcs_write network"),
    ),
    "bisect": _sub(
        "bisect",
        _WRITE,
        subcommands={
            "run": _sub("run", _WRITE, operands="command", permute=False),
            "log": _sub("log", _READ),
            "view": _sub("view", _READ),
            "visualize": _sub("visualize", _READ),
        },
        default=_sub("bisect", _WRITE),
    ),
    "send-email": _sub("send-email", "network"),
    "daemon": _sub("daemon", "network process_control"),
    "instaweb": _sub("instaweb", "network process_control code_exec"),
    "difftool": _sub(
        "difftool",
        "vcs_read",
        _DIFF_FLAGS + " -d/--dir-diff -y/--no-prompt --prompt --rotate-to= --skip-to= "
        "-t/--tool= --tool-help --symlinks --no-symlinks -g/--gui --no-gui --trust-exit-code "
        "--no-trust-exit-code",
        options=[Opt("-x/--extcmd", value="required", role="shell")],
    ),
    # configuration (the handler finds keys that make git run programs)
    "config": _sub(
        "config",
        _READ,
        "--global --system --local --worktree --blob= --get --get-all --get-regexp "
        "--get-urlmatch --replace-all --add --unset --unset-all --rename-section "
        "--remove-section -l/--list --fixed-value --type= --bool --int --bool-or-int "
        "--path --expiry-date --no-type -z/--null --name-only --show-origin --show-scope "
        "--get-color --get-colorbool -e/--edit --includes --no-includes --default= --comment= "
        "--all --regexp --value= --url=",
        options=[Opt("-f/--file", value="required", role="read")],
        handler=vcs.git_config,
    ),
    "credential": _sub("credential", "secret_read"),
    "credential-store": _sub("credential-store", "secret_read"),
    "credential-cache": _sub("credential-cache", "secret_read"),
    "hook": _sub("hook", "code_exec"),
    "lfs": _sub(
        "lfs",
        "vcs_write network",
        subcommands={
            **shared(
                ("version", "ls-files", "status"), _READ, "-n/--name-only -l/--long -s/--size"
            ),
        },
        default=_sub("lfs", "vcs_write network"),
    ),
}

GIT_GLOBAL_OPTIONS = [
    Opt("-C", value="required", role="cwd"),
    # ``--work-tree`` is where checkout, clean and reset act: ``git --work-tree=/ clean -fdx``
    Opt("--work-tree", value="required", role="cwd"),
    Opt("--git-dir", value="required", role="read"),
    Opt("-c", value="required", role="none"),
    Opt("--exec-path", value="optional", adds="code_exec"),
]
_GIT_GLOBAL_FLAGS = (
    "--namespace= --super-prefix= --config-env= --list-cmds= --attr-source= "
    "-p/--paginate -P/--no-pager --bare --no-replace-objects --no-lazy-fetch "
    "--literal-pathspecs --glob-pathspecs --noglob-pathspecs --icase-pathspecs "
    "--no-optional-locks --html-path --man-path --info-path -v/--version -h/--help"
)

SPECS = [
    Spec(
        "git",
        "",
        options=GIT_GLOBAL_OPTIONS,
        flags=_GIT_GLOBAL_FLAGS,
        subcommands=GIT_SUBCOMMANDS,
        default=sub("git", "unknown"),
        handler=vcs.git_global,
    ),
]
