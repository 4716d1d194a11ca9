"""LLM serving: KV-cache memory, concurrency, prefill and decode time, time to first token.

All quantities in SI: bytes, seconds, FLOP, FLOP/s, bytes/s, requests/s, fractions.
Sources: Ainslie et al. 2023 (grouped-query attention); Kwon et al. 2023 (vLLM,
PagedAttention); Kaplan et al. 2020, Table 1 (forward FLOP per token); Williams, Waterman
and Patterson 2009 (roofline); Kleinrock 1975, Sec. 3.2 (M/M/1 waiting-time distribution);
Agrawal et al. 2024 (Sarathi-Serve: prefills pause the decodes of a running batch);
Kleinrock 1975, ch. 3 (M/M/c: the wait for one of the batch's slots).
The corrected model is handbook/labs/v2_10.md §2.
"""

from __future__ import annotations

import math

from pylabs.physics import queueing
from pylabs.physics.validators import require, require_finite_positive, require_positive_fraction


def _fraction(name: str, value: float) -> None:
    require_positive_fraction(name, value, "pass a fraction, e.g. 0.8 for 80 %")


# ---- memory ------------------------------------------------------------------------


def kv_bytes_per_token(layers: float, kv_heads: float, head_dim: float, bytes_per_element: float) -> float:
    """KV = 2 * L * n_kv * d_head * b  (a key and a value vector per KV head per layer).

    With grouped-query attention n_kv is the number of KV heads, not of query heads.
    Source: Ainslie et al. 2023 (GQA); handbook/labs/v2_10.md §2.
    """
    for name, value in (("layers", layers), ("kv_heads", kv_heads), ("head_dim", head_dim)):
        require_finite_positive(name, value, "pass the model's published shape (config.json)")
    require_finite_positive("bytes_per_element", bytes_per_element, "pass 2 for BF16, 1 for FP8")
    return 2 * layers * kv_heads * head_dim * bytes_per_element


def kv_budget_bytes(gpus: float, hbm_bytes_per_gpu: float, usable_fraction: float, weight_bytes: float) -> float:
    """B_kv = f * n * HBM - W  (HBM left for KV after the weights; negative: weights do not fit).

    f is the share of HBM the server may use. vLLM also takes the profiled activation peak out of
    that share (total x f - peak memory); this count leaves the activations out, an upper bound.
    Source: handbook/labs/v2_10.md §2; vLLM engine argument gpu_memory_utilization and its worker's
    determine_num_available_blocks.
    """
    require_finite_positive("gpus", gpus, "pass the number of GPUs the model is sharded over")
    require_finite_positive("hbm_bytes_per_gpu", hbm_bytes_per_gpu, "pass HBM per GPU in bytes, e.g. 80e9")
    _fraction("usable_fraction", usable_fraction)
    require(weight_bytes >= 0, "weight_bytes", weight_bytes, ">= 0", "pass params x bytes per param")
    return usable_fraction * gpus * hbm_bytes_per_gpu - weight_bytes


def max_sequences(budget_bytes: float, bytes_per_sequence: float) -> int:
    """N = floor(max(0, B_kv) / KV_seq)  (whole sequences whose KV cache fits).

    Source: handbook/labs/v2_10.md §2 (users = floor((f*n*80e9 - 2P) / (KV_tok * s))).
    """
    require_finite_positive("bytes_per_sequence", bytes_per_sequence, "pass KV bytes per token x tokens held")
    return int(max(0.0, budget_bytes) // bytes_per_sequence)


def allocated_tokens(used_tokens: float, window_tokens: float, paged: bool, block_tokens: float) -> float:
    """Tokens of KV reserved for one sequence: the whole window if contiguous, else whole blocks.

    Contiguous allocators reserve the maximum context up front; PagedAttention allocates
    fixed-size blocks on demand, so at most one partly filled block per sequence is wasted.
    Source: Kwon et al. 2023 (vLLM), Sec. 3 and 4.1.
    """
    require_finite_positive("window_tokens", window_tokens, "pass the context window in tokens")
    require_finite_positive("block_tokens", block_tokens, "pass the block size in tokens, e.g. 16")
    require(0 < used_tokens <= window_tokens, "used_tokens", used_tokens, "in (0, window_tokens]",
            "a sequence cannot hold more tokens than the window")
    if not paged:
        return float(window_tokens)
    return min(float(window_tokens), math.ceil(used_tokens / block_tokens) * block_tokens)


def allocation_waste_fraction(used_tokens: float, allocated: float) -> float:
    """waste = 1 - used / allocated  (share of reserved KV memory that holds no token).

    Source: Kwon et al. 2023 (vLLM), Sec. 3 (reservation and internal fragmentation).
    """
    require_finite_positive("allocated", allocated, "pass the tokens reserved for the sequence")
    require(0 <= used_tokens <= allocated, "used_tokens", used_tokens, "in [0, allocated]",
            "a sequence cannot use more than it reserved")
    return 1 - used_tokens / allocated


# ---- time: prefill and decode on the roofline ----------------------------------------


def prefill_flop(params: float, tokens: float, layers: float, d_model: float) -> float:
    """F = 2*P*s + 2*L*s^2*d  (matrix multiplies plus attention over the prompt).

    Source: Kaplan et al. 2020, Table 1 (2N + 2*n_layer*n_ctx*d_attn FLOP per token).
    """
    require_finite_positive("params", params, "pass the parameter count, e.g. 70.55e9")
    require_finite_positive("tokens", tokens, "pass the prompt length in tokens")
    return 2 * params * tokens + 2 * layers * tokens ** 2 * d_model


def prefill_s(flop: float, gpus: float, peak_flops: float, mfu: float) -> float:
    """t_pf = F / (n * C * u)  (compute-bound: the whole prompt goes through at once).

    Source: handbook/labs/v2_10.md §2; Williams et al. 2009 (roofline).
    """
    require_finite_positive("gpus", gpus, "pass the number of GPUs")
    require_finite_positive("peak_flops", peak_flops, "pass the dense peak, e.g. constants.H100_PEAK_BF16_DENSE")
    _fraction("mfu", mfu)
    return flop / (gpus * peak_flops * mfu)


def decode_memory_s(weight_bytes: float, kv_bytes_read: float, gpus: float, hbm_bw: float,
                    bw_efficiency: float) -> float:
    """t_mem = (W + KV_read) / (n * BW * eta)  (every step reads all weights and the batch's KV).

    Source: handbook/labs/v2_10.md §2; Williams et al. 2009 (roofline, memory side).
    """
    require_finite_positive("hbm_bw", hbm_bw, "pass HBM bandwidth in bytes/s, e.g. 3.35e12")
    _fraction("bw_efficiency", bw_efficiency)
    require_finite_positive("gpus", gpus, "pass the number of GPUs")
    return (weight_bytes + kv_bytes_read) / (gpus * hbm_bw * bw_efficiency)


def decode_compute_s(params: float, batch: float, gpus: float, peak_flops: float, mfu: float) -> float:
    """t_comp = 2*P*B / (n * C * u)  (one token for each of B sequences).

    Source: handbook/labs/v2_10.md §2; Kaplan et al. 2020 (2N FLOP per token forward).
    """
    require_finite_positive("batch", batch, "pass the number of sequences decoded together")
    return prefill_s(2 * params * batch, gpus, peak_flops, mfu)


def decode_step_s(memory_s: float, compute_s: float) -> float:
    """t_step = max(t_mem, t_comp)  (the roofline: the slower resource sets the step).

    Source: Williams et al. 2009; handbook/labs/v2_10.md §2.
    """
    return max(memory_s, compute_s)


def decode_tokens_per_s(batch: float, step_s: float) -> float:
    """Throughput = B / t_step  (one token per sequence per step).

    Source: handbook/labs/v2_10.md §2.
    """
    require_finite_positive("step_s", step_s, "pass the decode step time in seconds")
    return batch / step_s


# ---- time to first token ---------------------------------------------------------------


def mm1_wait_quantile_s(service_s: float, arrival_per_s: float, quantile: float = 0.99) -> float:
    """W_q(q) = max(0, ln(rho / (1 - q))) * S / (1 - rho), rho = lambda*S; inf when rho >= 1.

    Inverts P(W_q > t) = rho * exp(-(1 - rho) t / S), the M/M/1 waiting-time tail.
    Source: Kleinrock 1975, Queueing Systems Vol. I, Sec. 3.2; handbook/labs/v2_08.md §2 (queues).
    """
    require_finite_positive("service_s", service_s, "pass the mean service time in seconds")
    require(arrival_per_s >= 0, "arrival_per_s", arrival_per_s, ">= 0", "pass requests per second")
    require(0 < quantile < 1, "quantile", quantile, "in (0, 1)", "pass 0.99 for P99")
    rho = arrival_per_s * service_s
    if rho >= 1:
        return math.inf
    if rho <= 1 - quantile:
        return 0.0
    return math.log(rho / (1 - quantile)) * service_s / (1 - rho)


def continuous_ttft_p99_s(prefill_time_s: float, arrival_per_s: float) -> float:
    """TTFT_99 = t_pf + W_q,99(t_pf, lambda)  (prefills queue one after another).

    A conservative approximation: exponential service overstates the wait of fixed-length
    prompts. Source: handbook/labs/v2_10.md §2 (M/M/1-tail approximation); Kleinrock 1975.
    """
    return prefill_time_s + mm1_wait_quantile_s(prefill_time_s, arrival_per_s)


def continuous_ttft_with_slots_s(prefill_time_s: float, arrival_per_s: float, slots: int, capacity_per_s: float,
                                 quantile: float = 0.99) -> float:
    """TTFT_q = t_pf + the q-quantile of W_prefill + W_slot, the two waits taken as independent.

    W_prefill is the M/M/1 prefill queue of ``continuous_ttft_p99_s``: P(W > t) = ρ·e^{−(1−ρ)t/t_pf},
    ρ = λ·t_pf. W_slot is the wait for one of the c slots, an M/M/c queue whose slots are each held
    c/X, X the capacity (the saturated cycle of c prefills and a reply's decode steps, e.g.
    ``serial_requests_per_s``): P(W > t) = C(c, λc/X)·e^{−(X − λ)t}. inf when λ ≥ X. With the slots
    rarely all busy (C ≈ 0) it equals ``continuous_ttft_p99_s``; with few slots the slot wait rules.
    Against a discrete-event simulation of such a batcher (prefills first, one at a time, pausing the
    decodes; Poisson arrivals; fixed-length prompts and replies) it is high by up to about 2× (the
    M/M/1 treats fixed-length prefills as exponential), except for prompts of a few hundred tokens at
    light load, where the decode step already running when a request arrives (one step, ~7 ms for
    a 70B on 8 H100s), which it leaves out, is most of the wait.
    Source: Kleinrock 1975, ch. 3 (M/M/1 and M/M/c waits); Yu et al. 2022 (Orca, slots).
    """
    require_finite_positive("prefill_time_s", prefill_time_s, "pass one prompt's prefill time in seconds")
    require_finite_positive("capacity_per_s", capacity_per_s, "pass the requests/s the slots complete when full")
    require(slots >= 1 and slots == int(slots), "slots", slots, "a whole number >= 1", "pass the batch's slots")
    require(arrival_per_s >= 0, "arrival_per_s", arrival_per_s, ">= 0", "pass requests per second")
    if arrival_per_s >= capacity_per_s or arrival_per_s * prefill_time_s >= 1:
        return math.inf
    rho = arrival_per_s * prefill_time_s
    busy = queueing.erlang_c(int(slots), arrival_per_s * slots / capacity_per_s)
    wait = queueing.two_waits_percentile_s(quantile, (rho, (1 - rho) / prefill_time_s),
                                           (busy, capacity_per_s - arrival_per_s))
    return prefill_time_s + wait


def static_ttft_s(output_tokens: float, step_s: float, batch: float, prefill_time_s: float) -> float:
    """TTFT = out * t_step + B * t_pf  (wait for the running batch to finish, then prefill B prompts).

    A best case: it leaves out the time to fill a batch and any queue of waiting batches.
    Source: handbook/labs/v2_10.md §2 (head-of-line blocking behind the running batch's decode).
    """
    return output_tokens * step_s + batch * prefill_time_s


def static_capacity_per_s(batch: float, output_tokens: float, step_s: float, prefill_time_s: float) -> float:
    """Requests/s a static batcher completes: B / (B*t_pf + out*t_step); more arrivals queue forever.

    Source: utilisation below 1 (Kleinrock 1975, Sec. 2.1); handbook/labs/v2_10.md §2 timings.
    """
    return batch / (batch * prefill_time_s + output_tokens * step_s)


def continuous_capacity_per_s(batch: float, output_tokens: float, step_s: float, prefill_time_s: float) -> float:
    """Requests/s a continuous batcher with B slots sustains: min(1/t_pf, B / (t_pf + out*t_step)).

    Each request holds a slot for its prefill and its decode (Little's law, L = lambda*W).
    Source: Little 1961; Yu et al. 2022 (Orca, iteration-level scheduling).
    """
    return min(1 / prefill_time_s, batch / (prefill_time_s + output_tokens * step_s))


def serial_requests_per_s(batch: float, output_tokens: float, step_s: float, prefill_time_s: float) -> float:
    """Requests/s a server completes when prefills and decode steps take turns: B / (B*t_pf + out*t_step).

    Each of B sequences needs its own prefill (compute-bound, whole server) and then shares out
    decode steps with the others; a scheduler that runs a prefill pauses the running batch's
    decodes (vLLM and Orca without chunked prefill), so the two times add. Output tokens/s is
    out times this. Chunked prefill overlaps the two, which this serial count leaves out.
    Source: Agrawal et al. 2024 (Sarathi-Serve, OSDI: "generation stalls"); Yu et al. 2022 (Orca).
    """
    require_finite_positive("batch", batch, "pass the number of sequences that share the decode steps")
    require_finite_positive("step_s", step_s, "pass the decode step time in seconds")
    require_finite_positive("prefill_time_s", prefill_time_s, "pass one prompt's prefill time in seconds")
    require(output_tokens >= 0, "output_tokens", output_tokens, ">= 0", "pass the reply length in tokens")
    return batch / (batch * prefill_time_s + output_tokens * step_s)
