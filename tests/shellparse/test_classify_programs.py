"""What the program tables make of commands: names, classes, roles of operands, the paths
and hosts they touch, and the markers for what is not known."""

from __future__ import annotations

import pytest
from corpus_expect import facts_of

from clearance.shellparse.classifier import normalize_program
from clearance.shellparse.facts import SimpleCommandFacts


def _part(command: str, program: str | None = None, index: int = 0) -> SimpleCommandFacts:
    commands = facts_of(command).commands
    if program is None:
        return commands[index]
    found = [c for c in commands if c.program == program]
    assert found, f"no {program} in {command!r}: {[c.argv for c in commands]}"
    return found[index]


def _paths(part: SimpleCommandFacts) -> set[tuple[str, str | None]]:
    return {(p.access, p.resolved) for p in part.paths}


@pytest.mark.parametrize(
    ("raw", "name", "by_path"),
    [
        ("rm", "rm", False),
        ("/bin/rm", "rm", True),
        ("/usr/bin/python3.11", "python3", True),
        ("python3.12", "python3", False),
        ("node18", "node", False),
        ("./x", "x", True),
    ],
)
def test_normalize_program(raw: str, name: str, by_path: bool) -> None:
    assert normalize_program(raw) == (name, by_path)


class TestProgramNames:
    def test_unknown_program_is_marked(self) -> None:
        part = _part("frobnicate --all x.txt")
        assert part.program == "frobnicate"
        assert "unknown_program" in part.markers and "unknown" in part.classes
        assert ("unknown", "/work/proj/x.txt") in _paths(part)

    def test_program_run_by_path_outside_system_dirs_is_code(self) -> None:
        part = _part("./scripts/deploy.sh --prod")
        assert "code_exec" in part.classes
        assert ("exec", "/work/proj/scripts/deploy.sh") in _paths(part)
        assert "unknown_program" not in part.markers

    def test_system_program_by_path_is_the_program(self) -> None:
        part = _part("/usr/bin/git status")
        assert part.program == "git" and part.subcommand == "status"
        assert "code_exec" not in part.classes

    def test_unknown_subcommand_of_a_strict_program(self) -> None:
        part = _part("pip frobnicate")
        assert "unknown" in part.classes

    def test_version_and_help_are_not_code(self) -> None:
        for command in ("python --version", "node -v", "bash --version", "python3 -V"):
            part = _part(command)
            assert "code_exec" not in part.classes, command
            assert "read_only" in part.classes, command


class TestFiles:
    def test_copy_and_move_roles(self) -> None:
        assert _paths(_part("cp a b c dir")) == {
            ("read", "/work/proj/a"),
            ("read", "/work/proj/b"),
            ("read", "/work/proj/c"),
            ("write", "/work/proj/dir"),
        }
        assert _paths(_part("mv -t dest a")) == {
            ("write", "/work/proj/dest"),
            ("read", "/work/proj/a"),
            ("delete", "/work/proj/a"),
        }

    def test_recursive_copy_of_a_secret_directory_is_a_secret_read(self) -> None:
        assert "secret_read" in _part("cp -r ~/.ssh backup").classes
        assert "secret_read" in _part("cp -a ~ /tmp/h").classes
        assert "secret_read" not in _part("cp ~/notes.txt .").classes

    def test_listing_home_is_not_reading_its_secrets(self) -> None:
        assert "secret_read" not in _part("ls -la ~").classes

    def test_secret_files(self) -> None:
        for command in ("cat .env", "cat config/.env.production", "less ~/.aws/credentials"):
            assert "secret_read" in _part(command).classes, command
        for command in ("cat .env.example", "cat environment.md", "cat src/keys.py"):
            assert "secret_read" not in _part(command).classes, command

    def test_devices_are_the_system(self) -> None:
        assert "system" in _part("dd if=x.img of=/dev/sdb").classes
        assert "system" in _part("tee /sys/class/leds/x/brightness").classes
        part = _part("echo hi > /dev/null")
        assert part.paths == [] and "system" not in part.classes

    def test_sensitive_writes(self) -> None:
        assert "sensitive_write" in _part("touch .git/hooks/pre-commit").markers
        assert "sensitive_write" in _part("cp x sub/.git/hooks/post-merge").markers
        assert "sensitive_write" in _part("echo x >> ~/.zshrc").markers
        assert "sensitive_write" not in _part("echo x >> notes.txt").markers
        assert "sensitive_write" not in _part("cat ~/.bashrc").markers

    def test_chmod_modes(self) -> None:
        assert "privilege" in _part("chmod g+s dir").classes
        assert "privilege" in _part("chmod 2755 dir").classes
        assert "privilege" not in _part("chmod 755 dir").classes
        dashed = _part("chmod -w notes.txt")
        assert ("write", "/work/proj/notes.txt") in _paths(dashed)
        assert dashed.options == []

    def test_find_start_points_and_actions(self) -> None:
        part = _part("find src /tmp -name '*.py' -newer x")
        assert {"/work/proj/src", "/tmp"} <= {p.resolved for p in part.paths}
        assert part.options == ["-name", "-newer"]
        assert ("delete", "/work/proj/build") in _paths(_part("find build -delete"))

    def test_tar_modes(self) -> None:
        create = _part("tar -cf out.tar -C src .")
        assert ("write", "/work/proj/out.tar") in _paths(create)
        assert ("read", "/work/proj/src") in _paths(create)
        listing = _part("tar tf a.tar")
        assert "write" not in listing.classes
        remote = _part("tar -xf backup:/tmp/a.tar")
        assert remote.hosts == ["backup"]
        assert "system" in _part("tar -xPf a.tar").classes

    def test_tar_program_options_run_commands(self) -> None:
        facts = facts_of("tar -xf a.tar --to-command='sh -c \"rm -rf ~\"'")
        assert any(c.program == "rm" for c in facts.commands)
        facts = facts_of("tar -cf a.tar --use-compress-program='/tmp/z -9' d")
        assert any(c.program_raw == "/tmp/z" for c in facts.commands)
        facts = facts_of("tar -cf a.tar --checkpoint=1 --checkpoint-action=exec='id' d")
        assert any(c.program == "id" for c in facts.commands)

    def test_archive_extraction_targets(self) -> None:
        assert ("write", "/work/proj/out") in _paths(_part("unzip a.zip -d out"))
        assert "read_only" in _part("unzip -l a.zip").classes


class TestVersionControl:
    @pytest.mark.parametrize(
        ("command", "classes"),
        [
            ("git status", {"vcs_read"}),
            ("git log --oneline", {"vcs_read"}),
            ("git commit -m x", {"vcs_write"}),
            ("git push origin main", {"vcs_write", "network"}),
            ("git push -f origin main", {"vcs_destructive"}),
            ("git push origin +main", {"vcs_destructive"}),
            ("git reset --hard", {"vcs_destructive"}),
            ("git reset HEAD~1", {"vcs_write"}),
            ("git checkout -- src/a.py", {"vcs_destructive"}),
            ("git restore src/a.py", {"vcs_destructive"}),
            ("git restore --staged src/a.py", {"vcs_write"}),
            ("git switch -f main", {"vcs_destructive"}),
            ("git branch -d old", {"vcs_write"}),
            ("git branch -D old", {"vcs_destructive"}),
            ("git branch --list", {"vcs_read"}),
            ("git stash drop", {"vcs_destructive"}),
            ("git rebase main", {"vcs_destructive"}),
            ("git clean -n", {"read_only"}),
            ("git credential fill", {"secret_read"}),
            ("git config --get user.name", {"vcs_read"}),
            ("git config user.name x", {"vcs_write"}),
            ("git config --global user.name x", {"system"}),
        ],
    )
    def test_classes(self, command: str, classes: set[str]) -> None:
        assert classes <= _part(command).classes

    def test_classes_are_those_of_the_subcommand_reached(self) -> None:
        assert _part("git stash list").classes == {"vcs_read"}
        assert _part("git stash").classes == {"vcs_write"}
        assert _part("git submodule status").classes == {"vcs_read"}
        assert _part("apt list --installed").classes == {"read_only"}
        assert "package_install" in _part("apt install jq").classes

    def test_push_without_force_is_not_destructive(self) -> None:
        assert "vcs_destructive" not in _part("git push -u origin main").classes
        assert "vcs_destructive" not in _part("git restore --staged x").classes

    def test_global_options_move_the_working_directory(self) -> None:
        part = _part("git -C /tmp/other clean -fd")
        assert ("delete", "/tmp/other") in _paths(part)
        assert _part("git -C sub add x.py").paths[-1].resolved == "/work/proj/sub/x.py"

    def test_dry_run_clean_deletes_nothing(self) -> None:
        part = _part("git clean -nd")
        assert "delete" not in part.classes
        assert all(p.access != "delete" for p in part.paths)

    def test_clone_destination(self) -> None:
        part = _part("git clone https://github.com/a/b.git")
        assert part.hosts == ["github.com"]
        assert ("write", "/work/proj/b") in _paths(part)

    def test_config_keys_that_run_programs(self) -> None:
        part = _part("git config core.editor vim")
        assert "code_exec" in part.classes and "env_code" in part.markers
        assert any(c.program == "vim" for c in facts_of("git config core.editor vim").commands)
        assert "code_exec" not in _part("git config user.email a@b.c").classes

    def test_gh_api_methods(self) -> None:
        assert "vcs_read" in _part("gh api repos/a/b").classes
        assert "vcs_destructive" in _part("gh api -X DELETE repos/a/b").classes


class TestPackagesAndBuilds:
    @pytest.mark.parametrize(
        ("command", "classes"),
        [
            ("npm test", {"test"}),
            ("npm run build", {"build"}),
            ("npm run deploy", {"code_exec"}),
            ("npm install -g typescript", {"package_install", "system"}),
            ("pnpm lint", {"build"}),
            ("yarn", {"package_install"}),
            ("npx cowsay hi", {"package_install", "network"}),
            ("pip install -r requirements.txt", {"package_install"}),
            ("pip install --user x", {"system"}),
            ("pip uninstall -y x", {"package_install"}),
            ("uv pip install x", {"package_install"}),
            ("cargo run", {"code_exec"}),
            ("cargo clean", {"delete"}),
            ("go generate ./...", {"code_exec"}),
            ("go env -w GOPROXY=x", {"system"}),
            ("make --eval='x:;id' x", {"code_exec"}),
            ("pre-commit run --all-files", {"code_exec"}),
        ],
    )
    def test_classes(self, command: str, classes: set[str]) -> None:
        assert classes <= _part(command).classes

    def test_npm_unknown_verb_is_unknown(self) -> None:
        assert "unknown" in _part("npm frobnicate").classes

    def test_npm_exec_runs_the_command(self) -> None:
        facts = facts_of("npm exec -- eslint src")
        assert [c.program for c in facts.commands] == ["npm", "eslint"]
        facts = facts_of("npx -c 'rm -rf ~'")
        assert any(c.program == "rm" for c in facts.commands)

    def test_pip_requirement_urls_and_paths(self) -> None:
        part = _part("pip install git+https://x.io/r.git ./local")
        assert part.hosts == ["x.io"]
        assert ("read", "/work/proj/local") in _paths(part)
        assert _part("pip install -i https://mirror.io/simple x").hosts == ["mirror.io"]

    def test_python_modules(self) -> None:
        assert _part("python -m http.server", "http.server").classes >= {
            "network",
            "process_control",
        }
        assert _part("python -m pip install x", "pip").subcommand == "install"
        assert "unknown_program" in _part("python -m mystery_tool", "mystery_tool").markers

    def test_formatters_check_or_write(self) -> None:
        assert "write" in _part("black src").classes
        assert "write" not in _part("black --check src").classes
        assert "write" not in _part("gofmt -l .").classes
        assert "write" in _part("gofmt -w .").classes
        assert "write" not in _part("clang-format main.c").classes
        assert "write" in _part("clang-format -i main.c").classes

    def test_build_outputs(self) -> None:
        assert ("write", "/tmp/out") in _paths(_part("go build -o /tmp/out ."))
        assert ("write", "/work/proj/target2") in _paths(_part("cargo build --target-dir target2"))
        assert ("delete", "/tmp/base") in _paths(_part("pytest --basetemp=/tmp/base"))


class TestNetworkAndSystem:
    def test_curl_sends_files(self) -> None:
        assert ("read", "/work/proj/body.json") in _paths(_part("curl -d @body.json x.io"))
        assert ("read", "/work/proj/a.txt") in _paths(_part("curl -F f=@a.txt x.io"))
        assert _part("curl -F 'name=value' x.io").paths == []
        assert _part("curl -d @- x.io").paths == []

    def test_hosts(self) -> None:
        assert _part("curl https://api.github.com/x").hosts == ["api.github.com"]
        assert _part("ssh -p 2222 deploy@build.internal uptime").hosts == ["build.internal"]
        assert _part("nc example.org 443").hosts == ["example.org"]
        assert _part("scp a.txt host:/tmp/").hosts == ["host"]

    def test_scp_directions(self) -> None:
        up = _part("scp notes.txt h:/tmp/")
        assert ("read", "/work/proj/notes.txt") in _paths(up)
        down = _part("scp h:/etc/passwd ./copy")
        assert ("write", "/work/proj/copy") in _paths(down)

    def test_ssh_options_that_run_commands(self) -> None:
        facts = facts_of("ssh -o ProxyCommand='nc %h %p' h")
        assert any(c.program == "nc" for c in facts.commands)
        assert "remote_code_exec" in _part("ssh h").classes

    def test_docker_run(self) -> None:
        plain = _part("docker run --rm -v $PWD:/src -w /src node:20 npm test", "docker")
        assert "privilege" not in plain.classes
        assert any(
            c.program == "npm" and "container" in c.context
            for c in facts_of("docker run --rm node:20 npm test").commands
        )
        for command in (
            "docker run --privileged img",
            "docker run --net=host img",
            "docker run --cap-add SYS_ADMIN img",
            "docker run -v /etc:/x img",
            "docker run --security-opt seccomp=unconfined img",
        ):
            assert "privilege" in _part(command, "docker").classes, command

    def test_kubectl(self) -> None:
        assert "read_only" in _part("kubectl get pods").classes
        assert "secret_read" in _part("kubectl get secret db -o yaml").classes
        assert "delete" in _part("kubectl delete pod x").classes
        assert _part("kubectl apply -f https://x.io/m.yaml").hosts == ["x.io"]

    def test_cloud_clis(self) -> None:
        assert "secret_read" in _part("aws secretsmanager get-secret-value --secret-id x").classes
        assert "delete" in _part("aws s3 rm s3://b/k").classes
        assert "read_only" in _part("aws s3 ls").classes


class TestWrappers:
    def test_wrappers_pass_the_command_through(self) -> None:
        for command in (
            "sudo -u bob make test",
            "timeout 5 make test",
            "nice -n 5 make test",
            "env A=1 make test",
            "xvfb-run -a make test",
            "time make test",
        ):
            facts = facts_of(command)
            assert facts.commands[-1].program == "make", command

    def test_wrapper_cwd_options_move_the_inner_command(self) -> None:
        assert ("delete", "/tmp/x") in _paths(_part("sudo -D /tmp rm -rf x", "rm"))
        assert ("delete", "/var/x") in _paths(_part("env -C /var rm x", "rm"))

    def test_a_wrapper_value_never_hides_the_program(self) -> None:
        # an unknown option is a flag: what follows stays visible, as a program
        part = _part("nohup --weird rm -rf ~", "rm")
        assert ("delete", "/home/u") in _paths(part)

    def test_interactive_shells_are_code(self) -> None:
        for command in ("su", "su - bob", "sudo -s", "chroot /srv", "newgrp docker"):
            facts = facts_of(command)
            assert any("code_exec" in c.classes for c in facts.commands), command

    def test_at_and_crontab_read_their_input(self) -> None:
        assert "stdin_code" in _part("at now < job.sh").markers
        assert "read_only" in _part("crontab -l").classes
        assert "delete" in _part("crontab -r").classes


class TestSideChannels:
    def test_symlink_targets_resolve_from_the_link(self) -> None:
        part = _part("ln -s ../README.md docs/README.md")
        assert ("read", "/work/proj/README.md") in _paths(part)
        assert "secret_read" in _part("ln -sf ~/.aws/credentials creds").classes

    def test_file_urls_are_local_reads(self) -> None:
        part = _part("curl -s file:///etc/shadow")
        assert ("read", "/etc/shadow") in _paths(part)
        assert "secret_read" in part.classes
        assert part.hosts == []

    def test_bash_network_files_are_hosts(self) -> None:
        part = _part("echo hi > /dev/tcp/example.org/80")
        assert part.hosts == ["example.org"]
        assert part.paths == []
        assert "system" not in part.classes

    def test_pagers_and_manuals_that_run_commands(self) -> None:
        assert "id" in [c.program for c in facts_of("less '+!id' f").commands]
        assert "code_exec" not in _part("less +G f").classes
        assert "id" in [c.program for c in facts_of("man --pager=id ls").commands]

    def test_database_clients(self) -> None:
        assert "inline_code" in _part("mysql -e 'DROP DATABASE x'").markers
        assert "inline_code" not in _part("psql -h db -d app").markers
        assert _part("psql -h db -d app").hosts == ["db"]
        assert ("exec", "/work/proj/migrate.sql") in _paths(_part("psql -f migrate.sql"))

    def test_repository_history_reads(self) -> None:
        assert "secret_read" in _part("git show v1.0:deploy/.env").classes
        assert "secret_read" not in _part("git show HEAD:README.md").classes
        assert "secret_read" in _part("git diff HEAD~2 -- .env").classes


class TestUnknowns:
    def test_unknown_subcommand_is_marked(self) -> None:
        for command in ("git frobnicate", "kubectl frob pods", "cargo frob"):
            part = _part(command)
            assert "unknown_program" in part.markers, command

    def test_unknown_program_in_a_system_directory(self) -> None:
        part = _part("/usr/bin/frobnicate --all")
        assert "unknown_program" in part.markers and "unknown" in part.classes

    def test_bare_yarn_installs_but_a_script_does_not(self) -> None:
        assert "package_install" in _part("yarn --frozen-lockfile").classes
        assert "package_install" not in _part("yarn test").classes

    def test_git_rm_cached_deletes_nothing(self) -> None:
        assert "delete" not in _part("git rm --cached -r build").classes
        assert ("delete", "/work/proj/x.py") in _paths(_part("git rm x.py"))
