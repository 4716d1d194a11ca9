"""What a stored answer's letter means across versions of the Design Ledger.

Answers are stored as letters. When a question's options are re-lettered (so that keys are
spread over A-D) or rewritten, a ledger written before keeps its meaning through this table:
for ledger version 1 (the site before 27 Nov 2026), each question lists the letter that each of
its version-1 options A, B, C, D has now, or "-" where that option no longer exists (the claim or
the range was rewritten). An answer whose option is gone is kept, not dropped, under
``<question>_v1``: the ledger page shows it as an answer to an earlier version of the question,
and the question is open again. ``tests/fixtures/questions_v1.json`` records what each
version-1 letter said, and ``tests/test_ledger_letters.py`` checks the table against it.
"""

from __future__ import annotations

LETTERS_VERSION = 2  # the ledger version whose letters are today's

# lab -> question -> today's letter of each version-1 option (A, B, C, D in that order)
FROM_V1: dict[str, dict[str, str]] = {
    "v1_00": {
        "a1_predict": "----",  # the round trip's ranges became the reach's
        "a1_reflect": "ABCD",  # the same four sets of fixes, reworded
        "a2_predict": "----",  # the regime pick became the power ceiling that picks the regime (review)
        "a2_reflect": "----",  # drift (never shown by the instruments) became the coin cell's levers
    },

    "v1_01": {
        "a1_predict": "----",  # ranges rewritten in decades so the key sits in B (10⁵ to 10⁷)
        "a1_reflect": "----",  # now what the ruler's unequal ratios say (was "separate stacks per regime")
        "a2_predict": "---C",  # ranges in order; only "0.8× to 1.25×, about equal" survives, now C
        "a2_reflect": "----",  # now what a larger batch does to the time per sample (was what rules out the M7)
    },

    "v1_02": {
        "a1_predict": "----",  # ranges rewritten and put in order (they ran from highest to lowest)
        "a1_reflect": "----",  # asks where the saving came from, true in both contexts
        "a2_predict": "----",  # asks for the farthest site, not the latency of the plan
        "a2_reflect": "ABCD",  # the same four fixes, reworded to similar length
    },

    "v1_03": {
        # every question rewritten: Act I asks the days redone (was the 2^(N-1) rule's
        # multiplier), Act II the crossover time (was a pick of four race outcomes); both reflections
        # now ask what the act showed
        "a1_predict": "----",
        "a1_reflect": "----",
        "a2_predict": "----",
        "a2_reflect": "----",
    },

    "v1_04": {
        "a1_predict": "C---",  # now the four stages by name; "the GPU" is C, "data loading" split into decode and disk
        "a1_reflect": "-A--",  # now four concrete purchases; "NVMe alone" (keeping the six workers) is A
        "a2_predict": "----",  # ranges rewritten (10 min, 1 h, the 6 h budget) and asked over the context's link
        "a2_reflect": "-D--",  # "move the compute to the data" is D; the other three claims rewritten
    },

    "v1_05": {
        "a1_predict": "----",  # was sigmoid ÷ ReLU arithmetic (recall of a stated count); now the layers' frame share
        "a1_reflect": "AC-D",  # the key (bytes, not arithmetic) moved B -> C; "a second pass" became "one special-function step" (not the odd one out)
        "a2_predict": "----",  # was one image's 224×224×256 map; now the ledger's first map, which a card shows
        "a2_reflect": "----",  # was why batch scales activations; now why training's peak is close to inference's
    },

    "v1_06": {
        "a1_predict": "----",  # the score memory at 2× the prompt became the total at the VP's 100K (102×, C)
        "a1_reflect": "----",  # how FlashAttention fits (its toggle said so) became what fills memory with it on
        "a2_predict": "----",  # deep ÷ wide on the Orin became wide ÷ deep on the context's device (A)
        "a2_reflect": "----",  # what makes depth cost time became why it costs more on the faster GPU
    },

    "v1_07": {
        "a1_predict": "----",  # now the CPU's dispatching share, not the GPU's busy share
        "a1_reflect": "BCAD",  # the same four outcomes of a faster GPU, the key moved to A
        "a2_predict": "----",  # now the traffic time to break even, not the image count
        "a2_reflect": "ACBD",  # the same four claims about fusion, the key moved to C
    },

    "v1_08": {
        "a1_predict": "----",  # now the weights' share of the device's memory, not the static GB
        "a1_reflect": "----",  # now what mixed precision saves (activations), claims rewritten
        "a2_predict": "AB--",  # A and B the same ranges; C and D now split at 99.9 %, not 99.5 % (review)
        "a2_reflect": "----",  # now whether a bigger micro-batch pays, claims rewritten
    },

    "v1_09": {
        "a1_predict": "----",  # ranges rewritten (a "slower" range added below 0.9×) so the key sits in B
        "a1_reflect": "ACBD",  # the same four claims, reworded to similar length; the key moved to C
        "a2_predict": "----",  # four plans with label counts, decided by the learning curve, at the claimed k
        "a2_reflect": "BACD",  # the same four claims, reworded; the key moved to A
    },

    "v1_10": {
        "a1_predict": "----",  # ranges rewritten: the measured 0.21 pp now sits in C (0.05 to 0.5 pp)
        "a1_reflect": "AD-C",  # size now A, the shared scale D, activations C; "negative weights" replaced
        "a2_predict": "-BAC",  # plans re-lettered (the key, INT4 / 3-bit / 1B, is now A); INT8 everywhere became
                               # one 8B model at 3 and 2 bits, so that the smallest plan is not always the key
        "a2_reflect": "ABCD",  # the same four claims, reworded to similar length
    },

    "v1_11": {
        "a1_predict": "----",  # now the tokens per call that reach the peak (was the share of peak)
        "a1_reflect": "----",  # now which kernels a faster chip speeds up (was which change helps most)
        "a2_predict": "----",  # now each sequence's share of its solo speed (was the batch's speedup)
        "a2_reflect": "----",  # now which change raises each sequence's share (was what holds the batch back)
    },

    "v1_12": {
        "a1_predict": "----",  # ranges in order (they ran from highest to lowest), split at 6.5×, 12×, 40×
        "a1_reflect": "----",  # now which of four proposals finishes the job soonest (was which raises the ceiling)
        "a2_predict": "----",  # ranges split at 3, 8, 16 (were 3, 12, 24); the prompt now states A's costs
        "a2_reflect": "-DBC",  # A is new (the pilot's queries at batch 256: same queries, wrong regime); production's traffic (was B, with P99) is now D
    },

    "v1_13": {
        "a1_predict": "----",  # ranges of P99 ÷ mean now, not of the P99 in ms (one question in every context)
        "a1_reflect": "----",  # now asks what drives the load curve's climb
        "a2_predict": "----",  # C and D part at 1 min, not 2; every claim reworded (A no longer credits the
                               # autoscaler); version 1 asked Mobile the cloud's question, today's asks of the phone
        "a2_reflect": "----",  # now asks why a slow service misses the SLO at any capacity
    },

    "v1_14": {
        "a1_predict": "ABCD",   # the same four ranges (under 1 week, 1-2, 2-6, 6 weeks or more), glosses reworded
        "a1_reflect": "----",   # now asks how much sooner PSI reaches a halved threshold (was: PSI's symmetry)
        "a2_predict": "-AC-",   # the key (weekly / monthly / quarterly, was B) is A; version-1 C stays C
        "a2_reflect": "----",   # now asks how retraining and staleness compare at T* (was: why PSI leads)
    },

    "v1_15": {
        "a1_predict": "----",   # ranges rewritten (A < 1.15×, B 1.15–1.6×, C 1.6–2.2×, D ≥ 2.2×)
        "a1_reflect": "----",   # now asks which change equalizes the false-positive rates
        "a2_pick": "A-BD",      # A, the key (version-1 C, now B) and D (monthly audits instead of validation) kept
        "a2_reflect": "----",   # now asks what raises one cutoff's adverse-impact ratio
    },

    "v1_16": {
        "a1_predict": "----",  # now one reader's tokens per second on the H100, not the answer's time
        "a1_reflect": "CB-D",  # review: "faster GPUs" moved to C; "batch so each stream decodes faster" became throughput
        "a2_pick": "----",  # now which tier needs weights below 4 bits (MCU aside), not which tier no precision rescues
        "a2_reflect": "D--A",  # review: the two remedies (stream, prune) became causes (slow flash, no ternary 7B)
    },

    "v2_01": {
        "a1_predict": "ABCD",
        "a1_reflect": "ACBD",
        "a2_predict": "----",
        "a2_reflect": "BAC-",  # D (the on-demand hour gets cheaper) was struck out by the prompt; now a PUE claim
    },

    "v2_02": {
        "a1_predict": "---D",  # A-C redrawn (under 1.5x, 1.5-4x, 4-10x); only "10x or more" stays, at D
        "a1_reflect": "----",  # asks what 8 -> 16 GPUs does to the ring's time (was why 2(N-1)/N, stated by the page)
        "a2_predict": "----",  # asks the gain from eight rails over one NIC (the rails' speedup sat high in C)
        "a2_reflect": "----",  # asks what a fixed global batch does from 16 to 64 nodes (the old key was a failure's lever)
    },

    "v2_03": {
        "a1_predict": "----",  # now the share an ordered ring keeps (100 %), ranges lowest first (they ran highest first)
        "a1_reflect": "----",  # now what sets the scattered ring's 66.1 % (was why ordering restores full speed)
        "a2_predict": "ACBD",  # the same four designs: the torus A, the Ethernet to C, InfiniBand (the key) to B
        "a2_reflect": "ABCD",  # the same four claims, reworded to similar lengths
    },

    "v2_04": {
        "a1_predict": "BACD",  # the same four diagnoses, reworded; the loader (small reads at queue depth 1) is A
        "a1_reflect": "----",  # was why shards fix the loader; now what more workers and whole-sample reads differ in
        "a2_predict": "ACDB",  # the same four limits, reworded per context; the metadata target is C, the loaders B
        "a2_reflect": "----",  # was whether an object store removes the wall (the object context is already one);
                               # now why shards keep working as the job grows
    },

    "v2_05": {
        "a1_predict": "----",  # same bounds, but each range now claims the all-reduce's share of the step (was the mechanism)
        "a1_reflect": "-BC-",  # "more bytes as N grows" and the key reworded to similar length; A and D new claims (D: slower small GEMMs)
        "a2_predict": "B-D-",  # TP 8 x PP 4 is B, Megatron's TP 8 x PP 16 (the key) is D; TP 16 x PP 8 and TP 4 x PP 32 replaced
        "a2_reflect": "----",  # now why a deeper pipeline barely raises the bubble (TP inside the node was stated by the page)
    },

    "v2_06": {
        "a1_predict": "----",  # a new question: the ring's time (0.556 s), not the naive/ring ratio
        "a1_reflect": "----",  # a new question: why algbw reads half the link
        "a2_predict": "----",  # a new question: the ring's extra time over halving + doubling at 350 GB
        "a2_reflect": "AB--",  # "count the GPUs" and the N-dependent crossover stay; C and D rewritten
    },

    "v2_07": {
        "a1_predict": "----",  # the ranges were redrawn (under 20 min, 20-40, 40-55, 55 min or more)
        "a1_reflect": "BAC-",  # "halves" moved to A, "shrinks 4x" to B; "smaller shards" gave way to the restart
        "a2_predict": "A---",  # two synchronous and two asynchronous plans; only "synchronous every 5 min" stays
        "a2_reflect": "----",  # a new question: what cutting the restart does to every plan
    },

    "v2_08": {
        "a1_predict": "----",  # now the wait with the added GPUs as a share of today's (key A: under 10 %)
        "a1_reflect": "ABC-",  # the knee asked for the context's jobs; "any utilisation" rewritten
        "a2_pick": "AB--",     # the key is now the smallest passing notebook pool (48); 64/448/512 kept at B
        "a2_reflect": "D---",  # the gang-slot key moved to D; backfill, priority and "reporting error" rewritten
    },

    "v2_09": {
        "a1_predict": "----",  # the ranges were redrawn (under 35 %, 35-65, 65-120, 120 % or more): key 42.9 % in B
        "a1_reflect": "ACBD",  # noise stays A, "throughput is steps per second" moved to C, "slower inside the step" to B
        "a2_predict": "----",  # asked in the context locked in, with micro-batches that amortise the all-reduce
        "a2_reflect": "----",  # a new question: why compression alone never reaches 50 % MFU
    },

    "v2_10": {  # every range moved (key 40 now in C), and three questions ask something new
        "a1_predict": "----",
        "a1_reflect": "----",
        "a2_predict": "----",
        "a2_reflect": "----",
    },

    "v2_11": {
        "a1_predict": "----",  # ranges rewritten (1×, 3×, 30×) and asked of the context's model
        "a1_reflect": "BA-D",  # the download half is A; "converge slowly" B; "networks compress" became the indices' overhead
        "a2_predict": "----",  # four DP-FedAvg plans (K, z) against ε and accuracy (was: which mechanism has an ε)
        "a2_reflect": "-CBD",  # e^ε is C; "a coin flip" became "whatever an attacker knows, 73.1 %"
    },

    "v2_12": {
        "a1_predict": "----",  # now the chain's P99 (was the fan-out's share of slow pages)
        "a1_reflect": "AB-D",  # the same claims, asked of a search's services; C (P95) is now the extra nine
        "a2_pick": "ACDB",     # breakers to C, monitoring to D, the autoscaler to B
        "a2_reflect": "----",  # now the timeout that lets the autoscaler save the tier (was the amplification)
    },

    "v2_13": {
        "a1_predict": "----",  # the ranges were redrawn (the key moved from 65-80 % to 60-80 %)
        "a1_reflect": "AC-D",  # "deleted after training" gave way to "a 50 % audit certifies the model"
        "a2_predict": "ADB-",  # the federated plan gave way to "10x the records and z = 0.8"
        "a2_reflect": "BACD",
    },

    "v2_14": {
        "a1_predict": "CABD",  # the same four readings, reworded to similar length; "expected" is now C
        "a1_reflect": "AD-C",  # "many small moves add up" is now D; "a few pixels moved a lot" (struck out by the prompt's per-pixel cap) became "random noise"
        "a2_predict": "BADC",  # the tuned window is A; "the strongest published recipe" became "TRADES as released"
        "a2_reflect": "ABCD",  # the same four places for the compute, reworded to similar length
    },

    "v2_15": {
        "a1_predict": "----",   # ranges rewritten (< 1.2×, 1.2–2×, 2–2.5×, ≥ 2.5×): the key 2.8× is now D
        "a1_reflect": "BACD",   # the same four policies, reworded; the carbon budget is now A
        "a2_predict": "----",   # the plan pick became the stated plan's saving by shifting (ranges)
        "a2_reflect": "-BCD",   # A is now "the window sets it" (was "jobs cannot wait 12 h", which the prompt ruled out)
    },

    "v2_16": {
        "a1_predict": "----",   # now group B's FPR ÷ group A's, with new ranges
        "a1_reflect": "ABCD",   # the same four claims, reworded to similar lengths
        "a2_predict": "----",   # four new deployments (the old key was unlawful: handbook/errata.md#e15)
        "a2_reflect": "----",   # a new question: what sets the impact ratio at one cut-off
    },

    "v2_17": {
        "a1_predict": "ABCD",   # the same four ranges of checks passed (now of ten, not nine)
        "a1_reflect": "----",   # rewritten: what turns the prefill into the P99 (was: what sets the prefill)
        "a2_pick": "----",      # rewritten: designs now differ in weight precision (serving memory check)
        "a2_reflect": "----",   # rewritten: which one change breaks the most checks
    },
}


def migrate_answer(lab_id: str, qid: str, choice: str, version: int) -> tuple[str, str | None]:
    """Where a ``version`` answer ``choice`` to ``qid`` lives today: (question id, letter), or the
    question's ``_v1`` id with the old letter when its option no longer exists."""
    if version >= LETTERS_VERSION:
        return qid, choice
    now = FROM_V1.get(lab_id, {}).get(qid)
    if now is None or choice not in "ABCD":
        return qid, choice
    letter = now["ABCD".index(choice)]
    return (qid, letter) if letter != "-" else (f"{qid}_v1", choice)
