"""The constants registry: every entry cited, names visible, values as the labs' golden vectors fix them."""

import ast
import dataclasses
import math
import types
from pathlib import Path

import pytest

from pylabs.physics import constants
from pylabs.physics.constants import REGISTRY, Spec, register

CONSTANTS_DIR = Path(constants.__file__).parent  # the package: one module per topic
API_VALUES = {
    "H100_PEAK_BF16_DENSE": 989.4e12,
    "H100_HBM_BYTES": 80e9,
    "H100_HBM_BW": 3.35e12,
    "H100_TDP_W": 700.0,
    "NVLINK4_BW": 450e9,
    "IB_NDR_BW": 50e9,
    "IB_HDR_BW": 25e9,
    "PCIE4_X16_BW": 16e9 * 16 * 128 / 130 / 8,
    "PCIE5_X16_BW": 32e9 * 16 * 128 / 130 / 8,
    "ETH_100G_BW": 12.5e9,
    "DGX_H100_NICS": 8.0,
}
SI_UNITS = {"FLOP/s", "FLOP", "B", "B/s", "W", "s", "1", "params", "tokens", "layers",
            "heads", "GPUs", "NICs", "sequences", "h/year", "1/s",
            "kg/J",  # carbon intensity (V2-15): kg CO2e per joule
            "EUR",   # regulatory fines (V2-16)
            "OP/s", "Hz", "J", "m/s",  # integer/unstated-precision rates, clocks, battery energy (Vol I)
            "MAC",     # multiply-accumulates of a model's forward pass, 2 operations each (V1-01, V1-04)
            "USD/GB"}  # cloud transfer prices per decimal GB (V1-04)


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_entry_has_a_unit_and_a_source(name: str) -> None:
    spec = REGISTRY[name]
    assert spec.unit.strip(), f"{name} has no unit"
    assert spec.source.strip(), f"{name} has no source"


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_value_is_a_positive_finite_float(name: str) -> None:
    value = REGISTRY[name].value
    assert isinstance(value, float), f"{name} is {type(value).__name__}, not float"
    assert math.isfinite(value) and value > 0


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_unit_is_from_the_si_list(name: str) -> None:
    assert REGISTRY[name].unit in SI_UNITS


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_module_level_name_equals_registry_value(name: str) -> None:
    assert getattr(constants, name) == REGISTRY[name].value


def test_every_uppercase_module_float_is_registered() -> None:
    public_floats = {name for name, value in vars(constants).items()
                     if name.isupper() and not name.startswith("_") and isinstance(value, float)}
    assert public_floats == set(REGISTRY)


def spec_assignments() -> list[str]:
    """Every ``NAME = spec(...)`` in the topic modules, one entry per assignment."""
    names = []
    for path in sorted(CONSTANTS_DIR.glob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                    and getattr(node.value.func, "id", "") == "spec"):
                names += [target.id for target in node.targets]
    return names


def test_each_name_is_written_once_as_a_spec_call() -> None:
    names = spec_assignments()
    assert sorted(names) == sorted(REGISTRY), "each constant is NAME = spec(...) once, in one topic module"


def test_register_refuses_a_capital_float_typed_without_spec() -> None:
    topic = types.ModuleType("a_topic")
    topic.SOMETHING_W = 3.0
    with pytest.raises(ValueError, match="NAME = spec"):
        register(topic)


@pytest.mark.parametrize("name, value", sorted(API_VALUES.items()))
def test_api_table_value(name: str, value: float) -> None:
    assert REGISTRY[name].value == pytest.approx(value, rel=1e-15)


def test_spec_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        REGISTRY["NVLINK4_BW"].value = 900e9  # type: ignore[misc]


def test_spec_defaults_url_and_note_to_empty() -> None:
    spec = Spec(1.0, "s", "a source")
    assert (spec.url, spec.note) == ("", "")


def test_urls_are_public_https_links() -> None:
    for name, spec in REGISTRY.items():
        assert spec.url == "" or spec.url.startswith("https://"), name


def test_dense_peak_is_half_the_sparse_figure() -> None:
    assert constants.H100_PEAK_BF16_SPARSE / constants.H100_PEAK_BF16_DENSE == pytest.approx(
        2, rel=1e-3)


def test_llama3_compute_is_six_n_d() -> None:
    expected = 6 * constants.LLAMA3_70B_PARAMS * constants.LLAMA3_70B_TOKENS
    assert constants.LLAMA3_70B_TRAIN_FLOPS == pytest.approx(expected, rel=1e-12)


def test_adam_state_is_weights_grads_and_optimizer() -> None:
    parts = 2 * constants.BYTES_PER_BF16 + constants.ADAM_OPTIMIZER_BYTES_PER_PARAM
    assert constants.ADAM_MIXED_PRECISION_BYTES_PER_PARAM == parts


def test_megatron_gpt3_run_is_data_parallel_eight() -> None:
    model_parallel = constants.MEGATRON_GPT3_TP * constants.MEGATRON_GPT3_PP
    assert constants.MEGATRON_GPT3_GPUS / model_parallel == 8


def test_dgx_node_egress_is_eight_ndr_ports() -> None:
    assert constants.DGX_H100_NICS * constants.IB_NDR_BW == 400e9


def test_hours_per_year() -> None:
    assert constants.HOURS_PER_YEAR == 365 * 24
