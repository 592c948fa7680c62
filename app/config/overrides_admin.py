"""What admins do with parameters, shared by the admin API and `pickwise params`: list them
with their source, change a batch (validated first, all or nothing), reset some or all, and
read the audit log. Secrets are masked on the way out and a blank secret means unchanged."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.config.overrides import AuditEntry, Mutation, OverrideStore
from app.config.overrides_sync import OverrideSync
from app.config.params.admin import PARAMS_AUDIT_MAX
from app.config.registry import REGISTRY, Param, ParamRegistry, mask
from app.errors import NotFound, ParamValidationError

__all__ = ["MASKED", "Change", "ParamAdmin", "Rejection", "first_invalid"]

MASKED = mask("set")
"""How a secret is shown; sent back unchanged in an update it means "keep the secret"."""

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Change:
    """The outcome of an update or reset: the version in force and what changed."""

    version: int
    entries: list[AuditEntry]


@dataclass(frozen=True)
class Rejection:
    """The first invalid entry of a batch: its key and why."""

    key: str
    message: str


def first_invalid(
    values: Mapping[str, object], registry: ParamRegistry = REGISTRY
) -> Rejection | None:
    """The first unknown name or value outside its type, bounds or choices, if any; the
    message never repeats a secret value."""
    for name, raw in values.items():
        try:
            param = registry.param(name)
        except NotFound:
            return Rejection(name, f"unknown parameter {name!r}")
        try:
            param.coerce(raw)
        except ParamValidationError as exc:
            message = f"{name} expects a {param.kind.__name__}" if param.secret else str(exc)
            return Rejection(name, message)
    return None


class ParamAdmin:
    """Parameter administration over one override store and this process's registry."""

    def __init__(
        self,
        store: OverrideStore,
        registry: ParamRegistry = REGISTRY,
        sync: OverrideSync | None = None,
    ) -> None:
        self.store = store
        self.registry = registry
        self.sync = sync or OverrideSync(store, registry)

    def params(self) -> list[dict[str, Any]]:
        """Every parameter with its value in force, default, bounds, group, description,
        secret flag and source (default, env or override), secrets masked."""
        self.sync.refresh()
        return [
            {**p.describe(self.registry.value(p)), "source": self.registry.source(p.name)}
            for p in self.registry
        ]

    @property
    def version(self) -> int:
        return self.registry.version

    def update(self, values: Mapping[str, object], *, actor: str) -> Change:
        """Override a batch of parameters after validating all of them; a blank or masked
        secret is left as it is. `ParamValidationError` on the first bad entry, nothing set."""
        rejected = self.check_update(values)
        if rejected is not None:
            raise ParamValidationError(rejected.message)
        checked = self.registry.validate(self._wanted(values))

        def mutate(current: Mapping[str, Any]) -> tuple[dict[str, Any], list[AuditEntry]]:
            values_after, entries = dict(current), []
            for name, value in checked.items():
                param = self.registry.param(name)
                before = self._coerced(param, current[name]) if name in current else None
                if name in current and before == value:
                    continue
                old = before if name in current else self._base(param)
                values_after[name] = value
                entries.append(
                    AuditEntry(actor, name, "set", _shown(param, old), _shown(param, value))
                )
            return values_after, entries

        return self._commit(mutate)

    def reset(self, keys: Sequence[str] | None, *, actor: str) -> Change:
        """Drop the overrides of `keys` (None: all of them) so defaults or environment apply
        again; an unknown key is a `ParamValidationError` and resets nothing."""
        rejected = self.check_reset(keys)
        if rejected is not None:
            raise ParamValidationError(rejected.message)

        def mutate(current: Mapping[str, Any]) -> tuple[dict[str, Any], list[AuditEntry]]:
            names = sorted(current) if keys is None else [k for k in keys if k in current]
            values_after, entries = dict(current), []
            for name in dict.fromkeys(names):
                del values_after[name]
                entries.append(self._reset_entry(actor, name, current[name]))
            return values_after, entries

        return self._commit(mutate)

    def check_update(self, values: Mapping[str, object]) -> Rejection | None:
        """The first entry of an update batch that would be rejected, if any."""
        return first_invalid(self._wanted(values), self.registry)

    def check_reset(self, keys: Sequence[str] | None) -> Rejection | None:
        """The first unknown name among `keys`, if any."""
        known = {p.name for p in self.registry}
        unknown = [k for k in keys or () if k not in known]
        return Rejection(unknown[0], f"unknown parameter {unknown[0]!r}") if unknown else None

    def audit(self, limit: int = 100) -> list[AuditEntry]:
        """The newest `limit` changes, newest first."""
        return self.store.audit(limit)

    def _commit(self, mutate: Mutation) -> Change:
        state, entries = self.store.transact(mutate, audit_max=PARAMS_AUDIT_MAX.get())
        self.sync.refresh()
        for e in entries:
            log.info("parameter %s %s by %s: %r -> %r", e.key, e.action, e.actor, e.old, e.new)
        return Change(state.version, entries)

    def _reset_entry(self, actor: str, name: str, stored: Any) -> AuditEntry:
        try:
            param = self.registry.param(name)
        except NotFound:
            return AuditEntry(actor, name, "reset", MASKED, None)
        before = self._coerced(param, stored)
        return AuditEntry(
            actor, name, "reset", _shown(param, before), _shown(param, self._base(param))
        )

    def _wanted(self, values: Mapping[str, object]) -> dict[str, object]:
        """The batch without secrets sent blank or masked: those stay as they are."""
        return {k: v for k, v in values.items() if not self._keeps_secret(k, v)}

    def _keeps_secret(self, name: str, raw: object) -> bool:
        try:
            secret = self.registry.param(name).secret
        except NotFound:
            return False
        return secret and raw in (None, "", MASKED)

    def _base(self, param: Param[Any]) -> Any:
        return self.registry.base_value(param)

    @staticmethod
    def _coerced(param: Param[Any], raw: Any) -> Any:
        try:
            return param.coerce(raw)
        except ParamValidationError:
            return raw


def _shown(param: Param[Any], value: Any) -> Any:
    return mask(value) if param.secret else value
