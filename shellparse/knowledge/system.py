"""The machine and beyond: services, disks, users, processes, containers, clouds."""

from __future__ import annotations

from clearance.shellparse.handlers import system
from clearance.shellparse.spec import Opt, Spec, opts, shared, sub, verbs

#: ``ip``'s options before the object (one dash, long names; ``-br`` is ``-brief``).
_IP_FLAGS = (
    "-4 -6 -0 -s/-stats/-statistics -d/-details -h/-human/-human-readable -iec -j/-json "
    "-p/-pretty -f/-family= -o/-oneline -r/-resolve -a/-all -c/-color=? -br/-brief "
    "-t/-timestamp -ts/-tshort -n/-netns= -N/-Numeric -l/-loops= -rc/-rcvbuf= -V/-Version"
)
#: The objects ``ip`` manages, with the abbreviations people type (``ip a``, ``ip r``).
_IP_OBJECTS = (
    "link l li address a ad addr route r ro neighbour neighbor neigh n rule ru maddress maddr "
    "mroute mr tunnel tun tuntap nexthop nh netconf ntable tcpmetrics token vrf stats mptcp "
    "xfrm l2tp sr"
)
#: Commands that only print what an object holds.
_IP_SHOWS = ("show", "sh", "list", "ls", "lst", "get", "help")


def _ip_object(name: str) -> Spec:
    """An ``ip`` object: read when no command or a printing one follows, else configured."""
    return sub(
        name,
        "read_only",
        subcommands=shared(_IP_SHOWS, "read_only"),
        default=sub(name, "system"),
    )


_READ_VERBS = (
    "get",
    "describe",
    "list",
    "ls",
    "show",
    "status",
    "logs",
    "log",
    "inspect",
    "top",
    "version",
    "info",
    "history",
    "events",
    "explain",
    "api-resources",
    "api-versions",
    "cluster-info",
    "config-view",
    "diff",
    "search",
    "lint",
    "template",
    "images",
    "ps",
    "stats",
    "port",
    "--version",
    "-v",
    "help",
    "whoami",
    "output",
    "plan",
    "validate",
    "show-account",
    "env-list",
)

_KUBECTL_FLAGS = (
    "-n/--namespace= --context= --cluster= -s/--server= --token= --user= --as= "
    "--as-group= -l/--selector= -o/--output= -A/--all-namespaces --field-selector= "
    "-w/--watch --show-labels --sort-by= --request-timeout= --insecure-skip-tls-verify "
    "--certificate-authority= --client-certificate= --client-key= -v= --v= "
    "--dry-run=? --force --grace-period= --wait --timeout= -R/--recursive -k= "
    "--all --cascade=? --now -c/--container= --tail= --since= -p/--previous --follow "
    "--replicas= --image= --port= --type= --record --overwrite --local --client=? "
    "--namespaced=? --api-group= --verbs= --no-headers --for= --types= --containers=? "
    "--all-containers=? --name-only --show-kind --ignore-not-found --chunk-size= "
    "--show-managed-fields --list"
)

_KUBECTL_OPTIONS = [Opt("-f/--filename", value="required", role="url_or_path")]

_TF_FLAGS = (
    "-var= -target= -replace= -refresh=? -refresh-only -destroy -lock=? -lock-timeout= "
    "-input=? -no-color -json -compact-warnings -detailed-exitcode -parallelism= -backup= "
    "-auto-approve -concise -upgrade -reconfigure -migrate-state -force-copy -backend=? "
    "-backend-config= -get=? -lockfile= -list=? -write=? -diff -check -recursive -no-tests "
    "-test-directory= -filter= -verbose -raw -ignore-remote-version -allow-missing -id= "
    "-help -h"
)
_TF_OPTIONS = [
    *opts("-var-file -state", value="required", role="read"),
    *opts("-out -state-out -generate-config-out", value="required", role="write"),
    # code from elsewhere: a module source, a plugin directory
    *opts("-from-module -plugin-dir", value="required", role="exec"),
]

_DOCKER_READ_FLAGS = (
    "-a/--all -q/--quiet -f/--filter= --format= -n/--last= -l/--latest --no-trunc -s/--size "
    "--digests --type= --no-stream --tree -v --help -h --since= --until="
)
_DOCKER_LOG_FLAGS = "-f/--follow -n/--tail= -t/--timestamps --since= --until= --details --help"
_DOCKER_BUILD_FLAGS = (
    "-t/--tag= --build-arg= --target= --platform= --no-cache --pull -q/--quiet --rm "
    "--force-rm --progress= --label= --network= --cache-from= --cache-to= --load --push "
    "--compress --squash --shm-size= --ulimit= --add-host= --build-context= --isolation= "
    "-m/--memory= --cpu-shares= --provenance= --sbom= --check --help"
)

_HELM_FLAGS = (
    "-n/--namespace= --kube-context= --kubeconfig= --kube-apiserver= --kube-token= "
    "--kube-as-user= --kube-as-group= --kube-ca-file= --kube-insecure-skip-tls-verify "
    "--registry-config= --repository-cache= --repository-config= --burst-limit= --qps= "
    "--debug -A/--all-namespaces -a/--all -o/--output= -q/--short --max= --offset= "
    "-r/--reverse -l/--selector= --date -m/--max-col-width= --revision= --show-resources "
    "--version= --devel -f/--values= --set= --set-string= --set-file= --set-json= "
    "--api-versions= --kube-version= --is-upgrade --validate --show-only= -s= --strict "
    "--with-subcharts --include-crds --skip-tests --regexp --deployed --failed --pending "
    "--superseded --uninstalled --uninstalling --no-headers --time-format= --filter="
)

# Options of ``docker run`` that weaken the container's walls, and those that take a value.
_DOCKER_RUN_OPTIONS = [
    Opt("--privileged", adds="privilege"),
    *opts(
        "--pid --ipc --uts --userns --cgroupns --network/--net --cap-add --device "
        "--security-opt --device-cgroup-rule",
        value="required",
        role="none",
    ),
    *opts("-v/--volume --mount", value="required", role="none"),
    *opts("--env-file --label-file --cidfile --cgroup-parent", value="required", role="read"),
    Opt("--entrypoint", value="required", adds="code_exec"),
]
_DOCKER_RUN_FLAGS = (
    "-e/--env= --name= -p/--publish= -w/--workdir= -u/--user= -l/--label= --platform= "
    "--restart= -m/--memory= --memory-swap= --memory-reservation= --cpus= --cpu-shares/-c= "
    "--cpuset-cpus= -h/--hostname= --add-host= --dns= --dns-search= --dns-option= "
    "--health-cmd= --health-interval= --health-retries= --health-timeout= --log-driver= "
    "--log-opt= --tmpfs= --ulimit= --gpus= --shm-size= --stop-signal= --stop-timeout= "
    "--expose= --link= --network-alias= --ip= --ip6= --mac-address= --group-add= "
    "--sysctl= --storage-opt= --volumes-from= --pull= --isolation= --runtime= --domainname= "
    "--oom-score-adj= --pids-limit= --attach/-a= --detach-keys= --annotation= "
    "--blkio-weight= --kernel-memory= --cpu-period= --cpu-quota= --cap-drop= "
    "--volume-driver= --init --rm -d/--detach -i/--interactive -t/--tty -P/--publish-all "
    "--read-only -q/--quiet --no-healthcheck --oom-kill-disable --sig-proxy --disable-content-trust"
)

#: systemctl's options: which manager, which units, how they print (``-H``/``-M`` reach
#: another machine or container: not listed, closed world).


def _container(name: str, classes: str) -> Spec:
    """``docker run`` / ``docker create``: the image, then the command the container runs
    (options only before the image); mounts and namespaces that reach the host
    (``system.docker_run``)."""
    return sub(
        name,
        classes,
        handler=system.docker_run,
        options=_DOCKER_RUN_OPTIONS,
        flags=_DOCKER_RUN_FLAGS,
        permute=False,
    )


_SYSTEMCTL_FLAGS = (
    "--user --system --global --now --state= -t/--type= -a/--all --no-pager --plain "
    "-l/--full -q/--quiet --failed --no-legend -n/--lines= -o/--output= --runtime "
    "--no-block --no-wall --no-reload --no-ask-password --value -p/--property= "
    "-P= --show-types -f/--force -i/--ignore-inhibitors --dry-run --when= --job-mode= "
    "--reverse --after --before -r/--recursive --with-dependencies --check-inhibitors= "
    "--kill-whom= --kill-value= -s/--signal= --preset-mode= --firmware-setup "
    "--boot-loader-menu= --boot-loader-entry= --reboot-argument= --timestamp= "
    "--mkdir --marked --read-only --wait --legend= --help -h --version"
)

SPECS = [
    # processes
    Spec(
        "renice",
        "process_control",
        operands="none",
        flags="-n/--priority= -g/--pgrp -p/--pid -u/--user --relative -h/--help -V/--version",
        families="-[0-9]*",
    ),
    Spec("disown", "process_control", operands="none", flags="-a -h -r"),
    Spec("bg|fg", "process_control", operands="none"),
    Spec("printenv", "read_only", operands="none", flags="-0/--null", handler=system.printenv),
    Spec(
        "set",
        "read_only",
        handler=system.variables_dump,
        short="abefhkmnptuvxBCEHPTo:",
        permute=False,
    ),
    Spec("declare|typeset", "read_only", handler=system.variables_dump, short="aAfFgiIlnprtux"),
    Spec("export", "read_only", handler=system.variables_dump, short="fnp"),
    # services, boot, persistence
    Spec(
        "systemctl",
        "read_only",  # alone: it lists the units
        subcommands={
            **shared(
                (
                    "status",
                    "show",
                    "list-units",
                    "list-unit-files",
                    "is-active",
                    "is-enabled",
                    "is-failed",
                    "cat",
                    "list-timers",
                    "list-sockets",
                    "list-dependencies",
                    "get-default",
                    "list-jobs",
                    "list-machines",
                    "list-paths",
                    "list-automounts",
                    "is-system-running",
                    "help",
                ),
                "read_only",
                _SYSTEMCTL_FLAGS,
            ),
            # the service manager's environment, as ``env`` prints the shell's
            "show-environment": sub("show-environment", "read_only secret_read", _SYSTEMCTL_FLAGS),
        },
        flags=_SYSTEMCTL_FLAGS,
        default=sub("systemctl", "system", _SYSTEMCTL_FLAGS),
    ),
    # ``service --status-all``, ``service NAME status`` print; start, stop, restart… act
    Spec(
        "service",
        "system",
        operands="none",
        flags="--status-all --full-restart",
        handler=system.service,
    ),
    Spec(
        "launchctl|rc-service|rc-update|update-rc.d|chkconfig|initctl|sv",
        "system",
        operands="none",
    ),
    # ``sysctl NAME``, ``sysctl -a`` print; ``NAME=VALUE``, ``-w``, ``-p FILE``, ``--system`` set
    Spec(
        "sysctl",
        "read_only",
        operands="none",
        options=[
            Opt("-w/--write", adds="system"),
            Opt("-p/--load", value="optional", role="read", adds="system"),
            Opt("--system", adds="system"),
        ],
        flags="-n/--values -e/--ignore -N/--names -q/--quiet -a/-A/-X/--all -b/--binary "
        "-r/--pattern= -d -h/--help -V/--version",
        handler=system.sysctl,
    ),
    Spec(
        "journalctl",
        "read_only",
        options=[
            *opts(
                "--vacuum-size --vacuum-time --vacuum-files --rotate --flush --sync",
                value="optional",
                adds="delete system",
            ),
            Opt("--setup-keys", adds="system"),
            Opt("--file", value="required", role="read"),
        ],
        flags="-u/--unit= --user-unit= -f/--follow -n/--lines= -e/--pager-end -r/--reverse "
        "-b/--boot=? -k/--dmesg -p/--priority= -g/--grep= --case-sensitive=? -S/--since= "
        "-U/--until= -o/--output= --output-fields= -x/--catalog -q/--quiet -a/--all "
        "--no-pager -m/--merge -D/--directory= --root= -t/--identifier= "
        "-T/--exclude-identifier= --system --user -M/--machine= --list-boots --disk-usage "
        "--no-full -l/--full --no-hostname --utc --since= --until= -F/--field= -N/--fields "
        "--cursor= --after-cursor= --show-cursor --facility= -I --namespace= --verify "
        "--header --list-catalog --help --version",
    ),
    Spec(
        "dmesg",
        "read_only",
        options=[
            *opts(
                "-C/--clear -c/--read-clear -D/--console-off -E/--console-on -n/--console-level",
                adds="system",
            ),
            # a file printed as if it were the kernel's buffer
            Opt("-F/--file", value="required", role="read"),
        ],
        flags="-H/--human -T/--ctime -w/--follow -W/--follow-new -l/--level= -f/--facility= "
        "-k/--kernel -u/--userspace -x/--decode -t/--notime -r/--raw -L/--color=? "
        "-P/--nopager -e/--reltime -d/--show-delta -S/--syslog -s/--buffer-size= "
        "--time-format= -J/--json --since= --until= -h/--help -V/--version",
    ),
    Spec(
        "loginctl-list|last|lastb|lastlog|faillog",
        "read_only",
        flags="-n= -a -d -F -i -w -x -R -t= -s= -u/--user= -b/--before= -t/--time= -f= "
        "-p= --help --version",
        families="-[0-9]*",
    ),
    Spec(
        "crontab",
        "system",
        operands="exec",
        handler=system.crontab,
        flags="-l -r -e -i -u= -n= -c -T -s -V",
    ),
    Spec(
        "shutdown|reboot|halt|poweroff|init|telinit|kexec|systemd-reboot",
        "system",
        prints_help=False,  # ``shutdown -h`` halts
    ),
    # disks and filesystems
    Spec(
        "mount|umount|losetup|cryptsetup|mkswap|swapon|swapoff|fdisk|sfdisk|cfdisk|gdisk|"
        "sgdisk|parted|partprobe|wipefs|blkdiscard|hdparm|sdparm|tune2fs|e2fsck|fsck|"
        "resize2fs|xfs_repair|btrfs|zfs|zpool|lvcreate|lvremove|lvextend|vgcreate|"
        "vgremove|pvcreate|pvremove|mdadm|dmsetup|debugfs|badblocks|nvme|smartctl",
        "system",
        operands="write",
        prints_help=False,  # ``fsck -V`` is verbose and checks every file system
        handler=system.status_when_bare,
    ),
    Spec(
        "mkfs|mkfs.ext2|mkfs.ext3|mkfs.ext4|mkfs.xfs|mkfs.btrfs|mkfs.vfat|mkfs.fat|mkfs.ntfs|"
        "mkfs.exfat|mke2fs|mkdosfs|newfs",
        "system delete",
        operands="write",
    ),
    # users, permissions, kernel, network config
    Spec(
        "useradd|userdel|usermod|adduser|deluser|groupadd|groupdel|groupmod|passwd|chpasswd|"
        "chsh|chfn|chage|vipw|vigr|visudo|gpasswd|pwck|newusers",
        "system privilege",
    ),
    Spec(
        "modprobe|insmod|rmmod|depmod|ldconfig|update-alternatives|update-grub|"
        "grub-install|grub-mkconfig|efibootmgr|setenforce|setsebool|aa-disable|"
        "apparmor_parser|auditctl|timedatectl|hostnamectl|localectl|iptables|ip6tables|"
        "nft|ufw|firewall-cmd|tc|iwconfig|nmcli|ifup|ifdown|"
        "brctl|ethtool|setcap|scutil|networksetup|csrutil|spctl|tmutil|"
        "diskutil|pmset|softwareupdate|nvram",
        "system",
        handler=system.status_when_bare,
    ),
    # ``ip [OPTIONS] OBJECT [COMMAND]``: an object with no command, or with a command that only
    # prints (show, list, get), is read; any other command (add, set, del, flush, change…)
    # configures the network; ``ip netns exec`` runs a command in a namespace.
    Spec(
        "ip",
        "system",
        flags=_IP_FLAGS,
        options=[Opt("-b/-batch", value="required", adds="system")],
        single_dash_long=True,
        permute=False,
        subcommands={
            **{name: _ip_object(name) for name in _IP_OBJECTS.split()},
            **shared(("monitor", "mon"), "read_only", default=sub("monitor", "read_only")),
            "netns": sub(
                "netns",
                "read_only",
                subcommands={
                    **shared((*_IP_SHOWS, "identify", "pids", "monitor"), "read_only"),
                    "exec": sub("exec", "code_exec system"),
                },
                default=sub("netns", "system"),
            ),
            "help": sub("help", "read_only"),
        },
        default=sub("ip", "system"),
    ),
    Spec(
        "ssh-add",
        "secret_read",
        flags="-l -L -E= -q -v -c -k -K -d -D -x -X -t= -T -s= -e= -S= -H= -h= -C",
        handler=system.ssh_add,
    ),
    Spec(
        "ifconfig",
        "system",
        flags="-a -s -v -l -u -d -L -m -r -f= --help -V/--version",
        handler=system.ifconfig,
    ),
    # ``route`` and ``route -n`` print the table; ``route add|del|flush|change…`` edit it.
    Spec(
        "route",
        "read_only",
        flags="-n -e -ee -v -F -C -4 -6 -A= --inet --inet6 -N --numeric --extend --verbose",
        subcommands=shared(("get", "monitor", "show", "print", "inet", "inet6"), "read_only"),
        default=sub("route", "system"),
    ),
    # ``arp``/``arp -a`` print the cache; ``-s``, ``-d``, ``-f`` change it.
    Spec(
        "arp",
        "read_only",
        flags="-a/--all -n/--numeric -e -v/--verbose -D/--use-device -H/--hw-type= -t= "
        "-i/--device= -l -x",
        options=[
            Opt("-s/--set", adds="system"),
            Opt("-d/--delete", adds="system"),
            Opt("-f/--file", value="optional", adds="system"),
        ],
    ),
    Spec("chsh-shell|security", "secret_read system"),
    # containers and orchestration
    Spec(
        "docker|podman|nerdctl",
        "",
        subcommands={
            **shared(_READ_VERBS, "read_only", _DOCKER_READ_FLAGS),
            **shared(("logs", "log"), "read_only", _DOCKER_LOG_FLAGS),
            "run": _container("run", "code_exec process_control"),
            "create": _container("create", "process_control"),
            "exec": sub(
                "exec",
                "code_exec",
                operands=("none", "command"),
                permute=False,
                options=[
                    Opt("--privileged", adds="privilege"),
                    Opt("-w/--workdir", value="required"),
                    Opt("--env-file", value="required", role="read"),
                ],
                flags="-e/--env= -u/--user= -i/--interactive -t/--tty -d/--detach --detach-keys=",
            ),
            "build": sub(
                "build",
                "build network network_read",
                _DOCKER_BUILD_FLAGS,
                options=[
                    Opt("-f/--file", value="required", role="read"),
                    *opts("-o/--output --iidfile --metadata-file", value="required", role="write"),
                    *opts("--secret --ssh", value="required", adds="secret_read"),
                ],
            ),
            **verbs(
                {
                    "buildx": "build network network_read",
                    "pull": "network network_read package_install",
                    "push": "network vcs_write",
                    "login": "network system",
                    "logout swarm service": "system",
                    "rm rmi prune kill": "delete",
                    "start stop restart pause unpause update wait": "process_control",
                    "secret": "secret_read system",
                }
            ),
            "compose": sub(
                "compose",
                "",
                options=[
                    Opt("--project-directory", value="required", role="cwd"),
                    Opt("-f/--file", value="required", role="cwd_file"),
                    Opt("--env-file", value="required", role="read"),
                ],
                flags="-p/--project-name= --profile= --ansi= --progress= --parallel= "
                "--compatibility --dry-run",
                subcommands={
                    **verbs(
                        {
                            "images ls top version port events": "read_only",
                            "up": "code_exec process_control network",
                            "run": "code_exec process_control",
                            "down": "process_control delete",
                            "build": "build network",
                            "pull": "network",
                            "rm": "delete",
                        }
                    ),
                    "exec": sub("exec", "code_exec", operands=("none", "command"), permute=False),
                    # the resolved compose file; ``-o FILE`` writes it there
                    "config": sub(
                        "config",
                        "read_only",
                        "--services --volumes --profiles --images --networks --hash= --format= "
                        "-q/--quiet --resolve-image-digests --no-interpolate --no-normalize "
                        "--no-path-resolution --no-consistency --environment --variables",
                        options=[Opt("-o/--output", value="required", role="write")],
                    ),
                    "ps": sub(
                        "ps",
                        "read_only",
                        "-a/--all -q/--quiet --format= --services --status= --filter= "
                        "--no-trunc --orphans",
                    ),
                    "logs": sub(
                        "logs",
                        "read_only",
                        "-f/--follow -n/--tail= -t/--timestamps --since= --until= --no-color "
                        "--no-log-prefix --index=",
                    ),
                },
                default=sub("compose", "process_control"),
            ),
            "system": sub(
                "system",
                "read_only",
                subcommands={
                    **verbs({"prune": "delete", "df info events": "read_only"}),
                },
                default=sub("system", "read_only"),
            ),
            "cp": sub("cp", "write", operands="copy"),
            # an image's manifest asked of its registry; create, annotate, push change one
            "manifest": sub(
                "manifest",
                "network system",
                subcommands=shared(
                    ("inspect",), "network network_read read_only", "-v/--verbose --insecure"
                ),
                default=sub("manifest", "network system"),
            ),
            # ``docker network ls``, ``docker volume inspect v``: reads; create, rm, connect…
            **{
                group: sub(
                    group,
                    "system",
                    subcommands=shared(
                        ("ls", "list", "inspect", "show"), "read_only", _DOCKER_READ_FLAGS
                    ),
                    default=sub(group, "system"),
                )
                for group in ("network", "volume", "context")
            },
            "image": sub(
                "image",
                "read_only",
                subcommands={
                    **shared(("ls", "list", "inspect", "history"), "read_only", _DOCKER_READ_FLAGS),
                    **verbs(
                        {
                            "rm prune": "delete",
                            "build": "build network",
                            "pull": "network",
                            "push": "network vcs_write",
                        }
                    ),
                },
                default=sub("image", "read_only"),
            ),
            "container": sub(
                "container",
                "read_only",
                subcommands={
                    **shared(
                        ("ls", "list", "ps", "inspect", "stats", "top", "port", "diff"),
                        "read_only",
                        _DOCKER_READ_FLAGS,
                    ),
                    "logs": sub("logs", "read_only", _DOCKER_LOG_FLAGS),
                    **verbs(
                        {
                            "rm prune": "delete",
                            "stop start": "process_control",
                        }
                    ),
                },
                default=sub("container", "process_control"),
            ),
        },
        default=sub("docker", "unknown"),
        options=[
            Opt("-H/--host", value="required", role="url"),
            Opt("--config", value="required", role="read"),
        ],
        flags="-c/--context= -l/--log-level= -D/--debug --tls --tlsverify --tlscacert= "
        "--tlscert= --tlskey= -v/--version --help",
    ),
    Spec(
        "kubectl|oc|k",
        "network",
        subcommands={
            **shared(
                _READ_VERBS,
                "network network_read read_only",
                _KUBECTL_FLAGS,
                options=_KUBECTL_OPTIONS,
            ),
            "get": sub(
                "get",
                "network network_read read_only",
                _KUBECTL_FLAGS,
                options=_KUBECTL_OPTIONS,
                handler=system.kubectl_secrets,
            ),
            "describe": sub(
                "describe",
                "network network_read read_only",
                _KUBECTL_FLAGS,
                options=_KUBECTL_OPTIONS,
                handler=system.kubectl_secrets,
            ),
            "exec": sub(
                "exec",
                "network code_exec",
                operands=("none", "remote_command"),
                permute=False,
                handler=system.kubectl_exec,
                flags=_KUBECTL_FLAGS + " -c/--container= -f/--filename= -i/--stdin -t/--tty "
                "-q/--quiet --pod-running-timeout=",
            ),
            **shared(
                (
                    "apply",
                    "create",
                    "patch",
                    "replace",
                    "edit",
                    "scale",
                    "rollout",
                    "set",
                    "label",
                    "annotate",
                    "autoscale",
                    "expose",
                    "run",
                    "cordon",
                    "uncordon",
                    "taint",
                    "drain",
                    "certificate",
                    "config",
                ),
                "network system",
                _KUBECTL_FLAGS,
                options=_KUBECTL_OPTIONS,
                handler=system.dry_run,
            ),
            # what the user may do and who they are; ``auth reconcile`` changes roles
            "auth": sub(
                "auth",
                "network system",
                subcommands=shared(
                    ("can-i", "whoami"),
                    "network network_read read_only",
                    _KUBECTL_FLAGS + " -q/--quiet --subresource=",
                    options=_KUBECTL_OPTIONS,
                ),
                default=sub("auth", "network system", _KUBECTL_FLAGS, options=_KUBECTL_OPTIONS),
            ),
            # the manifests a kustomization builds (remote bases are fetched: a read)
            "kustomize": sub(
                "kustomize",
                "network network_read read_only",
                _KUBECTL_FLAGS + " --enable-helm",
                options=_KUBECTL_OPTIONS,
                operands="read",
            ),
            # ``rollout status|history`` watch or list a rollout; restart, undo, pause… act
            "rollout": sub(
                "rollout",
                "network system",
                subcommands=shared(
                    ("status", "history"),
                    "network network_read read_only",
                    _KUBECTL_FLAGS + " --revision=",
                    options=_KUBECTL_OPTIONS,
                ),
                default=sub("rollout", "network system", _KUBECTL_FLAGS, options=_KUBECTL_OPTIONS),
            ),
            # the kubeconfig, read locally: its contexts and clusters; ``view`` prints it with
            # the credentials left out unless ``--raw`` (or ``--flatten``) puts them in
            "config": sub(
                "config",
                "system",
                subcommands={
                    **shared(
                        ("get-contexts", "current-context", "get-clusters", "get-users"),
                        "read_only",
                        "-o/--output= --no-headers --kubeconfig=",
                    ),
                    "view": sub(
                        "view",
                        "read_only",
                        "-o/--output= --minify --kubeconfig= --context= --template=",
                        options=[Opt("--raw --flatten", adds="secret_read")],
                    ),
                },
                default=sub("config", "system", _KUBECTL_FLAGS, options=_KUBECTL_OPTIONS),
            ),
            "delete": sub(
                "delete",
                "network delete system",
                _KUBECTL_FLAGS,
                options=_KUBECTL_OPTIONS,
                handler=system.dry_run,
            ),
            "port-forward": sub(
                "port-forward", "network process_control", _KUBECTL_FLAGS, options=_KUBECTL_OPTIONS
            ),
            "proxy": sub(
                "proxy", "network process_control", _KUBECTL_FLAGS, options=_KUBECTL_OPTIONS
            ),
            "cp": sub("cp", "network write", _KUBECTL_FLAGS, options=_KUBECTL_OPTIONS),
            "debug": sub("debug", "network code_exec", _KUBECTL_FLAGS, options=_KUBECTL_OPTIONS),
            "attach": sub("attach", "network code_exec", _KUBECTL_FLAGS, options=_KUBECTL_OPTIONS),
        },
        default=sub("kubectl", "network unknown", _KUBECTL_FLAGS, options=_KUBECTL_OPTIONS),
        options=[Opt("--kubeconfig", value="required", role="read")],
        flags=_KUBECTL_FLAGS,
    ),
    Spec(
        "helm",
        "network",
        subcommands={
            **shared(_READ_VERBS, "network network_read read_only", _HELM_FLAGS),
            **shared(
                (
                    "install",
                    "upgrade",
                    "rollback",
                    "repo",
                    "dependency",
                    "plugin",
                    "push",
                    "package",
                ),
                "network system",
                _HELM_FLAGS + " --install -i --atomic --wait --wait-for-jobs --timeout= "
                "--version= -f/--values= --set= --set-string= --set-file= --set-json= "
                "--create-namespace --reuse-values --reset-values --force --cleanup-on-fail "
                "--description= --devel --dry-run=? --generate-name -g --no-hooks --skip-crds "
                "--repo= --username= --password= --render-subchart-notes --history-max= "
                "--dependency-update --post-renderer= -o/--output=",
                handler=system.dry_run,
            ),
            "env": sub("env", "read_only", _HELM_FLAGS),  # helm's own settings
            # the local lists of repositories, plugins and a chart's dependencies
            **{
                group: sub(
                    group,
                    "network system",
                    subcommands=shared(("list", "ls"), "read_only", _HELM_FLAGS),
                    default=sub(group, "network system", _HELM_FLAGS),
                )
                for group in ("repo", "plugin", "dependency")
            },
            "uninstall": sub(
                "uninstall",
                "network delete system",
                _HELM_FLAGS + " --dry-run=? --keep-history --no-hooks --wait --timeout=",
                handler=system.dry_run,
            ),
        },
        default=sub("helm", "network unknown"),
        flags=_HELM_FLAGS,
    ),
    Spec(
        "terraform|tofu|terragrunt",
        "network",
        single_dash_long=True,
        options=[Opt("-chdir", value="required", role="cwd")],
        flags="-help -h -version -v --version --help",
        subcommands={
            **shared(
                ("validate", "version", "providers", "graph", "get", "test", "metadata"),
                "read_only",
                _TF_FLAGS,
                single_dash_long=True,
            ),
            # evaluates expressions read from its input: ``file("~/.ssh/id_rsa")`` reads any file
            "console": sub("console", "code_exec", _TF_FLAGS, single_dash_long=True),
            "fmt": sub("fmt", "build", _TF_FLAGS, single_dash_long=True, operands="write"),
            # ``-json`` prints the state's or plan's sensitive values in the clear
            "show": sub(
                "show",
                "read_only",
                _TF_FLAGS,
                single_dash_long=True,
                operands="read",
                options=[Opt("-json", adds="secret_read")],
            ),
            # outputs marked sensitive are printed in the clear with -raw / -json
            "output": sub(
                "output",
                "read_only",
                _TF_FLAGS,
                single_dash_long=True,
                options=[*opts("-raw -json", adds="secret_read")],
            ),
            "plan": sub(
                "plan",
                "network network_read read_only",
                _TF_FLAGS,
                single_dash_long=True,
                options=_TF_OPTIONS,
            ),
            "init": sub(
                "init",
                "network network_read package_install",
                _TF_FLAGS,
                single_dash_long=True,
                options=_TF_OPTIONS,
            ),
            **shared(
                ("apply", "destroy", "import", "taint", "untaint", "refresh", "force-unlock"),
                "network network_write system",
                _TF_FLAGS,
                single_dash_long=True,
                options=_TF_OPTIONS,
            ),
            "state": sub(
                "state",
                "network network_write system",
                single_dash_long=True,
                subcommands={
                    **shared(("list", "show"), "read_only", _TF_FLAGS, single_dash_long=True),
                    "pull": sub("pull", "secret_read", _TF_FLAGS, single_dash_long=True),
                },
                default=sub("state", "network network_write system", _TF_FLAGS),
            ),
            "workspace": sub(
                "workspace",
                "read_only",
                subcommands=shared(("list", "show"), "read_only", _TF_FLAGS, single_dash_long=True),
                default=sub("workspace", "write", _TF_FLAGS, single_dash_long=True),
            ),
        },
        default=sub("terraform", "network unknown"),
    ),
    Spec(
        "pulumi|cdk|cdktf|serverless|sls",
        "network",
        subcommands={
            **verbs(
                {
                    "fmt validate version providers graph show output state-list console "
                    "workspace preview synth diff": "read_only",
                    "plan": "network network_read read_only",
                    "init": "network network_read package_install",
                    "apply up deploy import state taint refresh": "network system",
                    "destroy": "network delete system",
                }
            ),
        },
        default=sub("terraform", "network unknown"),
    ),
    Spec(
        "aws|gcloud|gsutil|az|doctl|flyctl|fly|heroku|vercel|netlify|wrangler|firebase|"
        "railway|render|supabase|ibmcloud|oci|linode-cli|hcloud|scw|s3cmd|rclone|mc|"
        "azcopy",
        "network system",
        handler=system.cloud_cli,
        own_options=True,
    ),
    Spec(
        "vault|pass|gopass|keepassxc-cli|bw|lpass|secret-tool|age|sops|"
        "ssh-keyscan|ssh-copy-id|keychain|certutil|certbot|mkcert|"
        "step",
        "secret_read",
    ),
]
