"""Admin bearer tokens: read once from `ADMIN_TOKENS` and kept only as SHA-256 digests, a
presented token compared in constant time against every one. An entry `label:token` names
its holder in the audit log; a bare token is named by a prefix of its digest."""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass

from fastapi import Request
from pydantic import SecretStr

from app.errors import AuthError, ConfigError

_LABEL = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{0,39}")
_DIGEST_PREFIX = 8


@dataclass(frozen=True)
class AdminToken:
    """One accepted token: who holds it and the digest of the token itself."""

    label: str
    digest: bytes


class AdminAuth:
    """The accepted admin tokens; with none the admin API is off."""

    def __init__(self, tokens: list[AdminToken]) -> None:
        self._tokens = tuple(tokens)

    @classmethod
    def from_secret(cls, configured: SecretStr | None) -> AdminAuth:
        """Parse comma-separated `[label:]token` entries, keeping only labels and digests."""
        tokens: list[AdminToken] = []
        for entry in (configured.get_secret_value() if configured else "").split(","):
            label, _, token = entry.strip().partition(":")
            if not token or not _LABEL.fullmatch(label):
                label, token = "", entry.strip()
            if not token:
                continue
            digest = hashlib.sha256(token.encode()).digest()
            tokens.append(AdminToken(label or "token-" + digest.hex()[:_DIGEST_PREFIX], digest))
        labels = [t.label for t in tokens]
        if len(set(labels)) < len(labels):
            raise ConfigError("ADMIN_TOKENS names the same label or token twice")
        return cls(tokens)

    @property
    def enabled(self) -> bool:
        return bool(self._tokens)

    def identify(self, authorization: str | None) -> str:
        """The label of the token in an `Authorization: Bearer …` header; `AuthError` 401
        without one, 403 for a token that is not accepted."""
        scheme, _, presented = (authorization or "").strip().partition(" ")
        if scheme.lower() != "bearer" or not presented.strip():
            raise AuthError("admin API: send 'Authorization: Bearer <token>'", status=401)
        digest = hashlib.sha256(presented.strip().encode()).digest()
        found = None
        for token in self._tokens:
            if hmac.compare_digest(digest, token.digest):
                found = token.label
        if found is None:
            raise AuthError("admin API: this token is not accepted", status=403)
        return found


def require_admin(request: Request) -> str:
    """FastAPI dependency: the caller's admin label, or the 401/403 `AuthError`."""
    auth: AdminAuth = request.app.state.params.auth
    return auth.identify(request.headers.get("authorization"))
