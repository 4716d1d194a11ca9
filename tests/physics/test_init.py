"""Package-wide contracts of pylabs.physics: stdlib only, cited formulas, the signatures the labs call."""

import ast
import importlib
import inspect
import sys
from pathlib import Path

import pytest

import pylabs.physics

PHYSICS_DIR = Path(pylabs.physics.__file__).parent
FORMULA_MODULES = ("collectives", "training", "pipeline", "amdahl", "scaling", "economics",
                   "queueing")

# Names and parameters the labs call (defaults included); a change here is a change to every caller.
API_SIGNATURES = {
    "collectives": {
        "ring_allreduce_s": "(size_bytes, p, bw, alpha_s=0.0)",
        "rabenseifner_allreduce_s": "(size_bytes, p, bw, alpha_s=0.0)",
        "recursive_doubling_allreduce_s": "(size_bytes, p, bw, alpha_s=0.0)",
        "binomial_tree_allreduce_s": "(size_bytes, p, bw, alpha_s=0.0)",
        "reduce_scatter_halving_s": "(size_bytes, p, bw, alpha_s=0.0)",
        "naive_master_allreduce_s": "(size_bytes, p, bw, alpha_s=0.0, pipelined=False)",
        "busbw": "(size_bytes, time_s, p)",
        "ring_binomial_crossover_bytes": "(p, alpha_s, bw)",
        "hierarchical_allreduce_s":
            "(size_bytes, gpus_per_node, nodes, intra_bw, nic_bw, nics_per_node)",
    },
    "training": {
        "train_flops": "(params, tokens)",
        "compute_time_s": "(params, tokens, peak_flops, mfu)",
        "dp_comm_compute_ratio":
            "(tokens_per_gpu, gpus, bw, peak_flops, mfu, bytes_per_grad=2)",
        "dp_critical_tokens": "(gpus, bw, peak_flops, mfu, bytes_per_grad=2)",
        "zero_bytes_per_param": "(stage, dp)",
        "model_state_bytes": "(params, tp, pp, dp, zero_stage)",
        "activation_bytes_per_layer":
            "(seq, micro_batch, hidden, heads, tp=1, mode='full_tp_sp')",
        "mfu": "(tokens_per_s, params, gpus, peak_flops)",
    },
    "pipeline": {
        "bubble_over_ideal": "(pp, microbatches, interleave=1)",
        "bubble_fraction_of_step": "(pp, microbatches, interleave=1)",
        "microbatch_count": "(global_batch, dp, micro_batch)",
        "tp_comm_per_layer_s": "(seq, micro_batch, hidden, tp, bw, bytes_per_value=2)",
    },
    "amdahl": {
        "amdahl_speedup": "(fraction, factor)",
        "amdahl_multi": "(fractions, factors)",
        "time_reduction": "(fraction, factor)",
        "amdahl_ceiling": "(fraction)",
    },
    "scaling": {
        "time_to_train_s": "(flops, gpus, peak_flops, mfu)",
        "strong_scaling_speedup": "(gpus, t_compute_one_gpu_s, t_comm_s)",
    },
    "economics": {
        "tco_on_demand_usd": "(gpus, utilization, years, usd_per_gpu_hour)",
        "tco_reserved_usd": "(gpus, years, usd_per_gpu_hour, discount)",
        "tco_on_prem_usd": "(gpus, utilization, years, capex_per_gpu, kw_max, kw_idle, pue, "
                           "usd_per_kwh, staff_usd_per_gpu_year)",
        "breakeven_reserved_vs_on_demand": "(discount)",
        "breakeven_on_prem_vs_on_demand": "(gpus, years, usd_per_gpu_hour, capex_per_gpu, "
                                          "kw_max, kw_idle, pue, usd_per_kwh, "
                                          "staff_usd_per_gpu_year)",
    },
}


def _bare_signature(fn) -> str:
    params = [param.replace(annotation=inspect.Parameter.empty)
              for param in inspect.signature(fn).parameters.values()]
    return str(inspect.Signature(params))


def _public_functions(module_name: str):
    module = importlib.import_module(f"pylabs.physics.{module_name}")
    return [(name, fn) for name, fn in inspect.getmembers(module, inspect.isfunction)
            if not name.startswith("_") and fn.__module__ == module.__name__]


def _imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.add("." if node.level else node.module or "")
    return names


@pytest.mark.parametrize("path", sorted(PHYSICS_DIR.glob("*.py")), ids=lambda path: path.name)
def test_physics_modules_import_only_the_standard_library(path: Path) -> None:
    for module in _imported_modules(path):
        if module == "." or module.startswith("pylabs.physics"):
            continue
        assert module.split(".")[0] in sys.stdlib_module_names, (
            f"{path.name} imports {module}, which is not in the standard library")


@pytest.mark.parametrize(
    "module_name, name, signature",
    [(module, name, sig) for module, names in API_SIGNATURES.items()
     for name, sig in names.items()],
)
def test_api_md_signature(module_name: str, name: str, signature: str) -> None:
    module = importlib.import_module(f"pylabs.physics.{module_name}")
    assert _bare_signature(getattr(module, name)) == signature


@pytest.mark.parametrize("module_name", FORMULA_MODULES)
def test_every_public_function_states_formula_and_source(module_name: str) -> None:
    for name, fn in _public_functions(module_name):
        doc = inspect.getdoc(fn) or ""
        lines = doc.splitlines()
        assert lines and lines[0].strip(), f"{module_name}.{name} has no formula line"
        assert any(line.startswith("Source:") for line in lines), (
            f"{module_name}.{name} has no 'Source:' line")


def test_package_import_does_not_load_submodules_eagerly() -> None:
    source = (PHYSICS_DIR / "__init__.py").read_text()
    assert not _imported_modules(PHYSICS_DIR / "__init__.py"), source[:80]
