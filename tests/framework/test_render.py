"""The renderer: ledger results as JSON keeps them, and locked instruments marked inactive."""

import math

import pytest

from pylabs.framework.render import result_value


@pytest.mark.parametrize("value, expected", [(3, 3.0), (0.25, 0.25), ("torus", "torus"), (True, True),
                                             (False, False), (None, None)])
def test_result_value_keeps_numbers_names_flags_and_null(value, expected):
    kept = result_value(value)
    assert kept == expected and type(kept) is type(expected)


def test_result_value_makes_integers_floats():
    assert isinstance(result_value(7), float) and math.isfinite(result_value(7))


def test_locked_instruments_mark_their_controls_as_an_inactive_group():
    from pylabs.framework.render import render_lab
    from pylabs.labs import all_labs
    for lab in all_labs():
        html = str(render_lab(lab, lab.default_state()))
        locked = html.split('data-instruments="1" data-unlocked="false"')[1].split("</section>")[0]
        assert '<div class="pl-controls" role="group" aria-disabled="true">' in locked


def test_a_measured_answer_is_said_to_be_measured_not_physics():
    """A prediction whose value is a measurement (V1-10: torchvision's INT8 ResNet-50) says who
    gives it; the verdict said "The physics gives" of every value."""
    from pylabs.labs import get
    from tests.labs.helpers import answered, rendered
    lab = get("v1_00")
    q = lab.question("a1_predict")
    state = answered(lab, {}, "a1_predict")
    assert "The physics gives" in rendered(lab, state)
    object.__setattr__(q, "gives", "The survey measures")   # a frozen dataclass: set for this test only
    try:
        html = rendered(lab, state)
    finally:
        object.__setattr__(q, "gives", "The physics gives")
    assert "The survey measures <strong>" in html and "The physics gives" not in html


def test_a_reading_item_without_a_colon_gives_its_first_sentence_as_its_topic():
    from pylabs.framework.render import reading_topic
    assert reading_topic("**Arithmetic intensity**: FLOPs per byte.") == "Arithmetic intensity"
    assert reading_topic("Stages and the costs between them. More text.") == "Stages and the costs between them"
    assert reading_topic("The gap between them.") == "The gap between them"


def test_takeaways_that_take_the_context_are_rendered_in_the_student_s_context():
    """Takeaways quote numbers; a lab whose numbers follow the context gives takeaways(context),
    and the page shows those of the context the student locked in (they took none before)."""
    from dataclasses import replace
    from pylabs.framework.render import render_blocks
    from pylabs.labs import get
    from tests.labs.helpers import answered
    lab = get("v1_01")
    contexts = list(lab.context.values)
    told = replace(lab, takeaways=lambda context: [f"Said in the {context} context."])
    for context in contexts[:2]:
        state = answered(told, {}, told.questions[-1].id, {lab.context.name: context})
        html = str(dict(render_blocks(told, state))["takeaways"])
        assert f"Said in the {context} context." in html


def test_an_escaped_asterisk_is_a_literal_one_in_rich_text():
    """V1-05's *k\\**, V1-07's *N\\** and V2-06's *n\\** printed a backslash and italicised the rest
    (found in V1-14's review)."""
    from pylabs.framework.components import rich
    assert str(rich("Crossover, *k\\**")) == "Crossover, <em>k*</em>"
    assert str(rich("*a* and **b**")) == "<em>a</em> and <strong>b</strong>"


def test_a_pick_says_who_picks():
    """A design pick decided by a model that is not physics (a queueing or cost model) can say so,
    as a prediction's ``gives`` does; the verdict said "The physics picks" of every pick."""
    from pylabs.labs import get
    from tests.labs.helpers import answered, rendered
    lab = get("v1_04")
    q = lab.question("a1_predict")
    wrong = next(o.letter for o in q.options if o.letter != q.answer())
    state = answered(lab, {q.id: wrong}, q.id)
    assert f"The physics picks {q.answer()}" in rendered(lab, state)
    object.__setattr__(q, "picks", "The cost model picks")   # a frozen dataclass: set for this test only
    try:
        html = rendered(lab, state)
    finally:
        object.__setattr__(q, "picks", "The physics picks")
    assert f"The cost model picks {q.answer()}" in html and "The physics picks" not in html
