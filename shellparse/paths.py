"""Paths: resolution against cwd and home, the workspace boundary, and the secrets set.

Globs here are gitignore-style (``*`` within a segment, ``**`` across segments, a pattern
without ``/`` matches the last segment anywhere) and compile to one regular expression each.
"""

from __future__ import annotations

import posixpath
import re

from clearance.shellparse.globs import Affixes, GlobSet, holds_a_hint, literal_hints

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

#: Files whose content is a credential: the one notion of "secret" for every surface (the
#: classifier's ``secret_read`` and the engine's ``secrets`` path set are both this list, read by
#: the same matcher). ``!`` patterns are exceptions: committed templates (``.env.example``,
#: ``.env.sample``, ``.env.template`` and ``*.example`` / ``*.sample`` / ``*.template`` of any
#: other secret name) hold no credential; every other ``.env*`` is a secret.
#: Raw disks and the machine's memory: reading one reads every file and key on it
#: (``strings /dev/sda``, ``xxd /proc/kcore``). The engine's ``devices`` path set is made
#: of them.
RAW_STORAGE: Final = (
    "/dev/sd",
    "/dev/hd",
    "/dev/vd",
    "/dev/xvd",
    "/dev/nvme",
    "/dev/mmcblk",
    "/dev/disk",
    "/dev/rdisk",
    "/dev/dm-",
    "/dev/md",
    "/dev/mapper/",
    "/dev/loop",
)
RAW_MEMORY: Final = frozenset(("/dev/mem", "/dev/kmem", "/dev/port", "/proc/kcore"))

SECRET_PATTERNS: Final = (
    ".env*",
    "!*.example$",
    "!*.sample$",
    "!*.template$",
    "*.pem",
    "*.key",
    "*.p12",
    "*.pfx",
    "*.jks",
    "*.keystore",
    "*.ppk",
    "*.kdbx",
    "*.kdb",
    "*.agekey",
    "id_rsa*",
    "id_dsa*",
    "id_ecdsa*",
    "id_ed25519*",
    ".netrc",
    "_netrc",
    ".npmrc",
    ".yarnrc.yml",
    ".pypirc",
    ".git-credentials",
    ".htpasswd",
    ".pgpass",
    ".my.cnf",
    ".mylogin.cnf",
    ".vault-token",
    ".boto",
    ".s3cfg",
    ".passwd-s3fs",
    ".databrickscfg",
    "credentials",
    "credentials.json",
    "*credentials*.json",
    "service-account*.json",
    "secrets.y*ml",
    "kubeconfig",
    "*.kubeconfig",
    "*.tfstate",
    "*.tfstate.*",
    "terraform.tfstate.d",
    "*.tfvars",
    "*.tfvars.json",
    # local secrets files of frameworks and platforms (their templates ignore them in git)
    ".dev.vars*",  # Cloudflare Wrangler
    "local.settings.json",  # Azure Functions
    # Ansible Vault's password file (by its usual names: a pattern ending in .txt would make
    # every *.txt a possible secret where names are not known)
    ".vault_pass*",
    ".vault-pass*",
    ".vault_password*",
    "vault_pass",
    "vault-pass",
    "vault_password",
    # coding agents' own token stores
    "~/.claude/.credentials.json",
    "~/.claude.json",
    "~/.codex/auth.json",
    "~/.gemini/oauth_creds.json",
    "~/.gemini/google_accounts.json",
    "~/.config/github-copilot",
    "~/.copilot",
    "~/.cursor/cli-config.json",
    "~/.config/Cursor/User/globalStorage",
    "~/Library/Application Support/Cursor/User/globalStorage",
    "~/.aider.oauth-keys.env",
    # cloud CLIs, Kubernetes, infrastructure
    "~/.ssh",
    "!~/.ssh/*.pub$",  # public keys are for giving away (a link to a private key is not one)
    "~/.aws",
    "~/.gnupg",
    "~/.kube",
    "~/.azure",
    "~/.config/gcloud",
    "~/.oci",
    "~/.config/doctl",
    "~/.fly",
    "~/.config/linode-cli",
    "~/.aliyun",
    "~/.bluemix",
    "~/.config/rclone",
    "~/.snowflake",
    "~/.kaggle",
    "~/.cache/huggingface/token",
    "~/.huggingface/token",
    "~/.netlify",
    "~/.wrangler",
    "~/.config/.wrangler",
    "~/.local/share/com.vercel.cli",
    "/var/run/secrets",
    "/run/secrets",
    "~/.terraform.d/credentials*",
    "~/.terraformrc",
    "~/.pulumi/credentials.json",
    "~/.config/hcloud",
    "~/.tsh",
    "~/.config/ngrok",
    "~/.ngrok2",
    "~/.config/stripe",
    "~/.sentryclirc",
    "~/.circleci/cli.yml",
    "~/.config/configstore",  # npm CLIs' token stores (firebase-tools…)
    # forges, registries and package managers
    "~/.config/gh",
    "~/.yarnrc",  # yarn 1's user configuration: registry tokens (_authToken)
    "~/.config/hub",
    "~/.config/glab-cli",
    "~/.config/git/credentials",
    "~/.docker/config.json",
    "~/.config/containers/auth.json",
    "/run/user/*/containers/auth.json",
    "~/.cargo/credentials*",
    "~/.gem/credentials",
    "~/.local/share/gem/credentials",
    "~/.config/pip/pip.conf",
    "~/.pip/pip.conf",
    "~/.config/pypoetry/auth.toml",
    "~/.config/composer/auth.json",
    "~/.composer/auth.json",
    "~/.nuget/NuGet/NuGet.Config",
    "~/.m2/settings.xml",
    "~/.m2/settings-security.xml",
    "~/.gradle/gradle.properties",
    # encryption keys and password managers
    "~/.config/sops",
    "~/Library/Application Support/sops",
    "~/.password-store",
    "~/.config/op",
    "~/.op",
    "~/.config/Bitwarden CLI",
    "~/Library/Application Support/Bitwarden CLI",
    "~/.lpass",
    "~/.config/lpass",
    "~/.local/share/keyrings",
    "~/.local/share/kwalletd",
    "~/Library/Keychains",
    "/Library/Keychains",
    # clearance's own keys (policy cache, ledger MAC)
    "~/.cache/clearance/key",
    "~/.local/state/clearance/key",
    # the system's
    "/etc/shadow",
    "/etc/gshadow",
    "/etc/sudoers",
    "/etc/sudoers.d",
    "/etc/ssh/*_key",
    "/etc/wireguard",
    "/proc/*/environ",
    # shell and REPL histories: where typed passwords and tokens end up
    "~/.*_history",
    "~/.histfile",
    "~/.local/share/fish/fish_history",
    # browsers' profiles: saved logins, cookies, session tokens
    "~/.mozilla",
    "~/snap/firefox/common/.mozilla",
    "~/.config/google-chrome",
    "~/.config/chromium",
    "~/.config/BraveSoftware",
    "~/.config/microsoft-edge",
    "~/Library/Application Support/Google/Chrome",
    "~/Library/Application Support/Firefox",
    "~/Library/Application Support/BraveSoftware",
    "~/Library/Safari",
    "~/Library/Cookies",
    "cookies.sqlite",
    "logins.json",
    "key4.db",
    "Login Data",
    "Cookies",
)

#: Files that make code run later, or decide what an agent may do: writing them is a way to
#: persist or to escalate, even inside the workspace (a git hook runs at the next commit, a
#: shell start-up file at the next login, an agent's settings file loosens its own rules).
#: Writes matching them carry the ``sensitive_write`` marker; the engine may use the same list
#: as a path set. Patterns are gitignore-style: each covers what is under it too.
#: Files a user's shells read at start-up: writing one makes every later shell run it.
USER_SHELL_STARTUP: Final = (
    "~/.bashrc",
    "~/.bash_profile",
    "~/.bash_login",
    "~/.bash_logout",
    "~/.profile",
    "~/.zshrc",
    "~/.zshenv",
    "~/.zprofile",
    "~/.zlogin",
    "~/.zlogout",
    "~/.kshrc",
    "~/.cshrc",
    "~/.tcshrc",
    "~/.inputrc",
    "~/.config/fish",
    "~/.pam_environment",
    "~/.xprofile",
    "~/.xinitrc",
    "~/.xsession",
)

SENSITIVE_WRITE_PATTERNS: Final = (
    *USER_SHELL_STARTUP,
    "~/.config/autostart",
    "~/.config/systemd",
    "~/.config/environment.d",
    "~/.local/share/systemd",
    "~/.local/bin",
    "~/bin",
    "~/.ssh",
    "~/.gitconfig",
    "~/.config/git",
    "~/.npmrc",
    "~/.yarnrc*",
    "~/.pip",
    "~/.config/pip",
    "~/.pypirc",
    "~/.cargo/config*",
    "~/.docker/config.json",
    "~/.kube",
    "~/.aws",
    "~/Library/LaunchAgents",
    "~/Library/LaunchDaemons",
    "~/.vimrc",
    "~/.config/nvim",
    "~/.emacs",
    "~/.emacs.d",
    "~/.tmux.conf",
    "~/.claude",
    "~/.claude.json",
    "~/.codex",
    "~/.gemini",
    "~/.cursor",
    "~/.config/clearance",
    ".git/hooks",
    ".git/config",
    ".git/info/attributes",
    ".gitattributes",
    ".envrc",
    ".husky",
    ".pre-commit-config.yaml",
    ".claude",
    ".codex",
    ".gemini",
    ".cursor",
    ".vscode/tasks.json",
    ".vscode/settings.json",
    ".clearance",
    "CLAUDE.md",
    "AGENTS.md",
    "GEMINI.md",
    "/etc",
    "/usr/lib/systemd",
    "/lib/systemd",
    "/var/spool/cron",
    "/var/spool/at",
    "/Library/LaunchAgents",
    "/Library/LaunchDaemons",
    "/boot",
)

#: Where writing touches the machine itself rather than files: devices, the kernel.
SYSTEM_PREFIXES: Final = ("/dev/", "/sys/", "/proc/", "/boot/")

#: Paths that are not files in any sense a policy cares about.
HARMLESS_DEVICES: Final = frozenset(
    (
        "/dev/null",
        "/dev/stdout",
        "/dev/stderr",
        "/dev/stdin",
        "/dev/tty",
        "/dev/zero",
    )
)


def glob_to_regex(pattern: str, home: str, *, descendants: bool = True) -> str:
    """Translate a gitignore-style glob to a regular expression over absolute paths.

    Like gitignore, a pattern also matches everything under what it names, unless
    ``descendants`` is false.
    """
    if pattern.startswith("~/"):
        pattern = home.rstrip("/") + pattern[1:]
    anchored = "/" in pattern.rstrip("/")
    body = pattern.lstrip("/") if anchored else pattern
    out: list[str] = []
    i = 0
    while i < len(body):
        c = body[i]
        if body.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif body.startswith("**", i):
            out.append(".*")
            i += 2
        elif c == "*":
            out.append("[^/]*")
            i += 1
        elif c == "?":
            out.append("[^/]")
            i += 1
        elif c == "[":
            end = body.find("]", i + 1)
            if end < 0:
                out.append(re.escape(c))
                i += 1
            else:
                chars = body[i + 1 : end]
                if chars.startswith("!"):
                    chars = "^" + chars[1:]
                out.append("[" + chars.replace("\\", "\\\\") + "]")
                i = end + 1
        else:
            out.append(re.escape(c))
            i += 1
    core = "".join(out)
    if core.endswith("/.*"):
        # ``dir/**`` covers ``dir`` itself too
        core = core[: -len("/.*")] + "(?:/.*)?"
    tail = "(?:/.*)?" if descendants else ""
    if anchored:
        return "/" + core + tail
    return "(?:.*/)?" + core + tail


_secret_cache: Final[dict[str, GlobSet]] = {}


def secret_set(home: str, fold: bool = False) -> GlobSet:
    """The secrets as one matcher (cached per home; ``fold``: case-insensitive)."""
    key = home + ("\0i" if fold else "")
    found = _secret_cache.get(key)
    if found is None:
        found = _secret_cache[key] = GlobSet(SECRET_PATTERNS, home, "/", fold=fold)
    return found


def is_secret(resolved: str, home: str, fold: bool = False) -> bool:
    return secret_set(home, fold).match(resolved)


class SecretNames:
    """The secret patterns that name a file anywhere (``.env*``, ``id_rsa*``, ``*.pem``) as
    plain string tests on one name: what a tree search asks of every entry it reads."""

    __slots__ = ("fold", "hints", "literal", "negated", "others", "prefixes", "suffixes")

    others: re.Pattern[str] | None

    def __init__(self, fold: bool) -> None:
        self.fold = fold
        names: list[str] = []
        negated: list[str] = []
        for pattern in SECRET_PATTERNS:
            text = pattern.lower() if fold else pattern
            if text.startswith("!"):
                negated.append(text[1:].rstrip("$"))
                continue
            if "/" in text:
                continue
            names.append(text.rstrip("$"))
        from clearance.shellparse.globs import glob_regex_body, name_shapes

        literal, prefixes, suffixes, others = name_shapes(names)

        def one(globs: list[str]) -> re.Pattern[str] | None:
            if not globs:
                return None
            body = "|".join(f"(?:{glob_regex_body(g, '[^/]*', '[^/]')})" for g in globs)
            return re.compile(body, re.DOTALL)

        self.literal = frozenset(literal)
        self.prefixes = Affixes(prefixes, last=False)
        self.suffixes = Affixes(suffixes, last=True)
        self.others = one(others)
        self.negated = one(negated)
        #: A piece of each of ``others``' patterns that a name it matches holds as it is
        #: (``globs.literal_hints``): a name holding none of them needs no regex.
        self.hints = literal_hints(others) if others else None

    def match(self, name: str) -> bool:
        if self.fold:
            name = name.lower()
        hit = (
            name in self.literal
            or self.prefixes.meets(name)
            or self.suffixes.meets(name)
            or (
                self.others is not None
                and (self.hints is None or holds_a_hint(self.hints, name))
                and self.others.fullmatch(name) is not None
            )
        )
        return hit and (self.negated is None or self.negated.fullmatch(name) is None)


_names_cache: Final[dict[bool, SecretNames]] = {}


def secret_names(fold: bool = False) -> SecretNames:
    found = _names_cache.get(fold)
    if found is None:
        found = _names_cache[fold] = SecretNames(fold)
    return found


_anchored_cache: Final[dict[tuple[str, str, bool], GlobSet | None]] = {}


def anchored_secrets(root: str, home: str, fold: bool = False) -> GlobSet | None:
    """The secret patterns with a fixed place (``~/.ssh``, ``/etc/shadow``) that could lie
    under ``root``, or ``None`` when none can: searching a project asks nothing of them."""
    key = (root, home, fold)
    if key in _anchored_cache:
        return _anchored_cache[key]
    prefix = root.rstrip("/") + "/"
    chosen: list[str] = []
    for pattern, fixed, under in _anchored_places(home):
        if fixed.startswith(prefix) or fixed == root or prefix.startswith(under):
            chosen.append(pattern)
    found = GlobSet(chosen, home, "/", fold=fold) if chosen else None
    if len(_anchored_cache) > 256:
        _anchored_cache.clear()
    _anchored_cache[key] = found
    return found


def _anchored_places(home: str) -> list[tuple[str, str, str]]:
    """``(pattern, its fixed directory part, that part with a trailing /)`` of each secret
    pattern with a place, for ``anchored_secrets``: made once per home, not per root."""
    found = _places_cache.get(home)
    if found is None:
        found = []
        for pattern in SECRET_PATTERNS:
            if pattern.startswith("!") or "/" not in pattern.rstrip("/"):
                continue
            fixed = _fixed_prefix(pattern, home) or "/"
            found.append((pattern, fixed, fixed.rstrip("/") + "/"))
        if len(_places_cache) >= 64:
            _places_cache.clear()
        _places_cache[home] = found
    return found


_places_cache: Final[dict[str, list[tuple[str, str, str]]]] = {}


def _fixed_prefix(pattern: str, home: str) -> str | None:
    """The directory part of an anchored pattern before any wildcard (``~/.ssh/**`` gives
    ``/home/u/.ssh``); ``None`` for a pattern that matches anywhere."""
    if pattern.startswith("~/"):
        pattern = home.rstrip("/") + pattern[1:]
    if not pattern.startswith("/"):
        return None
    cut = min((i for i, c in enumerate(pattern) if c in "*?["), default=len(pattern))
    return pattern[:cut].rstrip("/") or "/"


_roots_cache: Final[dict[str, tuple[str, ...]]] = {}


def secret_roots(home: str) -> tuple[str, ...]:
    """Directories and files that anchored secret patterns name, e.g. ``~/.ssh``."""
    found = _roots_cache.get(home)
    if found is None:
        roots = {_fixed_prefix(p, home) for p in SECRET_PATTERNS if not p.startswith("!")}
        found = _roots_cache[home] = tuple(sorted(r for r in roots if r is not None))
    return found


def holds_secrets(resolved: str, home: str) -> bool:
    """Reading everything under ``resolved`` reads a secret: it is one, or it contains a
    place that holds them (``tar czf - ~`` reads ``~/.ssh``)."""
    if is_secret(resolved, home):
        return True
    prefix = resolved.rstrip("/") + "/"
    return any(root == resolved or root.startswith(prefix) for root in secret_roots(home))


class _SensitiveWrites:
    """``SENSITIVE_WRITE_PATTERNS`` for one home and workspace, in the forms the tests take:
    absolute literal paths (exact, and as prefixes of what lies under them), literal tails
    in the workspace (ends, and segments anywhere below it), the globs' matcher. Most patterns
    are literal: a few string tests in C decide them, and only the few with glob characters
    go through the segment matcher of ``globs``."""

    __slots__ = ("exact", "globs", "root", "tails", "tails_within", "under")

    def __init__(self, home: str, workspace: str) -> None:
        absolute: list[str] = []
        tails: list[str] = []
        globs: list[str] = []
        for pattern in SENSITIVE_WRITE_PATTERNS:
            if any(c in pattern for c in "*?["):
                globs.append(
                    pattern
                    if pattern.startswith(("/", "~/"))
                    else workspace.rstrip("/") + "/**/" + pattern
                )
            elif pattern.startswith("~/"):
                absolute.append(home.rstrip("/") + pattern[1:])
            elif pattern.startswith("/"):
                absolute.append(pattern)
            else:
                tails.append("/" + pattern)
        self.exact = frozenset(absolute)
        self.under = tuple(path + "/" for path in absolute)
        #: the workspace's own directory, with its slash: what a tail is looked for below
        self.root = workspace.rstrip("/") + "/"
        self.tails = tuple(tails)
        self.tails_within = tuple(tail + "/" for tail in tails)
        self.globs = GlobSet(globs, home, workspace) if globs else None

    def match(self, resolved: str) -> bool:
        if resolved in self.exact or resolved.startswith(self.under):
            return True
        root = self.root
        if resolved.startswith(root):
            inside = resolved[len(root) - 1 :]
            if inside.endswith(self.tails):
                return True
            for within in self.tails_within:
                if within in inside:
                    return True
        globs = self.globs
        return globs is not None and globs.match(resolved)


#: ``_SensitiveWrites`` by (home, workspace).
_sensitive_cache: Final[dict[tuple[str, str], _SensitiveWrites]] = {}


def _sensitive_writes(home: str, workspace: str) -> _SensitiveWrites:
    key = (home, workspace)
    found = _sensitive_cache.get(key)
    if found is None:
        found = _sensitive_cache[key] = _SensitiveWrites(home, workspace)
    return found


#: ``is_sensitive_write`` answers by (path, home, workspace): they depend on nothing else.
_sensitive_answers: Final[dict[tuple[str, str, str], bool]] = {}


def is_sensitive_write(resolved: str, home: str, workspace: str) -> bool:
    """Writing ``resolved`` makes code run later or changes what an agent may do.

    A pattern covers what it names and everything under it; a relative pattern is in the
    workspace, at any depth (nested repositories).
    """
    key = (resolved, home, workspace)
    found = _sensitive_answers.get(key)
    if found is None:
        found = _sensitive_writes(home, workspace).match(resolved)
        if len(_sensitive_answers) >= 8192:
            _sensitive_answers.clear()
        _sensitive_answers[key] = found
    return found


def is_normal(path: str) -> bool:
    """Whether ``path`` is absolute and surely as ``posixpath.normpath`` leaves it: no empty,
    ``.`` or ``..`` segment and no trailing slash (checked in C, without splitting). ``False``
    may also be said of a normal path (a name that starts with a dot)."""
    if not path.startswith("/"):
        return False
    # ``/.`` covers the ``.`` and ``..`` segments (and, to be safe, a hidden name: left to
    # ``normpath``, which keeps it)
    return path == "/" or (not path.endswith("/") and "//" not in path and "/." not in path)


#: ``normal``'s answers by path (a function of the text alone): a batch names the same
#: directories line after line (its working directory, its workspace, ``/tmp``).
_NORMAL_FORMS: Final[dict[str, str]] = {}


def normal(path: str) -> str:
    """``posixpath.normpath`` of an absolute path, the path itself when it is normal already
    (most are: the call and its split cost more than the rest of a short decision)."""
    found = _NORMAL_FORMS.get(path)
    if found is None:
        found = path if is_normal(path) else posixpath.normpath(path)
        if len(_NORMAL_FORMS) >= 4096:
            _NORMAL_FORMS.clear()
        _NORMAL_FORMS[path] = found
    return found


def absolute(path: str) -> str:
    """``os.path.abspath``, without its work for a path that is normal already (an absolute
    path's is its ``normal`` form; a relative one's depends on the working directory)."""
    if path.startswith("/"):
        return normal(path)
    return posixpath.abspath(path)


def resolve(path: str, cwd: str | None, home: str) -> str | None:
    """Absolute normalised form of ``path``; ``None`` if it is relative to an unknown cwd."""
    if path.startswith("~/") or path == "~":
        path = home + path[1:]
    elif path.startswith("~"):
        return None  # ``~user``: another user's home, not known here
    if not path.startswith("/"):
        if cwd is None:
            return None
        path = cwd.rstrip("/") + "/" + path
    if "/proc/" in path and "self" in path:
        return _own_process(path, cwd)
    resolved = normal(path)
    if resolved.startswith("//"):
        resolved = "/" + resolved.lstrip("/")
    return resolved


#: Paths that name the running process's own files: the command's, not clearance's.
OWN_PROCESS: Final = (
    "/proc/self/",
    "/proc/thread-self/",
    "/dev/fd/",
    "/dev/stdin",
    "/dev/stdout",
    "/dev/stderr",
)


def _own_process(path: str, cwd: str | None) -> str | None:
    """The absolute ``path`` normalised as the kernel walks it, for a path that may pass
    through ``/proc/self``: ``/proc/self/cwd`` is the command's working directory (``None``
    when that is not known) and ``/proc/self/root`` is ``/``, each taken before a ``..`` after
    it (``/proc/self/cwd/../x`` is beside the working directory, not ``/proc/self/x``); the
    rest of ``/proc/self`` stays as written (what the command's own process holds, judged by
    name: ``/proc/self/environ``)."""
    segments: list[str] = []
    for segment in path.split("/"):
        if segment in ("", "."):
            continue
        if segment == "..":
            if segments:
                segments.pop()
            continue
        segments.append(segment)
        if (
            len(segments) == 3
            and segments[0] == "proc"
            and segments[1] in ("self", "thread-self")
            and segments[2] in ("cwd", "root")
        ):
            if segments[2] == "root":
                segments = []
            elif cwd is None:
                return None
            else:
                segments = [s for s in normal(cwd).split("/") if s]
    return "/" + "/".join(segments)


def inside(resolved: str | None, workspace: str | None) -> bool | None:
    """Whether ``resolved`` is in the workspace; ``None`` when the path is unknown; ``False``
    for every path when there is no workspace (a cwd that belongs to no project)."""
    if resolved is None:
        return None
    if workspace is None:
        return False
    root = workspace.rstrip("/") or "/"
    return resolved == root or resolved.startswith(root + "/") or root == "/"
