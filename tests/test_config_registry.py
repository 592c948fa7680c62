"""The parameter registry: declaration, coercion, layers, atomic all-or-nothing updates."""

from __future__ import annotations

import pytest

from app.config.registry import ParamRegistry, mask
from app.errors import NotFound, ParamValidationError


@pytest.fixture
def registry() -> ParamRegistry:
    return ParamRegistry(env_file=None)


def test_declared_param_reads_default_then_env_then_override(registry: ParamRegistry) -> None:
    floor = registry.declare("FLOOR", float, 0.2, group="g", description="d", minimum=0, maximum=1)
    registry.load_env({"FLOOR": "0.3"})
    assert floor.get() == 0.3
    assert registry.source("FLOOR") == "env"
    registry.apply_overrides({"FLOOR": 0.5}, version=1)
    assert floor.get() == 0.5
    assert registry.source("FLOOR") == "override"
    assert registry.version == 1
    registry.apply_overrides({}, version=2)
    assert floor.get() == 0.3


def test_bounds_choices_and_types_are_enforced(registry: ParamRegistry) -> None:
    k = registry.declare("K", int, 10, group="g", description="d", minimum=1, maximum=50)
    mode = registry.declare(
        "MODE", str, "rrf", group="g", description="d", choices=("rrf", "minmax")
    )
    flag = registry.declare("ON", bool, True, group="g", description="d")
    assert k.coerce("7") == 7
    assert flag.coerce("0") is False
    for bad in (0, 51, "x", 2.5, True):
        with pytest.raises(ParamValidationError):
            k.coerce(bad)
    with pytest.raises(ParamValidationError):
        mode.coerce("combsum")
    with pytest.raises(ParamValidationError):
        flag.coerce("maybe")


def test_bad_batch_changes_nothing(registry: ParamRegistry) -> None:
    a = registry.declare("A", int, 1, group="g", description="d", minimum=0, maximum=9)
    b = registry.declare("B", int, 2, group="g", description="d", minimum=0, maximum=9)
    with pytest.raises(ParamValidationError):
        registry.apply_overrides({"A": 5, "B": 99}, version=3)
    assert (a.get(), b.get(), registry.version) == (1, 2, 0)
    with pytest.raises(NotFound):
        registry.apply_overrides({"NOPE": 1}, version=4)


def test_declaring_twice_or_an_out_of_bounds_default_fails(registry: ParamRegistry) -> None:
    registry.declare("A", int, 1, group="g", description="d")
    with pytest.raises(ValueError, match="twice"):
        registry.declare("A", int, 1, group="g", description="d")
    with pytest.raises(ParamValidationError):
        registry.declare("B", int, 100, group="g", description="d", maximum=10)


def test_overridden_context_restores_previous_layer(registry: ParamRegistry) -> None:
    a = registry.declare("A", int, 1, group="g", description="d")
    with registry.overridden(A=4):
        assert a.get() == 4
    assert a.get() == 1


def test_secrets_are_masked_in_descriptions(registry: ParamRegistry) -> None:
    key = registry.declare("KEY", str, "", group="llm", description="d", secret=True)
    assert key.describe("sk-live-123")["value"] == "********"
    assert "sk-live" not in str(key.describe("sk-live-123"))
    assert mask("") == ""


def test_env_aliases(registry: ParamRegistry) -> None:
    key = registry.declare(
        "LLM_API_KEY",
        str,
        "",
        group="llm",
        description="d",
        secret=True,
        env_aliases=("OPENAI_API_KEY",),
    )
    registry.load_env({"OPENAI_API_KEY": "sk-1"})
    assert key.get() == "sk-1"
