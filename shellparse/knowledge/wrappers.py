"""Programs that run another command: it is followed into and judged on its own.

``operands="command"`` means the first operand and everything after it is the inner argv;
``shell_words`` joins the operands into a shell string (``eval``, ``watch``); ``shell`` parses
each operand as one (``hyperfine 'cmd'``). Options are parsed with ``permute=False``: the first
operand ends them, so ``timeout 5 rm -rf x`` gives rm its own ``-rf``.
"""

from __future__ import annotations

from clearance.shellparse.spec import Opt, Spec

SPECS = [
    Spec(
        "sudo",
        "privilege",
        operands="command",
        permute=False,
        handler="sudo",
        options=[
            Opt(
                "-u --user -g --group -h --host -p --prompt -C --close-from -D "
                "--chdir -r --role -t --type -T --command-timeout -U --other-user "
                "-R --chroot",
                value="required",
            ),
            Opt("-e --edit", adds="write", operands="write"),
            Opt("-s --shell -i --login", adds="code_exec"),
            Opt(
                "-A --askpass -b --background -E --preserve-env -H --set-home -k "
                "--reset-timestamp -K --remove-timestamp -l --list -n "
                "--non-interactive -P --preserve-groups -S --stdin -v --validate "
                "-V --version -N --no-update -B --bell"
            ),
        ],
    ),
    Spec("sudoedit", "privilege write", operands="write"),
    Spec(
        "doas",
        "privilege",
        operands="command",
        permute=False,
        options=[Opt("-u -C", value="required"), Opt("-s", adds="code_exec"), Opt("-n -L")],
    ),
    Spec(
        "su",
        "privilege",
        operands="none",
        permute=False,
        options=[
            Opt("-c --command --session-command", value="required", role="shell"),
            Opt(
                "-s --shell -g --group -G --supp-group -w --whitelist-environment", value="required"
            ),
            Opt("- -l --login -m -p --preserve-environment -f -P --pty"),
        ],
    ),
    Spec(
        "runuser|setpriv|chpst|su-exec|gosu|sg|newgrp|capsh|pkexec",
        "privilege",
        operands=("none", "command"),
        permute=False,
        options=[Opt("-u --user -g --group -c --command", value="required")],
    ),
    Spec(
        "env",
        "",
        handler="env",
        permute=False,
        options=[
            Opt("-u --unset -C --chdir -a --argv0", value="required"),
            Opt("-S --split-string", value="required", role="shell"),
            Opt(
                "-i --ignore-environment -0 --null -v --debug - --block-signal "
                "--default-signal --ignore-signal --list-signal-handling"
            ),
        ],
    ),
    Spec(
        "nice",
        "",
        operands="command",
        permute=False,
        options=[Opt("-n --adjustment", value="required")],
    ),
    # Wrappers whose own options take no values (an unknown option is taken as a flag: if
    # it did take a value, the value is read as the program -- unknown, so never allowed).
    Spec(
        "nohup|setsid|unbuffer|eatmydata|builtin|caffeinate|dbus-run-session|with-contenv|"
        "dumb-init|tini|proxychains|proxychains4|torsocks|torify|firejail|fakechroot|"
        "valgrind|heaptrack|rr|ccache|sccache|distcc|icecc|nocache|catchsegv|"
        "systemd-inhibit|fakeroot|pv-run|lldb-run",
        "",
        operands="command",
        permute=False,
        handler="wrapper",
    ),
    Spec(
        "time|gtime",
        "",
        operands="command",
        permute=False,
        handler="wrapper",
        options=[
            Opt("-f --format -o --output", value="required"),
            Opt("-p --portability -a --append -v --verbose -q --quiet"),
        ],
    ),
    Spec(
        "command",
        "",
        operands="command",
        permute=False,
        handler="command_builtin",
        options=[Opt("-p"), Opt("-v -V", adds="read_only")],
    ),
    Spec(
        "exec",
        "",
        operands="command",
        permute=False,
        handler="wrapper",
        options=[Opt("-a", value="required"), Opt("-c -l")],
    ),
    Spec(
        "stdbuf",
        "",
        operands="command",
        permute=False,
        options=[Opt("-i --input -o --output -e --error", value="required")],
    ),
    Spec(
        "ionice",
        "",
        operands="command",
        permute=False,
        options=[
            Opt("-c --class -n --classdata -p --pid -P --pgid -u --uid", value="required"),
            Opt("-t --ignore"),
        ],
    ),
    Spec(
        "chrt|taskset|faketime|numactl-cpus",
        "",
        operands=("none", "command"),
        permute=False,
        options=[Opt("-p --pid -a --all-tasks -c --cpu-list -b -f -i -o -r -d -m -v -R")],
    ),
    Spec(
        "numactl",
        "",
        operands="command",
        permute=False,
        options=[
            Opt(
                "-C --physcpubind -N --cpunodebind -m --membind -i --interleave -p --preferred",
                value="required",
            )
        ],
    ),
    Spec(
        "flock|lockf",
        "",
        operands=("read", "command"),
        permute=False,
        options=[
            Opt("-c --command", value="required", role="shell"),
            Opt("-w --wait --timeout -E --conflict-exit-code", value="required"),
            Opt("-s --shared -x --exclusive -n --nonblock -u --unlock -o --close -F --no-fork"),
        ],
    ),
    Spec(
        "strace|ltrace",
        "",
        operands="command",
        permute=False,
        handler="wrapper",
        options=[
            Opt("-o -e -p -s -P -E -u -a -b -I -O -S -X", value="required"),
            Opt(
                "-f -ff -c -C -t -tt -ttt -T -y -yy -k -v -q -qq -r -x -xx -z -Z "
                "-d -D -h -V -i -n -w -F"
            ),
        ],
    ),
    Spec(
        "xvfb-run",
        "",
        operands="command",
        permute=False,
        options=[
            Opt(
                "-n --server-num -s --server-args -f --auth-file -e --error-file "
                "-w --wait -p --xauth-protocol",
                value="required",
            ),
            Opt("-a --auto-servernum -l --listen-tcp"),
        ],
    ),
    Spec(
        "perf",
        "read_only",
        subcommands={
            name: Spec(
                name,
                "",
                operands="command",
                permute=False,
                options=[
                    Opt(
                        "-e --event -o --output -p --pid -t --tid -C --cpu -G "
                        "--cgroup -F --freq -c --count -r --repeat -x "
                        "--field-separator",
                        value="required",
                    )
                ],
            )
            for name in ("stat", "record", "trace", "mem", "sched", "lock")
        },
        default=Spec("perf", "read_only"),
    ),
    Spec(
        "direnv",
        "read_only",
        subcommands={
            "exec": Spec("exec", "", operands=("read", "command"), permute=False),
            "allow": Spec("allow", "code_exec system"),
            "deny": Spec("deny", "system"),
        },
        default=Spec("direnv", "read_only"),
    ),
    Spec(
        "aws-vault|chamber",
        "secret_read",
        subcommands={
            "exec": Spec(
                "exec",
                "secret_read",
                operands=("none", "command"),
                permute=False,
                options=[Opt("-d --duration -r --region", value="required")],
            ),
        },
        default=Spec("aws-vault", "secret_read"),
    ),
    Spec(
        "op|doppler|infisical|dotenvx",
        "secret_read",
        subcommands={
            "run": Spec(
                "run",
                "secret_read",
                operands="command",
                permute=False,
                options=[
                    Opt(
                        "--env-file --environment --project --config -c -p -e --account --vault",
                        value="required",
                    )
                ],
            ),
            "read": Spec("read", "secret_read"),
            "item": Spec("item", "secret_read"),
            "inject": Spec("inject", "secret_read write"),
            "secrets": Spec("secrets", "secret_read"),
        },
        default=Spec("op", "secret_read"),
    ),
    Spec(
        "dotenv",
        "secret_read",
        operands="command",
        permute=False,
        options=[Opt("-e -v -c", value="required")],
    ),
    Spec("envchain", "secret_read", operands=("none", "command"), permute=False),
    Spec(
        "scl",
        "",
        subcommands={
            "enable": Spec("enable", "", operands=("none", "shell")),
        },
        default=Spec("scl", "read_only"),
    ),
    Spec(
        "timeout|gtimeout",
        "",
        operands=("none", "command"),
        permute=False,
        options=[
            Opt("-s --signal -k --kill-after", value="required"),
            Opt("--preserve-status --foreground -v --verbose"),
        ],
    ),
    Spec(
        "watch|gwatch",
        "",
        operands="shell_words",
        permute=False,
        handler="watch",
        options=[
            Opt("-n --interval -q --equexit", value="required"),
            Opt("-x --exec", adds=""),
            Opt(
                "-d --differences -t --no-title -b --beep -e --errexit -g --chgexit "
                "-c --color -C --no-color -p --precise -w --no-wrap"
            ),
        ],
    ),
    Spec(
        "xargs|gxargs",
        "",
        handler="xargs",
        permute=False,
        options=[
            Opt("-a --arg-file", value="required", role="read"),
            Opt(
                "-d --delimiter -E -e --eof -I --replace -i -L --max-lines -l -n "
                "--max-args -P --max-procs -s --max-chars --process-slot-var",
                value="required",
            ),
            Opt(
                "-0 --null -o --open-tty -p --interactive -r --no-run-if-empty "
                "-t --verbose -x --exit --show-limits"
            ),
        ],
    ),
    Spec(
        "parallel",
        "",
        handler="parallel",
        permute=False,
        options=[
            Opt(
                "-j --jobs -S --sshlogin --joblog --results --tmpdir -a --arg-file "
                "--delay --timeout --retries --colsep -d --delimiter -I --sshloginfile",
                value="required",
            )
        ],
    ),
    Spec("eval", "", operands="shell_words", permute=False),
    Spec("trap", "", operands=("shell", "none"), permute=False, options=[Opt("-l -p")]),
    Spec("alias", "read_only", handler="alias"),
    Spec(
        "hyperfine",
        "",
        operands="shell",
        options=[
            Opt("-p --prepare -c --cleanup -s --setup --conclude", value="required", role="shell"),
            Opt(
                "-w --warmup -r --runs -m --min-runs -M --max-runs -n --command-name -S --shell "
                "-u --time-unit --export-json --export-markdown --export-csv -L "
                "--parameter-list -P --parameter-scan",
                value="required",
            ),
        ],
    ),
    Spec(
        "script",
        "",
        operands="write",
        options=[
            Opt("-c --command", value="required", role="shell"),
            Opt("-a -q -f -e -E -t -T -B -I -O", value="optional"),
        ],
    ),
    Spec("tmux", "process_control", handler="tmux"),
    Spec(
        "screen",
        "process_control",
        operands="command",
        permute=False,
        options=[
            Opt("-S -c -e -h -p -X -T", value="required"),
            Opt("-d -m -D -R -r -x -L -U -a -A -q -ls -list -wipe"),
        ],
    ),
    Spec("busybox|toybox", "", operands="command", permute=False),
    Spec(
        "chroot",
        "privilege system",
        operands=("read", "command"),
        permute=False,
        options=[Opt("--userspec --groups", value="required")],
    ),
    Spec(
        "nsenter|unshare",
        "privilege system",
        operands="command",
        permute=False,
        options=[Opt("-t --target -S -G --setuid --setgid -w --wd -r --root", value="required")],
    ),
    Spec(
        "gdb",
        "code_exec",
        operands="exec",
        options=[
            Opt("-ex --eval-command -x --command -iex", value="required", role="code"),
            Opt("--args", ends=True, operands="command"),
        ],
    ),
    Spec("at|batch", "system", operands="none", handler="at"),
    Spec("entr", "", operands="command", permute=False, options=[Opt("-s", adds="code_exec")]),
]
