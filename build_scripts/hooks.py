"""MkDocs hooks: write each lab's page, pre-render labs into them, expand ``<!-- lab:... -->`` shortcodes.

Lab pages and their navigation entries come from the lab registry (``lab_pages.py``): ``docs/`` and
``mkdocs.yml`` name no lab. The shortcodes a page may use are the ``SHORTCODES`` table below; an
unknown name, a wrong number of arguments or an unknown lab fails the build.

After the build: ``labs.json``, the pylabs wheel (installed in the browser with micropip, which
``vendor.py`` ships beside Pyodide), the Python memory snapshot
(``snapshot.py``), ``runtime.json`` and the service worker (``offline.py``) are written and
the npm runtime is vendored into the site.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Callable, NamedTuple

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from build_scripts import lab_pages, site_content  # noqa: E402
from build_scripts.offline import write_service_worker  # noqa: E402
from build_scripts.snapshot import make_snapshot  # noqa: E402
from build_scripts.vendor import vendor  # noqa: E402
from build_scripts.wheel import build_wheel, content_hash  # noqa: E402
from pylabs.labs import all_labs  # noqa: E402

SHORTCODE = re.compile(r"<!--\s*lab:([a-z-]+)((?:\s+[^\s>]+)*)\s*-->")
PLACEHOLDER = "PYLABS-EMBED-{}-PLACEHOLDER"


class ShortcodeError(ValueError):
    """A shortcode with an unknown name or arguments."""


def on_config(config):
    """The build id every page carries (``<meta name="pylabs-build">``, docs/overrides/main.html):
    a hand-in names the site that made it."""
    config["extra"]["pylabs_build"] = site_content.build_id()
    config["nav"] = lab_pages.with_labs(config["nav"], all_labs())
    return config


def on_files(files, config):
    """Every lab's page, written from its declaration; a page by hand at the same path is an error.
    The pages take the place in the file order that files in ``docs/`` would have (the sitemap and
    the search index follow it)."""
    pages = []
    for lab in all_labs():
        path = lab_pages.source_path(lab)
        if files.get_file_from_path(path) is not None:
            raise lab_pages.LabPageError(f"docs/{path}: the build writes this lab's page from {lab.id}; delete it")
        pages.append(File.generated(config, path, content=lab_pages.page_markdown(lab)))
    return Files(sorted([*files, *pages], key=lambda file: lab_pages.walk_order(file.src_uri)))


def _embed(page, lab_id: str) -> str:
    site_content.lab(lab_id)  # fails early on an unknown lab
    page.meta["pylabs_lab"] = lab_id
    # A lab has no table of contents worth a rail: the instruments take its width.
    page.meta["hide"] = sorted({*page.meta.get("hide", []), "toc"})
    return PLACEHOLDER.format(lab_id)


class Shortcode(NamedTuple):
    arity: int
    expand: Callable[..., str]    # expand(page, *arguments) -> Markdown or HTML
    help: str


SHORTCODES: dict[str, Shortcode] = {
    "embed": Shortcode(1, _embed, "lab:embed v2_02: the lab, pre-rendered in its default state"),
    "catalog": Shortcode(1, lambda page, volume: site_content.catalog(int(volume), page.url),
                         "lab:catalog 2: a volume's labs with their question, duration and progress"),
    "progress": Shortcode(0, lambda page: site_content.progress_list(page.url),
                          "lab:progress: every lab of both volumes, linked, with the student's progress"),
    "sources": Shortcode(0, lambda page: site_content.sources_table(),
                         "lab:sources: the cited constants registry as a table"),
    "references": Shortcode(0, lambda page: site_content.references_list(),
                            "lab:references: the papers and documents the labs cite"),
    "ledger-schema": Shortcode(0, lambda page: site_content.ledger_schema(),
                               "lab:ledger-schema: the ledger's JSON Schema"),
}


def on_page_markdown(markdown: str, page, config, files) -> str:
    def expand(match: re.Match) -> str:
        name, args = match.group(1), match.group(2).split()
        where = page.file.src_uri
        if name not in SHORTCODES:
            raise ShortcodeError(f"{where}: unknown shortcode lab:{name}; known: {', '.join(SHORTCODES)}")
        code = SHORTCODES[name]
        if len(args) != code.arity:
            raise ShortcodeError(f"{where}: lab:{name} takes {code.arity} argument(s), got {args} ({code.help})")
        return code.expand(page, *args)
    return SHORTCODE.sub(expand, markdown)


def on_page_content(html: str, page, config, files) -> str:
    lab_id = page.meta.get("pylabs_lab")
    if not lab_id:
        return html
    placeholder = PLACEHOLDER.format(lab_id)
    embedded = site_content.embedded_lab(lab_id, _site_root(page))
    # Markdown wraps a lone placeholder in <p>; replace the paragraph with the lab.
    html = html.replace(f"<p>{placeholder}</p>", embedded)
    if placeholder in html:
        html = html.replace(placeholder, embedded)
    return html


def on_post_page(output: str, page, config) -> str:
    """A lab page starts its Python worker from its <head> (site_content.worker_start), and builds
    its search index once the lab has started (site_content.search_later)."""
    if not page.meta.get("pylabs_lab"):
        return output
    head = re.search(r"<head>\s*(<meta charset=[^>]*>)?", output)
    if head is None:
        raise ValueError(f"{page.file.src_uri}: the theme wrote no <head>")
    output = site_content.search_later(output)
    return output[:head.end()] + site_content.worker_start(_site_root(page)) + output[head.end():]


def _site_root(page) -> str:
    depth = page.url.count("/")  # pages are directories: vol2/02-x/ is two levels down
    return "../" * depth or "./"


def on_post_build(config) -> None:
    site_dir = Path(config["site_dir"])
    versions = vendor(site_dir)
    wheel = build_wheel(site_dir / "assets" / "pylabs")
    runtime = {
        "pylabs_version": site_content.pylabs_version(),
        "site_url": config["site_url"],
        "pyodide_version": versions["pyodide"],
        "wheel": f"assets/pylabs/{wheel.name}?v={content_hash(wheel)}",
        "wheel_hash": content_hash(wheel),
        # How the worker installs the wheels: micropip (vendor/pyodide/, build_scripts/micropip_wheel.py);
        # "unpack" unzips them instead (only the benchmark's comparison, tools/bench_micropip.py, sets it).
        "installer": "micropip",
        "micropip": versions["micropip"],
        # Python with pylabs imported, restored in a fraction of a normal boot (None: boot as before).
        "snapshot": make_snapshot(site_dir, wheel, versions["pyodide"]),
        "plotly": "vendor/plotly/plotly.min.js",
        "katex": "vendor/katex/katex.min.js",
        "katex_css": "vendor/katex/katex.min.css",
    }
    (site_dir / "assets" / "pylabs" / "runtime.json").write_text(json.dumps(runtime, indent=1))
    (site_dir / "labs.json").write_text(json.dumps(site_content.manifest(), indent=1))
    write_service_worker(site_dir, runtime)  # last: its build id hashes everything above
