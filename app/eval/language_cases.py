"""The labelled corpus of shopper phrases (tests/language/cases.yaml): loading, the stable
dev/heldout split, and running one case through the rule planner or the follow-up reader
into per-field verdicts, so the test and `pickwise eval language` judge the same way."""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import yaml

from app.agent.events import PickView
from app.agent.follow_ups import FollowUp, follow_up_cues, read_follow_up
from app.agent.session import Session
from app.errors import ConfigError
from app.tools.plan import ShoppingPlan, apply_change, plan_from_text, read_plan
from app.tools.planner import platform_scope

__all__ = [
    "CORPUS_FILE",
    "EXTRACTORS",
    "Case",
    "FieldVerdict",
    "judge_case",
    "load_cases",
    "split_of",
]

CORPUS_FILE = Path(__file__).resolve().parents[2] / "tests" / "language" / "cases.yaml"
EXTRACTORS = (
    "budget_currency",
    "negation",
    "must_prefer_avoid",
    "amounts_units",
    "model_codes",
    "bundles",
    "pick_references",
    "product",
    "platforms",
    "across_messages",
)
HELDOUT_EVERY = 5
"""A case is held out when the first 8 hex digits of sha256(id), as an integer, are
divisible by 5 (about 20%): the split follows the id alone, never the results."""

Split = Literal["dev", "heldout"]
_PLAN_FIELDS = frozenset(ShoppingPlan.model_fields) | {"exclude_terms", "avoid_terms", "query"}
_FOLLOW_UP_FIELDS = frozenset(
    [
        "planned",
        "note",
        "asked_about",
        "shown_before",
        "count",
        "question",
        "question_picks",
        "question_part",
        "trait",
        "trait_picks",
        "change",
    ]
)


def split_of(case_id: str) -> Split:
    """The split a case id falls in, by a hash of the id."""
    digest = int(hashlib.sha256(case_id.encode()).hexdigest()[:8], 16)
    return "heldout" if digest % HELDOUT_EVERY == 0 else "dev"


@dataclass(frozen=True)
class Case:
    """One labelled phrase: the messages read (oldest first), the session around them and
    the fields they must produce."""

    id: str
    split: Split
    extractor: str
    messages: tuple[str, ...]
    expect: dict[str, Any]
    previous: dict[str, Any] | None = None
    whole: bool = False
    """Every plan field not named in `expect` must keep its default."""
    picks: tuple[dict[str, Any], ...] = ()
    shown: tuple[str, ...] = ()
    follow_up: dict[str, Any] | None = None
    then: dict[str, Any] | None = None
    """Plan fields after the follow-up is planned on the session's plan."""
    source: str = ""


@dataclass(frozen=True)
class FieldVerdict:
    """Whether one expected field came out as labelled."""

    field: str
    ok: bool
    expected: Any
    got: Any


def load_cases(path: Path = CORPUS_FILE) -> list[Case]:
    """The corpus, checked: unique ids, known extractors and fields, splits by the hash."""
    if not path.is_file():
        raise ConfigError(f"{path} not found")
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(raw, list):
        raise ConfigError(f"{path} is not a YAML list of cases")
    cases, seen = [], set()
    for entry in raw:
        case = _case(entry, path)
        if case.id in seen:
            raise ConfigError(f"{path}: case id {case.id!r} appears twice")
        seen.add(case.id)
        cases.append(case)
    return cases


def _case(entry: Any, path: Path) -> Case:
    if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
        raise ConfigError(f"{path}: every case is a mapping with a string id; got {entry!r:.80}")
    case_id = entry["id"]
    if entry.get("split") != split_of(case_id):
        raise ConfigError(f"{path}: case {case_id!r} must have split: {split_of(case_id)}")
    if entry.get("extractor") not in EXTRACTORS:
        raise ConfigError(f"{path}: case {case_id!r} has unknown extractor")
    messages = entry.get("messages")
    follow_up = entry.get("follow_up")
    if not isinstance(messages, list) or not all(isinstance(m, str) for m in messages):
        raise ConfigError(f"{path}: case {case_id!r} needs messages, a list of strings")
    if follow_up is not None and not messages:
        raise ConfigError(f"{path}: follow-up case {case_id!r} needs its message")
    expect = entry.get("expect") or {}
    unknown = set(expect) - _PLAN_FIELDS | set(follow_up or {}) - _FOLLOW_UP_FIELDS
    if unknown or not (expect or follow_up):
        raise ConfigError(f"{path}: case {case_id!r} expects unknown fields {sorted(unknown)}")
    return Case(
        id=case_id,
        split=entry["split"],
        extractor=entry["extractor"],
        messages=tuple(messages),
        expect=dict(expect),
        previous=entry.get("previous"),
        whole=bool(entry.get("whole", False)),
        picks=tuple(entry.get("picks") or ()),
        shown=tuple(entry.get("shown") or ()),
        follow_up=follow_up,
        then=entry.get("then"),
        source=str(entry.get("source", "")),
    )


def judge_case(case: Case) -> list[FieldVerdict]:
    """Run the case and compare each labelled field with what came out."""
    previous = ShoppingPlan.model_validate(case.previous) if case.previous else None
    if case.follow_up is not None:
        return _judge_follow_up(case, previous)
    if case.extractor == "platforms":
        prior = tuple(case.previous.get("platforms", ())) if case.previous else ()
        got = list(platform_scope(case.messages, prior))
        return [_verdict("platforms", case.expect["platforms"], got)]
    plan = plan_from_text(case.messages, previous=previous)
    verdicts = _judge_plan(plan, case.expect)
    if case.whole:
        default = ShoppingPlan().model_dump(mode="json")
        dumped = plan.model_dump(mode="json")
        rest = [f for f in ShoppingPlan.model_fields if f not in case.expect]
        verdicts += [_verdict(f, default[f], dumped[f]) for f in rest]
    return verdicts


def _judge_plan(plan: ShoppingPlan, expect: dict[str, Any], prefix: str = "") -> list[FieldVerdict]:
    dumped = plan.model_dump(mode="json")
    verdicts = []
    for name, expected in expect.items():
        if name == "query":
            got: Any = plan.query_text()
        elif name in {"exclude_terms", "avoid_terms"}:
            got = list(getattr(plan, name))
        else:
            got = dumped[name]
        verdicts.append(_verdict(prefix + name, expected, got))
    return verdicts


def _judge_follow_up(case: Case, previous: ShoppingPlan | None) -> list[FieldVerdict]:
    picks = [
        PickView(
            item_id=p["item_id"],
            title=p.get("title", ""),
            platform=p["item_id"].split(":")[0],
            price_usd=p.get("price_usd"),
            reason="",
        )
        for p in case.picks
    ]
    session = Session(session_id="corpus", plan=previous, picks=picks, shown=list(case.shown))
    cues = follow_up_cues(case.messages[-1], session)
    reading = read_plan([cues.text], previous=previous)
    follow_up = read_follow_up(cues, session, reading.latest)
    verdicts = [
        _verdict(name, expected, _follow_up_field(follow_up, name))
        for name, expected in (case.follow_up or {}).items()
    ]
    if case.then and follow_up.planned is not None:
        if follow_up.planned != cues.text:
            reading = read_plan([follow_up.planned], previous=previous)
        after = apply_change(reading.plan, follow_up.change)
        verdicts += _judge_plan(after, case.then, prefix="then.")
    elif case.then:
        verdicts += [_verdict(f"then.{n}", v, None) for n, v in case.then.items()]
    return verdicts


def _follow_up_field(follow_up: FollowUp, name: str) -> Any:
    value = getattr(follow_up, name)
    if name == "asked_about":
        return value.item_id if value is not None else None
    if name == "trait_picks":
        return [p.item_id for p in value]
    if name == "shown_before":
        return sorted(value)
    if name == "change":
        return value.model_dump(mode="json", exclude_defaults=True) if value is not None else None
    return value


def _verdict(name: str, expected: Any, got: Any) -> FieldVerdict:
    return FieldVerdict(name, _same(expected, got), expected, got)


def _same(expected: Any, got: Any) -> bool:
    if isinstance(expected, float) or isinstance(got, float):
        if expected is None or got is None or isinstance(expected, bool) or isinstance(got, bool):
            return expected is got
        return math.isclose(float(expected), float(got), abs_tol=1e-9)
    if isinstance(expected, (list, tuple)) and isinstance(got, (list, tuple)):
        return len(expected) == len(got) and all(
            _same(e, g) for e, g in zip(expected, got, strict=True)
        )
    if isinstance(expected, dict) and isinstance(got, dict):
        return expected.keys() == got.keys() and all(_same(v, got[k]) for k, v in expected.items())
    return bool(expected == got)
