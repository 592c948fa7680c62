"""Configuration: start-up settings and the runtime parameter registry."""

from app.config.registry import REGISTRY, Param, ParamRegistry
from app.config.settings import Settings, get_settings

__all__ = ["REGISTRY", "Param", "ParamRegistry", "Settings", "get_settings"]
