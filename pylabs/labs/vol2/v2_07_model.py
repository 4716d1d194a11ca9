"""The scenario and model of V2-07 (The Checkpoint Reckoning): the stakeholders' inputs, the Act I
job checkpointing at an interval, and the Act II cluster that prices each checkpoint plan. The lab
module (``v2_07``) reads like its page; this is its model."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pylabs.framework import fmt
from pylabs.physics import constants as C
from pylabs.physics import reliability as rel
from pylabs.physics import scaling, training
from pylabs.physics import units as U


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs (assumptions of the story, not hardware facts)."""

    a1_params: float = 70e9
    a1_gpus: int = 1024
    a1_cluster_mtbf_s: float = 8 * 3600.0     # the team's measured 8 h between failures
    a1_stall_s: float = 240.0                 # each checkpoint stops training for 4 min
    a1_interval_s: float = 1800.0             # the team checkpoints every 30 min
    a1_scale_up: float = 4.0                  # the Act I reflection: the same job on 4× as many GPUs
    cold_restart_s: float = 600.0             # requeue, reschedule and reload: 10 min [assumed]
    warm_restart_s: float = 120.0             # standby node, reload from peers' memory: 2 min [assumed]
    a2_params: float = 1e12
    a2_gpus: int = 16384
    gpu_mtbf_s: float = 50_000 * 3600.0       # rounded from the Llama 3 run's 50,677 h per GPU
    storage_bw: float = 400e9                 # the shared file system's write bandwidth
    d2h_bw: float = 50e9                      # GPU-to-host copy [assumed]; PCIe Gen5 x16 peaks at 63 GB/s
    a2_interval_s: float = 1800.0             # the team's plan: synchronous every 30 min, as in Act I
    # the Act II question's four plans (A-D): (mode, interval)
    option_plans: tuple[tuple[str, float], ...] = (("sync", 300.0), ("async", 600.0), ("sync", 1800.0),
                                                   ("async", 3600.0))
    tokens: float = 10e12                     # the run's token budget
    mfu: float = 0.40
    collapse_waste: float = 0.5               # Act I alarm: half the cluster's time lost
    upstream_gpu_mtbf_s: float = 200 * 3600.0  # the upstream planning sheet's per-GPU figure
    chart_ticks_min: tuple[float, ...] = (5, 10, 15, 30, 60, 120, 240)


S = Scenario()
HOUR, MINUTE = U.S_PER_HOUR, U.S_PER_MINUTE
STATE_BYTES_PER_PARAM = C.BYTES_PER_BF16 + C.ADAM_OPTIMIZER_BYTES_PER_PARAM  # 2 + 12: no gradients
GOODPUT_TARGET = C.LLAMA3_405B_EFFECTIVE_TRAINING
A1_GPU_MTBF_S = S.a1_cluster_mtbf_s * S.a1_gpus
UPSTREAM_MTBF_S = rel.cluster_mtbf_s(S.upstream_gpu_mtbf_s, S.a2_gpus)  # 44 s, read upstream as minutes
LLAMA3_GPU_MTBF_S = rel.gpu_mtbf_from_run_s(C.LLAMA3_405B_GPUS, C.LLAMA3_405B_SNAPSHOT_S,
                                            C.LLAMA3_405B_UNEXPECTED_INTERRUPTIONS)


# ---- Act I · The interval ---------------------------------------------------------

@dataclass(frozen=True)
class Interval:
    """A job with a fixed checkpoint stall, checkpointing every ``interval_s`` (synchronous)."""

    interval_s: float
    stall_s: float
    mtbf_s: float
    restart_s: float

    @property
    def waste(self) -> float:
        return rel.waste_fraction(self.interval_s, self.stall_s, self.mtbf_s, self.restart_s)

    @property
    def young_s(self) -> float:
        return rel.young_interval_s(self.stall_s, self.mtbf_s)

    @property
    def daly_s(self) -> float:
        return rel.daly_interval_s(self.stall_s, self.mtbf_s)

    def at(self, interval_s: float) -> "Interval":
        return Interval(interval_s, self.stall_s, self.mtbf_s, self.restart_s)


RESTART_S = {"cold": S.cold_restart_s, "warm": S.warm_restart_s}  # the context: the restart path
TEAM = Interval(S.a1_interval_s, S.a1_stall_s, S.a1_cluster_mtbf_s, S.cold_restart_s)


def team(context: str) -> Interval:
    """The Act I team's job with the context's restart (the optimum does not depend on it)."""
    return Interval(S.a1_interval_s, S.a1_stall_s, S.a1_cluster_mtbf_s, RESTART_S[context])


def act1_truth() -> float:
    """Young's optimum, √(2δM): the restart adds R/M whatever the interval, so it is the same in every context."""
    return TEAM.young_s


# ---- Act II · Fleet scale ---------------------------------------------------------

@dataclass(frozen=True)
class Cluster:
    """The Act II job's cluster; ``plan`` prices a checkpoint mode and interval on it."""

    gpus: float
    gpu_mtbf_s: float
    storage_bw: float
    restart_s: float

    @property
    def state_bytes(self) -> float:
        return STATE_BYTES_PER_PARAM * S.a2_params

    def plan(self, mode: str, interval_s: float) -> rel.CheckpointCosts:
        return rel.checkpoint_costs(self.state_bytes, self.gpus, self.gpu_mtbf_s, self.storage_bw, S.d2h_bw,
                                    self.restart_s, interval_s, asynchronous=mode == "async")

    def plans(self) -> dict[str, rel.CheckpointCosts]:
        """The four plans of the Act II question (A-D), the synchronous optimum and asynchronous
        checkpoints as often as storage allows."""
        plans = {letter: self.plan(mode, interval) for letter, (mode, interval) in zip("ABCD", S.option_plans)}
        fastest = self.plan("async", S.a2_interval_s).write_s
        return plans | {"sync_opt": self.sync_optimum(), "async_fast": self.plan("async", fastest)}

    def sync_optimum(self) -> rel.CheckpointCosts:
        """Synchronous checkpoints at Young's interval: the best any synchronous plan does on this cluster."""
        return self.plan("sync", self.plan("sync", S.a2_interval_s).optimal_interval_s)


def act2_setting(s: Mapping[str, Any]) -> tuple[Cluster, rel.CheckpointCosts]:
    """The cluster the Act II sliders set, and the plan its mode and interval price."""
    setting = Cluster(s["a2_gpus"], s["a2_gpu_mtbf"], s["a2_storage"], s["a2_restart"])
    return setting, setting.plan(s["a2_mode"], s["a2_interval"])


def overlapping(s: Mapping[str, Any], plan: rel.CheckpointCosts) -> bool:
    """Asynchronous checkpoints asked for more often than storage writes them."""
    return s["a2_mode"] == "async" and s["a2_interval"] < plan.write_s


TERMS = {"Stalls": "stall_frac", "Rework": "rework_frac", "Unsaved lag": "lag_frac", "Restart": "restart_frac"}


def plan_name(letter: str) -> str:
    mode, interval = S.option_plans["ABCD".index(letter)]
    return f"{'Synchronous' if mode == 'sync' else 'Asynchronous'} every {fmt(interval, 's')}"


def cluster(context: str) -> Cluster:
    """The Act II cluster at the scenario's inputs, with the context's restart."""
    return Cluster(S.a2_gpus, S.gpu_mtbf_s, S.storage_bw, RESTART_S[context])


BASE = cluster("cold")
PLANS = {context: cluster(context).plans() for context in RESTART_S}


def act2_answer(context: str) -> str:
    passing = [k for k in "ABCD" if PLANS[context][k].goodput_frac >= GOODPUT_TARGET]
    assert len(passing) == 1, f"the Act II question needs exactly one passing plan, got {passing}"
    return passing[0]


def stall_budget_s(context: str, letter: str = "B") -> float:
    """The longest stall per checkpoint at which a plan still meets the target: W = δ/T + F ≤ 1 − target
    gives δ ≤ (1 − target − F)·T, F = (T/2 + L + R)/M the failure terms. The lab's asynchronous stall is
    the host copy alone (an idealisation); a measured save blocks longer (PyTorch DCP: 0.78 s)."""
    plan = PLANS[context][letter]
    failures = plan.rework_frac + plan.lag_frac + plan.restart_frac
    return (1 - GOODPUT_TARGET - failures) * plan.interval_s


def compute_s() -> float:
    """The run's pure compute time on the scenario's GPUs (6ND at the stated MFU)."""
    flops = training.train_flops(S.a2_params, S.tokens)
    return scaling.time_to_train_s(flops, S.a2_gpus, C.H100_PEAK_BF16_DENSE, S.mfu)


def time_lost_s(waste_frac: float) -> float:
    """The wall-clock time the run loses at this waste: C·W/(1 − W), not W·C."""
    return rel.time_lost_s(compute_s(), waste_frac)
