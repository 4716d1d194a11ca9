"""The lab registry: every module ``v<volume>_<number>.py`` in this package is a lab.

Adding a lab touches only its module, its page and its tests: the registry
finds the module, and modules import on first use.
"""

from __future__ import annotations

import pkgutil
import re
from importlib import import_module

from pylabs.framework.lab import Lab

_LAB_MODULE = re.compile(r"^v[12]_\d{2}$")

LAB_MODULES: dict[str, str] = {
    info.name: f"{__name__}.{info.name}"
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name)
    if _LAB_MODULE.match(info.name)
}


class UnknownLab(LookupError):
    """A lab id that is not in the registry."""


def get(lab_id: str) -> Lab:
    try:
        module = LAB_MODULES[lab_id]
    except KeyError:
        known = ", ".join(sorted(LAB_MODULES))
        raise UnknownLab(f"unknown lab {lab_id!r}; known labs: {known}") from None
    lab = import_module(module).LAB
    assert lab.id == lab_id, f"{module} declares lab id {lab.id!r}, expected {lab_id!r}"
    return lab


def all_labs() -> list[Lab]:
    return [get(lab_id) for lab_id in LAB_MODULES]
