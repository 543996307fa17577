"""Facts of the agents' file and web tools: the one part each such tool call is judged as.

A file tool (kind ``read``, ``write``, ``edit``, ``list``) is one part whose program is its
pseudo-program (``clearance.vocab.PSEUDO_PROGRAMS``: ``read_file``…) and whose paths are the
ones its input selects, classified exactly as a shell command's arguments are (secrets,
workspace, sensitive writes) and, with ``resolve``, checked against this machine (globs
expanded, links followed, trees searched). A web tool (``fetch``, ``search``) is one part
carrying the hosts it contacts, a secret read when its text would carry a secret out. Any
other tool is one opaque part named after it.

Which input field of which agent's tool holds what is the engine's knowledge
(``clearance.engine.intents``); what the paths, hosts and words mean is shellparse's.
"""

from __future__ import annotations

import re

from clearance.shellparse.facts import SimpleCommandFacts
from clearance.vocab import PSEUDO_PROGRAMS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Final

#: How a file tool selects what it touches, beside the value: ``path`` (that file),
#: ``glob`` (a pattern of paths), ``tree`` (a directory read whole), ``meta`` (names and
#: metadata only), ``meta-glob`` (a pattern, names only), ``filter`` (``DIR/{}/GLOB``: the
#: files a filter picks under DIR).
HOWS: Final = ("path", "glob", "tree", "meta", "meta-glob", "filter")

_URL: Final = re.compile(r"https?://[^\s\"'<>)]+")


def file_tool_facts(
    kind: str,
    targets: Sequence[tuple[str, str, str]],
    *,
    cwd: str,
    home: str,
    workspace: str | None,
    resolve: bool = True,
    tool: str | None = None,
) -> SimpleCommandFacts:
    """The one part of a file tool of ``kind`` touching ``targets``: ``(value, access, how)``
    with ``access`` one of ``read``, ``write``, ``delete`` and ``how`` one of ``HOWS``.

    ``workspace`` ``None``: the cwd belongs to no project. ``resolve``: judge the paths as
    this machine's file system has them. ``tool``: the agent's name of the tool, kept as the
    part's raw program (how a tree search leaves files out can depend on it:
    ``world.IGNORE_HONOURING_TOOLS``)."""
    from clearance.shellparse.classifier import Classifier
    from clearance.shellparse.expand import Env
    from clearance.shellparse.resolve import has_glob

    resolver = None
    fold = False
    if resolve:
        from clearance.shellparse.resolve import Resolver, case_insensitive

        resolver = Resolver()
        fold = case_insensitive(workspace or cwd)
    classifier = Classifier(workspace, home, cwd=cwd, fold=fold)
    # the file system is in view: what a file holds may be read (a git configuration's token)
    classifier.machine = resolver is not None
    env = Env(home, cwd, homes={} if resolver is not None else None)
    values = [value for value, _, _ in targets]
    program = PSEUDO_PROGRAMS[kind]
    fact = SimpleCommandFacts([program, *values], " ".join(values), 0, 0)
    fact.program = program
    fact.program_raw = tool or program
    accesses = {access for _, access, _ in targets}
    fact.classes.add("read_only" if accesses <= {"read"} else "write")
    if "delete" in accesses:
        fact.classes.add("delete")
    # the agents' glob fields span directories with ``**`` and may match dotfiles
    classifier.shell_options |= {"globstar", "dotglob"}
    for value, access, how in targets:
        classifier.glob_words = frozenset(
            (value,) if how in ("glob", "meta-glob") and has_glob(value) else ()
        )
        classifier.add_path(
            fact,
            value,
            access,
            env,
            source="tool",
            tree=how == "tree",
            meta=how.startswith("meta"),
        )
    classifier.glob_words = frozenset()
    if resolver is not None:
        from clearance.shellparse.world import ground

        ground(fact, classifier, resolver)
    return fact


def urls_in(text: str) -> list[str]:
    """The URLs a fetch tool's text names (all of it when it is one URL)."""
    if text.startswith(("http://", "https://")):
        return [text]
    return _URL.findall(text)


def web_tool_facts(
    kind: str, text: str, urls: Iterable[str], *, words: Iterable[str] = (), home: str = "/"
) -> SimpleCommandFacts:
    """The one part of a web tool of ``kind`` (``fetch``, ``search``): ``text`` is its URL,
    prompt or query, ``urls`` the URLs it fetches (``urls_in``), ``words`` every string of its
    input -- any of them carrying secret material makes the part a secret read."""
    from clearance.shellparse.classifier import hosts_in

    program = PSEUDO_PROGRAMS[kind]
    fact = SimpleCommandFacts([program, text], text, 0, len(text))
    fact.program = fact.program_raw = program
    fact.classes.update(("network", "network_read", "read_only"))
    if any(carries_secret(word, home) for word in words):
        # the query or URL would carry the secret out
        fact.classes.add("secret_read")
    for url in urls:
        for host in hosts_in(url):
            if host not in fact.hosts:
                fact.hosts.append(host)
    return fact


def opaque_tool_facts(tool: str) -> SimpleCommandFacts:
    """The one part of a tool that touches neither files nor the network as far as anyone
    can tell (an agent's plan or todo tool, or a tool nothing knows): named after it."""
    fact = SimpleCommandFacts([tool], tool, 0, 0)
    fact.program = fact.program_raw = tool
    return fact


def carries_secret(text: str, home: str) -> bool:
    """Whether a query or URL carries secret material: a credential-shaped string, or the
    path of a secret (``file:///home/u/.aws/credentials``)."""
    from clearance.shellparse.credentials import credential_shaped
    from clearance.shellparse.paths import is_secret

    if credential_shaped(text):
        return True

    for word in re.findall(r"(?:file://)?(~?/[^\s\"'<>?#]+)", text):
        path = word.replace("file://", "")
        if path.startswith("~"):
            path = home + path[1:]
        if is_secret(path, home):
            return True
    return False


__all__ = [
    "HOWS",
    "carries_secret",
    "file_tool_facts",
    "opaque_tool_facts",
    "urls_in",
    "web_tool_facts",
]
