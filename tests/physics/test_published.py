"""Published and audited figures, reproduced by pylabs.physics with relative-error asserts.

Each row names its source, the figure, the value as the source quotes it, and how to
compute it. A quoted figure is a rounding of the true value, so the tolerance is half a
unit in its last quoted digit (6 significant figures -> at most 5e-6 relative); figures
that are exact by construction use 1e-12. A row sourced to a lab note under handbook/labs/ is one of that note's golden
vectors.
"""

import math
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from pylabs.physics import amdahl, collectives, economics, pipeline, scaling, training
from pylabs.physics.constants import (
    A100_PEAK_BF16_DENSE,
    ETH_100G_BW,
    GPT4_TRAIN_FLOPS,
    H100_HBM_BW,
    H100_PEAK_BF16_DENSE,
    HOURS_PER_YEAR,
    IB_ALPHA_S,
    IB_NDR_BW,
    LLAMA3_70B_PARAMS,
    LLAMA3_70B_TOKENS,
    LLAMA3_70B_TRAIN_FLOPS,
    NVLINK4_BW,
    PCIE4_X16_BW,
    PCIE5_X16_BW,
)

C = H100_PEAK_BF16_DENSE
DAY_S = 86400.0
YEAR_S = HOURS_PER_YEAR * 3600.0
EXACT_REL = 1e-12


@dataclass(frozen=True)
class Row:
    """One published figure: where it is from, what it is, the quoted value, the model."""

    source: str
    figure: str
    quoted: str
    compute: Callable[[], float]
    exact: bool = False

    @property
    def expected(self) -> float:
        return float(self.quoted.replace(",", ""))

    @property
    def rel(self) -> float:
        """Half a unit in the last significant quoted digit, relative (or EXACT_REL)."""
        if self.exact:
            return EXACT_REL
        mantissa, _, exponent = self.quoted.replace(",", "").lower().partition("e")
        whole, point, decimals = mantissa.partition(".")
        # 1,498,050 is quoted to 6 figures: trailing zeros of an integer are placeholders.
        last_place = -len(decimals) if point else len(whole) - len(whole.rstrip("0"))
        half_unit = 0.5 * 10.0 ** (int(exponent or 0) + last_place)
        return half_unit / abs(self.expected) + EXACT_REL


# ---- helpers that chain the public functions the way the labs do ----


def dgx_allreduce_s(size_bytes: float, nodes: int, nics: int = 8) -> float:
    """Gradient all-reduce on DGX H100 nodes: NVLink inside, NDR rails between nodes."""
    return collectives.hierarchical_allreduce_s(size_bytes, 8, nodes, NVLINK4_BW, IB_NDR_BW, nics)


def dp_efficiency(bw: float) -> float:
    """13B, 4,096 tokens/GPU, 8 GPUs, ring over one link type: T_comp / (T_comp + T_AR)."""
    return 1 / (1 + training.dp_comm_compute_ratio(4096, 8, bw, C, 0.45))


def dp_slowdown(bw: float) -> float:
    """Step time over the NVLink step time, same 13B / 4,096-token setup."""
    return dp_efficiency(NVLINK4_BW) / dp_efficiency(bw)


def weak_scaling_13b(nics: int) -> float:
    """13B, 3,072 tokens/GPU, 16 DGX nodes against one node (handbook/labs/v2_02.md §2)."""
    compute_s = training.compute_time_s(13e9, 3072, C, 0.45)
    one_node_s = compute_s + dgx_allreduce_s(26e9, 1)
    sixteen_s = compute_s + dgx_allreduce_s(26e9, 16, nics)
    return scaling.weak_scaling_speedup(16, one_node_s, sixteen_s)


def strong_speedup_13b(nodes: int, global_tokens: float) -> float:
    """13B at a fixed global batch, speedup against one GPU with no communication."""
    t1_s = training.compute_time_s(13e9, global_tokens, C, 0.45)
    return scaling.strong_scaling_speedup(8 * nodes, t1_s, dgx_allreduce_s(26e9, nodes))


def strong_vs_one_node_13b(nodes: int) -> float:
    """handbook/labs/v2_02.md §2: strong scaling, 13B, G = 262,144 tokens, 8 rails, against one node."""
    return strong_speedup_13b(nodes, 262144) / strong_speedup_13b(1, 262144)


def act1_mfu_7b(gpus: int, global_tokens: float) -> float:
    """handbook/labs/v2_05.md §2 Act I: 7B, fixed global batch, u_ref = 0.52, DGX fabric."""
    compute_s = training.compute_time_s(7e9, global_tokens / gpus, C, 0.52)
    return training.mfu_with_exposed_comm(0.52, compute_s, dgx_allreduce_s(14e9, gpus // 8))


def seed_on_prem(utilization: float) -> float:
    """handbook/labs/v2_01.md §2 seed assumptions: $40k/GPU, 0.7 kW, 0 idle, PUE 1.4, $0.10/kWh, $2k staff."""
    return economics.tco_on_prem_usd(1000, utilization, 3, 40000, 0.7, 0, 1.4, 0.10, 2000)


def seed_breakeven(price: float) -> float:
    return economics.breakeven_on_prem_vs_on_demand(1000, 3, price, 40000, 0.7, 0, 1.4, 0.10, 2000)


def corrected_breakeven(price: float) -> float:
    """handbook/labs/v2_01.md §2 corrected (unsourced) on-prem: $55k, 1.275 kW max, 0.3 kW idle, PUE 1.3."""
    return economics.breakeven_on_prem_vs_on_demand(
        1000, 3, price, 55000, 1.275, 0.3, 1.3, 0.10, 2000
    )


def gpt3_first_stage_activations(tp: int, mode: str) -> float:
    return training.first_stage_activation_bytes(2048, 1, 12288, 96, 96, tp, mode)


def v209_mfu(microbatches: float, ar_factor: float) -> float:
    """V2-09 Act II profile (compute .45, AR .30, bubble .15 at m=4, data .10) x 35 % MFU."""
    factors = [1, ar_factor, microbatches / 4, 1]
    return 0.35 * amdahl.amdahl_multi([0.45, 0.30, 0.15, 0.10], factors)


def collective_table_rows() -> list[Row]:
    """handbook/labs/v2_06.md §2: 4 message sizes x 6 algorithms at p=128, alpha=1.5 us, B=50 GB/s."""
    table = {
        1e6: ("420.688e-6", "60.6875e-6", "150.5e-6", "301e-6", "30.34e-6", "5.461e-3"),
        14e9: ("0.556006", "0.555646", "1.96001", "3.92002", "0.277823", "71.12"),
        280e9: ("11.1129", "11.1125", "39.2", "78.4", "5.55626", "1422.4"),
        350e9: ("13.891", "13.8906", "49.0", "98.0", "6.945", "1778"),
    }
    algorithms = (
        ("ring", collectives.ring_allreduce_s),
        ("Rabenseifner", collectives.rabenseifner_allreduce_s),
        ("recursive doubling", collectives.recursive_doubling_allreduce_s),
        ("binomial", collectives.binomial_tree_allreduce_s),
        ("RH reduce-scatter", collectives.reduce_scatter_halving_s),
        ("naive serial", collectives.naive_master_allreduce_s),
    )
    rows = []
    for size, quoted_row in table.items():
        for (name, fn), quoted in zip(algorithms, quoted_row):
            rows.append(Row(
                "handbook/labs/v2_06.md §2 (Thakur et al. 2005)", f"{name}, {size:g} B, p=128 (s)", quoted,
                lambda fn=fn, size=size: fn(size, 128, 50e9, IB_ALPHA_S),
            ))
    return rows


API_ROWS = [
    Row("handbook/labs/v2_06.md §4", "ring 140 GB p=8 NVLink (s)", "0.544444",
        lambda: collectives.ring_allreduce_s(140e9, 8, 450e9)),
    Row("handbook/labs/v2_06.md §4", "Rabenseifner 1 MB p=128 (s)", "60.6875e-6",
        lambda: collectives.rabenseifner_allreduce_s(1e6, 128, 50e9, 1.5e-6)),
    Row("handbook/labs/v2_05.md §4", "model state 175B TP8 PP4 DP32 ZeRO-1 (B)", "23.9258e9",
        lambda: training.model_state_bytes(175e9, 8, 4, 32, 1)),
    Row("handbook/labs/v2_01.md §4", "6.3e24 FLOP on 4,096 H100 at 45 % (days)", "39.98",
        lambda: scaling.time_to_train_s(6.3e24, 4096, 989.4e12, 0.45) / DAY_S),
]

V2_02_ROWS = [
    Row("handbook/labs/v2_02.md §2", "ring 26 GB p=8 over PCIe 4.0 x16 (s)", "1.44409",
        lambda: collectives.ring_allreduce_s(26e9, 8, PCIE4_X16_BW)),
    Row("handbook/labs/v2_02.md §2", "hierarchical 26 GB, 16 nodes, 8 NDR rails (s)", "0.222986",
        lambda: dgx_allreduce_s(26e9, 16, 8)),
    Row("handbook/labs/v2_02.md §2", "hierarchical 26 GB, 16 nodes, 1 NDR NIC (s)", "1.07611",
        lambda: dgx_allreduce_s(26e9, 16, 1)),
    Row("handbook/labs/v2_02.md §2", "hierarchical 26 GB, one node (s)", "0.101111",
        lambda: dgx_allreduce_s(26e9, 1)),
    Row("handbook/labs/v2_02.md §2", "compute 13B x 4,096 tokens at 45 % (s)", "0.717580",
        lambda: training.compute_time_s(13e9, 4096, C, 0.45)),
    Row("handbook/labs/v2_02.md §2", "DP critical tokens, n=8, NVLink", "577.15",
        lambda: training.dp_critical_tokens(8, 450e9, C, 0.45)),
    Row("handbook/labs/v2_02.md §2", "DP critical tokens, n=8, NDR", "5,194.35",
        lambda: training.dp_critical_tokens(8, 50e9, C, 0.45)),
    Row("handbook/labs/v2_02.md §2", "DP comm/compute, t=4,096, n=8, NVLink", "0.140906",
        lambda: training.dp_comm_compute_ratio(4096, 8, 450e9, C, 0.45)),
    Row("handbook/labs/v2_02.md §2", "weak scaling 13B, 16 nodes, 1 NIC", "6.34", lambda: weak_scaling_13b(1)),
    Row("handbook/labs/v2_02.md §2", "weak scaling 13B, 16 nodes, 8 rails", "13.44", lambda: weak_scaling_13b(8)),
    Row("handbook/labs/v2_02.md §2", "strong scaling 13B, G=262,144, 16 nodes", "10.04",
        lambda: strong_vs_one_node_13b(16)),
    Row("handbook/labs/v2_02.md §2", "strong scaling efficiency, 16 nodes", "0.628",
        lambda: strong_vs_one_node_13b(16) / 16),
    Row("handbook/labs/v2_02.md §2", "strong scaling 13B, G=262,144, 64 nodes", "18.33",
        lambda: strong_vs_one_node_13b(64)),
    Row("handbook/labs/v2_02.md §2", "strong scaling efficiency, 64 nodes", "0.286",
        lambda: strong_vs_one_node_13b(64) / 64),
    Row("handbook/labs/v2_02.md §2", "ZeRO stage 0 bytes/param", "16",
        lambda: training.zero_bytes_per_param(0, 1), exact=True),
    Row("handbook/labs/v2_02.md §2", "ZeRO stage 1 bytes/param, N_d=32", "4.375",
        lambda: training.zero_bytes_per_param(1, 32), exact=True),
    Row("handbook/labs/v2_02.md §2", "NVLink / PCIe 4.0 x16 bandwidth", "14.3",
        lambda: NVLINK4_BW / PCIE4_X16_BW),
    Row("handbook/labs/v2_02.md §2", "NVLink / PCIe 5.0 x16 bandwidth", "7.1",
        lambda: NVLINK4_BW / PCIE5_X16_BW),
    Row("handbook/labs/v2_02.md §2", "70B tokens/GPU in 2.1 s at 45 %", "2,226",
        lambda: 2.1 / training.compute_time_s(70e9, 1, C, 0.45)),
    Row("handbook/labs/v2_02.md §2", "70B, 32 x 2,048 tokens at 45 % (s)", "61.8",
        lambda: training.compute_time_s(70e9, 32 * 2048, C, 0.45)),
    Row("handbook/labs/v2_02.md §2", "70B DDP state (B)", "1120e9",
        lambda: training.model_state_bytes(70e9, 1, 1, 8, 0), exact=True),
    Row("handbook/labs/v2_02.md §4", "13B ZeRO-2 on 8 GPUs (B/GPU)", "48.75e9",
        lambda: training.model_state_bytes(13e9, 1, 1, 8, 2), exact=True),
    Row("handbook/labs/v2_02.md §4", "13B ZeRO-1 on 8 GPUs (B/GPU)", "71.5e9",
        lambda: training.model_state_bytes(13e9, 1, 1, 8, 1), exact=True),
    Row("handbook/labs/v2_02.md §4", "7B ZeRO-1 on 8 GPUs (B/GPU)", "38.5e9",
        lambda: training.model_state_bytes(7e9, 1, 1, 8, 1), exact=True),
    Row("handbook/labs/v2_02.md §4", "DP efficiency over NVLink", "0.876", lambda: dp_efficiency(NVLINK4_BW)),
    Row("handbook/labs/v2_02.md §4", "DP efficiency over PCIe 5.0", "0.498", lambda: dp_efficiency(PCIE5_X16_BW)),
    Row("handbook/labs/v2_02.md §4", "DP efficiency over PCIe 4.0", "0.332", lambda: dp_efficiency(PCIE4_X16_BW)),
    Row("handbook/labs/v2_02.md §4", "DP efficiency over 100 GbE", "0.165", lambda: dp_efficiency(ETH_100G_BW)),
    Row("handbook/labs/v2_02.md §4", "PCIe 5.0 slowdown against NVLink", "1.76",
        lambda: dp_slowdown(PCIE5_X16_BW)),
    Row("handbook/labs/v2_02.md §4", "PCIe 4.0 slowdown against NVLink", "2.64",
        lambda: dp_slowdown(PCIE4_X16_BW)),
    Row("handbook/labs/v2_02.md §4", "100 GbE slowdown against NVLink", "5.3", lambda: dp_slowdown(ETH_100G_BW)),
]

V2_06_ROWS = collective_table_rows() + [
    Row("handbook/labs/v2_06.md §2", "ring/binomial crossover p=128 (B)", "1,498,050",
        lambda: collectives.ring_binomial_crossover_bytes(128, 1.5e-6, 50e9)),
    Row("handbook/labs/v2_06.md §2", "ring/binomial crossover p=8 (B)", "141,176",
        lambda: collectives.ring_binomial_crossover_bytes(8, 1.5e-6, 50e9)),
    Row("handbook/labs/v2_06.md §2", "ring/binomial crossover p=1024 (B)", "8,440,750",
        lambda: collectives.ring_binomial_crossover_bytes(1024, 1.5e-6, 50e9)),
    Row("handbook/labs/v2_06.md §2", "ring/recursive-doubling crossover p=128 (B)", "3,693,460",
        lambda: collectives.ring_rd_crossover_bytes(128, 1.5e-6, 50e9)),
    Row("handbook/labs/v2_06.md §2", "Rabenseifner/recursive-doubling crossover p=128 (B)", "104.7e3",
        lambda: collectives.rabenseifner_rd_crossover_bytes(128, 1.5e-6, 50e9)),
    Row("handbook/labs/v2_06.md §2", "naive/ring time ratio, p=128, alpha=0", "128",
        lambda: collectives.naive_master_allreduce_s(1e9, 128, 50e9)
        / collectives.ring_allreduce_s(1e9, 128, 50e9), exact=True),
    Row("handbook/labs/v2_06.md §2", "naive/ring time ratio, p=8, alpha=0", "8",
        lambda: collectives.naive_master_allreduce_s(1e9, 8, 50e9)
        / collectives.ring_allreduce_s(1e9, 8, 50e9), exact=True),
    Row("handbook/labs/v2_06.md §2", "pipelined naive/ring time ratio, p=128", "64",
        lambda: collectives.naive_master_allreduce_s(1e9, 128, 50e9, pipelined=True)
        / collectives.ring_allreduce_s(1e9, 128, 50e9), exact=True),
    Row("handbook/labs/v2_06.md §2 / nccl-tests", "busbw, 1 GB in 4 ms on 8 GPUs (B/s)", "437.5e9",
        lambda: collectives.busbw(1e9, 4e-3, 8), exact=True),
    Row("handbook/labs/v2_06.md §4", "binomial over ring at 280 GB ('7x worse')", "7",
        lambda: collectives.binomial_tree_allreduce_s(280e9, 128, 50e9, 1.5e-6)
        / collectives.ring_allreduce_s(280e9, 128, 50e9, 1.5e-6)),
]

V2_01_ROWS = [
    Row("handbook/labs/v2_01.md §2 / scaling book", "Llama-3-70B-class compute, 6ND (FLOP)", "6.3e24",
        lambda: training.train_flops(LLAMA3_70B_PARAMS, LLAMA3_70B_TOKENS)),
    Row("handbook/labs/v2_01.md §2", "2.1e25 FLOP, 1,000 H100, 40 % (days)", "614.1",
        lambda: scaling.time_to_train_s(GPT4_TRAIN_FLOPS, 1000, C, 0.40) / DAY_S),
    Row("handbook/labs/v2_01.md §2", "2.1e25 FLOP, 25,000 A100, 35 % (days)", "89.03",
        lambda: scaling.time_to_train_s(GPT4_TRAIN_FLOPS, 25000, A100_PEAK_BF16_DENSE, 0.35)
        / DAY_S),
    Row("handbook/labs/v2_01.md §2", "T1, 13B x 262,144 tokens on one GPU (s)", "45.925",
        lambda: training.compute_time_s(13e9, 262144, C, 0.45)),
    Row("handbook/labs/v2_01.md §2", "T_comm, 26 GB on 128 DGX nodes (s)", "0.230095",
        lambda: dgx_allreduce_s(26e9, 128)),
    Row("handbook/labs/v2_01.md §2", "strong scaling, 1,024 GPUs, G=262,144", "167.03",
        lambda: strong_speedup_13b(128, 262144)),
    Row("handbook/labs/v2_01.md §2", "strong scaling efficiency, 1,024 GPUs, G=262,144", "0.163",
        lambda: strong_speedup_13b(128, 262144) / 1024),
    Row("handbook/labs/v2_01.md §2", "T1, 13B x 4,194,304 tokens on one GPU (s)", "734.80",
        lambda: training.compute_time_s(13e9, 4194304, C, 0.45)),
    Row("handbook/labs/v2_01.md §2", "strong scaling, 1,024 GPUs, G=4,194,304", "775.37",
        lambda: strong_speedup_13b(128, 4194304)),
    Row("handbook/labs/v2_01.md §2", "strong scaling efficiency, 1,024 GPUs, G=4,194,304", "0.757",
        lambda: strong_speedup_13b(128, 4194304) / 1024),
    Row("handbook/labs/v2_01.md §2", "on-demand TCO (USD)", "33,112,800",
        lambda: economics.tco_on_demand_usd(1000, 0.6, 3, 2.10)),
    Row("handbook/labs/v2_01.md §2", "reserved TCO (USD)", "35,872,200",
        lambda: economics.tco_reserved_usd(1000, 3, 2.10, 0.35)),
    Row("handbook/labs/v2_01.md §2", "on-prem TCO, seed assumptions (USD)", "47,545,264",
        lambda: seed_on_prem(0.6)),
    Row("handbook/labs/v2_01.md §2", "on-prem vs on-demand breakeven, seed", "0.874316",
        lambda: seed_breakeven(2.10)),
    Row("handbook/labs/v2_01.md §2", "reserved vs on-demand breakeven", "0.65",
        lambda: economics.breakeven_reserved_vs_on_demand(0.35), exact=True),
    Row("handbook/labs/v2_01.md §2", "corrected on-prem TCO at U=0.6 (USD)", "64.02e6",
        lambda: economics.tco_on_prem_usd(1000, 0.6, 3, 55000, 1.275, 0.3, 1.3, 0.10, 2000)),
    Row("handbook/labs/v2_01.md §2", "corrected on-prem breakeven at $2.10", "1.196",
        lambda: corrected_breakeven(2.10)),
    Row("handbook/labs/v2_01.md §2", "corrected on-prem breakeven at $4.00", "0.609",
        lambda: corrected_breakeven(4.00)),
    Row("handbook/labs/v2_01.md §2 / PaLM App. B", "palm_mfu, 1e6 tok/s, 70B, 1,024 GPUs", "0.44634",
        lambda: training.palm_mfu(1e6, 70e9, 1024, C, 80, 64, 128, 4096)),
    Row("handbook/labs/v2_01.md §2", "2.2e24 FLOP on one H100 at 50 % (years)", "141.0",
        lambda: scaling.time_to_train_s(2.2e24, 1, C, 0.5) / YEAR_S),
    Row("handbook/labs/v2_01.md §2", "2.1e25 FLOP on one H100 at 50 % (years)", "1,346",
        lambda: scaling.time_to_train_s(GPT4_TRAIN_FLOPS, 1, C, 0.5) / YEAR_S),
    Row("handbook/labs/v2_01.md §2", "seed on-prem at U=0.5 (USD)", "47.29e6", lambda: seed_on_prem(0.5)),
    Row("handbook/labs/v2_01.md §2", "seed on-prem at U=1.0 (USD)", "48.58e6", lambda: seed_on_prem(1.0)),
    Row("handbook/labs/v2_01.md §4", "seed on-prem breakeven at $4.00 ('~45 %')", "0.45",
        lambda: seed_breakeven(4.00)),
    Row("handbook/labs/v2_01.md §4", "6.3e24 FLOP on one H100 at 45 % (years)", "448.7",
        lambda: scaling.time_to_train_s(LLAMA3_70B_TRAIN_FLOPS, 1, C, 0.45) / YEAR_S),
    Row("handbook/labs/v2_01.md §4", "6.3e24 FLOP on 1,000 H100 at 45 % (days)", "163.8",
        lambda: scaling.time_to_train_s(LLAMA3_70B_TRAIN_FLOPS, 1000, C, 0.45) / DAY_S),
    Row("handbook/labs/v2_01.md §4", "6.3e24 FLOP on 1,000 H100 at 45 % (years)", "0.449",
        lambda: scaling.time_to_train_s(LLAMA3_70B_TRAIN_FLOPS, 1000, C, 0.45) / YEAR_S),
]

V2_05_ROWS = [
    Row("handbook/labs/v2_05.md §2", "model state 175B TP8 PP4 DP32 ZeRO-0 (B)", "87.5e9",
        lambda: training.model_state_bytes(175e9, 8, 4, 32, 0), exact=True),
    Row("handbook/labs/v2_05.md §2", "model state 175B TP8 PP16 DP8 ZeRO-0 (B)", "21.875e9",
        lambda: training.model_state_bytes(175e9, 8, 16, 8, 0), exact=True),
    Row("handbook/labs/v2_05.md §2 / Korthikanti 2022", "GPT-3 first stage, selective, TP8 (B)", "10.2677e9",
        lambda: gpt3_first_stage_activations(8, "selective_tp_sp")),
    Row("handbook/labs/v2_05.md §2 / Korthikanti 2022", "GPT-3 per layer, selective, TP8 (B)", "106.95e6",
        lambda: training.activation_bytes_per_layer(2048, 1, 12288, 96, 8, "selective_tp_sp")),
    Row("handbook/labs/v2_05.md §2 / Korthikanti 2022", "GPT-3 first stage, full TP+SP, TP8 (B)", "34.4268e9",
        lambda: gpt3_first_stage_activations(8, "full_tp_sp")),
    Row("handbook/labs/v2_05.md §2 / Korthikanti 2022", "GPT-3 per layer, no parallelism (B)", "2868.90e6",
        lambda: training.activation_bytes_per_layer(2048, 1, 12288, 96, 1, "none")),
    Row("handbook/labs/v2_05.md §2", "TP8 PP4 DP32 ZeRO-1, states + activations (B)", "34.2e9",
        lambda: training.model_state_bytes(175e9, 8, 4, 32, 1)
        + gpt3_first_stage_activations(8, "selective_tp_sp")),
    Row("handbook/labs/v2_05.md §4", "TP8 PP16 DP8 ZeRO-0, states + activations (B)", "32.1e9",
        lambda: training.model_state_bytes(175e9, 8, 16, 8, 0)
        + gpt3_first_stage_activations(8, "selective_tp_sp")),
    Row("handbook/labs/v2_05.md §2", "bubble over ideal (4, 8)", "0.375",
        lambda: pipeline.bubble_over_ideal(4, 8), exact=True),
    Row("handbook/labs/v2_05.md §2", "bubble fraction of step (4, 8)", "0.272727",
        lambda: pipeline.bubble_fraction_of_step(4, 8)),
    Row("handbook/labs/v2_05.md §2", "bubble over ideal (4, 48)", "0.0625",
        lambda: pipeline.bubble_over_ideal(4, 48), exact=True),
    Row("handbook/labs/v2_05.md §2", "bubble fraction of step (4, 48)", "0.0588235",
        lambda: pipeline.bubble_fraction_of_step(4, 48)),
    Row("handbook/labs/v2_05.md §2", "bubble over ideal (16, 192)", "0.078125",
        lambda: pipeline.bubble_over_ideal(16, 192), exact=True),
    Row("handbook/labs/v2_05.md §2", "bubble fraction of step (16, 192)", "0.0724638",
        lambda: pipeline.bubble_fraction_of_step(16, 192)),
    Row("handbook/labs/v2_05.md §2", "bubble over ideal (4, 8, v=2)", "0.1875",
        lambda: pipeline.bubble_over_ideal(4, 8, 2), exact=True),
    Row("handbook/labs/v2_05.md §2", "bubble over ideal (4, 30) reaches 10 %", "0.1",
        lambda: pipeline.bubble_over_ideal(4, 30), exact=True),
    Row("handbook/labs/v2_05.md §2", "bubble fraction of step (1024, 64)", "0.941",
        lambda: pipeline.bubble_fraction_of_step(1024, 64)),
    Row("handbook/labs/v2_05.md §2 / Megatron-LM", "microbatches (1536, dp 32, mbs 1)", "48",
        lambda: pipeline.microbatch_count(1536, 32, 1), exact=True),
    Row("handbook/labs/v2_05.md §2 / Megatron-LM", "microbatches (1536, dp 8, mbs 1)", "192",
        lambda: pipeline.microbatch_count(1536, 8, 1), exact=True),
    Row("handbook/labs/v2_05.md §2", "TP comm per layer, TP8, NVLink (s)", "0.782937e-3",
        lambda: pipeline.tp_comm_per_layer_s(2048, 1, 12288, 8, 450e9)),
    Row("handbook/labs/v2_05.md §2", "TP comm per layer, TP16, NDR (s)", "7.54975e-3",
        lambda: pipeline.tp_comm_per_layer_s(2048, 1, 12288, 16, 50e9)),
    Row("handbook/labs/v2_05.md §4", "cross-node TP penalty (TP16 NDR over TP8 NVLink)", "9.6",
        lambda: pipeline.tp_comm_per_layer_s(2048, 1, 12288, 16, 50e9)
        / pipeline.tp_comm_per_layer_s(2048, 1, 12288, 8, 450e9)),
    Row("handbook/labs/v2_05.md §2", "TP comm per microbatch per stage, PP4 (s)", "18.8e-3",
        lambda: 24 * pipeline.tp_comm_per_layer_s(2048, 1, 12288, 8, 450e9)),
    Row("handbook/labs/v2_05.md §2 / Narayanan 2021", "compute per layer, TP8, 50 % (s)", "5.78219e-3",
        lambda: pipeline.compute_time_per_layer_s(2048, 1, 12288, 8, C, 0.5)),
    Row("handbook/labs/v2_05.md §2 / Narayanan 2021", "compute per layer, TP16, 50 % (s)", "2.89109e-3",
        lambda: pipeline.compute_time_per_layer_s(2048, 1, 12288, 16, C, 0.5)),
    Row("handbook/labs/v2_05.md §2", "Act I 7B T_comp, 32 x 2,048 tokens/GPU (s)", "5.350",
        lambda: training.compute_time_s(7e9, 32 * 2048, C, 0.52)),
    Row("handbook/labs/v2_05.md §2", "Act I 7B T_AR, 8 GPUs, NVLink (s)", "54.44e-3",
        lambda: collectives.ring_allreduce_s(14e9, 8, NVLINK4_BW)),
    Row("handbook/labs/v2_05.md §2", "Act I 7B MFU, 8 GPUs", "0.5148", lambda: act1_mfu_7b(8, 524288)),
    Row("handbook/labs/v2_05.md §4", "Act I MFU, 64 GPUs, 512K-token batch", "0.443",
        lambda: act1_mfu_7b(64, 524288)),
    Row("handbook/labs/v2_05.md §4", "Act I MFU, 512 GPUs, 512K-token batch", "0.210",
        lambda: act1_mfu_7b(512, 524288)),
    Row("handbook/labs/v2_05.md §4", "Act I MFU, 8 GPUs, 1M-token batch", "0.517",
        lambda: act1_mfu_7b(8, 1048576)),
    Row("handbook/labs/v2_05.md §4", "Act I MFU, 64 GPUs, 1M-token batch", "0.479",
        lambda: act1_mfu_7b(64, 1048576)),
    Row("handbook/labs/v2_05.md §4", "Act I MFU, 512 GPUs, 1M-token batch", "0.299",
        lambda: act1_mfu_7b(512, 1048576)),
]

V2_09_ROWS = [
    Row("handbook/labs/v2_09.md §2", "amdahl (0.12, 3)", "1.086957", lambda: amdahl.amdahl_speedup(0.12, 3)),
    Row("handbook/labs/v2_09.md §2", "time reduction (0.12, 3)", "0.08",
        lambda: amdahl.time_reduction(0.12, 3), exact=True),
    Row("handbook/labs/v2_09.md §2", "amdahl (0.45, 3)", "1.428571", lambda: amdahl.amdahl_speedup(0.45, 3)),
    Row("handbook/labs/v2_09.md §2", "amdahl (0.45, 2)", "1.290323", lambda: amdahl.amdahl_speedup(0.45, 2)),
    Row("handbook/labs/v2_09.md §2", "ceiling, f=0.12", "1.136364", lambda: amdahl.amdahl_ceiling(0.12)),
    Row("handbook/labs/v2_09.md §2", "amdahl_multi, AR k=2", "1.176471",
        lambda: amdahl.amdahl_multi([0.45, 0.30, 0.15, 0.10], [1, 2, 1, 1])),
    Row("handbook/labs/v2_09.md §2", "amdahl_multi, AR k=2 -> MFU", "0.4118", lambda: v209_mfu(4, 2)),
    Row("handbook/labs/v2_09.md §2", "amdahl_multi, bubble k=2", "1.081081",
        lambda: amdahl.amdahl_multi([0.45, 0.30, 0.15, 0.10], [1, 1, 2, 1])),
    Row("handbook/labs/v2_09.md §2", "amdahl_multi, bubble k=2 (m=8) -> MFU", "0.3784", lambda: v209_mfu(8, 1)),
    Row("handbook/labs/v2_09.md §2", "m=13 plus AR 3x -> MFU", "0.5028", lambda: v209_mfu(13, 3)),
    Row("handbook/labs/v2_09.md §2", "pipeline alone, m=32 -> MFU", "0.403", lambda: v209_mfu(32, 1)),
    Row("handbook/labs/v2_09.md §2", "AR alone, 4x -> MFU", "0.4516", lambda: v209_mfu(4, 4)),
    Row("handbook/labs/v2_09.md §4", "AR k=3 over attention k=3 gain ('4.9x more impact')", "4.9",
        lambda: (amdahl.amdahl_speedup(0.45, 3) - 1) / (amdahl.amdahl_speedup(0.12, 3) - 1)),
    Row("handbook/labs/v2_09.md §2", "bubble share at compute 0.45, (8, 21)", "0.15",
        lambda: 0.45 * pipeline.bubble_over_ideal(8, 21), exact=True),
    Row("handbook/labs/v2_09.md §2", "bubble share at compute 0.45, (8, 42)", "0.075",
        lambda: 0.45 * pipeline.bubble_over_ideal(8, 42), exact=True),
    Row("handbook/labs/v2_09.md §2", "bubble share at compute 0.45, (4, 9)", "0.15",
        lambda: 0.45 * pipeline.bubble_over_ideal(4, 9), exact=True),
    Row("handbook/labs/v2_09.md §2", "bubble share at compute 0.45, (8, 4)", "0.7875",
        lambda: 0.45 * pipeline.bubble_over_ideal(8, 4), exact=True),
    Row("handbook/labs/v2_09.md §2", "35 % MFU of the dense peak (FLOP/s)", "346.29e12", lambda: 0.35 * C),
    Row("handbook/labs/v2_09.md §2", "H100 ridge point (FLOP/B)", "295.34", lambda: C / H100_HBM_BW),
]

ROWS = API_ROWS + V2_02_ROWS + V2_06_ROWS + V2_01_ROWS + V2_05_ROWS + V2_09_ROWS


@pytest.mark.parametrize("row", ROWS, ids=lambda row: f"{row.source}: {row.figure}")
def test_published_figure_is_reproduced(row: Row) -> None:
    computed = row.compute()
    error = abs(computed - row.expected) / abs(row.expected)
    assert error <= row.rel, (
        f"{row.source} {row.figure}: quoted {row.quoted}, computed {computed!r}, "
        f"relative error {error:.2e} > {row.rel:.2e}"
    )


def test_six_figure_rows_are_at_least_as_tight_as_1e_minus_4() -> None:
    six_figure = [row for row in ROWS if len(row.quoted.replace(",", "").split("e")[0]
                                               .replace(".", "").lstrip("0")) >= 6]
    assert six_figure
    assert all(row.rel <= 1e-4 for row in six_figure)


def test_every_row_is_finite_and_labelled() -> None:
    for row in ROWS:
        assert row.source and row.figure
        assert math.isfinite(row.expected) and row.expected != 0
