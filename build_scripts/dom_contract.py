"""Write the hook contract (pylabs/framework/dom.py) for the shell and for people.

    python -m build_scripts.dom_contract

writes ``docs/assets/pylabs/page/hooks.js`` (the names, for page scripts and the JS tests) and
``handbook/dom-contract.md``. Both are committed; tests/test_dom_contract.py fails when either is
not what this module writes from the contract today.
"""

from __future__ import annotations

import json
from pathlib import Path

from pylabs.framework.dom import HOOKS

ROOT = Path(__file__).resolve().parents[1]
JS = ROOT / "docs" / "assets" / "pylabs" / "page" / "hooks.js"
HANDBOOK = ROOT / "handbook" / "dom-contract.md"


def dataset_key(name: str) -> str:
    """The key of ``element.dataset`` for ``data-<name>`` (control-value -> controlValue)."""
    head, *rest = name.split("-")
    return head + "".join(part.capitalize() for part in rest)


def js_module() -> str:
    keys = {hook.name: dataset_key(hook.name) for hook in HOOKS}
    return ("// Written by build_scripts/dom_contract.py from pylabs/framework/dom.py: edit the contract there.\n"
            "// Every data-* name the renderer, the pages and the shell share, and its element.dataset key.\n"
            f"export const DATASET = Object.freeze({json.dumps(keys, indent=1)});\n\n"
            "/** The attribute of a hook name: hook(\"control-value\") is \"data-control-value\". */\n"
            "export function hook(name) {\n"
            "  if (!(name in DATASET)) throw new Error(`not in the DOM contract: ${name}`);\n"
            "  return `data-${name}`;\n"
            "}\n")


INTRO = """# The DOM contract

Python renders a lab's HTML (at build time into the page, and in the browser on every change); the
browser shell (`docs/assets/pylabs/page/`) and the inline head scripts (`docs/assets/pylabs/inline/`)
find what they act on by `data-*` attributes. Those names are the contract between the two realms,
and the only hooks a test should select by. They are defined once, in
`pylabs/framework/dom.py`; this page and `docs/assets/pylabs/page/hooks.js` are written from it by
`python -m build_scripts.dom_contract`, and `tests/test_dom_contract.py` fails when the renderer's
output (the golden files), the Python sources, the site's pages, the shell's scripts or its CSS use a
name that is not here, or when this page is out of date.

**Adding a name**: add a `Hook` to `pylabs/framework/dom.py` (who writes it, who reads it, what it
means, what a test may rely on), run `python -m build_scripts.dom_contract`, commit the three files.

**Writers**: *renderer* (pylabs.framework: a lab's blocks), *course* (pylabs.course and the ledger
view: class page, hand-in report, attempts), *build* (build_scripts/site_content.py: the lab's
wrapper, progress badges), *page* (HTML in a site page's Markdown), *theme* (MkDocs Material or
docs/overrides/main.html), *shell* (the page scripts), *inline* (the head scripts), *guide*
(build_scripts/guide: the instructor's guide, never on the site).

**For a test harness**: rely on the names with an entry in the last column, with the meaning given;
the others are internal to the shell and may change with it. Values that name things (a control, a
metric, a question, an act) are the names the lab module declares.

"""


def markdown() -> str:
    rows = ["| Attribute | Written by | Read by | Meaning | A test may rely on |", "|---|---|---|---|---|"]
    for hook in HOOKS:
        cells = (f"`data-{hook.name}`", hook.writer, hook.readers or "nobody yet", hook.meaning, hook.harness)
        rows.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return INTRO + "\n".join(rows) + "\n"


def main() -> None:
    JS.write_text(js_module())
    HANDBOOK.parent.mkdir(exist_ok=True)
    HANDBOOK.write_text(markdown())
    print(f"wrote {JS.relative_to(ROOT)} and {HANDBOOK.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
