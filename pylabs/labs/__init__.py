"""The lab registry: lab id -> module holding ``LAB``. Modules import on first use."""

from __future__ import annotations

from importlib import import_module

from pylabs.framework.lab import Lab

LAB_MODULES: dict[str, str] = {
    "v2_02": "pylabs.labs.v2_02",
}


class UnknownLab(LookupError):
    """A lab id that is not in the registry."""


def get(lab_id: str) -> Lab:
    try:
        module = LAB_MODULES[lab_id]
    except KeyError:
        known = ", ".join(sorted(LAB_MODULES))
        raise UnknownLab(f"unknown lab {lab_id!r}; known labs: {known}") from None
    return import_module(module).LAB


def all_labs() -> list[Lab]:
    return [get(lab_id) for lab_id in LAB_MODULES]
