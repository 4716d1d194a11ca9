"""The scenario and model of V1-08 (The Training Memory Budget): the models, each context's training
device and stated setups, one training setup's memory on one device, and gradient accumulation's
memory and time. The lab module (``v1_08``) reads like its page; this is its model.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from pylabs.framework.formats import fmt
from pylabs.labs.vol1.contexts import device
from pylabs.physics import constants as C
from pylabs.physics import training
from pylabs.physics.devices import Device


@dataclass(frozen=True)
class Setup:
    """One context's stakeholders: Act I's model, Act II's model, micro-batch and accumulation steps,
    and the micro-batch the team would rather run (Act II's reflection)."""

    act1_model: str
    act2_model: str
    act2_batch: float
    act2_accum: float
    big_batch: float

    @property
    def effective(self) -> float:
        return self.act2_batch * self.act2_accum


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs (pedagogical defaults, not hardware facts)."""

    act1_params: float = 7e9            # "a 7B model", as the junior engineer put it
    act1_seq: float = 1024.0            # tokens per sequence
    act1_batch: float = 8.0             # sequences per step
    act2_seq: float = 1024.0
    mfu: float = 0.4                    # utilisation of the forward and backward passes (assumed)
    flop_per_fma: float = 2.0           # a fused multiply-add counts two floating-point operations
    # per context: the H100 trains the 7B and GPT-3 XL; the Orin NX (16 GB) and the phone (8 GB)
    # fine-tune GPT-2, at the largest power-of-two micro-batch that fits, for 256 sequences a step
    cloud: Setup = Setup("7b", "gpt3xl", 8.0, 32.0, 64.0)
    edge: Setup = Setup("gpt3xl", "gpt2", 8.0, 32.0, 64.0)
    mobile: Setup = Setup("gpt3xl", "gpt2", 4.0, 64.0, 32.0)


S = Scenario()
CONTEXTS = ("cloud", "edge", "mobile")


def setup(context: str) -> Setup:
    """The stakeholders' setups in ``context`` (read from ``S`` when asked, so a changed scenario follows)."""
    return getattr(S, context)


# how prose names each context's training device ("the H100", "the Orin NX", "the phone")
SHORT = {"cloud": "H100", "edge": "Orin NX", "mobile": "phone"}


# how the page names each device's peak and memory
PEAK_NOTE = {"cloud": "BF16, dense", "edge": "FP16, dense, derived from its GPU's clock",
             "mobile": "FP32 or FP16, derived; its clock assumed"}
MEMORY_NOTE = {"cloud": "", "edge": " (shared with the CPU)", "mobile": ", reported; iOS lets one app use less"}


def terms(context: str) -> dict[str, str]:
    """The words of each context that the questions name (the scenario's, never an answer)."""
    su, dev = setup(context), trainer(context)
    return {"device": SHORT[context], "mem": fmt(dev.mem_bytes, "B"),
            "model1": SHORT_MODEL[su.act1_model], "model2": SHORT_MODEL[su.act2_model],
            "b": fmt(su.act2_batch, "int"), "K": fmt(su.act2_accum, "int"), "eff": fmt(su.effective, "int"),
            "big": fmt(su.big_batch, "int"), "big_steps": fmt(su.effective / su.big_batch, "int"),
            "seq": fmt(S.act2_seq, "tokens")}


@dataclass(frozen=True)
class Model:
    label: str
    params: float
    layers: float
    hidden: float
    heads: float


MODELS = {
    "gpt2": Model("GPT-2 (124M)", C.GPT2_SMALL_PARAMS, C.GPT2_SMALL_LAYERS, C.GPT2_SMALL_HIDDEN, C.GPT2_SMALL_HEADS),
    "gpt3xl": Model("GPT-3 XL (1.3B, 24 heads)", C.GPT3_XL_PARAMS, C.GPT3_XL_LAYERS, C.GPT3_XL_HIDDEN,
                    C.GPT3_XL_HEADS),
    "gpt2xl": Model("GPT-2 XL (1.56B)", C.GPT2_XL_PARAMS, C.GPT2_XL_LAYERS, C.GPT2_XL_HIDDEN, C.GPT2_XL_HEADS),
    "7b": Model("7B (7.0B, Llama 2 7B shape)", S.act1_params, C.LLAMA2_7B_LAYERS, C.LLAMA2_7B_HIDDEN,
                C.LLAMA2_7B_HEADS),
}
SHORT_MODEL = {"gpt2": "GPT-2", "gpt3xl": "GPT-3 XL", "gpt2xl": "GPT-2 XL", "7b": "7B"}


def trainer(context: str) -> Device:
    """The device that trains in ``context``. The phone trains on its GPU: on-device training runs on
    the GPU or CPU, and the Neural Engine's one published rate (35 trillion operations per second,
    no precision stated) is an inference figure. Apple publishes no GPU rate: 2.15 TFLOP/s is
    derived from 6 cores x 128 ALUs x 2 x an assumed 1.398 GHz."""
    dev = device(context)
    if context != "mobile":
        return dev
    peak = C.A17_PRO_GPU_CORES * C.APPLE_GPU_ALUS_PER_CORE * S.flop_per_fma * C.A17_PRO_GPU_CLOCK_HZ_ASSUMED
    return replace(dev, name="A17 Pro GPU", peak_ops=peak,
                   precision="FP32 or FP16", assumed=tuple(dev.assumed) + ("peak_ops",))


@dataclass(frozen=True)
class Budget:
    """One training setup's memory on one device."""

    static: float
    activations: float
    capacity: float

    @property
    def total(self) -> float:
        return self.static + self.activations

    @property
    def fits(self) -> bool:
        return self.total <= self.capacity


def budget(model: Model, precision: str, optimizer: str, batch: float, seq: float, mode: str,
           dev: Device) -> Budget:
    static = model.params * training.static_bytes_per_param(precision, optimizer).total_b
    act = training.model_activation_bytes(seq, batch, model.hidden, model.heads, model.layers, mode,
                                          training.activation_bytes_per_value(precision))
    return Budget(static, act, dev.mem_bytes)


# ---- Act I · Where the memory goes -------------------------------------------------


def weights_share(precision: str, optimizer: str) -> float:
    """The largest share of a device's memory the weights may fill with the static state still
    fitting: weight bytes ÷ static bytes per parameter (activations aside)."""
    per = training.static_bytes_per_param(precision, optimizer)
    return per.weights_b / per.total_b


def largest_params(precision: str, optimizer: str, dev: Device) -> float:
    """The largest model whose static state fits ``dev``: memory ÷ static bytes per parameter."""
    return dev.mem_bytes / training.static_bytes_per_param(precision, optimizer).total_b


def act1_truth() -> float:
    """FP32 Adam: 4 of 16 bytes per parameter are the weights, on every device."""
    return weights_share("fp32", "adam")


def act1_budget_in(context: str, precision: str = "fp32") -> Budget:
    """The stakeholder's model in ``context`` at the scenario's batch and sequence."""
    return budget(MODELS[setup(context).act1_model], precision, "adam", S.act1_batch, S.act1_seq, "none",
                  trainer(context))


# ---- Act II · The effective batch --------------------------------------------------


@dataclass(frozen=True)
class Accumulation:
    """Micro-batches of ``batch`` accumulated ``steps`` times on one device, mixed-precision Adam."""

    model: Model
    batch: float
    steps: float
    mode: str
    seq: float
    mfu: float
    dev: Device

    @property
    def memory(self) -> Budget:
        return budget(self.model, "mixed", "adam", self.batch, self.seq, self.mode, self.dev)

    @property
    def native(self) -> Budget:
        return budget(self.model, "mixed", "adam", self.batch * self.steps, self.seq, "none", self.dev)

    @property
    def factor(self) -> float:
        return training.recompute_compute_factor(self.mode, self.seq, self.model.hidden)

    @property
    def ratio(self) -> float:
        return training.accumulation_throughput_ratio(self.model.params, self.batch, self.seq, self.steps,
                                                      self.dev.peak_ops, self.mfu, self.dev.mem_bw, self.factor)

    @property
    def micro_step_s(self) -> float:
        return training.micro_step_s(self.model.params, self.batch, self.seq, self.dev.peak_ops, self.mfu)

    @property
    def accumulate_s(self) -> float:
        return training.accumulate_s(self.model.params, self.dev.mem_bw)

    @property
    def step_s(self) -> float:
        """One optimizer step: K recomputed passes and K - 1 accumulates."""
        return self.steps * self.factor * self.micro_step_s + (self.steps - 1) * self.accumulate_s


def scenario(context: str, batch: float | None = None, mode: str = "none") -> Accumulation:
    """Act II's setup in ``context``; ``batch`` another micro-batch for the same effective batch."""
    su = setup(context)
    b = su.act2_batch if batch is None else batch
    return Accumulation(MODELS[su.act2_model], b, su.effective / b, mode, S.act2_seq, S.mfu,
                        trainer(context))


def act2_truth(context: str) -> float:
    return scenario(context).ratio


# the micro-batches the memory chart sweeps
BATCHES = tuple(2.0 ** k for k in range(10))
