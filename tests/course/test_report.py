"""The printed report of a hand-in: every question with its locked answer, verdict and the physics'
answer, the design and key numbers in words and units, never a record key."""

from __future__ import annotations

import re
from html import unescape

import pytest

from pylabs.course import handin, report
from pylabs.course.describe import result_label
from pylabs.framework.controls import Choice, MultiChoice
from pylabs.framework.formats import fmt
from pylabs.framework.questions import Prediction
from pylabs.labs import LAB_MODULES, get
from tests.course.helpers import NOW, finished_ledger


def text_of(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html)


@pytest.mark.parametrize("lab_id", sorted(LAB_MODULES))
def test_every_lab_reports_its_questions_in_words_and_units(lab_id):
    lab = get(lab_id)
    wrong = {q.id: "A" if q.answer() != "A" else "B" for q in lab.questions[::2]}
    doc = handin.build(finished_ledger(lab_id, choices=wrong), "lab", lab_id, "b", NOW)
    shown = text_of(report.render(doc, lab_id))
    for q in lab.questions:
        assert f"Act {'I' * q.act} · {q.kind}" in shown
        if isinstance(q, Prediction):
            assert f"The physics gives {fmt(q.value_in(), q.unit_fmt)}" in shown
    assert shown.count("incorrect") == len(wrong)
    assert "Locked 2026-11-28" not in shown and "Locked 2026-01-01 00:00 UTC" in shown
    keys = set(doc["attempts"][f"{lab_id}-done0001"]["results"]) | {q.id for q in lab.questions}
    keys |= {c.name for c in lab.controls}
    leaked = [k for k in keys if "_" in k and re.search(rf"\b{re.escape(k)}\b", shown)]
    assert leaked == [], f"record keys on the printed report: {leaked}"
    assert doc["digest"]["value"] in shown and "not proof against a determined student" in shown


@pytest.mark.parametrize("lab_id", sorted(LAB_MODULES))
def test_the_report_prints_labels_and_formatted_numbers_never_a_record_key(lab_id):
    """Found in review: results a lab records without a metric spec were printed under made-up
    labels with raw values ("Bw gb per s", "Per req 0.000045", "Storage hdd_seq")."""
    lab = get(lab_id)
    doc = handin.build(finished_ledger(lab_id), "lab", lab_id, "b1", NOW)
    html = report.render(doc, lab_id)
    section = html[html.index("<h2>Key numbers</h2>"):html.index("<h2>Failure states</h2>")]
    labels = re.findall(r"<dt>(.*?)</dt>", section)
    values = [unescape(v) for v in re.findall(r"<dd>(.*?)</dd>", section)]
    described = {result_label(m.name, m.label) for m in lab.metrics + lab.record_metrics}
    assert set(map(unescape, labels)) <= {unescape(x) for x in described}, lab_id
    keys = {v for a in lab.acts for c in a.controls if isinstance(c, (Choice, MultiChoice)) for v in c.values} - \
           {c.label_of(v) for a in lab.acts for c in a.controls if isinstance(c, (Choice, MultiChoice)) for v in c.values}
    keys = {k for k in keys if not re.fullmatch(r"[\d.,]+", k)}  # a number printed is a number (V2-03's r = 2)
    assert not set(values) & keys, lab_id
    assert not any(re.search(r"\d\.\d{5,}", v) for v in values), (lab_id, values)
