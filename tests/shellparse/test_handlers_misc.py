"""Handlers for what tables cannot say: code embedded in interpreter arguments, awk programs,
find expressions, xargs and parallel, git configuration, schedulers, listeners."""

from __future__ import annotations

import pytest
from corpus_expect import facts_of

from clearance.shellparse.facts import SimpleCommandFacts
from clearance.shellparse.handlers.interpreters import embedded_commands


def _programs(command: str) -> list[str | None]:
    return [c.program for c in facts_of(command).commands]


def _part(command: str, program: str) -> SimpleCommandFacts:
    return next(c for c in facts_of(command).commands if c.program == program)


@pytest.mark.parametrize(
    ("code", "shells", "argvs"),
    [
        ('import os; os.system("ls -la")', ["ls -la"], []),
        ("subprocess.check_output(['git', 'status'])", [], [["git", "status"]]),
        ("subprocess.run('make', shell=True)", ["make"], []),
        ('require("child_process").execSync(`npm test`)', ["npm test"], []),
        ("puts `whoami`", ["whoami"], []),
        ("x = %x(id)", ["id"], []),
        ("my $o = qx{uname -a};", ["uname -a"], []),
        ('os.execute("date")', ["date"], []),
        ("print(1 + 1)", [], []),
    ],
)
def test_embedded_commands(code: str, shells: list[str], argvs: list[list[str]]) -> None:
    found = embedded_commands(code, "x -c")
    assert [n.shell for n in found if n.shell is not None] == shells
    assert [n.argv for n in found if n.argv is not None] == argvs


class TestAwk:
    def test_plain_program_reads(self) -> None:
        awk = _part("awk '{print $1}' a.txt", "awk")
        assert awk.classes == {"read_only"}
        assert [(p.access, p.resolved) for p in awk.paths] == [("read", "/work/proj/a.txt")]

    def test_system_and_pipes_run_commands(self) -> None:
        assert "rm" in _programs("awk 'BEGIN{system(\"rm x\")}'")
        assert "date" in _programs("awk 'BEGIN{\"date\" | getline d}'")
        assert "sort" in _programs("awk '{print | \"sort\"}' f")

    def test_print_redirection_writes(self) -> None:
        awk = _part("awk '{print > \"/tmp/out\"}' f", "awk")
        assert ("write", "/tmp/out") in {(p.access, p.resolved) for p in awk.paths}

    def test_program_file_is_code(self) -> None:
        assert "code_exec" in _part("awk -f prog.awk data", "awk").classes


class TestFind:
    def test_exec_variants(self) -> None:
        for action in ("-exec", "-execdir", "-ok", "-okdir"):
            facts = facts_of(f"find . -name '*.o' {action} rm {{}} \\;")
            rm = next(c for c in facts.commands if c.program == "rm")
            assert rm.via == [f"find {action}"]
            assert "dynamic_argument" in rm.markers

    def test_several_execs(self) -> None:
        assert _programs("find . -exec chmod 644 {} + -exec touch {} +") == [
            "find",
            "chmod",
            "touch",
        ]

    def test_value_options_are_not_start_points(self) -> None:
        find = _part("find . -newer stamp -name x", "find")
        assert [p.resolved for p in find.paths] == ["/work/proj"]

    def test_fd_exec(self) -> None:
        assert _programs("fd -e tmp -x rm") == ["fd", "rm"]


class TestXargsAndParallel:
    def test_placeholder_when_input_unknown(self) -> None:
        rm = _part("cat list | xargs rm", "rm")
        assert rm.argv == ["rm", "{input}"]
        assert "dynamic_argument" in rm.markers

    def test_known_input_is_substituted(self) -> None:
        rm = _part("printf 'a\\nb\\n' | xargs rm", "rm")
        assert rm.argv == ["rm", "a", "b"]
        rms = [c for c in facts_of("echo a b | xargs -I % rm %.bak").commands if c.program == "rm"]
        assert [c.argv for c in rms] == [["rm", "a b.bak"]]

    def test_default_command_is_echo(self) -> None:
        assert _programs("ls | xargs") == ["ls", "xargs", "echo"]

    def test_parallel_arguments(self) -> None:
        argvs = [c.argv for c in facts_of("parallel gzip {} ::: a b").commands[1:]]
        assert argvs == [["gzip", "a"], ["gzip", "b"]]
        gzip = _part("parallel gzip :::: files.txt", "gzip")
        assert "dynamic_argument" in gzip.markers


class TestGitConfiguration:
    def test_reading_is_not_writing(self) -> None:
        for command in ("git config --list", "git config --get core.pager", "git config user.name"):
            assert "vcs_write" not in _part(command, "git").classes, command

    def test_keys_that_name_programs(self) -> None:
        assert "less" in _programs("git config core.pager less")
        assert "vi" in _programs("git -c core.editor=vi commit")
        # an alias without ``!`` is a git command, not a shell one
        assert _programs("git config alias.st status") == ["git"]
        assert "make" in _programs("git config alias.b '!make'")

    def test_include_path_loads_more_configuration(self) -> None:
        git = _part("git config include.path /tmp/evil.cfg", "git")
        assert "env_code" in git.markers


class TestSchedulersAndListeners:
    def test_crontab_lines(self) -> None:
        programs = _programs("printf '# c\\nMAILTO=x\\n0 * * * * make\\n@daily ls\\n' | crontab -")
        assert programs[-2:] == ["make", "ls"]

    def test_tmux_keys(self) -> None:
        facts = facts_of("tmux send-keys -t main 'git push' C-m")
        assert [c.argv for c in facts.commands[1:]] == [["git", "push"]]

    def test_netcat(self) -> None:
        assert "process_control" in _part("nc -l 8080", "nc").classes
        nc = _part("nc -e /bin/sh h 1", "nc")
        assert "remote_code_exec" in nc.classes
        assert "sh" in _programs("nc -e /bin/sh h 1")
        assert "process_control" in _part("socat TCP-LISTEN:80 STDOUT", "socat").classes

    def test_flock_and_su_command_strings(self) -> None:
        assert _programs("flock /tmp/l -c 'make all'")[-1] == "make"
        assert _programs("su -c 'make install' root")[-1] == "make"
        assert _programs("sg docker -c 'docker ps'")[-1] == "docker"


class TestScripts:
    @pytest.mark.parametrize(
        ("command", "cls"),
        [
            ("npm run test:unit", "test"),
            ("npm run lint:fix", "build"),
            ("npm run typecheck", "build"),
            ("npm run start", "code_exec"),
            ("yarn dev", "code_exec"),
            ("npm run", "read_only"),
        ],
    )
    def test_script_names(self, command: str, cls: str) -> None:
        assert cls in facts_of(command).commands[0].classes
