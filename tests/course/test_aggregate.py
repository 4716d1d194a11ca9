"""The class's numbers, checked against a reference computed another way: numpy over the raw
JSON of the files, with keys taken in each student's own context."""

from __future__ import annotations

import csv
import io
import json
import random
from pathlib import Path

import numpy as np
import pytest

from tools.class_fixture import make_class, plans, student_ledger
from pylabs.course import gradebook
from pylabs.course.aggregate import aggregate
from pylabs.course.classroom import Classroom
from pylabs.framework.questions import Prediction
from pylabs.labs import LAB_MODULES, get
from pylabs.framework.render import miss_text
from pylabs.course.aggregate import miss_amount
from pylabs.course.class_labs import miss_shown

LABS = ["v1_00", "v1_03", "v2_02", "v2_08", "v2_16"]


@pytest.fixture(scope="module")
def cls():
    files = make_class(60, LABS, seed=11)
    room = Classroom()
    for name, text in files:
        room.add(name, text)
    docs = [json.loads(text) for _, text in files]
    return aggregate(room), docs


def reference(docs: list[dict], lab_id: str, qid: str):
    """(letters, keys, misses) over the class, from the raw files."""
    lab = get(lab_id)
    q = lab.question(qid)
    letters, keys, misses, unit_misses = [], [], [], []
    for doc in docs:
        for attempt in doc["attempts"].values():
            if attempt["lab"] != lab_id or qid not in attempt["answers"]:
                continue
            letter, key = attempt["answers"][qid]["choice"], q.answer(attempt["context"])
            letters.append(letter)
            keys.append(key)
            if isinstance(q, Prediction) and letter != key:
                truth, option = q.value_in(attempt["context"]), q.option(letter)
                edge = option.high if option.high is not None and truth >= option.high else option.low
                unit_misses.append(abs(truth - edge))
                if q.unit_fmt in ("pct", "pct1", "pp"):
                    misses.append(abs(truth - edge))
                else:
                    misses.append(max(truth / edge, edge / truth))
    return np.array(letters), np.array(keys), np.array(misses), np.array(unit_misses)


@pytest.mark.parametrize("lab_id", LABS)
def test_answers_shares_and_misses_match_a_numpy_reference(cls, lab_id):
    stats, docs = cls
    for q in get(lab_id).questions:
        letters, keys, misses, unit_misses = reference(docs, lab_id, q.id)
        entry = stats.questions[(lab_id, q.id)]
        values, counts = np.unique(letters, return_counts=True)
        assert dict(entry.counts) == {str(v): int(c) for v, c in zip(values, counts)}
        assert entry.right_share == pytest.approx(float(np.mean(letters == keys)))
        wrong = letters[letters != keys]
        if wrong.size:
            values, counts = np.unique(wrong, return_counts=True)
            assert entry.top_wrong == (str(values[np.argmax(counts)]), int(counts.max()))
        if misses.size:
            assert entry.median_miss()[1] == pytest.approx(float(np.median(misses)))
            assert entry.median_unit_miss() == pytest.approx(float(np.median(unit_misses)))


def test_completion_and_calibration_match_a_numpy_reference(cls):
    stats, docs = cls
    for lab_id in LABS:
        done = [a for d in docs for a in d["attempts"].values() if a["lab"] == lab_id]
        assert stats.labs[lab_id].complete == sum(a["complete"] for a in done) == 60
        preds = [(a["answers"][q.id]["choice"], q.answer(a["context"])) for a in done
                 for q in get(lab_id).questions if q.kind == "prediction"]
        right = np.array([x == y for x, y in preds])
        assert stats.labs[lab_id].predictions_right == int(right.sum())
    assert stats.lab_order() == LABS  # the fixture's students do the labs in curriculum order


def test_miss_amount_says_what_the_pages_feedback_says():
    for lab_id in LAB_MODULES:
        for q in get(lab_id).questions:
            if not isinstance(q, Prediction):
                continue
            for context in get(lab_id).context.values:
                truth = q.value_in(context)
                for o in q.options:
                    if o.letter == q.answer(context):
                        continue
                    kind, amount = miss_amount(o, truth, q.unit_fmt)
                    assert miss_text(o, truth, q.unit_fmt).startswith(miss_shown(kind, amount, q.unit_fmt))


def test_gradebook_csv_has_its_documented_columns_and_one_row_per_student(cls):
    stats, docs = cls
    rows = list(csv.reader(io.StringIO(gradebook.gradebook_csv(stats))))
    header, body = rows[0], rows[1:]
    assert header == [*gradebook.GRADEBOOK_COLUMNS, *[f"{x.upper().replace('_', '-')} complete" for x in LAB_MODULES]]
    assert len(body) == 60 and len({r[0] for r in body}) == 60
    for row in body:
        doc = next(d for d in docs if d["student"]["name"] == row[0])
        attempts = list(doc["attempts"].values())
        preds = [(a["answers"][q.id]["choice"] == q.answer(a["context"])) for a in attempts
                 for q in get(a["lab"]).questions if q.kind == "prediction"]
        refl = [(a["answers"][q.id]["choice"] == q.answer(a["context"])) for a in attempts
                for q in get(a["lab"]).questions if q.kind == "reflection"]
        assert row[1:5] == ["", row[0], row[0], ""]   # ID, SIS User ID, SIS Login ID, Section
        assert row[5:10] == [str(len(attempts)), str(sum(preds)), str(len(preds)), str(sum(refl)), str(len(refl))]
        assert row[header.index("V2-02 complete")] == "1" and row[header.index("V1-01 complete")] == ""
    documented = Path("docs/class.md").read_text()
    assert all(f"`{column}`" in documented for column in ("Student", "Labs complete", "Predictions right"))


def test_every_gradebook_cell_after_section_is_a_number_or_empty(cls):
    """Canvas's import (lib/gradebook_importer.rb, Assignment#interpret_grade) reads any cell containing
    a digit as points, so a date there (2026-11-20) would become 2026 points; Moodle maps each column
    to a grade item. The dates are a file of their own."""
    stats, _ = cls
    rows = list(csv.reader(io.StringIO(gradebook.gradebook_csv(stats))))
    start = rows[0].index("Section") + 1
    assert all(cell == "" or cell.isdigit() for row in rows[1:] for cell in row[start:])


def test_the_completion_dates_are_a_file_of_their_own(cls):
    stats, docs = cls
    rows = list(csv.DictReader(io.StringIO(gradebook.dates_csv(stats))))
    assert len(rows) == 60
    for row in rows:
        doc = next(d for d in docs if d["student"]["name"] == row["Student"])
        v2_02 = next(a for a in doc["attempts"].values() if a["lab"] == "v2_02")
        assert row["V2-02 completed"] == max(x["locked_at"] for x in v2_02["answers"].values())[:10]
        assert row["V1-01 completed"] == ""


def test_a_file_without_a_name_has_no_gradebook_row_but_keeps_its_dates():
    """Moodle's CSV import gives a row with an empty user field to the previous row's student
    (load_data.php keeps studentid from the row before), and no gradebook can match such a row."""
    rng = random.Random(3)
    doc = student_ledger(1, ["v1_00"], plans(["v1_00"], rng), rng)
    del doc["student"]   # a plain ledger export from before the student typed a name
    room = Classroom()
    assert room.add("anonymous.json", json.dumps(doc)).__class__.__name__ == "Accepted"
    stats = aggregate(room)
    assert len(list(csv.reader(io.StringIO(gradebook.gradebook_csv(stats))))) == 1   # the header only
    dates = list(csv.DictReader(io.StringIO(gradebook.dates_csv(stats))))
    assert dates[0]["Student"].startswith("(no name)") and dates[0]["V1-00 completed"]


def test_the_median_miss_is_given_in_the_question_s_unit():
    """The class view's question: "how far the class missed by in the question's units (median)"; the factor the
    page's feedback uses stays beside it."""
    from pylabs.course.aggregate import QuestionStats
    from pylabs.course.class_labs import median_miss_shown
    entry = QuestionStats("v1_00", "a1_predict")
    entry.misses = [("factor", 2.0), ("factor", 3.0), ("factor", 4.0)]
    entry.unit_misses = [0.010, 0.020, 0.120]
    assert median_miss_shown(entry, "ms") == "20 ms (a factor of 3)"


def test_csv_cells_never_run_as_formulas():
    assert gradebook.safe_cell("=HYPERLINK(1)") == "'=HYPERLINK(1)" and gradebook.safe_cell("Ada") == "Ada"


def test_summary_csv_has_a_row_per_question(cls):
    stats, _ = cls
    rows = list(csv.DictReader(io.StringIO(gradebook.summary_csv(stats))))
    assert len(rows) == sum(len(get(x).questions) for x in LABS)
    first = rows[0]
    entry = stats.questions[("v1_00", first["Question"])]
    assert [int(first[x]) for x in "ABCD"] == [entry.counts.get(x, 0) for x in "ABCD"]


def test_where_keys_differ_by_context_the_answers_are_drawn_per_context_against_a_numpy_reference():
    """Found in review: one set of bars summed over contexts marked 'A (key)' and 'B (key)', so a
    student of the context whose key is B counted in the green A bar. Per context, the counts match
    the raw files and the chart has one trace per context naming its key."""
    from pylabs.course.class_labs import answers_chart
    files = make_class(80, ["v1_00"], seed=4)
    room = Classroom()
    for name, text in files:
        room.add(name, text)
    stats = aggregate(room)
    docs = [json.loads(text) for _, text in files]
    lab = get("v1_00")
    split = [q for q in lab.questions if len(stats.questions[("v1_00", q.id)].keys) > 1]
    assert split, "the fixture's class locks v1_00 in more than one context"
    for q in split:
        entry = stats.questions[("v1_00", q.id)]
        pairs = np.array([(a["context"], a["answers"][q.id]["choice"]) for d in docs for a in d["attempts"].values()
                          if a["lab"] == "v1_00" and q.id in a["answers"]])
        for context in set(pairs[:, 0]):
            letters = pairs[pairs[:, 0] == context, 1]
            values, counts = np.unique(letters, return_counts=True)
            assert dict(entry.by_context[context]) == {str(v): int(c) for v, c in zip(values, counts)}
        html = str(answers_chart(lab, q, entry))
        spec = json.loads(html[html.index('class="pl-chart__spec">') + 23:html.index("</script>")])
        names = [t["name"] for t in spec["data"]]
        assert len(names) == len(entry.by_context)
        for context in entry.by_context:
            assert any(name.startswith(f"Key {q.answer(context)}: ") and len(name) <= 40 for name in names)


def test_a_prompt_worded_per_context_is_shown_as_each_context_read_it():
    """The class view showed every prompt in the default context's words, though V1-01's Act II asks
    about a different device in each track."""
    from pylabs.course.class_labs import question_block
    from pylabs.framework.components import rich
    from pylabs.framework.questions import worded
    room = Classroom()
    for name, text in make_class(40, ["v1_01"], seed=5):
        room.add(name, text)
    stats = aggregate(room)
    lab = get("v1_01")
    q = lab.question("a2_predict")
    entry = stats.questions[("v1_01", "a2_predict")]
    html = str(question_block(lab, q, entry))
    assert len(entry.by_context) > 1
    for context in entry.by_context:
        assert str(rich(worded(q.prompt, lab.terms(context)))) in html
        assert lab.context.label_of(context) in html

