import pytest

from pylabs.physics.references import REFERENCES, UnknownReference, cite


def test_every_reference_has_a_public_url():
    assert all(ref.url.startswith("https://") for ref in REFERENCES.values())


def test_cite_formats_the_note():
    assert cite("kaplan2020", "C = 6ND") == "Kaplan et al. 2020, *Scaling Laws for Neural Language Models* (C = 6ND)."


def test_unknown_key_names_the_known_ones():
    with pytest.raises(UnknownReference, match="no reference 'nope'; known: "):
        cite("nope")
