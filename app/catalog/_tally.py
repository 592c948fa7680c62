"""Counts the rows each loader skips, by `<source>:<reason>`, and logs one line per source."""

from __future__ import annotations

import logging
from collections import Counter

logger = logging.getLogger("app.catalog")


class SkipTally:
    """Skipped-row counter shared by the loaders of one catalog build.

    A skipped row is never silent: it is counted here, its detail goes to the debug log,
    and `summarise` writes one line per source (a warning when anything was skipped).
    """

    def __init__(self) -> None:
        self._counts: Counter[str] = Counter()

    def skip(self, source: str, reason: str, detail: str = "") -> None:
        """Count one skipped row of `source` for `reason`."""
        self._counts[f"{source}:{reason}"] += 1
        if detail:
            logger.debug("%s: skipped row (%s): %s", source, reason, detail[:200])

    def for_source(self, source: str) -> dict[str, int]:
        """The counts of one source, keyed `<source>:<reason>`."""
        prefix = f"{source}:"
        return {key: n for key, n in self._counts.items() if key.startswith(prefix)}

    def summarise(self, source: str, loaded: int, **notes: int) -> None:
        """Log the one summary line of `source`: rows loaded, rows skipped by reason, notes."""
        skipped = self.for_source(source)
        extra = "".join(f", {name.replace('_', ' ')} {n}" for name, n in notes.items() if n)
        if skipped:
            reasons = ", ".join(f"{key.split(':', 1)[1]}={n}" for key, n in sorted(skipped.items()))
            logger.warning(
                "%s: loaded %d, skipped %d (%s)%s",
                source,
                loaded,
                sum(skipped.values()),
                reasons,
                extra,
            )
        else:
            logger.info("%s: loaded %d, skipped 0%s", source, loaded, extra)

    def counts(self) -> dict[str, int]:
        """All counts, sorted by key."""
        return dict(sorted(self._counts.items()))
