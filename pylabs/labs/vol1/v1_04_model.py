"""The scenario and model of V1-04 (The Data Gravity Trap): one GPU's input pipeline (its accelerator,
storage and decode workers) and the copy of a dataset between sites. The lab module (``v1_04``) reads like
its page; this is its model.
"""

from __future__ import annotations

from dataclasses import dataclass

from pylabs.physics import constants as C
from pylabs.physics import storage as io
from pylabs.physics import transfer
from pylabs.physics.devices import A100, H100
from pylabs.physics.training import cnn_train_flop_per_sample


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs and the instruments' labelled defaults (spec §V1-04.3)."""

    act1_dataset_bytes: float = 10e12     # the team's 10 TB of JPEG images
    image_bytes: float = 110e3            # one stored JPEG (VOL1 §0.1: 110 to 117 KB for ImageNet)
    mfu: float = 0.40
    workers: int = 6
    decode_per_worker: float = 200.0      # images/s one worker decodes and crops (est)
    more_gpus: int = 4                    # "we want 4x more GPUs"
    fixed_workers: int = 32               # the reflection's "enough workers"
    disk_workers: int = 16
    act2_dataset_bytes: float = 50e12     # 50 TB in us-east-1
    act2_link_bits: float = 100e9         # the inter-region link, bit/s
    lan_bits: float = 1e9                 # the edge site's LAN, bit/s
    pb_bytes: float = 1e15                # the reflection's petabyte
    budget_s: float = 6 * 3600.0          # the run must start within 6 hours
    compute_usd_per_h: float = 20.0       # premium for GPUs next to the data (scenario)
    starved_below: float = 0.5            # Act I failure: GPU busy less than half the time
    sustained_share: float = 0.80         # the line-rate share sustained copies often reach (est, the help's hint)
    links_bits: tuple[tuple[str, float], ...] = (("1", 1e9), ("10", 10e9), ("100", 100e9))
    tb: float = 1e12                      # bytes in a terabyte, for the ledger's dataset_tb
    hour_s: float = 3600.0
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


def util_with(loader: Loader, gpus: float) -> float:
    """GPU utilisation when ``gpus`` GPUs share one loader's storage and CPUs."""
    pipe = loader.pipeline()
    return pipe.samples_per_s / (gpus * pipe.gpu_per_s)


def act1_answer() -> str:
    return "A" if SCENARIO_LOADER.pipeline().bottleneck == "gpu" else "B"


# ---- Act II · Data gravity ------------------------------------------------------------

LINKS = dict(S.links_bits)
PRICES = {"inter": C.AWS_INTER_REGION_USD_PER_GB, "internet": C.AWS_INTERNET_EGRESS_USD_PER_GB}


@dataclass(frozen=True)
class Move:
    """Copying a dataset to the GPUs: its size, the link, the price and the deadline."""

    data_bytes: float
    link_bits: float
    efficiency: float
    usd_per_gb: float
    budget_s: float
    compute_usd_per_h: float

    @property
    def time_s(self) -> float:
        return transfer.transfer_time_s(self.data_bytes, self.link_bits, self.efficiency)

    @property
    def fee_usd(self) -> float:
        return transfer.transfer_cost_usd(self.data_bytes, self.usd_per_gb)

    @property
    def too_slow(self) -> bool:
        return self.time_s > self.budget_s


SCENARIO_MOVE = Move(S.act2_dataset_bytes, S.act2_link_bits, 1.0, C.AWS_INTER_REGION_USD_PER_GB, S.budget_s,
                     S.compute_usd_per_h)
PETABYTE_MOVE = Move(S.pb_bytes, S.act2_link_bits, 1.0, C.AWS_INTER_REGION_USD_PER_GB, S.budget_s, S.compute_usd_per_h)


def act2_truth() -> float:
    return SCENARIO_MOVE.time_s
