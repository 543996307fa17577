"""Handlers of ``knowledge/system.yaml``: environment dumps, containers, ``kubectl``, cloud
CLIs, ``crontab``, dry runs.
"""

from __future__ import annotations

from clearance.shellparse.expand import DYNAMIC
from clearance.shellparse.handlers.common import MAX_EXPANDED, Lazy, word_set
from clearance.shellparse.handlers.interpreters import credential_variable
from clearance.shellparse.paths import resolve

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from clearance.shellparse.facts import HandlerCall


def printenv(call: HandlerCall) -> None:
    """``printenv`` prints everything; ``printenv PATH`` one variable, a secret only when its
    name looks like one (or is not known)."""
    operands = call.parsed.operands
    dynamic = any(f & DYNAMIC for f in call.flags)
    if not operands or dynamic or any(credential_variable(name) for name in operands):
        call.fact.classes.add("secret_read")


#: Programs that print their state when given nothing, or only the verb that prints it.
_STATUS_WHEN_BARE: Final = {
    "mount": (),
    "losetup": (),
    "swapon": (),
    "timedatectl": ("status", "show", "list-timezones"),
    "hostnamectl": ("status", "show"),
    "localectl": ("status", "list-locales", "list-keymaps"),
}


def status_when_bare(call: HandlerCall) -> None:
    """``mount`` lists the mounts, ``timedatectl`` (``status``) the clock's settings: with
    no argument, or the one printing verb, a system tool only prints."""
    fact, args = call.fact, call.args
    verbs = _STATUS_WHEN_BARE.get(fact.program or "")
    if verbs is not None and (not args or (len(args) == 1 and args[0] in verbs)):
        fact.classes.discard("system")
        fact.classes.add("read_only")
        fact.paths.clear()


def hostname(call: HandlerCall) -> None:
    """``hostname NAME`` sets the machine's name (as ``hostname -b NAME`` does); a bare
    ``hostname`` (``-f``, ``-I``…) prints it."""
    if call.parsed.operands:
        call.fact.classes.discard("read_only")
        call.fact.classes.add("system")


def service(call: HandlerCall) -> None:
    """``service --status-all`` and ``service NAME status`` only print."""
    fact, operands = call.fact, call.parsed.operands
    if (call.has("--status-all") and not operands) or (
        len(operands) == 2 and operands[1] == "status"
    ):
        fact.classes.discard("system")
        fact.classes.add("read_only")


def sysctl(call: HandlerCall) -> None:
    """``sysctl NAME=VALUE`` sets a kernel parameter; a bare name prints it."""
    if any("=" in value for value in call.parsed.operands):
        call.fact.classes.add("system")


def ifconfig(call: HandlerCall) -> None:
    """``ifconfig``, ``ifconfig -a``, ``ifconfig eth0`` print; a second operand (an address,
    ``up``, ``down``, ``mtu 9000``…) configures the interface."""
    operands = call.parsed.operands
    if len(operands) <= 1 and not any(f & DYNAMIC for f in call.flags):
        fact = call.fact
        fact.classes.discard("system")
        fact.classes.add("read_only")


def ssh_add(call: HandlerCall) -> None:
    """``ssh-add -l``/``-L`` list the agent's keys (fingerprints, public keys); any other
    use loads a private key (named, or the default ones) into the agent: a secret read."""
    parsed = call.parsed
    if (
        (call.has("-l") or call.has("-L"))
        and not parsed.operands
        and not any(f & DYNAMIC for f in call.flags)
    ):
        fact = call.fact
        fact.classes.discard("secret_read")
        fact.classes.add("read_only")


_CRON_TIME: Final = Lazy(r"\s*(?:@\w+|(?:\S+\s+){4}\S+)\s+(.*)")


def crontab(call: HandlerCall) -> None:
    """crontab installs a table of commands that run later: each line is analysed when the
    table is on the command line's standard input; from a file it is code not seen."""
    fact = call.fact
    if call.has("-l"):
        fact.classes.discard("system")
        fact.classes.add("read_only")
        return
    if call.has("-r"):
        fact.classes.add("delete")
        return
    fact.classes.add("code_exec")
    operands = call.parsed.operands
    if operands and operands[0] != "-":
        return  # the file operand is an exec path: code not seen
    if fact.stdin_text is None:
        fact.markers.add("stdin_code")
        return
    for raw in fact.stdin_text.splitlines()[:MAX_EXPANDED]:
        line = raw.strip()
        if not line or line.startswith("#") or "=" in line.split(None, 1)[0]:
            continue
        m = _CRON_TIME.rx.match(line)
        if m is not None and m.group(1).strip():
            call.nest_shell("crontab (scheduled)", m.group(1))


def variables_dump(call: HandlerCall) -> None:
    fact, args, parsed = call.fact, call.args, call.parsed
    if not parsed.operands and (not args or all(a in ("-p", "-x", "-px") for a in args)):
        fact.classes.add("secret_read")


def docker_run(call: HandlerCall) -> None:
    """docker run/create: mounts and namespaces that reach the host, and the command the
    container runs."""
    fact, args, flags, parsed = call.fact, call.args, call.flags, call.parsed
    for opt, _spelling, value in parsed.options:
        if opt is None or value is None:
            continue
        name = opt.name
        if name in ("--volume", "--mount"):
            source = value.split(":")[0] if name == "--volume" else ""
            if name == "--mount":
                for item in value.split(","):
                    if item.startswith(("source=", "src=")):
                        source = item.split("=", 1)[1]
            resolved = (
                resolve(source, call.env.cwd, call.classifier.home)
                if source.startswith(("/", ".", "~"))
                else None
            )
            if resolved is not None and (
                resolved in _DOCKER_HOST_PATHS or resolved.startswith(("/var/run", "/run"))
            ):
                fact.classes.add("privilege")
            if resolved is not None:
                read_only = ":ro" in value or ",readonly" in value or ",ro" in value
                call.add_path(source, "read" if read_only else "write", source="option")
        elif (
            (name in _DOCKER_NAMESPACES and (value == "host" or value.startswith("container:")))
            or name in ("--cap-add", "--device", "--device-cgroup-rule")
            or (name == "--security-opt" and ("unconfined" in value or "disable" in value))
        ):
            fact.classes.add("privilege")
    entrypoint = call.values("--entrypoint")
    if len(parsed.operands) > 1 or entrypoint:
        start = parsed.operand_index[1] if len(parsed.operands) > 1 else len(args)
        argv = [*entrypoint[-1:], *args[start:]]
        argv_flags = [0] * len(entrypoint[-1:]) + list(flags[start:])
        image = parsed.operands[0] if parsed.operands else "?"
        call.nest_argv(f"docker run {image}", argv, argv_flags, context="container")


#: Host directories whose mount gives a container the machine.
_DOCKER_HOST_PATHS: Final = frozenset(
    ("/", "/etc", "/root", "/home", "/proc", "/sys", "/dev", "/boot", "/usr", "/var", "/lib")
)


_DOCKER_NAMESPACES: Final = frozenset(
    ("--pid", "--ipc", "--uts", "--userns", "--cgroupns", "--network")
)


def kubectl_exec(call: HandlerCall) -> None:
    args = call.args
    if "--" in args:
        start = args.index("--") + 1
        if start < len(args):
            call.nest_argv("kubectl exec", args[start:], call.flags[start:], context="remote:pod")


def kubectl_cp(call: HandlerCall) -> None:
    """``kubectl cp SRC DST``: an operand with a ``:`` is a container's path
    (``[namespace/]pod:path``), any other a local one -- the source read (a directory
    whole: kubectl sends it as an archive), the destination written. ``kubectl cp .env
    pod:/tmp`` sends the file out of the machine."""
    operands = call.operands()
    remote = [":" in v and not v.startswith(("/", ".", "~")) for v, _ in operands]
    if len(operands) > 1 and remote[-1]:
        call.fact.classes.add("network_write")  # to the container: an upload
    for k, (value, dynamic) in enumerate(operands):
        if remote[k]:
            continue  # in the container: not this machine's file
        if k == len(operands) - 1 and len(operands) > 1:
            call.add_path(value, "write", dynamic=dynamic)
        else:
            call.add_path(value, "read", dynamic=dynamic, tree=True)


def dry_run(call: HandlerCall) -> None:
    """``kubectl apply --dry-run=client``, ``helm upgrade --dry-run``: a plan, not a change.
    A client-side dry run only reads the cluster; a server-side one sends the manifests (a
    network write) but changes nothing. ``--dry-run=none`` is the real thing."""
    fact, parsed = call.fact, call.parsed
    given = [(v or "client").lower() for o, _, v in parsed.options if o and o.name == "--dry-run"]
    if not given or given[-1] in ("none", "false"):
        return
    fact.classes.difference_update(("system", "delete"))
    if given[-1] != "server":
        # a client-side dry run (``npm publish --dry-run``) sends nothing
        fact.classes.difference_update(("network_write", "vcs_write"))
    fact.classes.add("read_only")
    fact.classes.add("network_write" if given[-1] == "server" else "network_read")


def kubectl_secrets(call: HandlerCall) -> None:
    """``kubectl get|describe`` of secrets, however the resource is spelled: ``Secret``,
    ``secrets.v1``, ``secret/name``, or one type of a list (``po,secret``)."""
    fact, parsed = call.fact, call.parsed
    for operand in parsed.operands:
        if any(kind.strip().startswith("secret") for kind in operand.lower().split(",")):
            fact.classes.add("secret_read")
            return


#: One action of a Go template that prints a field: ``{{.State.Status}}``, ``{{json .Mounts}}``.
_DOCKER_FIELD: Final = Lazy(r"\{\{-?\s*(?:json\s+)?((?:\.[A-Za-z_][A-Za-z0-9_]*)+)\s*-?\}\}")
#: Where an inspected object keeps its environment (a container's, an image's, a service's).
_DOCKER_ENVIRONMENTS: Final = (
    ".Config.Env",
    ".ContainerConfig.Env",
    ".Spec.TaskTemplate.ContainerSpec.Env",
)


def _prints_no_environment(template: str) -> bool:
    """Whether a ``--format`` template prints only fields outside the environment: text and
    actions each naming one field path, none of them the environment or above it (``.Config``
    whole). Anything else (``{{.}}``, variables, ``range``, ``index``…) is not known."""
    rest = template
    for match in _DOCKER_FIELD.rx.finditer(template):
        field = match.group(1)
        if "Env" in field or any(place.startswith(field) for place in _DOCKER_ENVIRONMENTS):
            return False
        rest = rest.replace(match.group(0), "", 1)
    return "{{" not in rest and "}}" not in rest


#: ``docker inspect --type`` values whose objects have no environment.
_DOCKER_NO_ENVIRONMENT: Final = word_set("network volume node plugin secret config task")


def docker_inspect(call: HandlerCall) -> None:
    """``docker inspect`` (``container inspect``, ``image inspect``) prints a container's or
    an image's environment, the variables its secrets are usually given in: a secret read,
    like ``env``, unless a ``--format`` template picks fields outside it
    (``-f '{{.State.Status}}'``) or ``--type`` names objects that have none."""
    fact = call.fact
    kinds = call.values("--type")
    if kinds and all(kind in _DOCKER_NO_ENVIRONMENT for kind in kinds):
        return
    # ``-f`` is --format here (the shared read flags call it --filter)
    templates = call.values("--format") + call.values("--filter")
    known = not any(f & DYNAMIC for f in call.flags)
    if templates and known and all(_prints_no_environment(t) for t in templates):
        return
    fact.classes.add("secret_read")


def compose_config(call: HandlerCall) -> None:
    """``docker compose config`` prints the resolved file: the services' environment filled
    in from ``.env``, their env files and the shell's variables -- a secret read, unless it
    prints names only (``--services``, ``--volumes``…) or nothing (``-q``)."""
    if not call.has(
        "--services", "--volumes", "--profiles", "--images", "--networks", "--quiet", "--hash"
    ):
        call.fact.classes.add("secret_read")


#: Cloud CLI words that fetch a secret's value (not its metadata: ``list-secrets``,
#: ``describe-secret``, ``secrets list`` only name them).
_CLOUD_SECRET: Final = Lazy(
    r"get-secret-value|^get-parameters?$|print-access-token|print-identity-token|"
    r"get-access-token|get-session-token|get-login-password|^get-login$|assume-role|"
    r"export-credentials|^configure$|credentials$|^keys$|list-keys|access-secret|"
    r"get-credentials|^decrypt$|get-password-data|connection-string|generate-sas|"
    r"get-authorization-token|get-federation-token|^create-access-key$|^get-token$|"
    r"^credentials?$|^config-helper$|auth-token$|^auth:token$|^token$"
)


#: The commands of platform CLIs that print an app's environment variables, values included.
_APP_VARIABLES: Final = {
    "heroku": frozenset(("config", "config:get")),
    "railway": frozenset(("variables",)),
    "netlify": frozenset(("env:get", "env:list")),
}


def stack_secrets(call: HandlerCall) -> None:
    """Infrastructure-as-code tools that print a stack's secrets decrypted: ``--show-secrets``
    (``pulumi stack output``, ``config``, ``stack export``) and ``pulumi config get KEY`` (a
    secret's value, in the clear)."""
    fact, args = call.fact, call.args
    shown = "--show-secrets" in args
    if fact.program == "pulumi" and fact.subcommand == "config":
        shown = shown or call.parsed.operands[:1] == ["get"]
    if shown:
        fact.classes.update(("secret_read", "network_read"))


#: Cloud CLI options that send the request elsewhere or weaken its transport.
_CLOUD_REDIRECT: Final = frozenset(
    ("--endpoint-url", "--endpoint", "--api-endpoint", "--no-verify-ssl", "--ca-bundle")
)


_CLOUD_READ: Final = word_set(
    "describe list ls get show info status logs whoami version help --version config-list tail read"
)
_CLOUD_DELETE: Final = Lazy(r"^(delete|remove|rm|destroy|terminate|purge|rb|deregister)")
#: Verbs that copy files between the machine and a service (``aws s3 cp``, ``gsutil rsync``,
#: ``rclone copy``, ``s3cmd put``, ``mc mirror``, ``azcopy sync``): the local operands are
#: sent up (read, a whole tree for a sync) or written by what comes down.
_CLOUD_TRANSFER: Final = word_set("cp mv sync rsync copy copyto move moveto put get mirror")
_CLOUD_SYNC: Final = word_set("sync rsync mirror")
#: Options that name a local file a call sends up (``az storage blob upload -f FILE``).
_CLOUD_UPLOAD_FILE: Final = frozenset(
    ("-f", "--file", "--source", "-s", "--local-path", "--data-file")
)
#: A service's own address: ``s3://``, ``gs://`` and the like, or rclone's ``remote:path``.
_CLOUD_REMOTE: Final = Lazy(r"^(?:[a-z][a-z0-9+.-]*://|[A-Za-z0-9_-]+:(?!//))")


def _cloud_transfer(call: HandlerCall, words: list[str], args: list[str]) -> None:
    """The local files of a transfer verb (the first of ``words[:3]`` that is one) and of an
    upload's file options."""
    verb = next((k for k, w in enumerate(words[:3]) if w in _CLOUD_TRANSFER), None)
    remote = {w for w in words if _CLOUD_REMOTE.rx.match(w)}
    # a transfer names the service's side (``s3://``, ``remote:``; mc's aliases look like
    # paths): without one, ``get`` is a read of the service (``doctl d db get ID NAME``)
    if verb is not None and (remote or call.fact.program == "mc") and len(words) - verb >= 3:
        after = words[verb:]
        sources, target = after[1:-1], after[-1]
        tree = after[0] in _CLOUD_SYNC or bool({"--recursive", "-r", "-R"} & set(args))
        for source in sources:
            if source not in remote:
                call.add_path(source, "read", tree=tree)
        if target not in remote and remote.intersection(sources):
            call.add_path(target, "write")
    if any(w.startswith("upload") for w in words[:4]):
        for k, value in enumerate(args[:-1]):
            if value in _CLOUD_UPLOAD_FILE:
                call.add_path(args[k + 1], "read", source="option")


def cloud_cli(call: HandlerCall) -> None:
    """Cloud CLIs: reads (describe/list/get…), secret fetches, deletes; the rest asks.

    Their service options run into the thousands and select what a call is about; what
    matters is what a value sends: ``file://`` / ``fileb://`` values are local files sent up
    (a read of the file and a network write), and an endpoint override sends the signed
    request elsewhere (``unknown_option``)."""
    fact, args, parsed = call.fact, call.args, call.parsed
    words = [a for a in parsed.operands if not a.startswith("-")]
    for value in args:
        local = value.partition("=")[2] if value.startswith("-") else value
        if local.startswith(("file://", "fileb://")):
            call.add_path(local.split("://", 1)[1], "read", source="option")
            fact.classes.add("network_write")
    if any(spelling in _CLOUD_REDIRECT for _, spelling, _ in parsed.options):
        fact.markers.add("unknown_option")
    _cloud_transfer(call, words, args)
    if fact.program == "aws" and words == ["configure", "list-profiles"]:
        # the names of the profiles in the local configuration, not their keys
        fact.classes.discard("network")
        fact.classes.discard("system")
        fact.classes.add("read_only")
        return
    secret = any(_CLOUD_SECRET.rx.search(w) for w in words) or bool(
        {"--with-decryption", "--expose-token", "--show-secrets"} & set(args)
    )
    # an app's configuration variables, printed with their values
    secret = secret or (bool(words) and words[0] in _APP_VARIABLES.get(fact.program or "", ()))
    # ``az keyvault secret show``, ``gcloud secrets versions access``: the value itself
    secret = secret or (
        bool({"secret", "secrets"} & set(words[:3]))
        and bool({"show", "download", "access", "get"} & set(words[:4]))
    )
    if secret:
        # a secret fetched over the network: a read of the service, and a secret read
        fact.classes.update(("secret_read", "network_read"))
        return
    if any(_CLOUD_DELETE.rx.match(w) for w in words[:3]):
        fact.classes.update(("delete", "network_write"))
        return
    if any(w.split("-")[0] in _CLOUD_READ for w in words[:3]):
        fact.classes.discard("system")
        fact.classes.update(("read_only", "network_read"))


#: The handlers the tables may name (``handler: system.NAME``), by name: the registry
#: ``clearance.shellparse.handlers.resolve`` reads.
# fmt: off
HANDLERS: Final = {f.__name__: f for f in (
    cloud_cli, compose_config, crontab, docker_inspect, docker_run, dry_run, hostname, ifconfig,
    kubectl_cp, kubectl_exec, kubectl_secrets, printenv, service, ssh_add, stack_secrets,
    status_when_bare, sysctl, variables_dump,
)}
# fmt: on
