"""Segment-wise path globs against a regular-expression oracle, and their semantics."""

from __future__ import annotations

import fnmatch
import re

import pytest

from clearance.engine.pathsets import PATH_SETS
from clearance.shellparse.globs import GlobSet, PathPattern
from clearance.shellparse.paths import glob_to_regex, is_secret

HOME = "/home/user"
WS = "/home/user/project"

PATHS = [
    "/",
    "/home",
    HOME,
    WS,
    f"{WS}/*",
    f"{WS}/src",
    f"{WS}/src/app.py",
    f"{WS}/.git/hooks/x",
    f"{WS}/.git/config",
    f"{WS}/a/.env.local",
    f"{WS}/.env.example",
    f"{HOME}/.ssh",
    f"{HOME}/.ssh/id_rsa",
    f"{HOME}/.bashrc",
    f"{HOME}/.config/fish/config.fish",
    "/etc",
    "/etc/cron.d/job",
    "/etc/passwd",
    "/dev/sda1",
    "/dev/null",
    "/proc/1/environ",
    "/tmp/x\ny",
    "/usr/bin/rm",
    f"{WS}/build/out/x1.o",
    f"{WS}/node_modules/a/b",
    "/bin/sh",
    "/root",
]
PATTERNS = [p for ps in PATH_SETS.values() for p in ps] + [
    "src/**",
    "*.py",
    "build/**/x?.o",
    ".env*",
    "/etc/**",
    "node_modules",
    "/[ab]in/*",
    "/$",
]


def oracle(pattern: str) -> re.Pattern[str]:
    """The regex reading of a pattern (how the sets were first implemented)."""
    exact = pattern.endswith("$")
    pattern = pattern.removesuffix("$")
    tail = "" if exact else "(?:/.*)?"
    if pattern == "/":
        return re.compile("/" if exact else "/.*", re.S)
    if pattern == "~":
        return re.compile(re.escape(HOME) + tail, re.S)
    if pattern.startswith("{workspace}"):
        rest = pattern[len("{workspace}") :]
        if not rest:
            return re.compile(re.escape(WS) + tail, re.S)
        return re.compile(re.escape(WS) + glob_to_regex(rest, HOME, descendants=not exact), re.S)
    if "/" in pattern.rstrip("/") and not pattern.startswith(("/", "~/")):
        pattern = WS + "/" + pattern
    return re.compile(glob_to_regex(pattern, HOME, descendants=not exact), re.S)


@pytest.mark.parametrize("pattern", PATTERNS)
def test_segment_matcher_agrees_with_regex_oracle(pattern: str) -> None:
    compiled = PathPattern(pattern, HOME, WS)
    expected = oracle(pattern)
    for path in PATHS:
        assert compiled.match(path) == bool(expected.fullmatch(path)), (pattern, path)


@pytest.mark.parametrize("pattern", PATTERNS)
def test_compiled_form_agrees(pattern: str) -> None:
    from clearance.shellparse.globs import regex_source

    compiled = re.compile(regex_source(pattern, HOME, WS), re.S)
    expected = oracle(pattern)
    for path in PATHS:
        assert bool(compiled.fullmatch(path)) == bool(expected.fullmatch(path)), (pattern, path)


def test_the_indexed_set_agrees_with_its_patterns() -> None:
    # the set decides by an index of its patterns by shape; each pattern alone is the oracle
    globs = GlobSet(PATTERNS, HOME, WS)
    positive = [PathPattern(p, HOME, WS) for p in PATTERNS if not p.startswith("!")]
    negative = [PathPattern(p[1:], HOME, WS) for p in PATTERNS if p.startswith("!")]
    for path in PATHS:
        expected = any(p.match(path) for p in positive) and not any(p.match(path) for p in negative)
        assert globs.match(path) == expected, path
    assert globs.match(f"{HOME}/.ssh/id_rsa") and not globs.match("/srv2/x")


def _near_names(pattern: str) -> list[str]:
    """Names at and around a pattern's literal runs: the run itself, one character short of
    it at either end, and longer at either end (what a prefix or suffix test must tell)."""
    out: list[str] = []
    for run in re.split(r"[*?]|\[[^\]]*\]", pattern.strip("/").rsplit("/", 1)[-1].rstrip("$")):
        if run:
            out += [run, run[1:], run[:-1], "x" + run, run + "x", run.upper()]
    return out


@pytest.mark.parametrize("name", ["secrets", *PATH_SETS])
def test_the_index_agrees_with_each_pattern_on_names_near_every_pattern(name: str) -> None:
    """The index (names, prefixes and suffixes by their first or last character; anchored
    patterns by their start's first segment) against each pattern alone: every set the
    engine knows, over names made from every pattern's literal runs, at several depths,
    absolute and not in normal form; a relative path at least where a pattern matches."""
    from clearance.shellparse.paths import SECRET_PATTERNS

    texts = list(SECRET_PATTERNS) if name == "secrets" else list(PATH_SETS[name])
    globs = GlobSet(texts, HOME, WS)
    positive = [PathPattern(p, HOME, WS) for p in texts if not p.startswith("!")]
    negative = [PathPattern(p[1:], HOME, WS) for p in texts if p.startswith("!")]
    names = sorted({n for p in texts for n in _near_names(p)} | {"a", "", "."})
    places = ["", "/", "/etc/", f"{HOME}/", f"{HOME}/.ssh/", f"{WS}/src/", "/etcetera/", "rel/"]
    paths = {place + n for place in places for n in names} | {
        f"{place}{n}/inner" for place in ("/", f"{HOME}/") for n in names
    }
    for path in sorted(paths | {"/", "", "//etc", "/etc/", f"{HOME}/.ssh/"}):
        # a tree: the set or anything below the path, from the index and the patterns by
        # first segment, as each pattern alone tells
        tree = globs.match(path) or any(p.match_tree(path) for p in positive)
        assert globs.match_tree(path) == tree, (name, "tree", path)
    for path in sorted(paths):
        expected = any(p.match(path) for p in positive) and not any(p.match(path) for p in negative)
        if path[:1] != "/":
            # a relative path: the index reads it as from the root (``etc/x`` is under the
            # tree ``/etc``), a pattern alone does not -- never less than the patterns
            assert globs._match(path) or not expected, (name, path)
            continue
        assert globs._match(path) == expected, (name, path)
        if "//" not in path:
            assert globs.match(path) == expected, (name, path)


def test_a_set_of_placed_patterns_turns_away_only_what_none_could_match() -> None:
    """A set whose every pattern has a place (``/etc/shadow``, ``~/.ssh/**``) turns away a
    path under none of those places before its index; each pattern alone is the oracle,
    over paths in normal form and the forms the index reads segment by segment."""
    from clearance.shellparse.paths import anchored_secrets

    placed = anchored_secrets("/", HOME)
    assert placed is not None
    sets = [
        placed,
        GlobSet([f"{HOME}/.ssh/**", "/etc/shadow", "/srv/*/key", "!/srv/a/key"], HOME, WS),
        GlobSet(["/"], HOME, WS),
        GlobSet(["/**"], HOME, WS),
        GlobSet([f"{HOME}/.aws", "/var/lib/*/secret?"], HOME, WS),
    ]
    paths = [
        *PATHS,
        f"{HOME}/.ssh/id_ed25519",
        f"{HOME}//.ssh/id_rsa",
        "home/user/.ssh/id_rsa",
        "/etc/shadow",
        "/etc//shadow",
        "/etc/shadow/",
        "/srv/a/key",
        "/srv/b/key",
        "/srv/b/keys",
        f"{HOME}/.aws",
        f"{HOME}/.aws/credentials",
        f"{HOME}/.awsx",
        "/var/lib/x/secret1",
        "/var/lib/x/secret",
        # a first segment that only begins like a place's, or a place's first directory
        "/etcetera/shadow",
        "/etc",
        "/et",
        "/srvx/a/key",
        "/srv",
        "/var/lib",
        "/home",
        f"{HOME}x/.ssh/id_rsa",
        "",
        ".",
    ]
    for globs in sets:
        positive, negative = globs.patterns, globs.excluded
        globs.match("/")  # builds the index
        assert globs._index is not None
        # a place '/' (the whole tree) turns nothing away; every other set has the filter
        assert (globs._index.heads is None) == (globs.texts[0] in ("/", "/**")), globs.texts
        for path in paths:
            # the index without the turn-away is the oracle for every form (it reads a
            # tree's place segment by segment, so it holds '~//.ssh/x' too) ...
            assert globs.match(path) == globs._match(path), (path, globs.texts)
            if path[:1] != "/" or "//" in path:
                continue
            # ... and each pattern alone for a path in normal form
            expected = any(p.match(path) for p in positive) and not any(
                p.match(path) for p in negative
            )
            assert globs.match(path) == expected, (path, globs.texts)
    assert sets[1].match(f"{HOME}/.ssh/id_rsa") and not sets[1].match("/srv/a/key")
    assert not sets[1].match("/usr/bin/ssh")


GLOBS = [
    *(
        f"{base}/{tail}"
        for base in ("", WS, HOME, f"{HOME}/.ssh", "/etc", "/proc/1", "/tmp/x")
        for tail in (
            "*",
            ".*",
            "*.pem",
            "id_*",
            "{}",
            "{}/*.py",
            "{}/.env*",
            "**",
            "**/credentials",
            "[.]e*",
            "src/*.py",
            "a?c",
            "\\*x",
            "@(a|b)",
            "*/config",
        )
    ),
    "/*/user/.ssh/id_rsa",
    "/home/*/.aws",
    "/[h]ome/user/.ssh",
    f"{HOME}/.s*/x",
    "/e*/shadow",
    "/etc/ssh/*",
    "/run/user/1000/containers/*",
    "/",
    "/{}",
    # literal starts longer than any pattern's, and ones that part from them at each depth
    f"{HOME}/.ssh/keys/deploy/id_*",
    f"{HOME}/.config/gh/hosts.y*",
    f"{HOME}/.config/x/*",
    f"{WS}/.git/hooks/pre-*",
    f"{WS}/a/b/c/d/.env*",
    "/etc/ssh/ssh_host_*_key",
    "/var/lib/x/{}/*.key",
]


@pytest.mark.parametrize("tree", [False, True])
def test_the_sets_could_match_agrees_with_its_patterns_searched_alone(tree: bool) -> None:
    """The set skips the patterns whose literal start a glob's literal start contradicts
    (an index of the anchored patterns by their literal start), and asks its names at any
    depth segment by segment for all of them at once (kept per segment, so a set asked the
    same glob twice, or another glob with the same segments, answers alike); each pattern's
    own search is the oracle, over every set and every glob shape."""
    for name, patterns in PATH_SETS.items():
        positive = [PathPattern(p, HOME, WS) for p in patterns if not p.startswith("!")]
        globs = GlobSet(list(patterns), HOME, WS)
        from clearance.shellparse.globs import _shell_segments

        for glob in GLOBS:
            segments = _shell_segments(glob, True)
            expected = any(p.could_match_segments(segments, tree) for p in positive)
            assert globs.could_match(glob, tree=tree, globstar=True) == expected, (name, glob)
    assert GlobSet(list(PATH_SETS["secrets"]), HOME, WS).could_match(f"{HOME}/.s*/x")
    assert GlobSet(list(PATH_SETS["secrets"]), HOME, WS).could_match(f"{WS}/a/b/c/d/.env*")
    assert not GlobSet(list(PATH_SETS["secrets"]), HOME, WS).could_match(f"{WS}/src/*.py")


def test_names_at_any_depth_are_asked_per_segment_and_kept_per_set() -> None:
    """An exact name (``config$``) counts in a glob's last segment only, a name without ``$``
    in any; what a segment meets is kept per set, so the same segment met first where it does
    not count and then where it does (and the other way round) still answers as each pattern
    alone does -- in a glob's text and under a ``{}`` (a filter)."""
    from clearance.shellparse.globs import _shell_segments

    texts = ["config$", "id_*", "*.key", "!*.pub$"]
    positive = [PathPattern(p, HOME, WS) for p in texts if not p.startswith("!")]
    shapes = [
        "/x/config/y",
        "/x/y/config",
        "/x/con*/y",
        "/x/y/con*",
        "/x/{}/config",
        "/x/{}/c*",
        "/x/c*/{}/*",
        "/x/id_*/y",
        "/x/y/[i]d_x",
        "/x/{}/*.key",
        "/x/*.ke?/y",
        "/x/y/*.py",
        "/x/*/y",  # ``*`` aims at no name of its own in a glob ...
        "/x/{}/*",  # ... and admits them all as a filter
    ]
    for order in (shapes, shapes[::-1]):
        globs = GlobSet(texts, HOME, WS)
        for glob in order:
            expected = any(
                p.could_match_segments(_shell_segments(glob, True), False) for p in positive
            )
            assert globs.could_match(glob, globstar=True) == expected, glob
    assert not GlobSet(["config$"], HOME, WS).could_match("/x/config/y")
    assert GlobSet(["config$"], HOME, WS).could_match("/x/y/config")
    assert GlobSet(["config"], HOME, WS).could_match("/x/config/y")


def test_an_exclusion_narrows_a_glob_only_when_it_holds_every_expansion() -> None:
    """``~/.ssh/*.pub`` can only name public keys (the set excludes ``~/.ssh/*.pub$``), so
    reading it is no secret read by its text (what it expands to on the machine is judged
    too); a glob that could name anything else in ``~/.ssh`` still could match, and so does
    every glob whose expansions may be directories (a tree)."""
    secrets = GlobSet(list(PATH_SETS["secrets"]), HOME, WS)
    ssh = f"{HOME}/.ssh"
    narrowed = [f"{ssh}/*.pub", f"{ssh}/id_*.pub", f"{ssh}/.*.pub", f"{ssh}/id_ed25519.pub"]
    kept = [
        f"{ssh}/*",
        f"{ssh}/*.pu?",
        f"{ssh}/*.pub*",
        f"{ssh}/**/*.pub",
        f"{ssh}/x/*.pub",
        f"{HOME}/.ss?/*.pub",
        f"{ssh}/*[.]pub",
        f"{ssh}/{{}}/*.pub",
        f"{ssh}/*.pub/*",
    ]
    for glob in narrowed:
        assert not secrets.could_match(glob, globstar=True), glob
        assert secrets.could_match(glob, tree=True, globstar=True), glob
    for glob in kept:
        assert secrets.could_match(glob, globstar=True), glob
    # the oracle: of a spread of names, those a narrowed glob matches (bash's rule: a leading
    # dot is matched only by a pattern that spells it) are none of them secrets
    names = ["id_rsa", "id_rsa.pub", ".x.pub", ".pub", "a.pub", "config", "x.pub.bak", "k.PUB"]
    for glob in narrowed:
        last = glob.rsplit("/", 1)[1]
        for name in names:
            if name.startswith(".") and not last.startswith("."):
                continue
            if fnmatch.fnmatchcase(name, last):
                assert not secrets.match(f"{ssh}/{name}"), (glob, name)


def test_semantics() -> None:
    assert GlobSet(["~/.ssh"], HOME, WS).match(f"{HOME}/.ssh/id_rsa")
    assert not GlobSet(["/home$"], HOME, WS).match(HOME)
    assert GlobSet([".env*"], HOME, WS).match(f"{WS}/deep/dir/.env.prod")
    assert GlobSet(["src/**"], HOME, WS).match(f"{WS}/src")  # ``dir/**`` covers ``dir``
    assert not GlobSet(["src/**"], HOME, WS).match(f"{WS}/srcx")
    assert GlobSet(["{workspace}/[*]$"], HOME, WS).match(f"{WS}/*")
    assert not GlobSet(["{workspace}/[*]$"], HOME, WS).match(f"{WS}/node_modules")
    assert GlobSet(["*marker*"], HOME, WS).match("/tmp/a\nmarker\nb")


def test_secrets() -> None:
    assert is_secret(f"{WS}/.env", HOME)
    assert is_secret(f"{HOME}/.aws/credentials", HOME)
    assert not is_secret(f"{WS}/.env.example", HOME)
    assert not is_secret(f"{WS}/src/env.py", HOME)


def test_a_filter_against_a_secret_name_agrees_with_the_overlap_search() -> None:
    """``find -name GLOB`` against a secret name (``.env*``) asks whether GLOB admits the
    name's plainest instances; the direct matcher of a glob's tokens against a name answers
    as the general search of two patterns' overlap (which it replaced there) does -- on the
    filters the corpus writes, shell escapes and extglob included, and on generated ones."""
    import random

    from clearance.shellparse.globs import (
        _admits,
        _pattern_tokens,
        _segment_overlap,
        _shell_tokens,
        _witness_names,
        _witnesses,
    )
    from clearance.shellparse.paths import SECRET_PATTERNS

    names = [p.removesuffix("$") for p in SECRET_PATTERNS if "/" not in p and "!" not in p]
    globs = [
        "*",
        "*.*",
        ".*",
        ".e*",
        "*env*",
        "*.py",
        "*.pem",
        "id_*",
        "?d_rsa",
        "[.]env",
        "[!a-z]*",
        "[[:alpha:]]*",
        ".env.?*",
        "*rc",
        "\\.env",
        "@(a|b)",
        "!(x)",
        "*.[pk]e[my]",
        "[]]x",
        "[!]]*",
        "credentials*",
        "*secret*",
        "*.tfstate*",
        "x",
        "",
        "**",
        "a*b*c",
    ]
    rng = random.Random(7)
    alphabet = ["*", "?", ".", "e", "n", "v", "x", "_", "[!.]", "[a-z]", "r", "s", "a", "\\*"]
    globs += ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 6))) for _ in range(400)]
    for glob in globs:
        tokens = _shell_tokens(glob, False)
        if isinstance(tokens, str):
            continue
        for text in names:
            name = (text, _pattern_tokens(text))
            spelled = _witness_names(name)
            for witness, form in zip(spelled, _witnesses(name[1]), strict=True):
                expected = _segment_overlap((glob, tokens), ("", form), False)
                assert _admits(tokens, witness) == expected, (glob, text, witness)


def test_two_glob_segments_overlap_exactly_when_some_short_name_matches_both() -> None:
    """The overlap search of a shell segment and a pattern segment (its quick test of their
    starts and ends included) against enumeration: every name over a small alphabet, up to
    six characters, that both accept -- bash's rule that only a literal ``.`` matches a
    leading dot on the shell side. The segments' literal
    runs are short, so an overlap always has a witness that short."""
    import itertools
    import random

    from clearance.shellparse.globs import _pattern_tokens, _segment_overlap, _shell_tokens

    rng = random.Random(11)
    alphabet = ["*", "?", ".", "e", "p", "[ep]", "[!e]", "*"]
    segments = ["*", "*.p", ".e*", "e*p", "?e", "[.]e", ".*", "*e", "p*", "*.e*", "?"]
    segments += ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 3))) for _ in range(60)]
    segments = sorted(set(segments))
    names = ["".join(chars) for n in range(1, 7) for chars in itertools.product(".ep", repeat=n)]

    def accepts(glob: str, name: str, shell: bool, lenient: bool) -> bool:
        # a leading dot only for a literal one -- or, against a literal name, for a leading
        # class too (the benefit of the doubt the search gives there)
        dot = (".", "[.]", "[") if lenient else (".", "[.]")
        if shell and name.startswith(".") and not glob.startswith(dot):
            return False
        return fnmatch.fnmatchcase(name, glob)

    for shell_text in segments:
        shell = (shell_text, _shell_tokens(shell_text, False))
        for pattern_text in segments:
            pattern = (pattern_text, _pattern_tokens(pattern_text))
            lenient = not any(c in pattern_text for c in "*?[")
            both = any(
                accepts(shell_text, n, True, lenient) and accepts(pattern_text, n, False, False)
                for n in names
            )
            assert _segment_overlap(shell, pattern) == both, (shell_text, pattern_text)


def test_a_star_only_segment_matches_as_its_regex_does() -> None:
    """``segment_matches`` tells a segment whose only wildcard is ``*`` by string tests: the
    same answer as the compiled ``segment_regex`` for generated segments and names (dots,
    repeated pieces, empty pieces, a ``/`` in the name, the other wildcards that take the
    regex), and case-insensitively through the regex."""
    import random

    from clearance.shellparse.resolve import segment_matches, segment_regex, star_pieces

    rng = random.Random(5)
    alphabet = ["a", "b", ".", "ab", "*", "*", "-", "é", "\n"]
    segments = ["*", "**", "*.py", "a*", "*a", "a*a", "a*b*a", "*.*", ".*", "ab*ab*ab", "*ab*ba*"]
    segments += ["*aa*aa*", "a*ab*b", "*b*b*"]  # middle pieces that may overlap
    segments += [
        "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 6))) for _ in range(300)
    ]
    segments += ["a?b", "[ab]*", "@(a|b)", "\\*a*", "*(a)"]  # not star-only: the regex decides
    names = ["", "a", "b", ".", "ab", "aba", "abab", "a.b", ".py", "x.py", "a/b", "ABA", "é\n"]
    names += ["".join(rng.choice("ab.é\n") for _ in range(rng.randint(0, 7))) for _ in range(200)]
    star_only = 0
    for segment in segments:
        star_only += star_pieces(segment) is not None
        regex = segment_regex(segment)
        for name in names:
            expected = regex.fullmatch(name) is not None
            assert segment_matches(segment, name) == expected, (segment, name)
            folded = segment_regex(segment, True).fullmatch(name) is not None
            assert segment_matches(segment, name, True) == folded, (segment, name)
    assert star_only > 200  # the string tests were put to the test


def test_names_with_several_wildcards_are_searched_only_where_a_hint_is() -> None:
    """The index searches its names of several wildcards (``*credentials*.json``) only in a
    path holding a piece each must hold (``literal_hints``): never one that matches; each
    pattern alone is the oracle, over matching and near-matching names at several places."""
    from clearance.shellparse.globs import literal_hints

    patterns = ["*credentials*.json", "service-account*.json", "secrets.y*ml", "*.tfstate.*"]
    patterns += ["a?c*d*", "*p*q*"]
    assert literal_hints(patterns) == (
        "credentials",
        "service-account",
        "secrets.y",
        ".tfstate.",
        "a",
        "p",
    )
    assert literal_hints(["x[yz]*w*"]) is None and literal_hints(["a\\*b*c"]) is None
    assert literal_hints(["*?*"]) is None
    names = ["my-credentials-1.json", "credentials.json", "service-account-x.json", "secrets.yaml"]
    names += ["x.tfstate.bak", "abcxdy", "pq", "qp", "credentials", ".json", "secrets.ya", "none"]
    for extra in (["x[yz]*w*"], []):  # a pattern without hints: the regex decides alone
        globs = GlobSet(patterns + extra, HOME, WS)
        positive = [PathPattern(p, HOME, WS) for p in patterns + extra]
        matched = 0
        for place in ["/", f"{HOME}/", f"{WS}/src/", "/etc/"]:
            for name in [*names, "xyzw"]:
                for path in (place + name, place + name + "/inner"):
                    expected = any(p.match(path) for p in positive)
                    assert globs.match(path) == expected, path
                    matched += expected
        assert matched > 20


def test_literal_names_meet_as_each_pattern_would() -> None:
    """A literal segment is asked of a set's names all at once (``_LiteralNames``): the same
    answer as ``segment_match`` of each pattern, for generated patterns of every shape (a
    literal name, ``x*``, ``*x``, ``x*y``, several wildcards, ``?`` and classes, a bare ``*``)
    and generated names; and ``could_match`` of a glob of literal segments agrees with the
    patterns' own ``could_match``."""
    import random

    from clearance.shellparse.globs import _LiteralNames, segment_match

    rng = random.Random(11)
    alphabet = ["a", "b", ".", "e", "nv", "*", "*", "?", "[ab]"]
    globs = [".env", ".env*", "*.pem", "id_*", "a*b", "*a*b*", "a?", "[ab]*", "*"]
    globs += ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 5))) for _ in range(300)]
    names = ["", ".", ".env", ".env.local", "x.pem", ".pem", "id_rsa", "ab", "a", "b", "ba"]
    names += ["".join(rng.choice("ab.env") for _ in range(rng.randint(0, 6))) for _ in range(300)]
    for size in (1, 2, 5, 20):
        for _ in range(40):
            chosen = rng.sample(globs, size)
            literal = _LiteralNames(chosen)
            for name in names:
                expected = any(segment_match(glob, name) for glob in chosen)
                assert literal.meets(name) == expected, (chosen, name)
    patterns = ["**/.env*", "**/*.pem", "**/id_rsa", "**/*credentials*.json", "**/secret"]
    whole = GlobSet(patterns, HOME, WS)
    one_by_one = [PathPattern(p, HOME, WS) for p in patterns]
    hits = 0
    for name in [*names, "secret", "my-credentials.json", "key.pem"]:
        for place in (f"{WS}/", "/etc/", f"{WS}/src/"):
            if not name or name in (".",):
                continue
            glob = place + name
            expected = any(p.could_match(glob) for p in one_by_one)
            assert whole.could_match(glob) == expected, glob
            hits += expected
    assert hits > 10


def test_a_star_only_filter_admits_a_name_as_its_tokens_do() -> None:
    """A filter segment whose tokens are characters and ``*`` only (``*.log``, ``a\\*b*``,
    an extglob read as ``*``) is matched against a secret's plainest names by string tests
    (``_star_form`` and ``resolve.pieces_match``): the same answer as the token search
    (``_admits``) for generated segments and names; segments with ``?`` or a class have no
    star form."""
    import random

    from clearance.shellparse.globs import _admits, _shell_segments, _star_form
    from clearance.shellparse.resolve import pieces_match

    rng = random.Random(13)
    alphabet = ["a", "b", ".", "*", "*", "\\\\*", "\\\\a", "?", "[ab]", "@(x|y)", "e"]
    texts = ["*.log", "*", "**", ".e*", "a*b*a", "*ab*ba*", "x\\\\*", "@(a|b)", "a?", "[.]e*"]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 5))) for _ in range(400)]
    names = ["", "a", "ab", ".env", "x*", "a*b", ".e", "aba", "bab", "a.log", "é", "a/b"]
    names += ["".join(rng.choice("ab.e*") for _ in range(rng.randint(0, 6))) for _ in range(200)]
    formed = 0
    for text in texts:
        for segment_text, tokens in _shell_segments("/" + text, False):
            if isinstance(tokens, str):
                continue
            pieces = _star_form(segment_text, tokens)
            if pieces is None:
                assert any(t is not None and (t[0] or len(t[1]) != 1) for t in tokens), text
                continue
            formed += 1
            for name in names:
                assert pieces_match(pieces, name) == _admits(tokens, name), (text, name)
    assert formed > 150
