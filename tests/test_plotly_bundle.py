"""The Plotly bundle is built from npm plotly.js with exactly the listed trace types, once per
lockfile, and the documentation it strips leaves code intact."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from build_scripts import plotly_bundle as pb

ROOT = Path(__file__).resolve().parents[1]


def test_the_trace_list_is_the_curriculums_and_has_an_entry_point_each():
    traces = pb.bundle_traces()
    assert traces[0] == "scatter" and set(traces) == {"scatter", "bar", "histogram", "scatterpolar"}
    lib = ROOT / "node_modules" / "plotly.js" / "lib"
    if not lib.exists():
        pytest.skip("node_modules not installed (npm ci)")
    assert all((lib / f"{name}.js").exists() for name in traces)


def test_the_cache_key_follows_the_lockfile(tmp_path, monkeypatch):
    before = pb.bundle_key()
    lock = tmp_path / "package-lock.json"
    lock.write_text(pb.LOCKFILE.read_text() + " ")
    monkeypatch.setattr(pb, "LOCKFILE", lock)
    assert pb.bundle_key() != before


def test_a_cached_bundle_is_not_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setattr(pb, "CACHE", tmp_path)
    cached = tmp_path / f"plotly-{pb.bundle_key()}.min.js"
    cached.write_text("/* cached */")

    def no_build(*args, **kwargs):
        raise AssertionError("bundled again although the lockfile did not change")
    monkeypatch.setattr(subprocess, "run", no_build)
    assert pb.plotly_bundle() == cached


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_stripping_plotly_docs_keeps_code_and_non_literal_values():
    source = """var attrs = {
    a: {
        valType: 'number',
        anim: false, // a comment before the closing brace
        description: [
            'Sets the thing.',
            'It is ' + name + ' long.'
        ].join(' ')
    },
    b: {description: "It's one line", editType: 'plot'},
    c: {description: helper('x'), dflt: 1},
    d: {valType: 'enumerated', requiredOpts: ['values'], otherOpts: ['dflt']},
    hrName: 'scatter_polar',
    e: cond ? o.description: 'kept'
};"""
    script = ("import('./build_scripts/plotly_bundle.mjs').then((m) => "
              "process.stdout.write(JSON.stringify(m.withoutDocs(require('fs').readFileSync(0, 'utf8')))))")
    done = subprocess.run(["node", "-e", script], input=source, cwd=ROOT, capture_output=True, text=True,
                          check=True, timeout=60)
    out = json.loads(done.stdout)
    assert "Sets the thing" not in out and "It's one line" not in out and "requiredOpts" not in out
    assert "hrName" not in out
    assert "helper('x')" in out and "o.description: 'kept'" in out
    assert "// a comment before the closing brace\n" in out and "editType: 'plot'" in out
    node_check = subprocess.run(["node", "--check", "-"], input=out.replace("name", "'n'").replace("cond", "1"),
                                capture_output=True, text=True, timeout=60)
    assert node_check.returncode == 0, node_check.stderr
