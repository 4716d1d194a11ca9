"""The model of V2-10 (The KV-Cache Memory Wall): the scenario, the KV cache a conversation reserves
on an 8-H100 server (Act I's ``Memory``), and the prefill and decode model of one serving server with
the engineering plans of Act II (``Serving``, ``PLANS``). The lab module (``v2_10``) reads like its page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pylabs.physics import constants as C
from pylabs.physics import queueing as qu
from pylabs.physics import serving as sv


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs and the spec's serving assumptions (handbook/labs/v2_10.md §3 [A])."""

    gpus: int = 8
    window: float = 32768.0            # Act I: the context window each conversation reserves
    used_chat: float = 4096.0          # tokens a chat conversation holds on average
    prefill_mfu: float = 0.5           # u_pf: utilisation of compute during prefill
    bw_efficiency: float = 0.8         # eta: share of HBM bandwidth decode reaches
    prompt_chat: float = 1024.0        # Act II prompt tokens: chat
    prompt_docs: float = 4096.0        # Act II prompt tokens: a document excerpt and a question
    output: float = 256.0              # reply tokens
    arrival: float = 4.0               # chat requests per second
    ttft_slo_s: float = 0.2            # chat promise: P99 TTFT under 200 ms
    tput_target: float = 1000.0        # bulk tier: output tokens per second
    p99: float = 0.99
    # the plans engineering sends (Act II) and the reflection's batches
    plan_slots: float = 32.0           # A: continuous chat slots
    plan_static: float = 16.0          # B: static chat batch
    plan_few_slots: float = 4.0        # C: continuous chat slots
    bulk_plan: float = 64.0            # A's bulk batch, and the reflection's smaller batch
    bulk_more: float = 128.0           # B's bulk batch
    bulk_most: float = 256.0           # C's bulk batch, and the reflection's larger batch


S = Scenario()
PROMPT = {"chat": S.prompt_chat, "docs": S.prompt_docs}


@dataclass(frozen=True)
class Model:
    label: str
    params: float
    layers: float
    kv_heads: float
    query_heads: float
    d_model: float


# Llama 3.1 has the shapes and parameter counts of Llama 3 (the registry cites the Llama 3 configs)
# and a 128K window; Llama 3's own window is 8K, too short for Act I's 32K promise.
MODELS = {
    "70b": Model("Llama-3.1-70B", C.LLAMA3_70B_PARAMS_COUNTED, C.LLAMA3_70B_LAYERS, C.LLAMA3_70B_KV_HEADS,
                 C.LLAMA3_70B_QUERY_HEADS, C.LLAMA3_70B_D_MODEL),
    "8b": Model("Llama-3.1-8B", C.LLAMA3_8B_PARAMS_COUNTED, C.LLAMA3_8B_LAYERS, C.LLAMA3_8B_KV_HEADS,
                C.LLAMA3_8B_QUERY_HEADS, C.LLAMA3_8B_D_MODEL),
}
KV_BYTES = {"bf16": C.BYTES_PER_BF16, "fp8": C.BYTES_PER_FP8}
SEVENTY, EIGHT = MODELS["70b"], MODELS["8b"]


def kv_token(m: Model, dtype: str = "bf16", heads: float | None = None) -> float:
    return sv.kv_bytes_per_token(m.layers, m.kv_heads if heads is None else heads, C.LLAMA3_HEAD_DIM,
                                 KV_BYTES[dtype])


def weights(m: Model) -> float:
    return m.params * C.BYTES_PER_BF16


def usable(gpus: float = S.gpus) -> float:
    return C.VLLM_GPU_MEMORY_UTILIZATION * gpus * C.H100_HBM_BYTES


def budget(m: Model, gpus: float = S.gpus) -> float:
    return sv.kv_budget_bytes(gpus, C.H100_HBM_BYTES, C.VLLM_GPU_MEMORY_UTILIZATION, weights(m))


def users(m: Model, tokens_reserved: float, dtype: str = "bf16", gpus: float = S.gpus,
          heads: float | None = None) -> int:
    return sv.max_sequences(budget(m, gpus), kv_token(m, dtype, heads) * tokens_reserved)


@dataclass(frozen=True)
class Memory:
    """Act I's server: what a conversation reserves and how many fit. ``used`` is what a
    conversation holds (a document conversation fills the window: pass the window)."""

    model: Model
    dtype: str
    gpus: int
    window: float
    paged: bool
    used: float

    @property
    def held(self) -> float:
        return min(self.used, self.window)

    @property
    def reserved_tokens(self) -> float:
        return sv.allocated_tokens(self.held, self.window, self.paged, C.VLLM_BLOCK_TOKENS)

    @property
    def per_user(self) -> float:
        return kv_token(self.model, self.dtype) * self.reserved_tokens

    @property
    def budget(self) -> float:
        return budget(self.model, self.gpus)

    @property
    def users(self) -> int:
        return sv.max_sequences(self.budget, self.per_user)

    @property
    def waste(self) -> float:
        return sv.allocation_waste_fraction(self.held, self.reserved_tokens)

    def users_without_gqa(self) -> int:
        return users(self.model, self.reserved_tokens, self.dtype, self.gpus, heads=self.model.query_heads)


def act1_truth() -> float:
    return float(users(SEVENTY, S.window))


# ---- Act II: one server per product, prefills and decode steps taking turns ----------------


@dataclass(frozen=True)
class Serving:
    """Act II: a chat server and a bulk server (8 H100s each, Llama-3.1-70B, paged KV), one prompt length."""

    mode: str
    lat_batch: float
    arrival: float
    tput_batch: float
    prompt: float = S.prompt_chat

    @property
    def prefill(self) -> float:
        return sv.prefill_s(sv.prefill_flop(SEVENTY.params, self.prompt, SEVENTY.layers, SEVENTY.d_model),
                            S.gpus, C.H100_PEAK_BF16_DENSE, S.prefill_mfu)

    def roofline(self, batch: float) -> tuple[float, float]:
        """The memory and compute times of one decode step (mean context: prompt + half the reply)."""
        mean_context = self.prompt + S.output / 2
        return (sv.decode_memory_s(weights(SEVENTY), batch * kv_token(SEVENTY) * mean_context, S.gpus,
                                   C.H100_HBM_BW, S.bw_efficiency),
                sv.decode_compute_s(SEVENTY.params, batch, S.gpus, C.H100_PEAK_BF16_DENSE, S.prefill_mfu))

    def step(self, batch: float) -> float:
        return sv.decode_step_s(*self.roofline(batch))

    def bound(self, batch: float) -> str:
        memory_s, compute_s = self.roofline(batch)
        return "bandwidth-bound" if memory_s >= compute_s else "compute-bound"

    def completes(self, batch: float) -> float:
        """Requests/s a batch of this size completes, its prefills and decode steps taking turns."""
        return sv.serial_requests_per_s(batch, S.output, self.step(batch), self.prefill)

    @property
    def capacity(self) -> float:
        return self.completes(self.lat_batch)

    @property
    def rho(self) -> float:
        """Utilisation of the prefill queue (prefills run one after another)."""
        return self.arrival * self.prefill

    @property
    def hold(self) -> float:
        """How long a chat slot is held when the slots are full: its prefill, everyone's, and a reply."""
        return self.lat_batch / self.capacity

    @property
    def slots_full(self) -> float:
        """Share of requests that find every chat slot busy (Erlang C over the slots); 1 past capacity."""
        if self.arrival >= self.capacity:
            return 1.0
        return qu.erlang_c(int(self.lat_batch), self.arrival * self.hold)

    @property
    def queue_p99(self) -> float:
        """P99 time to first token from the prefill queue alone (M/M/1), as if a slot were always free."""
        return sv.continuous_ttft_p99_s(self.prefill, self.arrival)

    @property
    def ttft(self) -> float:
        """Continuous: the P99 of the prefill queue (M/M/1) plus the wait for a free slot (M/M/c), taken
        as independent. Static: behind a full running batch, its whole reply and then the new batch's
        prefills. Unbounded when the batcher cannot keep up."""
        if self.arrival >= self.capacity:
            return math.inf
        if self.mode == "continuous":
            return sv.continuous_ttft_with_slots_s(self.prefill, self.arrival, int(self.lat_batch), self.capacity)
        return sv.static_ttft_s(S.output, self.step(self.lat_batch), self.lat_batch, self.prefill)

    @property
    def slot_bound(self) -> bool:
        """Does the wait for a free slot, not the prefill queue, set the continuous P99?"""
        return self.mode == "continuous" and self.ttft > 1.1 * self.queue_p99

    @property
    def tokens_per_s(self) -> float:
        """Bulk output, every sequence's prefill included."""
        return S.output * self.completes(self.tput_batch)

    def decode_only(self, batch: float) -> float:
        """What the decode steps alone would give (the spec's B / t_step): prefill left out."""
        return sv.decode_tokens_per_s(batch, self.step(batch))

    def prefill_share(self, batch: float) -> float:
        """Share of the server's time a batch spends in prefill."""
        return self.prefill * self.completes(batch)

    def missed_if_regular(self) -> float:
        """Share of chat requests over the promise if every prefill took exactly t_pf (M/D/1) and a
        slot were always free: a lower bound on the misses of a first-come batcher, since slots and
        decode steps only add waits."""
        if self.rho >= 1:
            return 1.0
        slack = S.ttft_slo_s - self.prefill
        return 1.0 if slack < 0 else 1.0 - qu.md1_wait_cdf(slack, self.arrival, self.prefill)

    @property
    def kv_used(self) -> float:
        """KV of the larger batch: each product has its own server."""
        return max(self.lat_batch, self.tput_batch) * kv_token(SEVENTY) * (self.prompt + S.output)

    @property
    def kv_oom(self) -> bool:
        return self.kv_used > budget(SEVENTY)

    def fits(self, batch: float) -> bool:
        """Does a batch of this size keep its KV cache within the budget (each product's own server)?"""
        return batch * kv_token(SEVENTY) * (self.prompt + S.output) <= budget(SEVENTY)

    def meets(self) -> bool:
        return self.ttft < S.ttft_slo_s and self.tokens_per_s > S.tput_target and not self.kv_oom


def plans(context: str) -> dict[str, Serving]:
    """Engineering's three plans in the context's prompt length; option D says none keeps both promises."""
    prompt = PROMPT[context]
    return {
        "A": Serving("continuous", S.plan_slots, S.arrival, S.bulk_plan, prompt),
        "B": Serving("static", S.plan_static, S.arrival, S.bulk_more, prompt),
        "C": Serving("continuous", S.plan_few_slots, S.arrival, S.bulk_most, prompt),
    }


def act2_decide(context: str) -> str:
    """The one plan that keeps both promises, or D when none does."""
    passing = [k for k, v in plans(context).items() if v.meets()]
    assert len(passing) <= 1, f"more than one plan passes in {context}: {passing}"
    return passing[0] if passing else "D"
