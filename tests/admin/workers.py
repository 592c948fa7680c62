"""Start `pickwise serve` processes on loopback ports for the cross-process tests, with their
output captured to files, and stop them again."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from tests.api.live_server import free_port

PICKWISE = Path(sys.executable).with_name("pickwise")
_DROPPED = ("ADMIN_TOKENS", "LLM_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL", "LOG_JSON")


@dataclass(frozen=True)
class Worker:
    """One running server: its base URL and the file its stdout and stderr go to."""

    url: str
    log: Path
    process: subprocess.Popen[bytes]


@contextmanager
def serving_workers(
    envs: Mapping[str, Mapping[str, str]], *, workdir: Path, start_within_s: float = 600
) -> Iterator[dict[str, Worker]]:
    """One `pickwise serve` per name, each with the environment of this process minus
    admin and LLM settings plus its own; ready once /healthz answers."""
    with ExitStack() as stack:
        workers: dict[str, Worker] = {}
        for name, extra in envs.items():
            env = {k: v for k, v in os.environ.items() if k not in _DROPPED}
            env.update(extra)
            port = free_port()
            log = workdir / f"{name}.log"
            out = stack.enter_context(log.open("wb"))
            process = subprocess.Popen(
                [str(PICKWISE), "serve", "--host", "127.0.0.1", "--port", str(port)],
                env=env,
                cwd=workdir,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
            stack.callback(_stop, process)
            workers[name] = Worker(f"http://127.0.0.1:{port}", log, process)
        for worker in workers.values():
            _wait_ready(worker, start_within_s)
        yield workers


def _wait_ready(worker: Worker, within_s: float) -> None:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if worker.process.poll() is not None:
            raise RuntimeError(f"worker exited early:\n{worker.log.read_text()[-3000:]}")
        try:
            if httpx.get(worker.url + "/healthz", timeout=5).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.5)
    raise RuntimeError(f"worker not ready:\n{worker.log.read_text()[-3000:]}")


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=30)
