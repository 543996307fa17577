"""Retry is the core's decision: bounded attempts, backoff, and the server's retry-after."""

from __future__ import annotations

from clearance.runner.providers.errors import provider_error
from clearance.runner.providers.types import ErrorKind
from clearance.runner.retry import RetryPolicy


def test_backoff_doubles_up_to_the_cap_and_stops_after_the_last_attempt() -> None:
    policy = RetryPolicy(max_attempts=5, base_delay=1.0, max_delay=3.0)
    error = provider_error(ErrorKind.OVERLOADED, "busy")
    assert [policy.delay(error, attempt) for attempt in range(1, 6)] == [1.0, 2.0, 3.0, 3.0, None]


def test_the_servers_retry_after_wins_unless_it_is_too_long() -> None:
    policy = RetryPolicy(max_delay=10.0)
    assert policy.delay(provider_error(ErrorKind.RATE_LIMIT, "slow", retry_after=4.5), 1) == 4.5
    assert policy.delay(provider_error(ErrorKind.RATE_LIMIT, "slow", retry_after=600), 1) is None


def test_errors_that_retrying_cannot_fix_are_not_retried() -> None:
    policy = RetryPolicy()
    assert policy.delay(provider_error(ErrorKind.AUTH, "bad key"), 1) is None
    assert policy.delay(provider_error(ErrorKind.CONTEXT_LENGTH, "too long"), 1) is None
