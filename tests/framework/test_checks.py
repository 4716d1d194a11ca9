"""A capstone's checks (V1-16, V2-17): one failure state per check, named and titled from its key,
shown in the checks' order while the check fails; the verdict counts what passes."""

from pylabs.framework.checks import Checks

CHECKS = Checks({"memory": "Fits in 80 GB", "latency": "P99 under 500 ms", "cost": "At most $10B"}, act=2)


def test_each_check_has_a_failure_state_named_for_its_act_and_key():
    assert [(f.name, f.title, f.act) for f in CHECKS.failures] == [
        ("a2_memory", "Check failed: Fits in 80 GB", 2),
        ("a2_latency", "Check failed: P99 under 500 ms", 2),
        ("a2_cost", "Check failed: At most $10B", 2),
    ]


def test_only_failing_checks_show_in_order_each_with_its_lever():
    ok = {"memory": False, "latency": True, "cost": False}
    shown = [str(part) for part in CHECKS.failing(ok, {"memory": "Shard it.", "latency": "-", "cost": "Batch more."})]
    assert len(shown) == 2
    assert 'data-failure="a2_memory"' in shown[0] and "Shard it." in shown[0]
    assert 'data-failure="a2_cost"' in shown[1] and "Batch more." in shown[1]


def test_tones_follow_each_check():
    assert Checks.tones({"memory": True, "cost": False}) == {"memory": "good", "cost": "danger"}


def test_the_verdict_counts_the_checks_that_pass_until_all_do():
    partial = str(Checks.verdict({"memory": True, "cost": False}, "Feasible", "All met.", "Move a lever."))
    assert "pl-callout--info" in partial and "1 of 2 checks pass" in partial and "Move a lever." in partial
    whole = str(Checks.verdict({"memory": True, "cost": True}, "Feasible", "All met.", "Move a lever."))
    assert "pl-callout--success" in whole and "Feasible" in whole and "All met." in whole
