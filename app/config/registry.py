"""The typed parameter registry: every runtime tunable declared once, read at call time.

A `Param` carries its name, type, default, bounds, group, description and secret flag.
Code keeps a reference to the `Param` and calls `.get()` each time it needs the value, so
an override applied later (from the environment at start-up, or by an admin at runtime)
takes effect on the next call without any change in the caller. A chat turn pins one
`snapshot()` of the values for its whole run (`pinned`), so it never sees two values of one
parameter.
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar, cast

from dotenv import dotenv_values

from app.errors import NotFound, ParamValidationError

__all__ = ["REGISTRY", "Param", "ParamRegistry", "ParamSnapshot", "Source", "mask"]

T = TypeVar("T", int, float, bool, str)
Source = Literal["default", "env", "override"]

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


@dataclass(frozen=True, eq=False)
class Param(Generic[T]):
    """One declared tunable; `get()` returns its current value from its registry."""

    name: str
    kind: type[T]
    default: T
    group: str
    description: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] | None = None
    secret: bool = False
    env_aliases: tuple[str, ...] = ()
    registry: ParamRegistry | None = field(default=None, repr=False)

    def get(self) -> T:
        """The value in force right now (override, else environment, else default)."""
        if self.registry is None:
            return self.default
        return self.registry.value(self)

    def coerce(self, raw: object) -> T:
        """Convert `raw` to this parameter's type and check bounds and choices."""
        value = _coerce(self.kind, raw, self.name)
        if isinstance(value, int | float) and not isinstance(value, bool):
            if self.minimum is not None and value < self.minimum:
                raise ParamValidationError(
                    f"{self.name}={value} is below the minimum {self.minimum}"
                )
            if self.maximum is not None and value > self.maximum:
                raise ParamValidationError(
                    f"{self.name}={value} is above the maximum {self.maximum}"
                )
        if self.choices is not None and value not in self.choices:
            raise ParamValidationError(f"{self.name}={value!r} is not one of {list(self.choices)}")
        return cast(T, value)

    def describe(self, value: object) -> dict[str, Any]:
        """A JSON-ready description of this parameter with `value` masked when secret."""
        return {
            "name": self.name,
            "type": self.kind.__name__,
            "value": mask(value) if self.secret else value,
            "default": mask(self.default) if self.secret else self.default,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "choices": list(self.choices) if self.choices else None,
            "group": self.group,
            "description": self.description,
            "secret": self.secret,
        }


def mask(value: object) -> str:
    """How a secret value is shown: never the value itself, only whether one is set."""
    return "********" if value not in (None, "") else ""


_INT_LIMIT = 2**63 - 1
"""Integers beyond a signed 64-bit range are refused: no parameter means them, and stores and
clients in other languages could not hold them."""
_SHOWN_CHARS = 40


def _shown(raw: object) -> str:
    """`raw` as an error message quotes it: at most `_SHOWN_CHARS` characters (a huge number
    or text is cut, and never converted whole)."""
    if isinstance(raw, int) and not isinstance(raw, bool) and raw.bit_length() > 128:
        return f"an integer of {raw.bit_length()} bits"
    text = repr(raw)
    return text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 1] + "…"


def _coerce(kind: type, raw: object, name: str) -> object:
    if kind is bool:
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise ParamValidationError(f"{name} expects a boolean, got {_shown(raw)}")
    if kind is int:
        if isinstance(raw, bool) or (isinstance(raw, float) and not raw.is_integer()):
            raise ParamValidationError(f"{name} expects an integer, got {_shown(raw)}")
        try:
            value = int(str(raw).strip()) if isinstance(raw, str) else int(cast(Any, raw))
        except (TypeError, ValueError):
            raise ParamValidationError(f"{name} expects an integer, got {_shown(raw)}") from None
        except OverflowError:
            raise ParamValidationError(f"{name} is out of the range of an integer") from None
        if abs(value) > _INT_LIMIT:
            raise ParamValidationError(f"{name} is out of the range of an integer (±2^63)")
        return value
    if kind is float:
        if isinstance(raw, bool):
            raise ParamValidationError(f"{name} expects a number, got {_shown(raw)}")
        try:
            number = float(cast(Any, raw))
        except (TypeError, ValueError):
            raise ParamValidationError(f"{name} expects a number, got {_shown(raw)}") from None
        except OverflowError:
            raise ParamValidationError(f"{name} is out of the range of a number") from None
        if not math.isfinite(number):
            raise ParamValidationError(f"{name} must be finite, got {_shown(raw)}")
        return number
    if not isinstance(raw, str | int | float):
        raise ParamValidationError(f"{name} expects text, got {_shown(raw)}")
    try:
        return str(raw)
    except ValueError:  # an integer too long to write out
        raise ParamValidationError(f"{name} expects text, got {_shown(raw)}") from None


@dataclass(frozen=True)
class _Layers:
    env: Mapping[str, Any]
    overrides: Mapping[str, Any]
    version: int


@dataclass(frozen=True, eq=False)
class ParamSnapshot(Mapping[str, Any]):
    """Every parameter's value at one moment, by name; `registry.pinned(snapshot)` makes
    `Param.get()` read it in the current context (a turn and the tasks it starts)."""

    registry: ParamRegistry = field(repr=False)
    layers: _Layers = field(repr=False)

    @property
    def version(self) -> int:
        """Version of the override layer the snapshot was taken with."""
        return self.layers.version

    def value(self, param: Param[T] | str) -> T:
        """The value `param` had when the snapshot was taken."""
        p = self.registry.param(param) if isinstance(param, str) else param
        return _layered(p, self.layers)

    def __getitem__(self, name: str) -> Any:
        return self.value(name)

    def __iter__(self) -> Iterator[str]:
        return (p.name for p in self.registry)

    def __len__(self) -> int:
        return len(self.registry)


_PINNED: ContextVar[ParamSnapshot | None] = ContextVar("pickwise_pinned_params", default=None)


def _layered(param: Param[T], layers: _Layers) -> T:
    if param.name in layers.overrides:
        return cast(T, layers.overrides[param.name])
    if param.name in layers.env:
        return cast(T, layers.env[param.name])
    return param.default


class ParamRegistry:
    """Holds declared parameters and the override layers; swaps layers atomically."""

    def __init__(self, *, env_file: Path | None = Path(".env")) -> None:
        self._params: dict[str, Param[Any]] = {}
        self._lock = threading.RLock()
        self._layers = _Layers(env={}, overrides={}, version=0)
        self._env_file = env_file
        self._env_loaded = False

    def declare(
        self,
        name: str,
        kind: type[T],
        default: T,
        *,
        group: str,
        description: str,
        minimum: float | None = None,
        maximum: float | None = None,
        choices: tuple[str, ...] | None = None,
        secret: bool = False,
        env_aliases: tuple[str, ...] = (),
    ) -> Param[T]:
        """Declare a parameter once; a second declaration of the same name is a bug."""
        if name in self._params:
            raise ValueError(f"parameter {name} is declared twice")
        param = Param(
            name,
            kind,
            default,
            group,
            description,
            minimum,
            maximum,
            choices,
            secret,
            env_aliases,
            self,
        )
        param.coerce(default)
        self._params[name] = param
        return param

    def __iter__(self) -> Iterator[Param[Any]]:
        return iter(sorted(self._params.values(), key=lambda p: (p.group, p.name)))

    def __len__(self) -> int:
        return len(self._params)

    def param(self, name: str) -> Param[Any]:
        """The parameter declared under `name`."""
        try:
            return self._params[name]
        except KeyError:
            raise NotFound(f"unknown parameter {name!r}") from None

    def value(self, param: Param[T] | str) -> T:
        """The current value of `param`: override, else environment, else default."""
        p = self.param(param) if isinstance(param, str) else param
        return _layered(p, self._current_layers())

    def base_value(self, param: Param[T] | str) -> T:
        """The value `param` has without the override layer: environment, else default."""
        p = self.param(param) if isinstance(param, str) else param
        env = self._current_layers().env
        return cast(T, env[p.name]) if p.name in env else p.default

    def source(self, name: str) -> Source:
        """Where the current value of `name` comes from."""
        self.param(name)
        layers = self._current_layers()
        if name in layers.overrides:
            return "override"
        return "env" if name in layers.env else "default"

    @property
    def version(self) -> int:
        """Version of the override layer last applied (0 before any)."""
        return self._layers.version

    def overrides(self) -> dict[str, Any]:
        """A copy of the override layer in force."""
        return dict(self._current_layers().overrides)

    def snapshot(self) -> ParamSnapshot:
        """Every value in force now, frozen (the pinned one inside a pinned context)."""
        return ParamSnapshot(self, self._current_layers())

    @contextmanager
    def pinned(self, snapshot: ParamSnapshot) -> Iterator[ParamSnapshot]:
        """Within the block, and in tasks and `asyncio.to_thread` calls started in it, every
        `Param.get()` of this registry reads `snapshot`; overrides applied meanwhile wait."""
        if snapshot.registry is not self:
            raise ValueError("a snapshot pins only the registry it was taken from")
        token = _PINNED.set(snapshot)
        try:
            yield snapshot
        finally:
            _PINNED.reset(token)

    def validate(self, updates: Mapping[str, object]) -> dict[str, Any]:
        """Coerce every value in `updates`; raise on the first bad one, changing nothing."""
        return {name: self.param(name).coerce(raw) for name, raw in updates.items()}

    def apply_overrides(self, overrides: Mapping[str, object], *, version: int) -> None:
        """Replace the whole override layer after validating all of it (all or nothing)."""
        checked = self.validate(overrides)
        self._live_layers()
        with self._lock:
            self._layers = _Layers(env=self._layers.env, overrides=checked, version=version)

    def load_env(self, environ: Mapping[str, str | None]) -> None:
        """Read start-up values from an environment mapping; bad values fail loudly."""
        values: dict[str, Any] = {}
        for p in self._params.values():
            for key in (p.name, *p.env_aliases):
                raw = environ.get(key)
                if raw is not None and raw != "":
                    values[p.name] = p.coerce(raw)
                    break
        with self._lock:
            self._layers = _Layers(
                env=values, overrides=self._layers.overrides, version=self._layers.version
            )
            self._env_loaded = True

    @contextmanager
    def overridden(self, **values: object) -> Iterator[None]:
        """Temporarily override some values (tests, benchmarks); restores the layer after.
        Inside a pinned context the block reads the overridden values too."""
        checked = self.validate(values)
        before = self._live_layers()
        self.apply_overrides({**before.overrides, **checked}, version=before.version)
        pinned, token = self._pin(), None
        if pinned is not None:
            held = pinned.layers
            layers = _Layers(held.env, {**held.overrides, **checked}, held.version)
            token = _PINNED.set(ParamSnapshot(self, layers))
        try:
            yield
        finally:
            if token is not None:
                _PINNED.reset(token)
            with self._lock:
                self._layers = before

    def _pin(self) -> ParamSnapshot | None:
        pinned = _PINNED.get()
        return pinned if pinned is not None and pinned.registry is self else None

    def _live_layers(self) -> _Layers:
        if not self._env_loaded:
            self._load_process_env()
        return self._layers

    def _current_layers(self) -> _Layers:
        pinned = self._pin()
        return pinned.layers if pinned is not None else self._live_layers()

    def _load_process_env(self) -> None:
        environ: dict[str, str | None] = {}
        if self._env_file is not None and self._env_file.is_file():
            environ.update(dotenv_values(self._env_file))
        environ.update(os.environ)
        self.load_env(environ)


REGISTRY = ParamRegistry()
"""The process-wide registry; parameter modules under `app.config.params` declare into it."""
