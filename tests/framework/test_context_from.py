"""A lab whose context starts from an earlier lab's choice (Volume I's V1-00 track)."""

import json

import pytest

import dataclasses

from pylabs.framework.render import context_picker
from pylabs.labs import all_labs, get
from pylabs.labs.vol1 import contexts


def lab_with_track(values=("cloud", "tiny")):
    """V2-02 given Volume I's context and a track to start from (not registered anywhere); its
    failures' witnesses no longer name contexts it has."""
    base = get("v2_02")
    lab = dataclasses.replace(base, context=contexts.deployment(values), context_from=contexts.TRACK,
                              failures=tuple(dataclasses.replace(f, contexts=()) for f in base.failures))
    return lab


def earlier(track):
    return {"v1_00": {"controls": {"track": track}, "results": {}, "complete": True}}


def test_the_earlier_lab_is_read():
    assert "v1_00" in lab_with_track().reads


def test_a_new_attempt_starts_in_the_chosen_track():
    lab = lab_with_track()
    assert lab.context_defaults(earlier("tiny")) == {"context": "tiny"}


@pytest.mark.parametrize("raw", [{}, earlier("mobile"), {"v1_00": "junk"}, {"v1_00": {"controls": []}},
                                 earlier(None)])
def test_no_track_or_one_the_lab_lacks_keeps_the_lab_default(raw):
    assert lab_with_track().context_defaults(raw) == {}


def test_the_picker_says_where_the_context_came_from():
    lab = lab_with_track()
    state = lab.parse({"controls": {"context": "tiny"}, "earlier": earlier("tiny")})
    assert "the context you chose in Lab 00" in str(context_picker(lab, state))
    other = lab.parse({"controls": {"context": "cloud"}, "earlier": earlier("tiny")})
    assert "you chose in Lab 00" not in str(context_picker(lab, other))


def test_the_bridge_returns_the_defaults_with_the_ledger(monkeypatch):
    from pylabs import bridge, ledger
    lab = lab_with_track()
    monkeypatch.setattr(bridge, "get", lambda lab_id: lab)
    monkeypatch.setattr(ledger, "latest_attempt",
                        lambda current, lab_id: {"controls": {"track": "tiny"}, "results": {}, "complete": True})
    opened = json.loads(bridge.ledger_open(None, "v1_01"))
    assert opened["defaults"] == {"context": "tiny"}


def test_deployment_keeps_the_canonical_order_and_refuses_unknown_contexts():
    assert contexts.deployment(("tiny", "cloud")).values == ("cloud", "tiny")
    with pytest.raises(ValueError):
        contexts.deployment(("cloud", "datacentre"))
    assert contexts.device("edge").name.startswith("NVIDIA Jetson Orin NX")


def test_deployment_labels_may_name_another_device_but_not_another_context():
    choice = contexts.deployment(("cloud", "edge"), labels={"cloud": "Cloud (NVIDIA A100)"})
    assert choice.values == ("cloud", "edge")
    assert choice.label_of("cloud") == "Cloud (NVIDIA A100)"
    assert choice.label_of("edge") == contexts.LABELS["edge"]
    with pytest.raises(ValueError):
        contexts.deployment(("cloud",), labels={"datacentre": "x"})


def test_a_capstone_starts_from_earlier_decisions_that_its_controls_accept():
    base = get("v2_02")
    from pylabs.framework.controls import Slider
    slider = next(c for c in base.controls if isinstance(c, Slider))
    lab = dataclasses.replace(base, defaults_from={slider.name: ("v2_01", "a2_price")})
    assert "v2_01" in lab.reads
    inside = {"v2_01": {"controls": {"a2_price": slider.default}, "results": {}, "complete": True}}
    assert lab.earlier_defaults(inside) == {slider.name: slider.default}
    outside = {"v2_01": {"controls": {"a2_price": slider.max * 10}, "results": {}, "complete": True}}
    assert lab.earlier_defaults(outside) == {}
    assert lab.earlier_defaults({}) == {}


def test_defaults_from_an_unknown_control_is_a_declaration_error():
    from pylabs.framework.lab import LabError
    with pytest.raises(LabError):
        dataclasses.replace(get("v2_02"), defaults_from={"nope": ("v2_01", "a2_price")})


def test_a_half_done_earlier_lab_sets_no_default():
    """V1-00 records its track control's default even when the student never reached it."""
    lab = lab_with_track()
    half = {"v1_00": {"controls": {"track": "tiny"}, "results": {}, "complete": False}}
    assert lab.earlier_defaults(half) == {}
def test_a_context_read_from_the_ledger_brings_its_presets():
    """Opening in the student's track sets what picking that context would set; nothing else."""
    lab = dataclasses.replace(lab_with_track(), presets={"context": {"tiny": {"a1_tokens": 1024.0}}})
    assert lab.earlier_defaults(earlier("tiny")) == {"context": "tiny", "a1_tokens": 1024.0}
    assert lab.earlier_defaults(earlier("cloud")) == {"context": "cloud"}
    assert lab.earlier_defaults({}) == {}



TRACK_LABS = [lab for lab in all_labs() if lab.context_from == contexts.TRACK]
TRACKS = get("v1_00").control("track").values


def test_volume_one_opens_in_the_track():
    assert len(TRACK_LABS) >= 12, [lab.id for lab in TRACK_LABS]


@pytest.mark.parametrize("lab", TRACK_LABS, ids=lambda lab: lab.id)
@pytest.mark.parametrize("track", TRACKS)
def test_a_lab_opens_in_the_chosen_track_when_it_offers_it(lab, track):
    """Every lab that reads the V1-00 track: a new attempt starts in it when the lab's context has it,
    and in the lab's own default when it does not."""
    expected = {"context": track} if track in lab.context.values else {}
    assert lab.context_defaults(earlier(track)) == expected


def test_a_track_the_lab_does_not_offer_is_explained_on_the_page_never_silently():
    note = "This lab compares two datacentre fabrics, so it opens in **Cloud**: an MCU has no network to scale."
    lab = dataclasses.replace(lab_with_track(), track_notes={"mobile": note})
    shown = str(context_picker(lab, lab.parse({"earlier": earlier("mobile")})))
    assert 'data-track-note="mobile"' in shown and "<strong>Cloud</strong>" in shown
    assert "data-track-note" not in str(context_picker(lab, lab.parse({"earlier": earlier("tiny")})))
    assert "data-track-note" not in str(context_picker(lab, lab.parse({})))
