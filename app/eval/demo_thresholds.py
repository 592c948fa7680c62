"""The demo's pass/fail rule: a JSON file of bounds per named metric (and the smoke subset
they were measured on), judged against what a run measured; a missing metric fails."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.errors import ConfigError
from app.eval.demo_smoke import SmokeSpec

__all__ = ["Bound", "CheckResult", "Thresholds", "Verdict", "judge", "load_thresholds"]

PASSED, FAILED = 0, 1
"""Exit codes of the demo: every check held, or at least one did not."""


@dataclass(frozen=True)
class Bound:
    """The range a metric must fall in: `min <= value <= max`, either side optional."""

    min: float | None = None
    max: float | None = None

    def holds(self, value: float) -> bool:
        if math.isnan(value):
            return False
        return (self.min is None or value >= self.min) and (self.max is None or value <= self.max)

    def describe(self) -> str:
        parts = [f"min {self.min:g}" if self.min is not None else ""]
        parts.append(f"max {self.max:g}" if self.max is not None else "")
        return ", ".join(p for p in parts if p)


@dataclass(frozen=True)
class Thresholds:
    """Bounds by metric name, in file order, and the smoke subset the floors belong to."""

    checks: Mapping[str, Bound]
    smoke: SmokeSpec
    source: str


@dataclass(frozen=True)
class CheckResult:
    """One metric against its bound; `value` is None when the run did not measure it."""

    metric: str
    bound: Bound
    value: float | None

    @property
    def passed(self) -> bool:
        return self.value is not None and self.bound.holds(self.value)

    def line(self) -> str:
        shown = "not measured" if self.value is None else _number(self.value)
        return (
            f"{'ok  ' if self.passed else 'FAIL'} {self.metric} = {shown} ({self.bound.describe()})"
        )


@dataclass(frozen=True)
class Verdict:
    """Every check of one run; exit code 0 only when all passed."""

    results: tuple[CheckResult, ...]

    @property
    def failures(self) -> tuple[CheckResult, ...]:
        return tuple(r for r in self.results if not r.passed)

    @property
    def exit_code(self) -> int:
        return FAILED if self.failures else PASSED

    def headline(self) -> str:
        if not self.failures:
            return f"PASSED: all {len(self.results)} checks hold"
        names = ", ".join(r.metric for r in self.failures)
        return f"FAILED {len(self.failures)} of {len(self.results)} checks: {names}"


def load_thresholds(path: Path) -> Thresholds:
    """Read and validate the thresholds file; ConfigError says what is wrong with it."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read the thresholds file {path}: {exc}") from exc
    except ValueError as exc:
        raise ConfigError(f"{path} is not valid JSON: {exc}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("checks"), dict):
        raise ConfigError(f"{path}: expected an object with a 'checks' object")
    checks = {name: _bound(path, name, spec) for name, spec in data["checks"].items()}
    if not checks:
        raise ConfigError(f"{path}: no checks")
    return Thresholds(checks, _smoke(path, data.get("smoke", {})), str(path))


def judge(metrics: Mapping[str, float], thresholds: Thresholds) -> Verdict:
    """Each bound of the file against the measured metric of the same name."""
    return Verdict(
        tuple(
            CheckResult(name, bound, metrics.get(name)) for name, bound in thresholds.checks.items()
        )
    )


def _number(value: float) -> str:
    return f"{value:g}" if not math.isfinite(value) or value == int(value) else f"{value:.3f}"


def _bound(path: Path, name: str, spec: Any) -> Bound:
    if not isinstance(spec, dict) or not spec or set(spec) - {"min", "max"}:
        raise ConfigError(f"{path}: check {name!r} needs 'min' and/or 'max' only, got {spec!r}")
    values = {k: v for k, v in spec.items() if v is not None}
    if any(isinstance(v, bool) or not isinstance(v, int | float) for v in values.values()):
        raise ConfigError(f"{path}: check {name!r} bounds must be numbers, got {spec!r}")
    return Bound(min=values.get("min"), max=values.get("max"))


def _smoke(path: Path, spec: Any) -> SmokeSpec:
    if not isinstance(spec, dict):
        raise ConfigError(f"{path}: 'smoke' must be an object, got {spec!r}")
    unknown = set(spec) - set(SmokeSpec.__dataclass_fields__)
    if unknown:
        raise ConfigError(f"{path}: unknown smoke setting(s) {sorted(unknown)}")
    values = dict(spec)
    if "configs" in values:
        values["configs"] = tuple(values["configs"])
    try:
        return SmokeSpec(**values)
    except TypeError as exc:
        raise ConfigError(f"{path}: bad smoke settings: {exc}") from exc
