"""`pickwise params` as a user runs it (a subprocess, SQLite store under a temporary var/):
set, get, reset and audit, all-or-nothing batches, masked secrets."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.admin.conftest import SECRET_MARKER

PICKWISE = Path(sys.executable).with_name("pickwise")

pytestmark = pytest.mark.slow


@pytest.fixture
def run(tmp_path: Path) -> Any:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"REDIS_URL", "LLM_API_KEY", "OPENAI_API_KEY", "MAX_TOP_K"}
    }
    env.update(PICKWISE_VAR_DIR=str(tmp_path / "var"), HF_HUB_OFFLINE="1")

    def run(*args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [str(PICKWISE), "params", *args],
            env=env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert (done.returncode == 0) is ok, done.stdout + done.stderr
        return done

    return run


def get(run: Any, *names: str) -> dict[str, dict[str, Any]]:
    doc = json.loads(run("get", *names, "--json").stdout)
    return {p["name"]: p for p in doc["params"]}


def test_set_get_reset_and_audit(run: Any, tmp_path: Path) -> None:
    changed = json.loads(run("set", "MAX_TOP_K=20", "AUTOPICK=false", "--json").stdout)
    assert changed["version"] == 1
    assert {(e["key"], e["old"], e["new"]) for e in changed["changed"]} == {
        ("MAX_TOP_K", 50, 20),
        ("AUTOPICK", True, False),
    }
    assert (tmp_path / "var" / "params.sqlite3").is_file()
    shown = get(run, "MAX_TOP_K", "AUTOPICK", "RRF_K")
    assert (shown["MAX_TOP_K"]["value"], shown["MAX_TOP_K"]["source"]) == (20, "override")
    assert (shown["AUTOPICK"]["value"], shown["RRF_K"]["source"]) == (False, "default")
    assert "MAX_TOP_K = 20  (override; default 50)" in run("get", "MAX_TOP_K").stdout

    failed = run("set", "RRF_K=30", "MAX_TOP_K=0", ok=False)
    assert "MAX_TOP_K" in failed.stderr
    assert get(run, "RRF_K")["RRF_K"]["value"] == 60
    assert "NAME=VALUE" in run("set", "RRF_K", ok=False).stderr
    assert "--all" in run("reset", ok=False).stderr

    run("reset", "MAX_TOP_K")
    assert get(run, "MAX_TOP_K")["MAX_TOP_K"]["source"] == "default"
    run("reset", "--all")
    assert get(run, "AUTOPICK")["AUTOPICK"]["value"] is True
    audit = json.loads(run("audit", "--json").stdout)["entries"]
    assert [(e["key"], e["action"]) for e in audit] == [
        ("AUTOPICK", "reset"),
        ("MAX_TOP_K", "reset"),
        ("AUTOPICK", "set"),
        ("MAX_TOP_K", "set"),
    ]
    assert all(e["actor"].startswith("cli") for e in audit)


def test_a_secret_is_set_but_never_printed(run: Any) -> None:
    outputs = [run("set", f"LLM_API_KEY={SECRET_MARKER}")]
    outputs.append(run("set", "LLM_API_KEY=", "--json"))
    assert json.loads(outputs[-1].stdout)["changed"] == []
    outputs.append(run("get", "LLM_API_KEY", "--json"))
    assert json.loads(outputs[-1].stdout)["params"][0]["value"] == "********"
    outputs.append(run("audit"))
    for done in outputs:
        assert SECRET_MARKER not in done.stdout + done.stderr
