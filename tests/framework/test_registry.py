"""Every lab in the registry is well formed and renders in every act state."""

import json

import pytest

from build_scripts.plotly_bundle import bundle_traces
from pylabs import bridge
from pylabs.framework.render import render_lab
from pylabs.labs import LAB_MODULES, UnknownLab, all_labs, get
from tests.labs.helpers import answered

LABS = all_labs()


@pytest.mark.parametrize("lab", LABS, ids=lambda x: x.id)
def test_manifest_follows_the_testing_contract(lab):
    entry = lab.manifest()
    assert entry["id"] == lab.id and entry["url"].endswith("/")
    for control in entry["controls"]:
        assert {"name", "kind", "unit", "min", "max", "step", "default", "options"} <= set(control)
    assert [q["kind"] for q in entry["questions"]].count("prediction") >= 2
    json.dumps(entry, allow_nan=False)


@pytest.mark.parametrize("lab", LABS, ids=lambda x: x.id)
def test_every_question_key_is_in_a_to_d_and_every_stage_renders(lab):
    for q in lab.questions:
        assert q.answer() in "ABCD"
        html = str(render_lab(lab, answered(lab, {}, through=q.id)))
        assert f'data-question="{q.id}" data-kind="{q.kind}" data-locked="true"' in html


@pytest.mark.parametrize("lab", LABS, ids=lambda x: x.id)
def test_every_lab_declares_two_contexts_and_a_failure_per_act(lab):
    # Volume I labs may offer up to all four deployment contexts (vol1/contexts.py); Volume II two
    assert len(lab.context.options) == 2 if lab.volume == 2 else 2 <= len(lab.context.options) <= 4
    assert {f.act for f in lab.failures} >= {2}


def test_unknown_lab_names_the_known_ones():
    with pytest.raises(UnknownLab, match="unknown lab 'v9_99'; known labs: "):
        get("v9_99")


def test_bridge_sends_only_changed_blocks():
    lab_id = next(iter(LAB_MODULES))
    full = json.loads(bridge.update(lab_id, "{}", None, True))
    assert set(full["blocks"]) == set(full["order"])
    again = json.loads(bridge.update(lab_id, "{}", None, False))
    assert again["blocks"] == {}


def test_bridge_tolerates_hostile_state():
    lab_id = next(iter(LAB_MODULES))
    hostile = {"controls": {"context": "<img onerror=x>", "a1_tokens": "1e309"},
               "answers": {"a1_predict": {"choice": "Z", "locked_at": "now"}, "nope": {}},
               "pending": {"a1_predict": "<b>"}, "failures_hit": ["x", 3]}
    view = json.loads(bridge.update(lab_id, json.dumps(hostile), None, True))
    assert "<img onerror" not in "".join(view["blocks"].values())
    assert view["record"]["answers"] == {}


PLOTLY_BUNDLE_TRACES = set(bundle_traces())  # what the vendored bundle draws: build_scripts/plotly_bundle.json


@pytest.mark.parametrize("lab", LABS, ids=lambda x: x.id)
def test_charts_use_only_trace_types_the_vendored_plotly_bundle_draws(lab):
    import re
    html = str(render_lab(lab, answered(lab, {}, through=lab.questions[-1].id)))
    specs = re.findall(r'<script type="application/json" class="pl-chart__spec">(.*?)</script>', html)
    assert specs
    for spec in specs:
        types = {trace.get("type", "scatter") for trace in json.loads(spec.replace("<\\/", "</"))["data"]}
        assert types <= PLOTLY_BUNDLE_TRACES


def test_sources_page_reads_like_a_table_for_students():
    """Human labels, values with units in words (no Python names, no 3.12e+14), no audit notes."""
    from build_scripts import site_content
    from pylabs.physics import constants
    html = site_content.sources_table()
    assert "H100_PEAK_BF16_DENSE" not in html and "e+" not in html
    assert "989 TFLOP/s" in html and "300 billion tokens" in html and "1 sequence<" in html
    for spec in constants.REGISTRY.values():
        assert not spec.note or spec.note not in html
