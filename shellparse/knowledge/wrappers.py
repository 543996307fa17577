"""Programs that run another command: it is followed into and judged on its own.

``operands="command"`` means the first operand and everything after it is the inner argv;
``shell_words`` joins the operands into a shell string (``eval``, ``watch``); ``shell`` parses
each operand as one (``hyperfine 'cmd'``). Most wrappers stop parsing their own options at the
first operand (``permute=False``, getopt's ``+``), so ``timeout 5 rm -rf x`` gives rm its own
``-rf`` (``spec.runs_command`` describes such a wrapper). A wrapper's unknown option is taken
as a flag: if it did take a value, that value is read as the program -- unknown, so never
allowed.
"""

from __future__ import annotations

from clearance.shellparse.handlers import wrappers
from clearance.shellparse.spec import Opt, Spec, opts, runs_command

_NS_FLAGS = (
    "-m/--mount=? -u/--uts=? -i/--ipc=? -n/--net=? -p/--pid=? -U/--user=? -C/--cgroup=? "
    "-T/--time=? -S/--setuid= -G/--setgid= --preserve-credentials -F/--no-fork -a/--all "
    "-Z/--follow-context -f/--fork -r/--map-root-user -c/--map-current-user "
    "--mount-proc=? --propagation= --setgroups= --map-user= --map-group= --map-users= "
    "--map-groups= --keep-caps --kill-child=? --monotonic= --boottime= --load-interp= "
    "-t/--target= --env -h/--help -V/--version"
)

#: su and runuser (util-linux): the command as a shell string (``-c``), the shell that runs it.
_SU_OPTIONS = [
    Opt("-c/--command/--session-command", value="required", role="shell"),
    Opt("-s/--shell", value="required", role="exec"),
]
_SU_FLAGS = (
    "-g/--group= -G/--supp-group= -w/--whitelist-environment= - -l/--login "
    "-m/-p/--preserve-environment -f/--fast -P/--pty"
)


def _namespaces(name: str, root: str, value: str) -> Spec:
    """nsenter, unshare: the command runs in other namespaces (without one, a shell), under a
    root directory (``root``, its spelling) and in a working directory of their choosing; a
    directory's ``value`` is ``"required"`` or ``"optional"``."""
    return runs_command(
        name,
        "privilege system",
        handler=wrappers.chroot,
        options=[Opt(root, value=value, role="read"), Opt("-w/--wd", value=value, role="cwd")],
        flags=_NS_FLAGS,
    )


SPECS = [
    runs_command(
        "sudo",
        "privilege",
        handler=wrappers.sudo,
        abbrev=True,
        options=[
            Opt("-D/--chdir", value="required", role="cwd"),
            Opt("-e/--edit", adds="write", operands="write"),
            *opts("-s/--shell -i/--login", adds="code_exec"),
            Opt("-E/--preserve-env", value="optional"),
        ],
        flags="-u/--user= -g/--group= -h/--host= -p/--prompt= -C/--close-from= -r/--role= "
        "-t/--type= -T/--command-timeout= -U/--other-user= -R/--chroot= -A/--askpass "
        "-b/--background -H/--set-home -k/--reset-timestamp -K/--remove-timestamp -l/--list "
        "-n/--non-interactive -P/--preserve-groups -S/--stdin -v/--validate -V/--version "
        "-N/--no-update -B/--bell --help",
    ),
    Spec("sudoedit", "privilege write", operands="write", flags="-u/--user= -g/--group= -n"),
    runs_command(
        "doas",
        "privilege",
        handler=wrappers.sudo,
        options=[Opt("-s", adds="code_exec")],
        flags="-u= -C= -n -L",
    ),
    Spec(
        "su",
        "privilege",
        operands="none",
        handler=wrappers.su,
        abbrev=True,
        options=_SU_OPTIONS,
        flags=_SU_FLAGS + " -h/--help -V/--version",
    ),
    runs_command(
        "runuser",
        "privilege",
        handler=wrappers.su,
        options=_SU_OPTIONS,
        flags=_SU_FLAGS + " -u/--user=",
    ),
    runs_command(
        "setpriv",
        "privilege",
        abbrev=True,
        flags="--reuid= --regid= --ruid= --rgid= --euid= --egid= --groups= --init-groups "
        "--clear-groups --keep-groups --inh-caps= --ambient-caps= --bounding-set= "
        "--securebits= --pdeathsig= --selinux-label= --apparmor-profile= --landlock-access= "
        "--landlock-rule= --reset-env --nnp/--no-new-privs -d/--dump",
    ),
    runs_command(
        "chpst",
        "privilege",
        flags="-u= -U= -b= -e= -/= -n= -l= -L= -m= -d= -o= -p= -f= -c= -v -P -0 -1 -2",
    ),
    runs_command(
        "pkexec",
        "privilege",
        flags="--user= --keep-cwd --disable-internal-agent --version --help",
    ),
    runs_command(
        "runcon",
        "privilege",
        flags="-c/--compute -u/--user= -r/--role= -t/--type= -l/--range=",
    ),
    runs_command("sandbox-exec", "", flags="-f= -n= -p= -D="),
    runs_command("sshpass", "", flags="-p= -f= -d= -e -v -P="),
    Spec("su-exec|gosu", "privilege", operands=("none", "command"), permute=False),
    Spec("sg", "privilege", operands=("none", "shell_words"), permute=False, handler=wrappers.sg),
    Spec("newgrp", "privilege code_exec", operands="none"),
    Spec("capsh", "privilege", operands="none", handler=wrappers.capsh),
    Spec(
        "env",
        "",
        handler=wrappers.env,
        permute=False,
        abbrev=True,
        options=[
            Opt("-C/--chdir", value="required", role="cwd"),
            Opt("-S/--split-string", value="required", role="shell"),
        ],
        flags="-u/--unset= -a/--argv0= -i/--ignore-environment -0/--null -v/--debug - "
        "--block-signal=? --default-signal=? --ignore-signal=? --list-signal-handling "
        "--help --version",
    ),
    runs_command(
        "nice",
        "",
        flags="-n/--adjustment= --help --version",
        abbrev=True,
        number="--adjustment",
    ),
    # Wrappers whose options change nothing a policy cares about. A value-taking option listed
    # here that is really a flag would swallow the program's name, so only those documented
    # as taking a value are marked with ``=``.
    *(
        runs_command(names, "", handler=wrappers.wrapper, flags=flags)
        for names, flags in (
            (
                "nohup|eatmydata|builtin|with-contenv|catchsegv|nocache|ccache|sccache|"
                "distcc|icecc|firejail|rlwrap",
                "",
            ),
            ("unbuffer", "-p"),
            ("chronic", "-e -v"),
            ("dbus-run-session", "--config-file= --dbus-daemon="),
            (
                "dbus-launch",
                "--sh-syntax --csh-syntax --auto-syntax --exit-with-session "
                "--exit-with-x11 --autolaunch= --config-file= --binary-syntax --close-stderr",
            ),
            ("dumb-init", "-r/--rewrite= -c/--single-child -v/--verbose -V/--version"),
            ("tini", "-s -v -vv -vvv -w -g -l -e= -p="),
            ("proxychains|proxychains4", "-q -f="),
            (
                "torsocks|torify",
                "-u/--user= -p/--pass= -a/--address= -P/--port= -i/--isolate -d/--debug -q/--quiet",
            ),
            ("trickle", "-d= -u= -w= -t= -l= -n= -s -v -V"),
            (
                "cpulimit",
                "-l/--limit= -p/--pid= -e/--exe= -P/--path= -z/--lazy "
                "-i/--include-children -b/--background -q/--quiet -k/--kill -r/--restore "
                "-v/--verbose -c/--cpu= -s/--signal=",
            ),
            (
                "heaptrack",
                "-o/--output= -r/--record-only -d/--debug -a/--analyze -p/--pid= --use-inject",
            ),
            ("systemd-inhibit", "--what= --who= --why= --mode= --list --no-pager --no-legend"),
            (
                "fakechroot",
                "-l/--lib= -d/--elfloader= -s/--use-system-libs -e/--environment= "
                "-c/--config-dir= -b/--bindir=",
            ),
            ("daemonize", "-a -c= -e= -o= -p= -l= -u= -v -E="),
            (
                "proot",
                "-r/--rootfs= -b/--bind/-m/--mount= -w/--pwd/--cwd= "
                "-k/--kernel-release= -0/--root-id -i/--change-id= -q/--qemu= -v/--verbose= "
                "-V/--version -h/--help -R= -S= --kill-on-exit",
            ),
        )
    ),
    runs_command(
        "bwrap",
        "",
        options=[
            *opts(
                "--bind --bind-try --dev-bind --dev-bind-try --ro-bind --ro-bind-try "
                "--symlink --setenv --chmod --bind-data --ro-bind-data --file",
                value="required",
                nargs=2,
            ),
            Opt("--chdir", value="required", role="cwd"),
        ],
        flags="--dev= --proc= --tmpfs= --dir= --unsetenv= --hostname= --uid= --gid= "
        "--remount-ro= --exec-label= --file-label= --lock-file= --sync-fd= --info-fd= "
        "--json-status-fd= --block-fd= --userns-block-fd= --seccomp= --add-seccomp-fd= "
        "--userns= --userns2= --pidns= --cap-add= --cap-drop= --perms= --size= --args= "
        "--argv0= --mqueue= --overlay-src= --unshare-all --share-net --unshare-user "
        "--unshare-user-try --unshare-ipc --unshare-pid --unshare-net --unshare-uts "
        "--unshare-cgroup --unshare-cgroup-try --die-with-parent --as-pid-1 --new-session "
        "--clearenv --disable-userns --assert-userns-disabled --level-prefix",
    ),
    runs_command(
        "caffeinate",
        "",
        flags="-d -i -m -s -u -t= -w=",
    ),
    runs_command(
        "setsid",
        "",
        handler=wrappers.wrapper,
        flags="-c/--ctty -f/--fork -w/--wait --help --version",
    ),
    runs_command(
        "fakeroot",
        "",
        options=[Opt("-l/--lib", value="required", role="exec")],
        flags="--faked= -s= -i= -u/--unknown-is-real -b= -h/--help -v/--version",
    ),
    runs_command(
        "time|gtime",
        "",
        options=[Opt("-o/--output", value="required", role="write")],
        flags="-f/--format= -p/--portability -a/--append -v/--verbose -q/--quiet",
    ),
    runs_command(
        "command",
        "",
        handler=wrappers.command_builtin,
        options=[Opt("-v"), Opt("-V")],
        flags="-p",
    ),
    runs_command(
        "exec",
        "",
        handler=wrappers.wrapper,
        flags="-a= -c -l",
    ),
    runs_command(
        "stdbuf",
        "",
        flags="-i/--input= -o/--output= -e/--error= --help --version",
        abbrev=True,
    ),
    runs_command(
        "ionice",
        "",
        flags="-c/--class= -n/--classdata= -p/--pid= -P/--pgid= -u/--uid= -t/--ignore",
    ),
    Spec(
        "chrt",
        "",
        operands=("none", "command"),
        permute=False,
        flags="-a/--all-tasks -b/--batch -d/--deadline -e/--ext -f/--fifo -i/--idle -m/--max "
        "-o/--other -p/--pid -r/--rr -R/--reset-on-fork -T/--sched-runtime= "
        "-P/--sched-period= -D/--sched-deadline= -v/--verbose",
    ),
    Spec(
        "taskset",
        "",
        operands=("none", "command"),
        permute=False,
        flags="-a/--all-tasks -c/--cpu-list -p/--pid",
    ),
    Spec(
        "faketime",
        "",
        operands=("none", "command"),
        permute=False,
        flags="-m -f --exclude-monotonic --date-prog=",
    ),
    runs_command(
        "numactl",
        "",
        flags="-C/--physcpubind= -N/--cpunodebind= -m/--membind= -i/--interleave= "
        "-p/--preferred= -l/--localalloc -a/--all -b/--balancing -s/--show -H/--hardware",
    ),
    Spec(
        "flock|lockf",
        "",
        operands=("read", "command"),
        permute=False,
        handler=wrappers.flock,
        options=[Opt("-c/--command", value="required", role="shell")],
        flags="-w/--wait/--timeout= -E/--conflict-exit-code= -s/--shared -x/-e/--exclusive "
        "-n/--nb/--nonblock -u/--unlock -o/--close -F/--no-fork --verbose",
    ),
    runs_command(
        "strace",
        "",
        handler=wrappers.wrapper,
        options=[
            Opt("-o/--output", value="required", role="write"),
            Opt("-E/--env", value="required"),
        ],
        flags="-e= -p/--attach= -s/--string-limit= -P/--trace-path= -u/--user= -a/--columns= "
        "-b/--detach-on= -I/--interruptible= -O= -S/--summary-sort-by= -X/--const-print-style= "
        "-f/--follow-forks -ff -c/--summary-only -C/--summary -t -tt -ttt -T -y -yy -k -v -q "
        "-qq -r -x -xx -z -Z -d -D -h/--help -V/--version -i -n -w -F",
    ),
    runs_command(
        "valgrind",
        "",
        handler=wrappers.wrapper,
        options=[
            *opts("--log-file --xml-file", value="required", role="write"),
            Opt("--suppressions", value="required", role="read"),
        ],
        flags="--tool= --leak-check= --show-leak-kinds= --track-origins= --error-exitcode= "
        "--gen-suppressions= --trace-children= --num-callers= --xml= --track-fds= "
        "--show-reachable= --errors-for-leak-kinds= --undef-value-errors= --max-stackframe= "
        "--main-stacksize= --time-stamp= --child-silent-after-fork= --vgdb= --log-fd= "
        "-q/--quiet -v/--verbose -h/--help --version",
    ),
    # nix-shell evaluates the project's shell.nix (code, like a build definition) and may
    # fetch what it names; ``--run`` / ``--command`` is a shell command run inside
    Spec(
        "nix-shell",
        "code_exec network network_read package_install",
        operands="exec",
        options=[*opts("--run --command", value="required", role="shell")],
        flags="-p/--packages --pure -A/--attr= -I= --arg= --argstr= --keep= -E/--expr= "
        "--impure --show-trace -j/--max-jobs= --option= --quiet -v/--verbose --help --version",
    ),
    runs_command(
        "ltrace",
        "",
        handler=wrappers.wrapper,
        options=[Opt("-o/--output", value="required", role="write")],
        flags="-e= -p= -s= -u= -a/--align= -n/--indent= -l/--library= -x= -w/--where= -F= "
        "-A= -D/--debug= -b/--no-signals -c -C/--demangle -f -h/--help -i -L -r -S -t -tt "
        "-ttt -T -V/--version",
    ),
    runs_command(
        "xvfb-run",
        "",
        flags="-n/--server-num= -s/--server-args= -f/--auth-file= -e/--error-file= "
        "-w/--wait= -p/--xauth-protocol= -a/--auto-servernum -l/--listen-tcp",
    ),
    Spec(
        "perf",
        "read_only",
        subcommands={
            name: runs_command(
                name,
                "",
                options=[Opt("-o/--output", value="required", role="write")],
                flags="-e/--event= -p/--pid= -t/--tid= -C/--cpu= -G/--cgroup= -F/--freq= "
                "-c/--count= -r/--repeat= -x/--field-separator= -a/--all-cpus -g",
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
            "permit": Spec("permit", "code_exec system"),
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
                flags="-d/--duration= -r/--region= -n/--no-session -j/--json -s/--server",
            ),
        },
        default=Spec("aws-vault", "secret_read"),
    ),
    Spec(
        "op|doppler|infisical|dotenvx",
        "secret_read",
        subcommands={
            "run": runs_command(
                "run",
                "secret_read",
                flags="--env-file= --environment= --project= --config= -c= -p= -e= "
                "--account= --vault= -f= --no-masking",
            ),
            "read": Spec("read", "secret_read"),
            "item": Spec("item", "secret_read"),
            "inject": Spec("inject", "secret_read write"),
            "secrets": Spec("secrets", "secret_read"),
        },
        default=Spec("op", "secret_read"),
    ),
    runs_command(
        "dotenv",
        "secret_read",
        flags="-e= -v= -c=?",
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
        flags="-s/--signal= -k/--kill-after= --preserve-status --foreground -v/--verbose "
        "--help --version",
        abbrev=True,
    ),
    Spec(
        "watch|gwatch",
        "",
        operands="shell_words",
        permute=False,
        handler=wrappers.watch,
        abbrev=True,
        options=[Opt("-x/--exec")],
        flags="-n/--interval= -q/--equexit= -d/--differences=? -t/--no-title -b/--beep "
        "-e/--errexit -g/--chgexit -c/--color -C/--no-color -p/--precise -w/--no-wrap "
        "-r/--no-rerun -h/--help -v/--version",
    ),
    Spec(
        "xargs|gxargs",
        "",
        handler=wrappers.xargs,
        permute=False,
        abbrev=True,
        options=[
            Opt("-a/--arg-file", value="required", role="read"),
            Opt("-I", value="required"),
            Opt("-i/--replace", value="optional"),
        ],
        flags="-d/--delimiter= -E= -e/--eof=? -L/--max-lines= -l=? -n/--max-args= "
        "-P/--max-procs= -s/--max-chars= --process-slot-var= -0/--null -o/--open-tty "
        "-p/--interactive -r/--no-run-if-empty -t/--verbose -x/--exit --show-limits "
        "--help --version",
    ),
    Spec(
        "parallel",
        "",
        handler=wrappers.parallel,
        permute=False,
        options=[
            Opt("-a/--arg-file", value="required", role="read"),
            # the jobs run on other machines (over ssh)
            Opt("-S/--sshlogin", value="required", role="host", adds="network network_write"),
            Opt(
                "--sshloginfile/--slf", value="required", role="read", adds="network network_write"
            ),
            # the log and the results are files it writes
            *opts("--joblog --results", value="required", role="write", adds="write"),
        ],
        flags="-j/--jobs/-P= --tmpdir= --delay= "
        "--timeout= --retries= --colsep= -d/--delimiter= -I= -k/--keep-order "
        "-q/--quote --dry-run -0/--null -X -m --pipe --halt= -n/--max-args= -N= --eta --bar "
        "--progress -v --tag --line-buffer --ungroup -u --group",
    ),
    Spec("eval", "", operands="shell_words", permute=False),
    # ``arch`` prints the machine; on macOS ``arch -x86_64 CMD`` runs CMD under another ABI
    runs_command(
        "arch",
        "read_only",
        single_dash_long=True,
        flags="-arm64 -arm64e -x86_64 -x86_64h -i386 -32 -64 -c -e= -d= -h --help --version",
    ),
    Spec("trap", "", operands=("shell", "none"), permute=False, flags="-l -p"),
    Spec("alias", "read_only", handler=wrappers.alias),
    Spec(
        "hyperfine",
        "",
        operands="shell",
        options=[
            *opts("-p/--prepare -c/--cleanup -s/--setup --conclude", value="required", role="shell")
        ],
        flags="-w/--warmup= -r/--runs= -m/--min-runs= -M/--max-runs= -n/--command-name= "
        "-S/--shell= -u/--time-unit= --export-json= --export-markdown= --export-csv= "
        "-L/--parameter-list= -P/--parameter-scan= -N -i/--ignore-failure --show-output",
    ),
    Spec(
        "script",
        "",
        operands="write",
        abbrev=True,
        options=[
            Opt("-c/--command", value="required", role="shell"),
            *opts(
                "-I/--log-in -O/--log-out -B/--log-io -T/--log-timing",
                value="required",
                role="write",
            ),
        ],
        flags="-a/--append -e/--return -f/--flush --force -q/--quiet -E/--echo= "
        "-m/--logging-format= -t/--timing=?",
    ),
    Spec("tmux", "process_control", handler=wrappers.tmux),
    runs_command(
        "screen",
        "process_control",
        options=[
            Opt("-X", value="required", adds="code_exec"),
            Opt("-s", value="required", role="exec"),
        ],
        flags="-S= -c= -e= -h= -p= -T= -d -m -D -R -r -x -L -U -a -A -q -l -O -i -f "
        "-ls -list -wipe -Logfile= -v/--version",
        handler=wrappers.screen,
    ),
    runs_command("busybox|toybox", ""),
    Spec(
        "chroot",
        "privilege system",
        operands=("read", "command"),
        permute=False,
        handler=wrappers.chroot,
        flags="--userspec= --groups= --skip-chdir --help --version",
    ),
    _namespaces("nsenter", "-r/--root", "optional"),
    _namespaces("unshare", "-R/--root", "required"),
    runs_command(
        "systemd-run",
        "system process_control",
        options=[
            *opts(
                "--on-calendar --on-active --on-boot --on-startup --on-unit-active "
                "--on-unit-inactive --on-clock-change --on-timezone-change",
                value="required",
            ),
            Opt("-E/--setenv", value="required"),
            Opt("--working-directory", value="required", role="cwd"),
        ],
        flags="-u/--unit= -p/--property= --user --system --scope -t/--pty -P/--pipe -q/--quiet "
        "--wait -G/--collect --uid= --gid= --nice= -d/--same-dir -M/--machine= -H/--host= "
        "--slice= --slice-inherit --description= -r/--remain-after-exit --service-type= "
        "--timer-property= --path-property= --socket-property= --no-block --no-ask-password "
        "-S/--shell --expand-environment= --json=",
    ),
    Spec(
        "start-stop-daemon",
        "system process_control",
        options=[*opts("-x/--exec -a/--startas", value="required", role="exec")],
        flags="-S/--start -K/--stop -T/--status -H/--help -V/--version -n/--name= "
        "-p/--pidfile= -u/--user= -g/--group= -s/--signal= -R/--retry= -c/--chuid= "
        "-r/--chroot= -d/--chdir= -b/--background -m/--make-pidfile -o/--oknodo -q/--quiet "
        "-v/--verbose -N/--nicelevel= -k/--umask=",
        handler=wrappers.start_stop_daemon,
    ),
    Spec(
        "gdb",
        "code_exec",
        operands="exec",
        single_dash_long=True,
        options=[
            *opts("-ex/--eval-command -iex/--init-eval-command", value="required", role="code"),
            *opts("-x/--command -ix/--init-command", value="required", role="exec"),
            Opt("--args", ends=True, operands="command"),
            Opt("-p/--pid", value="required", adds="process_control"),
        ],
        flags="-batch/--batch -q/-quiet/--quiet -nx/--nx -nh -tui --tui -c= -core= -d= "
        "-directory= -s= -symbols= -cd=",
    ),
    Spec(
        "at|batch",
        "system",
        operands="none",
        handler=wrappers.at,
        options=[Opt("-f", value="required")],
        flags="-q= -m -M -t= -v -c -l -d -r -b -V -u=",
    ),
    runs_command(
        "entr",
        "",
        handler=wrappers.entr,
        options=[Opt("-s", adds="code_exec")],
        flags="-a -c -cc -d -n -p -r -z",
    ),
    # Open a file or URL with whatever program the desktop associates with it: a script or a
    # ``.desktop`` entry runs.
    Spec("xdg-open|open|gio-open|start|wslview|explorer.exe", "code_exec", operands="read"),
    Spec(
        "run-parts",
        "code_exec",
        operands="exec",
        flags="--test --list -v --report --reverse --exit-on-error --regex= -u/--umask= -a/--arg=",
    ),
]
