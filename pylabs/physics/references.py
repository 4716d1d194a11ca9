"""The papers and documents the labs cite, each written once.

Math peeks cite by key with what the lab takes from the source:
``cite("kaplan2020", "C = 6ND")`` -> "Kaplan et al. 2020, *Scaling Laws for Neural
Language Models* (C = 6ND)." The Sources page lists them all.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reference:
    authors: str
    year: int
    title: str
    url: str = ""

    def text(self, note: str = "") -> str:
        year = f" {self.year}" if self.year else ""
        detail = f" ({note})" if note else ""
        return f"{self.authors}{year}, *{self.title}*{detail}."


REFERENCES: dict[str, Reference] = {
    "kaplan2020": Reference("Kaplan et al.", 2020, "Scaling Laws for Neural Language Models",
                            "https://arxiv.org/abs/2001.08361"),
    "thakur2005": Reference("Thakur, Rabenseifner and Gropp", 2005,
                            "Optimization of Collective Communication Operations in MPICH",
                            "https://doi.org/10.1177/1094342005051521"),
    "zero2020": Reference("Rajbhandari et al.", 2020, "ZeRO: Memory Optimizations Toward Training Trillion "
                          "Parameter Models", "https://arxiv.org/abs/1910.02054"),
    "nccl_tests": Reference("NVIDIA", 0, "nccl-tests, doc/PERFORMANCE.md",
                            "https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md"),
    "palm2022": Reference("Chowdhery et al.", 2022, "PaLM: Scaling Language Modeling with Pathways",
                          "https://arxiv.org/abs/2204.02311"),
    "narayanan2021": Reference("Narayanan et al.", 2021, "Efficient Large-Scale Language Model Training on GPU "
                               "Clusters Using Megatron-LM", "https://arxiv.org/abs/2104.04473"),
    "korthikanti2022": Reference("Korthikanti et al.", 2022, "Reducing Activation Recomputation in Large "
                                 "Transformer Models", "https://arxiv.org/abs/2205.05198"),
    "mccandlish2018": Reference("McCandlish et al.", 2018, "An Empirical Model of Large-Batch Training",
                                "https://arxiv.org/abs/1812.06162"),
    "scaling_book": Reference("Austin et al.", 2025, "How to Scale Your Model (the scaling book)",
                              "https://jax-ml.github.io/scaling-book/"),
    # seed-lab corrections (V2-09): the interleaved schedule's checks, read in the source
    "megatron_schedules": Reference(
        "NVIDIA Megatron-LM", 2026, "megatron/core/pipeline_parallel/schedules.py, "
        "forward_backward_pipelining_with_interleaving",
        "https://github.com/NVIDIA/Megatron-LM/blob/d98e8a64ddf34856e74b24714e3bedb2f5a39553/"
        "megatron/core/pipeline_parallel/schedules.py"),
}


class UnknownReference(KeyError):
    """A citation key that is not in REFERENCES."""


def cite(key: str, note: str = "") -> str:
    """One source, formatted for a math peek, with what the lab takes from it."""
    try:
        return REFERENCES[key].text(note)
    except KeyError:
        raise UnknownReference(f"no reference {key!r}; known: {', '.join(sorted(REFERENCES))}") from None
