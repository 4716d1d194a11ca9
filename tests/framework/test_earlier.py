"""framework.earlier: tallies of earlier attempts for the capstones."""

from pylabs.framework.earlier import answer_marks, tally

LOCKED = "2026-01-01T00:00:00Z"


def attempt(**marks):
    return {"answers": {qid: {"choice": "A", "locked_at": LOCKED, "correct": ok} for qid, ok in marks.items()}}


def test_predictions_only_or_every_answer():
    a = attempt(a1_predict=True, a1_reflect=False, a2_pick=False)
    assert answer_marks(a) == [True, False, False]
    assert answer_marks(a, reflections=False) == [True, False]


def test_a_tally_over_labs_with_and_without_attempts():
    earlier = {"v1_01": attempt(a1_predict=True, a2_predict=False), "v1_02": attempt(a1_predict=True)}
    t = tally("Compute", earlier, ["v1_01", "v1_02", "v1_11"])
    assert (t.right, t.answered, t.labs, t.accuracy) == (2, 3, 2, 2 / 3)


def test_nothing_counted_is_no_data_not_a_score():
    assert tally("Memory", {}, ["v1_05"]).accuracy is None
    junk = {"v1_05": {"answers": {"a1_predict": "A", "x": {"correct": "yes"}}}, "v1_08": "nonsense"}
    assert tally("Memory", junk, ["v1_05", "v1_08"]).answered == 0
