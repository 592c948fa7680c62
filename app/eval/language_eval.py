"""`pickwise eval language`: the rule reading scored on the labelled corpus (accuracy per
extractor and per field, dev and heldout apart) and on the WebShop goals, where only what
needs no labels is measured: the budget of the price clause, whether a goal is read as
shopping, and whether the plan's category, keywords and exclusions are found in the goal."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from app.catalog.profile_kinds import CatalogVocabulary
from app.eval.language_cases import CORPUS_FILE, Case, judge_case, load_cases
from app.eval.planner_eval import load_goals, priced_goals
from app.tools.plan import catalog_vocabulary, plan_from_text

__all__ = ["corpus_report", "run_language_eval", "webshop_report"]

_NON_WORD = re.compile(r"[^a-z0-9]+")


def corpus_report(cases: Sequence[Case], *, max_failures: int = 30) -> dict[str, Any]:
    """Per split: cases wholly right, accuracy per extractor and per field, and the failures."""
    report: dict[str, Any] = {}
    for split in ("dev", "heldout"):
        chosen = [c for c in cases if c.split == split]
        by_extractor: dict[str, list[bool]] = defaultdict(list)
        extractor_fields: dict[str, list[bool]] = defaultdict(list)
        by_field: dict[str, list[bool]] = defaultdict(list)
        failures = []
        for case in chosen:
            verdicts = judge_case(case)
            by_extractor[case.extractor].append(all(v.ok for v in verdicts))
            for verdict in verdicts:
                extractor_fields[case.extractor].append(verdict.ok)
                by_field[verdict.field].append(verdict.ok)
                if not verdict.ok:
                    failures.append(
                        {"id": case.id, "field": verdict.field, "expected": verdict.expected}
                        | {"got": verdict.got}
                    )
        report[split] = {
            "cases": len(chosen),
            "case_accuracy": _rate([ok for oks in by_extractor.values() for ok in oks]),
            "per_extractor": {
                name: {
                    "cases": len(oks),
                    "case_accuracy": _rate(oks),
                    "field_accuracy": _rate(extractor_fields[name]),
                }
                for name, oks in sorted(by_extractor.items())
            },
            "per_field": {
                name: {"n": len(oks), "accuracy": _rate(oks)}
                for name, oks in sorted(by_field.items())
            },
            "failures": failures[:max_failures],
            "failures_total": len(failures),
        }
    return report


def webshop_report(goals: Sequence[str], *, seed: int = 0) -> dict[str, Any]:
    """One reading of each goal with WebShop's price clause, scored without labels."""
    pairs, clause = priced_goals(goals, seed=seed)
    budget_ok = shopping = with_category = category_found = 0
    keyword_words = keyword_found = excludes = evidence_found = 0
    for text, ceiling in pairs:
        plan = plan_from_text([text])
        flat = _flat(text)
        budget_ok += plan.budget_usd == ceiling
        shopping += plan.is_shopping
        if plan.category:
            with_category += 1
            category_found += all(_found(w, flat) for w in plan.category.split())
        words = [w for k in plan.keywords for w in k.split()]
        keyword_words += len(words)
        keyword_found += sum(_found(w, flat) for w in words)
        excludes += len(plan.exclude)
        evidence_found += sum(c.evidence.lower() in text.lower() for c in plan.exclude)
    n = len(pairs)
    return {
        "goals": n,
        "price_clause": clause,
        "seed": seed,
        "budget_exact_rate": _share(budget_ok, n),
        "shopping_rate": _share(shopping, n),
        "category_rate": _share(with_category, n),
        "category_in_goal_rate": _share(category_found, n),
        "category_in_goal_of_planned": _share(category_found, with_category),
        "keyword_words": keyword_words,
        "keyword_in_goal_rate": _share(keyword_found, keyword_words),
        "excludes": excludes,
        "exclude_evidence_in_goal_rate": _share(evidence_found, excludes),
    }


def run_language_eval(
    data_dir: Path | None,
    *,
    cases_file: Path = CORPUS_FILE,
    seed: int = 0,
    max_failures: int = 30,
    vocabulary: CatalogVocabulary | None = None,
) -> dict[str, Any]:
    """The corpus report, and the WebShop one when a datasets folder is given; with a
    catalog's vocabulary merged into the rules' product nouns when one is given."""
    with catalog_vocabulary(vocabulary) as merged:
        report: dict[str, Any] = {
            "corpus": str(cases_file),
            "catalog_kinds": len(merged.kinds),
            **corpus_report(load_cases(cases_file), max_failures=max_failures),
        }
        if data_dir is not None:
            report["webshop"] = webshop_report(load_goals(data_dir), seed=seed)
    return report


def _flat(text: str) -> str:
    return " " + _NON_WORD.sub(" ", text.lower()) + " "


def _found(word: str, flat: str) -> bool:
    """Whether a plan word is in the goal: as written, joined ("2-in-1"), or singular."""
    bare = _NON_WORD.sub(" ", word.lower()).strip()
    if not bare:
        return True
    if f" {bare} " in flat or bare.replace(" ", "") in flat.replace(" ", ""):
        return True
    return any(f" {bare}{end} " in flat for end in ("s", "es"))


def _rate(oks: Sequence[bool]) -> float | None:
    return _share(sum(oks), len(oks))


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None
