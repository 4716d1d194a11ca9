"""The lab registry: every module ``vol<volume>/v<volume>_<number>.py`` below this package is a lab.

Adding a lab touches only its module(s) and its physics tests: the registry finds the module,
modules import on first use, and the build writes the lab's page and navigation entry from its
declaration (build_scripts/lab_pages.py).
"""

from __future__ import annotations

import pkgutil
import re
from importlib import import_module

from pylabs.framework.lab import Lab
from pylabs.framework.render import connected_labs

_LAB_MODULE = re.compile(r"^v[12]_\d{2}$")

VOLUMES = ("vol1", "vol2")


def _discover() -> dict[str, str]:
    """Lab id -> module path, for every ``v1_NN``/``v2_NN`` module in the volume subpackages."""
    found = {}
    for volume in VOLUMES:
        package = import_module(f"{__name__}.{volume}")
        for info in pkgutil.iter_modules(package.__path__):
            if _LAB_MODULE.match(info.name):
                found[info.name] = f"{package.__name__}.{info.name}"
    return dict(sorted(found.items()))


LAB_MODULES: dict[str, str] = _discover()


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


def links(lab: Lab) -> dict[str, str]:
    """What the renderer links ``lab``'s connections to: lab id -> page URL of each lab they name
    that exists. Only those labs are imported."""
    return {other: get(other).url for other in connected_labs(lab) if other in LAB_MODULES}
