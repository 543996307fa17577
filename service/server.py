"""``clearance serve``: the socket, the worker processes, the signals.

Server choice: uvicorn (with uvloop and httptools). It is the reference ASGI server, small,
typed, and its ``Server.run(sockets=…)`` lets this module own the process model: the socket is
bound once here, then ``--workers`` processes are forked and each runs an event loop on it
(the kernel spreads connections). Owning the supervisor -- instead of uvicorn's own
``--workers`` -- is what makes SIGHUP a policy reload in every worker (uvicorn's supervisor
restarts workers on SIGHUP, which would drop a failing reload's last good policy) and lets the
workers share one metrics map. A worker that dies is restarted; a worker whose supervisor is
gone (``kill -9``) exits within a second. Granian and hypercorn were the alternatives: granian
runs its own Rust supervisor (no shared pre-fork state), hypercorn is slower per request.

Nothing is kept between requests but the policy in force: every answer depends only on the
policy files and, for ``/v1/ledger``, on the database, so replicas behind any load balancer
answer the same.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import signal
import socket
import sys
import time
from typing import Any, TextIO

from clearance.service import logs
from clearance.service.app import Options, ServiceApp
from clearance.service.metrics import SharedMetrics
from clearance.service.tokens import read_token_file
from clearance.vocab import ServeExit

EXIT_OK, EXIT_ERROR, EXIT_USAGE = ServeExit.OK, ServeExit.ERROR, ServeExit.USAGE


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def read_token(path: str) -> str:
    """The bearer token in ``path`` (surrounding whitespace stripped), at least 16 characters;
    raises ``ValueError``."""
    token = read_token_file(path)
    if len(token) < 16:
        raise ValueError(f"token in {path} is shorter than 16 characters")
    return token


def bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def _config(app: ServiceApp) -> object:
    import uvicorn

    try:
        import uvloop  # noqa: F401

        loop = "uvloop"
    except ImportError:
        loop = "asyncio"
    http: Any
    try:
        from clearance.service.protocol import GuardedHttpToolsProtocol

        http = GuardedHttpToolsProtocol  # request heads bounded in size and time
        http.head_timeout = min(http.head_timeout, app.options.body_timeout)
    except ImportError:
        http = "h11"  # bounded in size only (h11_max_incomplete_event_size)
    return uvicorn.Config(
        app,
        loop=loop,
        http=http,
        lifespan="on",
        access_log=False,
        log_config=None,
        log_level="warning",
        timeout_keep_alive=15,
        timeout_graceful_shutdown=5,
        limit_concurrency=2048,
        backlog=2048,
        server_header=False,
        h11_max_incomplete_event_size=64 * 1024,
    )


def run_worker(
    index: int,
    sock: socket.socket,
    options: Options,
    metrics: SharedMetrics,
    parent_pid: int | None,
) -> None:
    import uvicorn

    logs.configure(worker=index)
    holder: list[uvicorn.Server] = []

    def stop() -> None:
        if holder:
            holder[0].should_exit = True

    app = ServiceApp(options, metrics.row(index), parent_pid=parent_pid, stop=stop)
    config = _config(app)
    assert isinstance(config, uvicorn.Config)
    server = uvicorn.Server(config)
    holder.append(server)
    # uvicorn re-raises the stop signal once it has shut down, after restoring the handlers
    # it found: these make that a clean return (exit 0) instead of death by signal.
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, _ignore)
    server.run(sockets=[sock])


def _ignore(signum: int, frame: object) -> None:
    return


def serve(
    options: Options,
    *,
    host: str = "127.0.0.1",
    port: int = 8181,
    workers: int = 1,
    err: TextIO | None = None,
) -> int:
    stderr = err if err is not None else sys.stderr
    logs.configure()
    log = logs.get()

    def fail(message: str, code: int = EXIT_USAGE) -> int:
        stderr.write(f"clearance serve: {message}\n")
        return code

    if workers < 1 or workers > 256:
        return fail("--workers must be between 1 and 256")
    if not 0 <= port <= 65535:
        return fail("--port must be between 0 and 65535")
    if options.token is None and not is_loopback(host):
        return fail(
            f"refusing to listen on {host} without --token-file: only a loopback address may "
            "be served unauthenticated"
        )
    from clearance.service.policy import PolicyState

    check = PolicyState(options.policies, options.cwd)
    if not check.load():
        return fail(f"the policy does not load: {check.last_error}")
    try:
        sock = bind(host, port)
    except OSError as exc:
        return fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}", EXIT_ERROR)
    bound = sock.getsockname()
    log.info(
        "serving",
        host=bound[0],
        port=bound[1],
        workers=workers,
        digest=check.digest,
        ledger=bool(options.dsn),
        otlp=options.otlp_endpoint,
    )
    metrics = SharedMetrics(workers)
    if workers == 1:
        run_worker(0, sock, options, metrics, None)
        return EXIT_OK
    return _supervise(sock, options, metrics, workers, log)


def _supervise(
    sock: socket.socket, options: Options, metrics: SharedMetrics, workers: int, log: Any
) -> int:
    parent = os.getpid()
    children: dict[int, tuple[int, float]] = {}
    stopping: list[int] = []
    quick_deaths = 0

    def spawn(index: int) -> None:
        pid = os.fork()
        if pid == 0:  # the worker
            code = 0
            try:
                signal.signal(signal.SIGHUP, signal.SIG_IGN)  # until the app handles it
                run_worker(index, sock, options, metrics, parent)
            except BaseException:
                code = 1
            finally:
                os._exit(code)
        children[pid] = (index, time.monotonic())

    def forward(signum: int, _frame: object) -> None:
        if signum in (signal.SIGTERM, signal.SIGINT):
            stopping.append(signum)
            signum = signal.SIGTERM
        for pid in list(children):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signum)

    for index in range(workers):
        spawn(index)
    signal.signal(signal.SIGHUP, forward)
    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)
    deadline: float | None = None
    while children:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if pid == 0:
            if stopping and deadline is None:
                deadline = time.monotonic() + 10
            if deadline is not None and time.monotonic() > deadline:
                for child in list(children):
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(child, signal.SIGKILL)
            time.sleep(0.1)
            continue
        index, started = children.pop(pid, (-1, 0.0))
        if index < 0 or stopping:
            continue
        metrics.row(index).set_alive(False)
        if time.monotonic() - started < 2:
            quick_deaths += 1
        else:
            quick_deaths = 0
        log.error("worker_died", worker=index, pid=pid, status=status, restarting=quick_deaths < 5)
        if quick_deaths >= 5:
            forward(signal.SIGTERM, None)
            continue
        spawn(index)
    sock.close()
    return EXIT_ERROR if quick_deaths >= 5 else EXIT_OK
