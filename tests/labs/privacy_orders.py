"""Re-importing a privacy lab (V2-11, V2-13) while the accountant searches other Rényi orders, and
putting it back: the two labs compute their tables at import, so a test of another order grid
reloads them."""

from __future__ import annotations

import importlib
from types import ModuleType

from pylabs.physics import privacy


def reloaded_with_orders(monkeypatch, lab: ModuleType, orders) -> ModuleType:
    """``lab`` re-imported while the accountant searches ``orders``; the caller restores it."""
    monkeypatch.setattr(privacy, "ORDERS", orders)
    return importlib.reload(lab)


def restore(monkeypatch, lab: ModuleType) -> None:
    monkeypatch.undo()
    importlib.reload(lab)
    for cached in vars(privacy).values():  # nothing computed with the patched orders may stay cached
        if hasattr(cached, "cache_clear"):
            cached.cache_clear()
