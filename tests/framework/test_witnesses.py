"""A failure's witnesses are checked when its lab is declared: they move the lab's own instrument
controls to values those controls take as given, in contexts the lab has."""

import dataclasses

import pytest

from pylabs.framework.components import FailureSpec
from pylabs.framework.lab import LabError
from pylabs.labs import get


def with_failure(**witness):
    lab = get("v2_11")
    spec = FailureSpec("a2_extra", "A failure for the test", act=2, **witness)
    return dataclasses.replace(lab, failures=lab.failures + (spec,))


def test_a_witness_over_the_labs_controls_is_accepted():
    lab = with_failure(reach={"a2_clients": "100000"}, leave={"a2_z": 1.1}, contexts=("server",))
    assert lab.failures[-1].reach == {"a2_clients": "100000"}


@pytest.mark.parametrize("witness", [
    {"reach": {"nope": 1}},                          # not a control of the lab
    {"leave": {"context": "gboard"}},                # the context is not an instrument: say contexts=
    {"reach": {"a2_clients": "12345"}},              # not one of the choice's options
    {"leave": {"a2_z": 99.0}},                       # outside the slider: it would be clamped
    {"reach": {}, "leave": {"a2_z": 1.1}, "contexts": ("moon",)},
])
def test_a_witness_the_lab_cannot_follow_is_a_declaration_error(witness):
    with pytest.raises(LabError):
        with_failure(**witness)


def test_witnesses_do_not_make_a_failure_unhashable():
    assert hash(FailureSpec("a", "A", act=1, reach={"x": 1})) == hash(FailureSpec("a", "A", act=1))
