"""The scenario and model of V1-04 (The Data Gravity Trap): one GPU's input pipeline (its accelerator,
storage and decode workers) and the copy of a dataset between sites. The lab module (``v1_04``) reads like
its page; this is its model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pylabs.physics import constants as C
from pylabs.physics import storage as io
from pylabs.physics import transfer
from pylabs.physics.devices import A100, H100
from pylabs.physics.training import cnn_train_flop_per_sample


def measured_mfu() -> float:
    """NVIDIA's measured ResNet-50 v1.5 training rate on one A100 (mixed precision) as a share of the
    A100's dense BF16/FP16 peak: r · F / R ≈ 0.195 (handbook/errata.md#e5: the spec's 0.40 gave 5,073 images/s)."""
    return C.RESNET50_A100_AMP_TRAIN_IMAGES_PER_S * cnn_train_flop_per_sample(C.RESNET50_MACS) / A100.peak_ops


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs and the instruments' labelled defaults (handbook/labs/v1_04.md §2)."""

    act1_dataset_bytes: float = 10e12     # the team's 10 TB of JPEG images
    image_bytes: float = 110e3            # one stored JPEG (handbook/labs/v1_04.md §3: 110 to 117 KB for ImageNet)
    mfu: float = round(measured_mfu() / 0.005) * 0.005  # NVIDIA's measurement, on the slider's step
    mfu_step: float = 0.005
    workers: int = 6
    decode_per_worker: float = 200.0      # images/s one worker decodes and crops (est)
    more_gpus: int = 4                    # "we want 4x more GPUs"
    crop_px: int = 224                    # the training crop (He et al. 2016), handed over as FP32
    fp32_bytes: int = 4
    # the reflection's four purchases: (storage, workers)
    # (no option is the key's design moved less far on every axis: B is neither faster storage than D
    # nor more workers than C)
    fix_a: tuple[str, int] = ("nvme", 6)
    fix_b: tuple[str, int] = ("sata", 16)
    fix_c: tuple[str, int] = ("hdd_seq", 32)
    fix_d: tuple[str, int] = ("nvme", 10)
    act2_dataset_bytes: float = 50e12     # 50 TB in us-east-1
    act2_link_bits: float = 100e9         # the inter-region link, bit/s
    lan_bits: float = 1e9                 # the edge site's LAN, bit/s
    pb_bytes: float = 1e15                # the reflection's petabyte
    faster_link: float = 2.0              # the reflection's "a link twice as fast"
    budget_s: float = 6 * 3600.0          # the run must start within 6 hours
    compute_usd_per_h: float = 20.0       # premium for GPUs next to the data (scenario)
    starved_below: float = 0.9            # Act I failure: the GPU waits for data more than a tenth of the time
    sustained_share: float = 0.80         # the line-rate share sustained copies often reach (est, the help's hint)
    links_bits: tuple[tuple[str, float], ...] = (("1", 1e9), ("10", 10e9), ("100", 100e9))
    axis_pad: float = 0.06                # decades of margin either side of the dataset axis
    time_ticks: tuple[tuple[float, str], ...] = ((60.0, "1 min"), (3600.0, "1 h"), (86400.0, "1 day"),
                                                 (7 * 86400.0, "1 week"), (30 * 86400.0, "30 days"))


S = Scenario()
FLOP_PER_IMAGE = cnn_train_flop_per_sample(C.RESNET50_MACS)
GPUS = {"a100": A100, "h100": H100}
STORAGE = {  # key: (label, bandwidth B/s, reads one small file per image?)
    "hdd_seq": ("Hard disk, sharded files read in order", C.HDD_SEQ_BW, False),
    "hdd_random": ("Hard disk, one small file per image", C.HDD_SEQ_BW, True),
    "sata": ("SATA SSD", C.SATA_SSD_BW, False),
    "nvme": ("NVMe Gen4 SSD", C.NVME_GEN4_BW, False),
    "ram": ("Page cache in RAM", C.PAGE_CACHE_BW, False),
}

# ---- Act I · The pipeline ------------------------------------------------------------


@dataclass(frozen=True)
class Loader:
    """One GPU's input pipeline: its accelerator, storage and decode workers."""

    gpu: str = "a100"
    mfu: float = S.mfu
    storage: str = "hdd_seq"
    iops: float = C.HDD_RANDOM_IOPS
    image_bytes: float = S.image_bytes
    workers: float = S.workers
    per_worker: float = S.decode_per_worker

    def pipeline(self) -> io.Pipeline:
        _, bandwidth, random = STORAGE[self.storage]
        read = (io.random_read_samples_per_s(bandwidth, self.image_bytes, self.iops) if random
                else io.storage_samples_per_s(bandwidth, self.image_bytes))
        return io.Pipeline(io.gpu_samples_per_s(GPUS[self.gpu].peak_ops, self.mfu, FLOP_PER_IMAGE), read,
                           io.decode_samples_per_s(self.workers, self.per_worker))


SCENARIO_LOADER = Loader()


def decade_range(values: list[float]) -> list[float]:
    """A log axis's range in exponents, from one decade below the smallest value to the decade above
    the largest, so bars keep visible heights and every decade tick shows."""
    low, high = min(values), max(values)
    return [math.floor(math.log10(low)) - 1, math.ceil(math.log10(high))]


def util_with(loader: Loader, gpus: float) -> float:
    """GPU utilisation when ``gpus`` GPUs share one loader's storage and CPUs."""
    pipe = loader.pipeline()
    return pipe.samples_per_s / (gpus * pipe.gpu_per_s)


def fix(storage_workers: tuple[str, int]) -> Loader:
    """One of the Act I reflection's purchases, at the team's other settings."""
    storage, workers = storage_workers
    return Loader(storage=storage, workers=workers)


ACT1_LETTERS = {"cpu_decode": "A", "storage": "B", "gpu": "C"}  # D, the PCIe copy, is never the slowest


def act1_answer() -> str:
    return ACT1_LETTERS[SCENARIO_LOADER.pipeline().bottleneck]


def tensor_bytes() -> float:
    """One decoded training crop as the loader hands it to the GPU: 224 × 224 × 3 values in FP32."""
    return S.crop_px * S.crop_px * 3 * S.fp32_bytes


# ---- Act II · Data gravity ------------------------------------------------------------

LINKS = dict(S.links_bits)
CONTEXT_LINK = {"cloud": S.act2_link_bits, "edge": S.lan_bits}
# tariffs: (upper bound in bytes, USD per GB), each GB billed at the rate of its tier (AWS, US East)
TARIFFS = {
    "inter": ((math.inf, C.AWS_INTER_REGION_USD_PER_GB),),
    "internet": ((C.AWS_EGRESS_TIER1_BYTES, C.AWS_INTERNET_EGRESS_USD_PER_GB),
                 (C.AWS_EGRESS_TIER2_BYTES, C.AWS_EGRESS_TIER2_USD_PER_GB),
                 (C.AWS_EGRESS_TIER3_BYTES, C.AWS_EGRESS_TIER3_USD_PER_GB),
                 (math.inf, C.AWS_EGRESS_TIER4_USD_PER_GB)),
    "lan": ((math.inf, 0.0),),
}
CONTEXT_TARIFF = {"cloud": "inter", "edge": "lan"}


@dataclass(frozen=True)
class Move:
    """Copying a dataset to the GPUs: its size, the link, the price and the deadline."""

    data_bytes: float
    link_bits: float
    efficiency: float = 1.0
    tariff: str = "inter"
    budget_s: float = S.budget_s
    compute_usd_per_h: float = S.compute_usd_per_h

    @property
    def time_s(self) -> float:
        return transfer.transfer_time_s(self.data_bytes, self.link_bits, self.efficiency)

    @property
    def fee_usd(self) -> float:
        return transfer.tiered_cost_usd(self.data_bytes, TARIFFS[self.tariff])

    @property
    def bought_s(self) -> float:
        """Hours of GPUs next to the data that the fee would pay for."""
        return transfer.time_bought_s(self.fee_usd, self.compute_usd_per_h)

    @property
    def too_slow(self) -> bool:
        return self.time_s > self.budget_s


def scenario_move(context: str, data_bytes: float = S.act2_dataset_bytes, times: float = 1.0) -> Move:
    """The copy in a context at the scenario's inputs: the cloud's inter-region link and fee, or the
    edge site's free LAN; ``times`` scales the link (the reflection's faster lease)."""
    return Move(data_bytes, CONTEXT_LINK[context] * times, 1.0, CONTEXT_TARIFF[context])


SCENARIO_MOVE = scenario_move("cloud")
PETABYTE_MOVE = scenario_move("cloud", S.pb_bytes)


def act2_truth(context: str) -> float:
    return scenario_move(context).time_s
