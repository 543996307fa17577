"""Counters every worker process writes and any worker renders (Prometheus text format).

One anonymous shared memory map is made before the workers fork; each worker owns one row of
64-bit counters and is its row's only writer, so no lock is needed, and a scrape of
``/metrics`` on any worker sums every row -- the same totals whichever replica process answers.
The label sets are closed (decisions, reason codes, endpoints, status classes), which is what
makes fixed rows possible.
"""

from __future__ import annotations

import mmap

from clearance.vocab import DECISIONS, REASON_CODES

#: Latency histogram bucket bounds (seconds) of ``clearance_decision_duration_seconds``.
BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
ENDPOINTS = ("decide", "gate", "ledger", "healthz", "metrics", "other")
STATUSES = ("200", "400", "401", "404", "405", "408", "409", "413", "415", "500", "503", "other")
LEDGER_RESULTS = ("stored", "duplicate", "refused")
RELOAD_RESULTS = ("ok", "error")
OTLP_RESULTS = ("exported", "dropped", "failed")
_DIGEST_BYTES = 80

_D = len(DECISIONS)
_R = len(REASON_CODES)
_OFF_DECISIONS = 0
_OFF_BUCKETS = _OFF_DECISIONS + _D * _R
_OFF_COUNT = _OFF_BUCKETS + len(BUCKETS)
_OFF_SUM_NS = _OFF_COUNT + 1
_OFF_HTTP = _OFF_SUM_NS + 1
_OFF_LEDGER = _OFF_HTTP + len(ENDPOINTS) * len(STATUSES)
_OFF_RELOAD = _OFF_LEDGER + len(LEDGER_RESULTS)
_OFF_OTLP = _OFF_RELOAD + len(RELOAD_RESULTS)
_OFF_ALIVE = _OFF_OTLP + len(OTLP_RESULTS)
_COUNTERS = _OFF_ALIVE + 1
_ROW = _COUNTERS * 8 + _DIGEST_BYTES


class SharedMetrics:
    """The map of every worker's row."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._map = mmap.mmap(-1, _ROW * workers)
        self._view = memoryview(self._map)

    def row(self, index: int) -> WorkerMetrics:
        return WorkerMetrics(self, index)

    def _counters(self, index: int) -> memoryview:
        return self._view[index * _ROW : index * _ROW + _COUNTERS * 8].cast("Q")

    def _digest(self, index: int) -> str:
        start = index * _ROW + _COUNTERS * 8
        raw = bytes(self._view[start : start + _DIGEST_BYTES])
        return raw.rstrip(b"\0").decode("ascii", "replace")

    def totals(self) -> tuple[list[int], list[str]]:
        sums = [0] * _COUNTERS
        digests: list[str] = []
        for index in range(self.workers):
            row = self._counters(index)
            for i in range(_COUNTERS):
                sums[i] += row[i]
            if row[_OFF_ALIVE]:
                digest = self._digest(index)
                if digest:
                    digests.append(digest)
        return sums, digests

    def render(self) -> str:
        """Every metric, Prometheus text exposition format 0.0.4."""
        sums, digests = self.totals()
        out: list[str] = []
        out.append("# HELP clearance_decisions_total Decisions answered, by decision and reason.")
        out.append("# TYPE clearance_decisions_total counter")
        for d, decision in enumerate(DECISIONS):
            for r, code in enumerate(REASON_CODES):
                value = sums[_OFF_DECISIONS + d * _R + r]
                out.append(
                    f'clearance_decisions_total{{decision="{decision}",reason_code="{code}"}} '
                    f"{value}"
                )
        name = "clearance_decision_duration_seconds"
        out.append(f"# HELP {name} Time to decide one intent (policy evaluation, in the worker).")
        out.append(f"# TYPE {name} histogram")
        cumulative = 0
        for i, bound in enumerate(BUCKETS):
            cumulative += sums[_OFF_BUCKETS + i]
            out.append(f'{name}_bucket{{le="{bound}"}} {cumulative}')
        out.append(f'{name}_bucket{{le="+Inf"}} {sums[_OFF_COUNT]}')
        out.append(f"{name}_sum {sums[_OFF_SUM_NS] / 1e9:.9f}")
        out.append(f"{name}_count {sums[_OFF_COUNT]}")
        out.append("# HELP clearance_policy_info The policy digest in force (one per digest).")
        out.append("# TYPE clearance_policy_info gauge")
        for digest in sorted(set(digests)):
            out.append(f'clearance_policy_info{{digest="{digest}"}} 1')
        _by_result(
            out,
            "clearance_policy_reloads_total",
            "Policy reloads",
            RELOAD_RESULTS,
            sums,
            _OFF_RELOAD,
        )
        out.append("# HELP clearance_http_requests_total HTTP requests, by endpoint and status.")
        out.append("# TYPE clearance_http_requests_total counter")
        for e, endpoint in enumerate(ENDPOINTS):
            for s, status in enumerate(STATUSES):
                value = sums[_OFF_HTTP + e * len(STATUSES) + s]
                if value:
                    out.append(
                        f'clearance_http_requests_total{{endpoint="{endpoint}",code="{status}"}} '
                        f"{value}"
                    )
        _by_result(
            out,
            "clearance_ledger_records_total",
            "Ledger records received",
            LEDGER_RESULTS,
            sums,
            _OFF_LEDGER,
        )
        _by_result(
            out,
            "clearance_otlp_log_records_total",
            "OTLP log records",
            OTLP_RESULTS,
            sums,
            _OFF_OTLP,
        )
        out.append("# HELP clearance_workers Worker processes answering.")
        out.append("# TYPE clearance_workers gauge")
        out.append(f"clearance_workers {sums[_OFF_ALIVE]}")
        return "\n".join(out) + "\n"


class WorkerMetrics:
    """One worker's row: the only place that worker writes."""

    def __init__(self, shared: SharedMetrics, index: int) -> None:
        self.shared = shared
        self.index = index
        self._row = shared._counters(index)
        self._decision_index: dict[str, int] = {d: i for i, d in enumerate(DECISIONS)}
        self._reason_index: dict[str, int] = {r: i for i, r in enumerate(REASON_CODES)}
        self._endpoint_index = {e: i for i, e in enumerate(ENDPOINTS)}
        self._status_index = {s: i for i, s in enumerate(STATUSES)}

    def set_alive(self, alive: bool) -> None:
        self._row[_OFF_ALIVE] = 1 if alive else 0

    def set_digest(self, digest: str) -> None:
        data = digest.encode("ascii", "replace")[:_DIGEST_BYTES].ljust(_DIGEST_BYTES, b"\0")
        start = self.index * _ROW + _COUNTERS * 8
        self.shared._view[start : start + _DIGEST_BYTES] = data

    def decision(self, decision: str, reason_code: str, seconds: float) -> None:
        d = self._decision_index.get(decision, len(DECISIONS) - 1)
        r = self._reason_index.get(reason_code, self._reason_index["internal_error"])
        self._row[_OFF_DECISIONS + d * _R + r] += 1
        for i, bound in enumerate(BUCKETS):
            if seconds <= bound:
                self._row[_OFF_BUCKETS + i] += 1
                break
        self._row[_OFF_COUNT] += 1
        self._row[_OFF_SUM_NS] += max(0, int(seconds * 1e9))

    def request(self, endpoint: str, status: int) -> None:
        e = self._endpoint_index.get(endpoint, len(ENDPOINTS) - 1)
        s = self._status_index.get(str(status), len(STATUSES) - 1)
        self._row[_OFF_HTTP + e * len(STATUSES) + s] += 1

    def ledger(self, result: str, count: int) -> None:
        self._row[_OFF_LEDGER + LEDGER_RESULTS.index(result)] += count

    def reload(self, ok: bool) -> None:
        self._row[_OFF_RELOAD + (0 if ok else 1)] += 1

    def otlp(self, result: str, count: int) -> None:
        self._row[_OFF_OTLP + OTLP_RESULTS.index(result)] += count


def _by_result(
    out: list[str],
    name: str,
    what: str,
    results: tuple[str, ...],
    sums: list[int],
    offset: int,
) -> None:
    """A counter with one line per result (``results``, counted from ``sums[offset]`` on)."""
    out.append(f"# HELP {name} {what}, by result.")
    out.append(f"# TYPE {name} counter")
    for i, result in enumerate(results):
        out.append(f'{name}{{result="{result}"}} {sums[offset + i]}')
