"""When to retry a failed model call, and after how long.

The provider only says what went wrong and whether it is worth retrying; whether the run
does retry is the core's decision, made here from the error and the attempt number and
recorded as a `provider.retry` event. Retries are bounded in number and in delay: a
server asking for a longer wait than `max_delay` ends the run with `provider_error`
instead of leaving it hanging.
"""

from __future__ import annotations

from dataclasses import dataclass

from clearance.runner.providers.types import ProviderError


@dataclass(frozen=True)
class RetryPolicy:
    """At most `max_attempts` calls per turn; exponential backoff from `base_delay`."""

    max_attempts: int = 4
    base_delay: float = 1.0
    max_delay: float = 60.0

    def delay(self, error: ProviderError, attempt: int) -> float | None:
        """Seconds to wait before attempt `attempt + 1`, or `None` to give up."""
        if not error.retryable or attempt >= self.max_attempts:
            return None
        if error.retry_after is not None:
            return error.retry_after if error.retry_after <= self.max_delay else None
        return min(self.base_delay * 2.0 ** (attempt - 1), self.max_delay)
