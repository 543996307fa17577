"""Option parsing: bundles, values, ``--``, abbreviations, ``-NUM``, and the canonical
spellings policies match on -- both on ``parse_program_args`` directly and through ``classify``."""

from __future__ import annotations

import pytest
from corpus_expect import facts_of

from clearance.shellparse.facts import SimpleCommandFacts
from clearance.shellparse.knowledge import lookup
from clearance.shellparse.options import parse_program_args
from clearance.shellparse.spec import Opt, Spec, opts


def _part(command: str, program: str) -> SimpleCommandFacts:
    found = [c for c in facts_of(command).commands if c.program == program]
    assert found, f"no {program} in {command!r}"
    return found[0]


SPEC = Spec(
    "demo",
    options=[
        Opt("-o/--output", value="required", role="write"),
        Opt("-c/--color", value="optional"),
        Opt("--arg", value="required", nargs=2),
        *opts("-r/--recursive -f/--force"),
        Opt("--force-with-lease --force-if-includes"),
        Opt("-x", ends=True),
    ],
    flags="-v/--verbose --version -n/--lines=",
    abbrev=True,
    number="--lines",
)


class TestParseArgs:
    def test_bundled_flags_split_and_canonical(self) -> None:
        parsed = parse_program_args(SPEC, ["-rfv", "a"])
        assert parsed.canonical() == ["--recursive", "--force", "--verbose"]
        assert parsed.operands == ["a"]

    def test_value_attached_separate_and_equals(self) -> None:
        assert parse_program_args(SPEC, ["-ofile"]).options[0][2] == "file"
        assert parse_program_args(SPEC, ["-o", "file", "x"]).operands == ["x"]
        assert parse_program_args(SPEC, ["--output=file"]).options[0][2] == "file"
        assert parse_program_args(SPEC, ["--output", "file"]).options[0][2] == "file"

    def test_value_ends_a_bundle(self) -> None:
        parsed = parse_program_args(SPEC, ["-rofile", "x"])
        assert parsed.canonical() == ["--recursive", "--output"]
        assert parsed.options[1][2] == "file"
        assert parsed.operands == ["x"]

    def test_optional_value_only_when_attached(self) -> None:
        parsed = parse_program_args(SPEC, ["--color", "x"])
        assert parsed.options[0][2] is None
        assert parsed.operands == ["x"]
        assert parse_program_args(SPEC, ["--color=always"]).options[0][2] == "always"

    def test_double_dash_ends_options(self) -> None:
        parsed = parse_program_args(SPEC, ["--", "-rf", "x"])
        assert parsed.options == []
        assert parsed.operands == ["-rf", "x"]

    def test_ends_option(self) -> None:
        parsed = parse_program_args(SPEC, ["-x", "-r", "y"])
        assert parsed.operands == ["-r", "y"]

    def test_permutation_and_stop_at_operand(self) -> None:
        assert parse_program_args(SPEC, ["a", "-r"]).canonical() == ["--recursive"]
        no_permute = Spec("w", permute=False, flags="-r")
        assert parse_program_args(no_permute, ["a", "-r"]).operands == ["a", "-r"]
        head = parse_program_args(SPEC, ["-v", "sub", "-r"], stop_at_operand=True)
        assert head.rest_index == 1
        assert head.canonical() == ["--verbose"]

    def test_unique_abbreviation(self) -> None:
        assert parse_program_args(SPEC, ["--rec", "--out=x"]).canonical() == [
            "--recursive",
            "--output",
        ]

    def test_ambiguous_abbreviation_is_unknown(self) -> None:
        parsed = parse_program_args(SPEC, ["--ver"])  # --verbose or --version
        assert parsed.options == [(None, "--ver", None)]

    def test_abbreviation_of_an_option_and_its_longer_variants(self) -> None:
        assert parse_program_args(SPEC, ["--forc"]).canonical() == ["--force"]
        assert parse_program_args(SPEC, ["--force-w"]).canonical() == ["--force-with-lease"]

    def test_no_abbreviation_unless_the_program_accepts_them(self) -> None:
        strict = Spec("s", flags="--recursive")
        assert parse_program_args(strict, ["--rec"]).canonical() == ["--rec"]

    def test_number_option(self) -> None:
        parsed = parse_program_args(SPEC, ["-20", "f"])
        assert parsed.canonical() == ["--lines"]
        assert parsed.options[0][2] == "20"
        assert parsed.operands == ["f"]

    def test_two_argument_value(self) -> None:
        parsed = parse_program_args(SPEC, ["--arg", "name", "value", "file"])
        assert parsed.options[0][2] == "value"
        assert parsed.operands == ["file"]

    def test_unknown_option_is_a_flag(self) -> None:
        parsed = parse_program_args(SPEC, ["-Z", "a", "--weird=1"])
        assert parsed.options == [(None, "-Z", None), (None, "--weird", "1")]
        assert parsed.operands == ["a"]

    def test_single_dash_long(self) -> None:
        spec = Spec("g", options=[Opt("-run", value="required")], single_dash_long=True)
        parsed = parse_program_args(spec, ["-run", "TestX", "./..."])
        assert parsed.canonical() == ["-run"]
        assert parsed.operands == ["./..."]

    def test_first_declaration_wins(self) -> None:
        spec = Spec("d", options=[Opt("-a", role="write", value="required")], flags="-a")
        assert spec.options["-a"].role == "write"


class TestOptAndSpec:
    def test_canonical_name_is_the_first_long_spelling(self) -> None:
        assert Opt("-r -R --recursive").name == "--recursive"
        assert Opt("-r/-R/--recursive").names == ("-r", "-R", "--recursive")
        assert Opt("-x").name == "-x"

    def test_opts_makes_distinct_options(self) -> None:
        made = opts("-u/--user -g/--group", value="required")
        assert [o.name for o in made] == ["--user", "--group"]
        assert all(o.value == "required" for o in made)

    def test_compact_flags_notation(self) -> None:
        spec = Spec("c", flags="-a/--all -n/--lines= --color=?")
        assert spec.options["-a"] is spec.options["--all"]
        assert spec.options["-n"].value == "required"
        assert spec.options["--color"].value == "optional"

    def test_getopt_style_short_and_long(self) -> None:
        spec = Spec("g", short="ab:", long="color= verbose")
        assert spec.options["-b"].value == "required"
        assert spec.options["-a"].value is None
        assert spec.options["--color"].value == "required"

    def test_table_is_built_on_first_use(self) -> None:
        spec = Spec("lazy", flags="-a")
        assert spec._table is None
        assert "-a" in spec.options
        assert spec._table is not None


@pytest.mark.parametrize(
    ("command", "program", "expected"),
    [
        ("rm -rf x", "rm", ["--recursive", "--force"]),
        ("rm -Rf x", "rm", ["--recursive", "--force"]),
        ("rm --rec --for x", "rm", ["--recursive", "--force"]),
        ("rm --recursive --force x", "rm", ["--recursive", "--force"]),
        ("cp -a src dst", "cp", ["--archive"]),
        ("cp -rv src dst", "cp", ["--recursive", "--verbose"]),
        ("mv -fv a b", "mv", ["--force", "--verbose"]),
        ("chmod -R 755 d", "chmod", ["--recursive"]),
        ("chown -R u:g d", "chown", ["--recursive"]),
        ("sed -n p f", "sed", ["--quiet"]),
        ("sed -Ei s/a/b/ f", "sed", ["--regexp-extended", "--in-place"]),
        ("grep -rni x .", "grep", ["--recursive", "--line-number", "--ignore-case"]),
        ("head -5 f", "head", ["--lines"]),
        ("curl -fsSL https://x.io", "curl", ["--fail", "--silent", "--show-error", "--location"]),
        ("curl --upl f https://x.io", "curl", ["--upload-file"]),
        ("wget -qO- https://x.io", "wget", ["--quiet", "--output-document"]),
        ("tar -xzvf a.tgz", "tar", ["--extract", "--gzip", "--verbose", "--file"]),
        ("tar czf a.tgz d", "tar", ["--create", "--gzip", "--file"]),
        ("make -j4 -k", "make", ["--jobs", "--keep-going"]),
        ("stdbuf -oL -eL cmd", "stdbuf", ["--output", "--error"]),
        ("sudo -u root -i", "sudo", ["--user", "--login"]),
        ("screen -dmS x cmd", "screen", ["-d", "-m", "-S"]),
        ("xargs -0 -n1 echo", "xargs", ["--null", "--max-args"]),
        ("ssh -p 22 -i k h", "ssh", ["-p", "-i"]),
    ],
)
def test_canonical_options_through_classify(
    command: str, program: str, expected: list[str]
) -> None:
    assert _part(command, program).options == expected


@pytest.mark.parametrize(
    ("command", "subcommand", "expected"),
    [
        ("git push --forc origin main", "push", ["--force"]),
        ("git push -fu origin main", "push", ["--force", "--set-upstream"]),
        ("git reset --har HEAD~1", "reset", ["--hard"]),
        ("git clean -fdx", "clean", ["--force", "-d", "-x"]),
        ("git commit -am msg", "commit", ["--all", "--message"]),
        ("git log -n 5 --oneline", "log", ["--max-count", "--oneline"]),
        ("git log -5", "log", ["--max-count"]),
        ("git branch -D old", "branch", ["-D"]),
        ("git checkout -b new", "checkout", ["-b"]),
        ("git stash push -um wip", "stash push", ["--include-untracked", "--message"]),
        ("npm install -D --save-exact x", "install", ["--save-dev", "--save-exact"]),
        ("cargo test -p core --release", "test", ["--package", "--release"]),
        ("docker run --rm -it -v /a:/b img", "run", ["--rm", "--interactive", "--tty", "--volume"]),
        ("kubectl get pods -n dev -o wide", "get", ["--namespace", "--output"]),
    ],
)
def test_canonical_options_of_subcommands(
    command: str, subcommand: str, expected: list[str]
) -> None:
    part = facts_of(command).commands[0]
    assert part.subcommand == subcommand
    assert part.options == expected


@pytest.mark.parametrize(
    ("command", "program", "absent"),
    [
        # an option's value is never the program, a path or an operand with a role
        ('git commit -m "rm -rf /"', "git", "/"),
        ("git log -n 5", "git", "5"),
        ("curl -H 'a: b' https://x.io", "curl", "a: b"),
        ("tar -C dir -xzf a.tgz", "tar", "dir/a.tgz"),
        ("grep -e pattern -f words.txt src", "grep", "pattern"),
        ("sort -k 2 -t , data.csv", "sort", "2"),
        ("cut -c 1-5 f.txt", "cut", "1-5"),
        ("du -d 1 src", "du", "1"),
        ("jq --arg v 1.2 .x f.json", "jq", "1.2"),
        ("xargs -n 1 -P 4 echo", "xargs", "4"),
    ],
)
def test_option_values_are_not_paths(command: str, program: str, absent: str) -> None:
    facts = facts_of(command)
    part = _part(command, program)
    assert all(p.path != absent for p in part.paths), part.paths
    assert all(c.program != absent for c in facts.commands)


def test_option_value_roles() -> None:
    tar = _part("tar -C vendor -xzf a.tgz", "tar")
    assert {(p.access, p.resolved) for p in tar.paths} == {
        ("read", "/work/proj/a.tgz"),
        ("write", "/work/proj/vendor"),
    }
    curl = _part("curl -o out.html https://x.io", "curl")
    assert [(p.access, p.resolved) for p in curl.paths] == [("write", "/work/proj/out.html")]
    assert curl.hosts == ["x.io"]
    sort = _part("sort -o sorted.txt names.txt", "sort")
    assert ("write", "/work/proj/sorted.txt") in {(p.access, p.resolved) for p in sort.paths}


def test_subcommand_tables_are_per_subcommand() -> None:
    git = lookup("git")
    assert git is not None and git.subcommands is not None
    assert git.subcommands["commit"].options["-m"].name == "--message"
    assert git.subcommands["log"].options["-n"].name == "--max-count"
    assert git.subcommands["push"].options["-n"].name == "--dry-run"
