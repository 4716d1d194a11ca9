"""The scenario and the model of V2-01 (The Scale Illusion): Act I's data-parallel run with a fixed
global batch on the fabrics the page offers, and Act II's fleet with its three ways to pay. The lab
module (``v2_01``) reads like its page; this is its model.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from pylabs.framework.formats import fmt, plural
from pylabs.physics import collectives, economics, scaling, training
from pylabs.physics import constants as C
from pylabs.physics import units as U


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs. Act II's money inputs are assumptions, not sourced facts:
    they follow the corrected cost model of handbook/labs/v2_01.md §2 and the page says so."""

    mfu: float = 0.45                      # utilisation of the compute phases (scaling book, ~40 %+)
    gpus: float = 1024.0                   # the VP's fleet: 128 DGX H100 nodes
    global_batch_tokens: float = 262144.0  # 2^18 tokens per optimizer step, the batch tuned on one node
    big_batch_tokens: float = 4194304.0    # 2^22: the lever the reflection quotes
    small_fleet_gpus: float = 128.0        # the smaller fleet (16 nodes) the reflection compares with
    bytes_per_grad: float = 2.0            # bf16 gradients
    schedule_slack: float = 2.0            # failure: the run takes more than this × the plan
    # ---- Act II: stated assumptions ----
    years: float = 3.0
    utilization: float = 0.80              # "runs continuously": busy 80 % of wall-clock hours
    startup_utilization: float = 0.40      # bursty experiments
    usd_per_gpu_hour: float = 2.10         # mid-market on-demand H100 price (assumption)
    hyperscaler_usd_per_gpu_hour: float = 4.00  # list-price clouds (assumption)
    reserved_discount: float = 0.35        # 1-year reservation, renewed at the same price
    capex_per_gpu: float = 55_000.0        # GPU plus its share of server, NICs, switches, storage
    idle_w: float = 300.0                  # per GPU with its server share, no job running
    pue: float = 1.3
    usd_per_kwh: float = 0.10
    staff_usd_per_gpu_year: float = 2_000.0
    budget_usd: float = 40e6               # the board's budget for the default three years
    tco_chart_px: int = 420                # room for a legend of up to eight entries on a phone
    axis_pad: float = 0.03                 # utilization axis padding, a share of the axis
    chart_right_px: int = 28               # room for the last tick label ("16,384", "100 %") at 375 px


S = Scenario()
PARAMS = C.LLAMA3_70B_PARAMS
GRAD_BYTES = PARAMS * S.bytes_per_grad
GPN = int(C.DGX_H100_GPUS_PER_NODE)
RAILS = int(C.DGX_H100_NICS)           # one NIC per GPU on a DGX H100, rail-optimised
LOAD_W = C.DGX_H100_SYSTEM_POWER_W / C.DGX_H100_GPUS_PER_NODE  # one GPU's share of a busy DGX


# ---- Act I · the run and its speedup ---------------------------------------------

FABRICS = {
    "ndr8": (f"{RAILS} × NDR 400G rails", RAILS, C.IB_NDR_BW),
    "hdr8": (f"{RAILS} × HDR 200G rails", RAILS, C.IB_HDR_BW),
    "ndr1": ("1 × NDR 400G NIC", 1, C.IB_NDR_BW),
    "eth100": ("1 × 100 GbE NIC", 1, C.ETH_100G_BW),
}


@dataclass(frozen=True)
class Run:
    """The Llama-3-70B-class run, data-parallel with a fixed global batch."""

    batch: float
    fabric: str

    @property
    def one_gpu_step_s(self) -> float:
        """T1: one optimizer step of the whole global batch on one GPU."""
        return training.compute_time_s(PARAMS, self.batch, C.H100_PEAK_BF16_DENSE, S.mfu)

    def allreduce_s(self, gpus: float) -> float:
        if gpus <= 1:
            return 0.0
        _, nics, bw = FABRICS[self.fabric]
        return collectives.hierarchical_allreduce_s(GRAD_BYTES, min(gpus, GPN), max(1, gpus // GPN),
                                                    C.NVLINK4_BW, bw, nics)

    def speedup(self, gpus: float) -> float:
        return scaling.strong_scaling_speedup(gpus, self.one_gpu_step_s, self.allreduce_s(gpus))

    def ceiling(self) -> float:
        """T1 / T_comm as nodes → ∞ (the inter-node ring's 2(n−1)/n tends to 2)."""
        _, nics, bw = FABRICS[self.fabric]
        limit = collectives.ring_allreduce_s(GRAD_BYTES, GPN, C.NVLINK4_BW) + 2 * GRAD_BYTES / (nics * bw)
        return self.one_gpu_step_s / limit

    def train_s(self, gpus: float) -> float:
        return SINGLE_GPU_S / self.speedup(gpus)


SINGLE_GPU_S = scaling.time_to_train_s(C.LLAMA3_70B_TRAIN_FLOPS, 1, C.H100_PEAK_BF16_DENSE, S.mfu)
PLAN_S = scaling.time_to_train_s(C.LLAMA3_70B_TRAIN_FLOPS, S.gpus, C.H100_PEAK_BF16_DENSE, S.mfu)
SCENARIO_RUN = Run(S.global_batch_tokens, "ndr8")
BIG_RUN = Run(S.big_batch_tokens, "ndr8")
NODES = S.gpus / GPN


# the fabric each organisation's nodes have (the context's preset of the fabric control)
CONTEXT_FABRIC = {"frontier": "ndr8", "startup": "ndr1"}
# the utilization each organisation's fleet runs at (the context's preset of Act II's slider)
CONTEXT_UTILIZATION = {"frontier": S.utilization, "startup": S.startup_utilization}
BUSY = {"frontier": "one long run keeps", "startup": "experiments that come and go keep"}  # what keeps each fleet busy


def scenario_run(context: str = "frontier", batch: float = S.global_batch_tokens) -> Run:
    """The team's run on the organisation's fabric."""
    return Run(batch, CONTEXT_FABRIC[context])


def act1_truth(context: str = "frontier") -> float:
    return scenario_run(context).speedup(S.gpus)


def terms(context: str) -> dict[str, str]:
    """The organisation's fabric, which Act I's prompt names (the key moves with it)."""
    return {"fabric": FABRICS[CONTEXT_FABRIC[context]][0]}


def comm_multiple_for(speedup: float) -> float:
    """The all-reduce's multiple of a step's compute at which the fleet reaches ``speedup``:
    S = N·c/(c + T_AR), so T_AR/c = N/S − 1."""
    return S.gpus / speedup - 1


GPU_AXIS = [2 ** k for k in range(15)]


# ---- Act II · the fleet and its bill ----------------------------------------------

PLANS = {"on_demand": "On-demand cloud", "reserved": "Reserved cloud (one-year terms)",
         "on_prem": "Buy and run on-prem"}


@dataclass(frozen=True)
class Fleet:
    """The fleet's three ways to pay, over the planning horizon."""

    utilization: float = S.utilization
    price: float = S.usd_per_gpu_hour
    discount: float = S.reserved_discount
    years: float = S.years
    capex: float = S.capex_per_gpu
    load_w: float = LOAD_W
    idle_w: float = S.idle_w
    pue: float = S.pue
    kwh: float = S.usd_per_kwh
    staff: float = S.staff_usd_per_gpu_year
    gpus: float = S.gpus

    def on_demand(self, u: float | None = None) -> float:
        return economics.tco_on_demand_usd(self.gpus, self.u(u), self.years, self.price)

    def reserved(self) -> float:
        return economics.tco_reserved_usd(self.gpus, self.years, self.price, self.discount)

    def on_prem(self, u: float | None = None) -> float:
        return economics.tco_on_prem_usd(self.gpus, self.u(u), self.years, *self._prem())

    def _prem(self) -> tuple[float, ...]:
        kw = U.W_PER_KW
        return (self.capex, self.load_w / kw, min(self.idle_w, self.load_w) / kw, self.pue, self.kwh, self.staff)

    def energy(self) -> float:
        return economics.on_prem_energy_usd(self.gpus, self.utilization, self.years, *self._prem()[1:5])

    def u(self, u: float | None) -> float:
        return self.utilization if u is None else u

    def breakeven_reserved(self) -> float:
        return economics.breakeven_reserved_vs_on_demand(self.discount)

    def breakeven_on_prem(self) -> float:
        return economics.breakeven_on_prem_vs_on_demand(self.gpus, self.years, self.price, *self._prem())

    def breakeven_own_vs_reserved(self) -> float:
        """Utilization where on-prem (linear in U) costs what reserved costs."""
        idle, busy = self.on_prem(0.0), self.on_prem(1.0)
        return (self.reserved() - idle) / (busy - idle)

    def cost(self, plan: str) -> float:
        return {"on_demand": self.on_demand(), "reserved": self.reserved(), "on_prem": self.on_prem()}[plan]

    def cheapest(self) -> str:
        return min(PLANS, key=self.cost)

    def budget(self) -> float:
        return S.budget_usd * self.years / S.years

    def per_useful_hour(self, u: float | None = None) -> float:
        return self.on_prem(u) / (self.gpus * self.u(u) * C.HOURS_PER_YEAR * self.years)


SCENARIO_FLEET = Fleet()
HYPERSCALER_FLEET = Fleet(price=S.hyperscaler_usd_per_gpu_hour)


# what moving one Act II setting to one end of its slider is called, for the failure texts
LEVER_WORDS = {("a2_utilization", "min"): "a lower utilization", ("a2_utilization", "max"): "a higher utilization",
               ("a2_price", "min"): "a lower cloud price", ("a2_price", "max"): "a higher cloud price",
               ("a2_discount", "max"): "a larger reserved discount", ("a2_years", "max"): "a longer horizon",
               ("a2_capex", "min"): "a cheaper purchase", ("a2_load_w", "min"): "less power at load",
               ("a2_idle_w", "min"): "less idle power", ("a2_pue", "min"): "a lower PUE",
               ("a2_kwh", "min"): "cheaper electricity", ("a2_staff", "min"): "less staff cost"}


def levers_alone(f: Fleet, ends: dict[tuple[str, str], float], works) -> list[str]:
    """The words of each setting (an "a2_" slider named after a ``Fleet`` field) that, moved alone to
    ``ends[(name, end)]``, makes ``works(fleet)`` true. Review: the failure texts offered utilization
    for a reservation, whose bill ignores it, and denied staff cost, which alone makes owning pay back
    at $2.30/h."""
    found = []
    for (name, end), words in LEVER_WORDS.items():
        field, limit = name[3:], ends[(name, end)]
        if getattr(f, field) != limit and works(replace(f, **{field: limit})):
            found.append(words)
    return found



def act2_truth() -> float:
    return SCENARIO_FLEET.breakeven_reserved()


UTIL_AXIS = [k / 20 for k in range(21)]


# ---- words for numbers the page prints ------------------------------------------------


def linear(gpus: float) -> str:
    """Linear speedup equals the GPU count exactly: print it as a count (16,384×, not 16,380×)."""
    return f"{fmt(gpus, 'int')}×"


def sequence_note(tokens_per_gpu: float) -> str:
    """How a GPU's tokens compare with one training sequence (the model counts tokens, not sequences)."""
    if tokens_per_gpu < C.LLAMA3_SEQ:
        seq = fmt(C.LLAMA3_SEQ, "int")
        article = "an" if seq.startswith(("8", "11", "18")) else "a"
        return f"1/{fmt(C.LLAMA3_SEQ / tokens_per_gpu, 'num')} of {article} {seq}-token sequence"
    return f"{plural(tokens_per_gpu / C.LLAMA3_SEQ, 'sequence')} of {fmt(C.LLAMA3_SEQ, 'int')} tokens"


def own_vs_demand_text(u: float) -> str:
    return f"never: the breakeven, {fmt(u, 'pct')}, is beyond full use" if u > 1 else f"above {fmt(u, 'pct')}"


def own_vs_reserved_text(u: float) -> str:
    """On-prem cost rises with utilization and reserved is flat, so owning wins *below* the crossing."""
    if u <= 0:
        return "never: owning costs more at any utilization"
    return "always: owning costs less at any utilization" if u >= 1 else f"below {fmt(u, 'pct')}"
