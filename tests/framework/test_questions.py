import pytest

from pylabs.framework.questions import Claim, Prediction, QuestionError, Range, Reflection, fill


def ranges(**overrides):
    opts = [Range("A", "{range}", None, 1, 0.5), Range("B", "{range}", 1, 2, 1.5),
            Range("C", "{range}", 2, 3, 2.5), Range("D", "{range}", 3, None, 4)]
    return tuple(overrides.get(o.letter, o) for o in opts)


def test_prediction_answer_comes_from_truth():
    p = Prediction("p", 1, "?", "ratio", "x", ranges(), truth=lambda: 2.2)
    assert p.answer() == "C"
    assert p.text_of("A") == "under 1×" and p.text_of("D") == "3× or more"
    assert p.miss("A") == pytest.approx(4.4)


def test_prediction_ranges_must_meet():
    with pytest.raises(QuestionError, match="option B ends at 2 but C starts at 2.5"):
        Prediction("p", 1, "?", "r", "x", ranges(C=Range("C", "", 2.5, 3, 2.7)), truth=lambda: 1)


def test_prediction_ranges_must_be_unbounded_at_both_ends():
    with pytest.raises(QuestionError, match="must cover every value"):
        Prediction("p", 1, "?", "r", "x", ranges(A=Range("A", "", 0, 1, 0.5)), truth=lambda: 1)


def test_options_must_be_abcd():
    with pytest.raises(QuestionError, match="must be A, B, C, D in order"):
        Reflection("r", 1, "?", (Claim("A", "", ""), Claim("B", "", "")), "A")


def test_fill_reports_a_missing_fact():
    with pytest.raises(QuestionError, match="needs fact 'speedup'"):
        fill("{speedup}", {})
