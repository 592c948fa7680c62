"""A throw-away `redis-server` of a test's own, on a free loopback port, that the test may
kill and restart (chaos tests); the shared Redis on 6379 is never touched."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time

import pytest

__all__ = ["free_port", "start_redis", "stop_redis"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_redis(port: int) -> subprocess.Popen[bytes]:
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail("redis-server is not installed")
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(500):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.1):
                return proc
        except OSError:
            if proc.poll() is not None:
                pytest.fail(f"redis-server on port {port} exited with {proc.returncode}")
            time.sleep(0.01)
    proc.kill()
    pytest.fail(f"redis-server on port {port} did not start")


def stop_redis(proc: subprocess.Popen[bytes]) -> None:
    proc.kill()
    proc.wait(timeout=10)
