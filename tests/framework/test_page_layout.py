"""The page a student meets: feedback under its question, a strip of key numbers, a short HUD."""

from __future__ import annotations

from pylabs.framework.components import MetricSpec, key_strip, metric_grid, prose
from pylabs.framework.questions import Range
from pylabs.framework.render import miss_text
from pylabs.labs import get
from tests.labs.helpers import answered, rendered

SPEC = MetricSpec("m", "Step time", "s", "ms")


def test_the_strip_repeats_the_first_grid_s_first_numbers_without_hooks():
    grid = metric_grid(*[MetricSpec(f"m{i}", f"Metric {i}", "s", "ms").show(i / 1e3) for i in range(8)])
    strip = key_strip([prose("words"), grid])
    assert strip.count("pl-strip__item") == 6 and "Metric 5" in strip and "Metric 6" not in strip
    assert "data-metric" not in strip and 'aria-hidden="true"' in strip


def test_no_metric_grid_no_strip():
    assert key_strip([prose("only words")]) is None


def test_a_miss_is_measured_from_the_edge_of_the_student_s_range():
    below = Range("A", "{range}", None, 3.0, 2.0)
    assert miss_text(below, 6.0, "x") == "a factor of 2 above the top of your range (3×)"
    share = Range("C", "{range}", 0.3, 0.5, 0.4)
    assert miss_text(share, 0.21, "pct") == "9 pp below the bottom of your range (30 %)"


def test_feedback_sits_between_the_question_and_the_instruments():
    lab = get("v2_02")
    html = rendered(lab, answered(lab, {}, through="a1_predict"))
    assert html.index('data-question="a1_predict"') < html.index('data-feedback="a1_predict"') \
        < html.index('data-instruments="1"')


def test_the_hud_is_one_short_line_without_the_failure_titles():
    lab = get("v2_02")
    html = rendered(lab, answered(lab, {}, through=lab.questions[-1].id))
    hud = html[html.index("data-hud"):]
    assert all(f.title not in hud.split("title=")[0] for f in lab.failures)


def test_a_link_cannot_change_the_context_of_an_attempt_with_a_lock():
    lab = get("v2_02")
    other = next(v for v in lab.context.values if v != lab.context.default)
    kept, ignored = lab.link_settings({lab.context.name: other}, locked=True)
    assert kept == {} and ignored == [lab.context.name]
    assert lab.link_settings({lab.context.name: other})[0] == {lab.context.name: other}
