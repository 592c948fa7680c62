"""A real `pickwise serve` (and, when asked, a private `redis-server`) on free loopback ports
for the load test and `pickwise bench`; both are stopped when the block ends."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress

import httpx

from app.config.settings import Settings
from app.errors import ConfigError

__all__ = ["free_port", "private_redis", "served"]

_START_LIMIT_S = 300.0


def free_port() -> int:
    """A loopback port nothing listens on (bound once, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def private_redis() -> Iterator[str]:
    """A throw-away redis-server without persistence; yields its URL (db 0)."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise ConfigError("redis-server is not installed; pass a Redis URL or none")
    port = free_port()
    args = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait(lambda: _listening(port), proc, "redis-server", 30.0)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        _stop(proc)


@contextmanager
def served(settings: Settings, redis_url: str | None) -> Iterator[str]:
    """`pickwise serve` over `settings` with sessions and cache on `redis_url` (None: in
    process); yields its base URL once `/healthz` answers."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "OPENAI_BASE_URL")}
    env |= {"PICKWISE_VAR_DIR": str(settings.var_dir), "PICKWISE_DATA_DIR": str(settings.data_dir)}
    if redis_url:
        env["REDIS_URL"] = redis_url
    args = [sys.executable, "-m", "app.cli.main", "serve", "--port", str(port)]
    proc = subprocess.Popen([*args, "--log-level", "warning"], env=env)
    base_url = f"http://127.0.0.1:{port}"
    try:
        _wait(lambda: _healthy(base_url), proc, "pickwise serve", _START_LIMIT_S)
        yield base_url
    finally:
        _stop(proc)


def _listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


def _healthy(base_url: str) -> bool:
    try:
        return httpx.get(f"{base_url}/healthz", timeout=5.0).status_code == 200
    except httpx.HTTPError:
        return False


def _wait(
    ready: Callable[[], bool], proc: subprocess.Popen[bytes], what: str, limit_s: float
) -> None:
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if ready():
            return
        if proc.poll() is not None:
            raise ConfigError(f"{what} exited with {proc.returncode} before it was ready")
        time.sleep(0.1)
    raise ConfigError(f"{what} was not ready within {limit_s:g}s")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            with suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=10)
