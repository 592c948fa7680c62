"""The runtime a one-shot CLI command runs in, with the stored parameter overrides applied
first so it behaves as the server tuned with `pickwise params set` would."""

from __future__ import annotations

from app.config.overrides_sync import apply_stored_overrides
from app.config.settings import Settings
from app.runtime import Runtime


def open_runtime(settings: Settings) -> Runtime:
    """Apply the stored overrides, then a runtime on the settings (opened by the caller)."""
    apply_stored_overrides(settings)
    return Runtime(settings)
