"""What V2-10's feedback quotes, computed in the context the student locks in (chat: 1,024-token
prompts; document Q&A: 4,096): the numbers of Act I's server and Act II's plans, and the sentences that
change with the context (what paging buys, why a static plan or no plan fails)."""

from __future__ import annotations

import re

from pylabs.framework import fmt
from pylabs.framework.formats import plural
from pylabs.labs.vol2.v2_10_model import (EIGHT, SEVENTY, S, Serving, act1_truth, act2_decide, budget, kv_token,
                                          plans, usable, users, weights)


def span(tokens: float) -> str:
    """A token count as an adjective: "32,768-token"."""
    return f"{fmt(tokens, 'int')}-token"


def a_span(tokens: float) -> str:
    """The adjective with its article: "a 32,768-token", "an 8,192-token"."""
    text = span(tokens)
    article = "an" if re.match(r"8|1[18](?!\d)", text) else "a"
    return f"{article} {text}"


def act1_facts(context: str) -> dict[str, str]:
    kv, kv8 = kv_token(SEVENTY), kv_token(EIGHT)
    n70, n8 = act1_truth(), users(EIGHT, S.window)
    paging = (f"paged, {span(S.used_chat)} chats would give {fmt(users(SEVENTY, S.used_chat), 'int')}"
              if context == "chat" else f"a document conversation fills the window, so even paged the server holds "
              f"{fmt(n70, 'int')}")
    return {
        "kv_token": f"{fmt(kv, 'int')} bytes", "kv_user": fmt(kv * S.window, "GB"), "budget": fmt(budget(SEVENTY), "GB"),
        "users": fmt(n70, "int"), "weights": fmt(weights(SEVENTY), "GB"), "window": span(S.window),
        "mha_user": fmt(kv_token(SEVENTY, heads=SEVENTY.query_heads) * S.window, "GB"),
        "mha_users": fmt(users(SEVENTY, S.window, heads=SEVENTY.query_heads), "int"),
        "ratio": fmt(SEVENTY.query_heads / SEVENTY.kv_heads, "x"), "weights_x": fmt(weights(SEVENTY) / (kv * S.window), "x"),
        "query_heads": fmt(SEVENTY.query_heads, "int"), "kv_heads": fmt(SEVENTY.kv_heads, "int"), "paging": paging,
        "kv8": f"{fmt(kv8, 'int')} bytes", "n8": fmt(n8, "int"), "budget8": fmt(budget(EIGHT), "GB"),
        "weights8": fmt(weights(EIGHT), "GB"), "usable": fmt(usable(), "GB"), "kv_x": fmt(kv / kv8, "x"),
        "budget_x": fmt(budget(EIGHT) / budget(SEVENTY), "x"), "layers70": fmt(SEVENTY.layers, "int"),
        "layers8": fmt(EIGHT.layers, "int"), "n_same": fmt(users(EIGHT, S.window * kv / kv8), "int"),
        "width70": fmt(SEVENTY.d_model, "int"), "width8": fmt(EIGHT.d_model, "int"), "params_x": fmt(SEVENTY.params / EIGHT.params, "x"),
    }


def static_wait(v: Serving) -> str:
    """Why a static plan breaks the promise: the queue, or the wait behind a full batch."""
    if v.arrival >= v.capacity:
        return (f"{plural(v.lat_batch, 'static slot', count_fmt='int')} complete only {fmt(v.capacity, 'req/s')} "
                f"of the {fmt(v.arrival, 'req/s')} arriving, so the queue grows without bound")
    return (f"a request waits behind the running batch. A full batch of {fmt(v.lat_batch, 'int')} decodes its "
            f"{fmt(S.output, 'tokens')} in {fmt(S.output * v.step(v.lat_batch), 's')}, then the new batch's prefills "
            f"take {fmt(v.lat_batch * v.prefill, 's')}: {fmt(v.ttft, 's')} to a first token")


def slots_busy(v: Serving) -> str:
    """'the 16 slots, each held 2.06 s …, are all busy for 41.3 % of requests, which wait for one to free'
    (one slot: 'is busy …, which wait for it to free')."""
    held = f"held {fmt(v.hold, 's')} for a reply and the prefills that pause it"
    if v.lat_batch == 1:
        return f"the one slot, {held}, is busy for {fmt(v.slots_full, 'pct')} of requests, which wait for it to free"
    return (f"the {fmt(v.lat_batch, 'int')} slots, each {held}, are all busy for {fmt(v.slots_full, 'pct')} "
            "of requests, which wait for one to free")


def ttft_lever(v: Serving) -> str:
    """The lever that clears a broken chat promise in this state, never one that cannot (review 2:
    "a larger batch" was offered with the batch at its maximum, past what the prefills allow, and
    to a static batcher, which no batch size rescues; "continuous batching" where the prefill queue
    alone breaks the promise)."""
    if v.rho >= 1:
        return (f"Each {span(v.prompt)} prefill takes {fmt(v.prefill, 's')}, so no batch completes more than "
                f"{fmt(1 / v.prefill, 'req/s')}: shorter prompts or fewer arrivals per server.")
    if v.queue_p99 >= S.ttft_slo_s:
        return (f"No batching keeps it here: even with a slot always free the prefill queue alone gives "
                f"{fmt(v.queue_p99, 's')}. Shorter prompts or fewer arrivals per server shorten it.")
    if v.mode == "static":
        return ("Every static request waits for a whole reply: continuous batching, with enough slots, admits "
                "a new request at the next step.")
    if v.arrival >= v.capacity or v.slot_bound:
        return "More slots complete more requests per second and let more replies run at once."
    return "Shorter prompts or fewer arrivals per server shorten the prefill queue."


def continuous_wait(v: Serving) -> str:
    """What a continuous plan's P99 is made of: the prefill queue, and the wait for a free slot when
    the slots are often all busy."""
    if not v.slot_bound:
        return (f"Continuous batching leaves chat only the prefill queue: {fmt(v.prefill, 's')} per prompt, the queue "
                f"{fmt(v.rho, 'pct')} busy, a P99 of {fmt(v.ttft, 's')} against {fmt(S.ttft_slo_s, 's')}; its "
                f"{fmt(v.lat_batch, 'int')} slots complete up to {fmt(v.capacity, 'req/s')}, so a request rarely waits "
                "for one.")
    return (f"Each {span(v.prompt)} prefill takes {fmt(v.prefill, 's')} and the prefill queue is {fmt(v.rho, 'pct')} "
            f"busy; {slots_busy(v)}: a P99 of {fmt(v.ttft, 's')} against "
            f"{fmt(S.ttft_slo_s, 's')} ({fmt(v.queue_p99, 's')} from the prefill queue alone).")


def out_of_reach(context: str) -> str:
    """Option D's feedback: which plan keeps the promise, or why none can."""
    key, chat = act2_decide(context), plans(context)["A"]
    if key != "D":
        return (f"Plan {key} keeps it: each prefill takes {fmt(chat.prefill, 's')}, the prefill queue is "
                f"{fmt(chat.rho, 'pct')} busy and its {fmt(chat.lat_batch, 'int')} slots are rarely all busy, so "
                f"continuous batching answers 99 % of requests within {fmt(chat.ttft, 's')}, under "
                f"{fmt(S.ttft_slo_s, 's')}.")
    return (f"Each {span(chat.prompt)} prefill takes {fmt(chat.prefill, 's')} of the {fmt(S.ttft_slo_s, 's')}, and at "
            f"{fmt(S.arrival, 'req/s')} the prefill queue is {fmt(chat.rho, 'pct')} busy: even with a slot always "
            f"free, its P99 is {fmt(chat.queue_p99, 's')}; slots and static batches only add waits. Even if every prefill "
            f"took exactly {fmt(chat.prefill, 's')}, {fmt(chat.missed_if_regular(), 'pct')} of requests would wait "
            "past the promise. Keeping it takes shorter prompts, more servers, faster prefills or a looser promise.")


def act2_facts(context: str) -> dict[str, str]:
    p = plans(context)
    facts = {"slo": fmt(S.ttft_slo_s, "s"), "target": fmt(S.tput_target, "tokens/s"),
             "arrival": fmt(S.arrival, "req/s"), "pf": fmt(p["A"].prefill, "s"), "rho": fmt(p["A"].rho, "pct"),
             "A_wait": continuous_wait(p["A"]), "B_wait": static_wait(p["B"]), "D_why": out_of_reach(context),
             "queue": fmt(p["A"].queue_p99, "s")}
    for k, v in p.items():
        facts |= {f"{k}_ttft": fmt(v.ttft, "s"), f"{k}_tput": fmt(v.tokens_per_s, "tokens/s"),
                  f"{k}_cap": fmt(v.capacity, "req/s"), f"{k}_slots": fmt(v.lat_batch, "int"),
                  f"{k}_bulk": fmt(v.tput_batch, "int")}
    v, few, most = p["A"], S.bulk_plan, S.bulk_most
    return facts | {
        "few": fmt(few, "int"), "most": fmt(most, "int"), "step_few": fmt(v.step(few), "s"),
        "step_most": fmt(v.step(most), "s"), "compute_most": fmt(v.roofline(most)[1], "s"),
        "share_few": fmt(v.prefill_share(few), "pct"), "share_most": fmt(v.prefill_share(most), "pct"),
        "out_few": fmt(S.output * v.completes(few), "tokens/s"), "out_most": fmt(S.output * v.completes(most), "tokens/s"),
        "kv_most": fmt(most * kv_token(SEVENTY) * (v.prompt + S.output), "GB"), "budget": fmt(budget(SEVENTY), "GB"),
        "seq": fmt(v.prompt + S.output, "tokens"),
    }
