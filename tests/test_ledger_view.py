"""The ledger page as a student reads it: act names, labels with units, links, no raw keys."""

from __future__ import annotations

from pylabs import ledger, ledger_view
from pylabs.framework.render import record
from pylabs.labs import get
from tests.labs.helpers import answered


def ledger_with(lab_id: str) -> str:
    """A ledger holding one finished attempt of ``lab_id``, committed the way the browser does."""
    lab = get(lab_id)
    state = answered(lab, {}, through=lab.questions[-1].id)
    empty = ledger.load(None).ledger
    return ledger.dumps(ledger.commit(empty, f"{lab_id}-attempt", record(lab, state), "2026-01-01T00:00:00Z"))


def test_results_carry_labels_units_and_their_act():
    html = ledger_view.render(ledger_with("v2_05"))
    assert "Act I · Model FLOPs utilisation" in html and "Act II · Model FLOPs utilisation" in html
    assert "a1_mfu" not in html and "0.51476" not in html


def test_answers_name_the_act_and_the_option_and_link_to_the_lab():
    lab = get("v2_02")
    html = ledger_view.render(ledger_with("v2_02"))
    assert f'href="../{lab.url}"' in html
    assert f"Act I · {lab.acts[0].title}: prediction" in html
    first = lab.acts[0].prediction
    assert first.text_of(first.answer()).split(":")[0] in html


def test_every_result_of_every_lab_has_a_label():
    from pylabs.labs import all_labs
    for lab in all_labs():
        html = ledger_view.render(ledger_with(lab.id))
        for name in lab.results(answered(lab, {}, through=lab.questions[-1].id)):
            assert f"<dt>{name}" not in html


def test_a_flag_reads_yes_or_no_never_python_s_true():
    """Results kept as flags (V1-13's "SLO met throughout", V1-16's "Cost ok") read as
    yes or no on the ledger page, never "True" or "False"."""
    from tests.labs.reading import page_text
    text = page_text(ledger_view.render(ledger_with("v1_13")))
    assert "SLO met throughout no" in text
    assert "True" not in text and "False" not in text
