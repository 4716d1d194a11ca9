"""Input-pipeline physics: demand, latency-bound loaders, storage and metadata limits.

Golden vectors from curriculum handbook/labs/v2_04.md §4 (the corrected model of handbook/labs/v2_04.md §2):
s = 4 MB samples, b = 16 per step, t_c = 0.8 s, ℓ = 0.4 ms, B_s = 2 GB/s, t_o = 1 ms.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pylabs.physics import storage as io
from pylabs.physics.constants import S3_GET_PER_PREFIX_PER_S

SAMPLE = 4e6
KIB4 = 4096.0
LAT = 0.4e-3
STREAM = 2e9
OPEN = 1e-3
FAST = settings(max_examples=200, deadline=None)


def demand() -> float:
    return io.pipeline_demand_bytes_per_s(16, SAMPLE, 0.8)


def supply(workers: float, request: float, open_s: float = OPEN) -> float:
    return io.loader_supply_bytes_per_s(workers, SAMPLE, io.sample_read_s(SAMPLE, request, LAT, STREAM, open_s))


def util(workers: float, request: float) -> float:
    return io.gpu_utilization(supply(workers, request), demand(), 24 * 28e9, 128)


def test_v2_04_3_demand_is_80_MBps_per_gpu():
    """handbook/labs/v2_04.md §2: R = b·s/t_c = 80 MB/s per GPU (10.24 GB/s for 128 GPUs), not the 5.12 GB/s
    upstream."""
    assert demand() == pytest.approx(80e6, rel=1e-12)
    assert 128 * demand() == pytest.approx(10.24e9, rel=1e-12)


def test_v2_04_4_one_worker_random_reads_give_12_7_percent():
    """handbook/labs/v2_04.md §4: W = 1, q = 4,096, t_o = 1 ms → X = 10.16 MB/s, U = 0.127."""
    assert io.requests_per_sample(SAMPLE, KIB4) == 977
    assert supply(1, KIB4) == pytest.approx(10.16e6, rel=5e-4)
    assert util(1, KIB4) == pytest.approx(0.127, abs=5e-4)


@pytest.mark.parametrize("workers, expected", [(4, 0.508), (8, 1.0)])
def test_v2_04_4_more_workers_scale_supply_linearly(workers, expected):
    """handbook/labs/v2_04.md §4: W = 4 → U = 0.508; W = 8 → U = 1.0 with X = 81.3 MB/s."""
    assert util(workers, KIB4) == pytest.approx(expected, abs=5e-4)


def test_v2_04_4_eight_workers_supply_81_MBps():
    assert supply(8, KIB4) == pytest.approx(81.3e6, abs=0.05e6)


def test_v2_04_4_one_sequential_read_gives_1176_MBps():
    """handbook/labs/v2_04.md §4: W = 1, q = s → t_s = 0.4 + 2 + 1 ms, X = 1,176 MB/s, U = 1."""
    assert io.sample_read_s(SAMPLE, SAMPLE, LAT, STREAM, OPEN) == pytest.approx(3.4e-3, rel=1e-12)
    assert supply(1, SAMPLE) == pytest.approx(1176.47e6, rel=1e-5)
    assert util(1, SAMPLE) == 1.0


def test_v2_04_4_storage_is_1_5_percent_busy_in_act1():
    """handbook/labs/v2_04.md §2: the Act I answer: Lustre (672 GB/s) carries 10.24 GB/s, 1.5 %."""
    aggregate = io.aggregate_bandwidth_bytes_per_s(24, 28e9)
    assert aggregate == pytest.approx(672e9)
    assert io.storage_utilization(128, demand(), aggregate) == pytest.approx(0.01524, abs=1e-5)


def test_v2_04_4_512_gpus_individual_files_warn_at_61_percent():
    """handbook/labs/v2_04.md §4: N = 512 → F = 10,240/s, D = 30,720 ops/s, 61 % of one 50 k ops/s MDT."""
    files = io.files_per_s(512, demand(), SAMPLE)
    ops = io.metadata_ops_per_s(files, 3)
    assert files == pytest.approx(10240, rel=1e-12)
    assert ops == pytest.approx(30720, rel=1e-12)
    assert ops / 50e3 == pytest.approx(0.6144, rel=1e-12)


def test_v2_04_4_4096_gpus_need_5_mdts_and_15_prefixes():
    """handbook/labs/v2_04.md §4: N = 4,096 → F = 81,920/s, D = 245,760 ops/s (4.9×), 5 MDTs, 327.7 of 1,344 GB/s, 15
    prefixes."""
    files = io.files_per_s(4096, demand(), SAMPLE)
    ops = io.metadata_ops_per_s(files, 3)
    assert files == pytest.approx(81920, rel=1e-12)
    assert ops == pytest.approx(245760, rel=1e-12)
    assert ops / 50e3 == pytest.approx(4.9152, rel=1e-12)
    assert io.servers_needed(ops, 50e3) == 5
    assert 4096 * demand() == pytest.approx(327.68e9, rel=1e-12)
    assert io.aggregate_bandwidth_bytes_per_s(48, 28e9) == pytest.approx(1344e9)
    assert io.servers_needed(files, S3_GET_PER_PREFIX_PER_S) == 15


def test_v2_04_4_shards_of_10000_samples_cut_metadata_to_25_ops():
    """handbook/labs/v2_04.md §4: N = 4,096, 40 GB shards → D = 24.6 ops/s."""
    ops = io.metadata_ops_per_s(io.files_per_s(4096, demand(), 10_000 * SAMPLE), 3)
    assert ops == pytest.approx(24.576, rel=1e-12)


def test_worker_count_does_not_enter_the_file_rate():
    """handbook/labs/v2_04.md §2: F depends on what the GPUs consume, not on how many workers fetch it."""
    import inspect
    assert "workers" not in inspect.signature(io.files_per_s).parameters


def test_servers_needed_is_at_least_one():
    assert io.servers_needed(0.0, 50e3) == 1
    assert io.servers_needed(50e3, 50e3) == 1
    assert io.servers_needed(50e3 + 1, 50e3) == 2


def test_gpu_utilization_is_capped_by_the_storage_share():
    # 1,000 GPUs each wanting 1 GB/s from 100 GB/s of storage get a tenth of it.
    assert io.gpu_utilization(10e9, 1e9, 100e9, 1000) == pytest.approx(0.1)


@FAST
@given(st.integers(1, 16), st.floats(512, 64e6), st.floats(1e-5, 0.05), st.floats(0, 0.01))
def test_supply_is_linear_in_workers_and_positive(workers, request, latency, open_s):
    read = io.sample_read_s(SAMPLE, request, latency, STREAM, open_s)
    one = io.loader_supply_bytes_per_s(1, SAMPLE, read)
    assert read > 0 and one > 0
    assert io.loader_supply_bytes_per_s(workers, SAMPLE, read) == pytest.approx(workers * one, rel=1e-12)


@FAST
@given(st.floats(1e-5, 0.05))
def test_bigger_requests_never_slow_a_sample(latency):
    small = io.sample_read_s(SAMPLE, 4096, latency, STREAM)
    large = io.sample_read_s(SAMPLE, SAMPLE, latency, STREAM)
    assert large <= small


@FAST
@given(st.floats(1, 1e12), st.floats(1, 1e12), st.floats(1, 1e15), st.integers(1, 100_000))
def test_utilization_is_a_fraction(x, r, b, n):
    assert 0 < io.gpu_utilization(x, r, b, n) <= 1


# ---- V1-04 The Data Gravity Trap: golden vectors of handbook/labs/v1_04.md §4 ----------------

from pylabs.physics import constants as C  # noqa: E402
from pylabs.physics.training import cnn_train_flop_per_sample  # noqa: E402

V1_04_IMAGE = 110e3      # bytes of JPEG per image (handbook/labs/v1_04.md default)
V1_04_PER_WORKER = 200.0  # images/s one worker decodes (handbook/labs/v1_04.md default, est)


def v1_04_pipeline(storage: float, workers: float, gpu_peak: float = C.A100_PEAK_BF16_DENSE,
                   iops: float | None = None) -> io.Pipeline:
    flop = cnn_train_flop_per_sample(C.RESNET50_MACS)
    read = (io.storage_samples_per_s(storage, V1_04_IMAGE) if iops is None
            else io.random_read_samples_per_s(storage, V1_04_IMAGE, iops))
    return io.Pipeline(io.gpu_samples_per_s(gpu_peak, 0.40, flop), read,
                       io.decode_samples_per_s(workers, V1_04_PER_WORKER))


def test_v1_04_gpu_rates_section_4():
    """handbook/labs/v1_04.md §4: A100 at 40 % MFU trains 5,073.2 img/s (0.558 GB/s of JPEG); H100 16,087.8."""
    a100 = v1_04_pipeline(C.HDD_SEQ_BW, 6).gpu_per_s
    assert a100 == pytest.approx(5073.2, abs=0.05)
    assert a100 * V1_04_IMAGE == pytest.approx(0.558e9, rel=1e-3)
    assert v1_04_pipeline(C.HDD_SEQ_BW, 6, C.H100_PEAK_BF16_DENSE).gpu_per_s == pytest.approx(16087.8, abs=0.05)


def test_v1_04_hdd_sequential_section_4():
    """handbook/labs/v1_04.md §4: HDD sequential, 6 workers: r_io 1,363.6, r_cpu 1,200, 23.65 %, cpu_decode;
    16 workers: 26.88 %, storage-bound."""
    six = v1_04_pipeline(C.HDD_SEQ_BW, 6)
    assert six.storage_per_s == pytest.approx(1363.6, abs=0.05)
    assert six.decode_per_s == 1200
    assert six.gpu_utilization == pytest.approx(0.2365, abs=5e-5)
    assert six.bottleneck == "cpu_decode"
    sixteen = v1_04_pipeline(C.HDD_SEQ_BW, 16)
    assert sixteen.gpu_utilization == pytest.approx(0.2688, abs=5e-5)
    assert sixteen.bottleneck == "storage"


def test_v1_04_nvme_section_4():
    """handbook/labs/v1_04.md §4: NVMe 7 GB/s: 63.08 % with 16 workers (cpu_decode), 100 % with 32 (gpu)."""
    sixteen = v1_04_pipeline(C.NVME_GEN4_BW, 16)
    assert sixteen.gpu_utilization == pytest.approx(0.6308, abs=5e-5) and sixteen.bottleneck == "cpu_decode"
    full = v1_04_pipeline(C.NVME_GEN4_BW, 32)
    assert full.gpu_utilization == 1.0 and full.bottleneck == "gpu"


def test_v1_04_hdd_random_section_4():
    """handbook/labs/v1_04.md §4: HDD random small files at 150 IOPS, 16 workers: 150 img/s, 2.96 %."""
    random = v1_04_pipeline(C.HDD_SEQ_BW, 16, iops=C.HDD_RANDOM_IOPS)
    assert random.storage_per_s == 150
    assert random.gpu_utilization == pytest.approx(0.0296, abs=5e-5)
    assert random.bottleneck == "storage"


def test_workers_never_raise_the_storage_rate():
    """handbook/labs/v1_04.md §5: workers add decode throughput, not disk bandwidth."""
    rates = {w: v1_04_pipeline(C.HDD_SEQ_BW, w).storage_per_s for w in (1, 8, 32)}
    assert len(set(rates.values())) == 1


@given(st.floats(1, 1e5), st.floats(1, 1e5), st.floats(1, 1e5))
@FAST
def test_pipeline_runs_at_its_slowest_stage(gpu, disk, cpu):
    pipe = io.Pipeline(gpu, disk, cpu)
    assert pipe.samples_per_s == min(gpu, disk, cpu)
    assert 0 < pipe.gpu_utilization <= 1
    assert pipe.rates[pipe.bottleneck] == pipe.samples_per_s


def test_random_reads_are_capped_by_iops_or_bandwidth():
    assert io.random_read_samples_per_s(150e6, 110e3, 150) == 150
    assert io.random_read_samples_per_s(150e6, 110e3, 1e6) == pytest.approx(150e6 / 110e3)
