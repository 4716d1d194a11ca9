"""The scenario and model of V1-08 (The Training Memory Budget): the models, one training setup's memory
on one device, and gradient accumulation's memory and time. The lab module (``v1_08``) reads like its
page; this is its model.
"""

from __future__ import annotations

from dataclasses import dataclass

from pylabs.labs.vol1.contexts import device
from pylabs.physics import constants as C
from pylabs.physics import training
from pylabs.physics.devices import Device


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs (pedagogical defaults, not hardware facts)."""

    act1_params: float = 7e9            # "a 7B model", as the junior engineer put it
    act1_seq: float = 1024.0            # tokens per sequence
    act1_batch: float = 8.0             # sequences per step
    act2_model: str = "gpt3xl"
    act2_seq: float = 1024.0
    act2_batch: float = 8.0             # the micro-batch that fits
    act2_accum: float = 32.0            # micro-batches per optimizer step
    act2_effective: float = 256.0       # sequences per optimizer step the team wants
    act2_big_batch: float = 64.0        # the micro-batch the team wants in Act II's reflection
    mfu: float = 0.4                    # utilisation of the forward and backward passes
    phone_model: str = "gpt2"           # on-device fine-tuning starts with a small model
    phone_batch: float = 4.0            # the largest power-of-two micro-batch that fits 8 GB
    phone_accum: float = 64.0
    bytes_per_gb: float = 1e9           # chart axes in GB


S = Scenario()


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


# ---- Act I · The 16-byte parameter ------------------------------------------------


def act1_truth() -> float:
    return S.act1_params * training.static_bytes_per_param("fp32", "adam").total_b


# ---- Act II · Accumulate, don't enlarge ----------------------------------------------


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


SCENARIO = Accumulation(MODELS[S.act2_model], S.act2_batch, S.act2_accum, "none", S.act2_seq, S.mfu, device("cloud"))
PHONE = Accumulation(MODELS[S.phone_model], S.phone_batch, S.phone_accum, "none", S.act2_seq, S.mfu,
                     device("mobile"))


def act2_truth() -> float:
    return SCENARIO.ratio


# the micro-batches the memory chart sweeps
BATCHES = tuple(2.0 ** k for k in range(10))
