"""Find the game engines that are installed: ``{name: engine}`` for every ``toolkit.<game>.ENGINE``."""

from __future__ import annotations

import importlib
from typing import Any

from toolkit import GAMES


def available_engines() -> dict[str, Any]:
    """Every game package that imports and exposes ``ENGINE``, in the project's game order."""
    found = {}
    for game in GAMES:
        try:
            module = importlib.import_module(f"toolkit.{game}")
        except ImportError:
            continue
        engine = getattr(module, "ENGINE", None)
        if engine is not None:
            found[game] = engine
    return found
