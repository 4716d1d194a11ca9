"""Storage: disks, the page cache, object stores, a training cluster's file system, JPEG recompression."""

from pylabs.physics.constants.registry import spec

_LLAMA3_PAPER_URL = "https://arxiv.org/abs/2407.21783"
_SAMSUNG_990_PRO_URL = ("https://www.slashcam.com/news/single/"
                        "Samsung-990-PRO--New-NVMe-SSD-top-model-reaches-th-17407.html")

# Local storage
HDD_SEQ_BW = spec(
    150e6, "B/s",
    "Assumed: one 7,200 rpm hard disk streaming large files, 150 MB/s (typical drives give 120 to 220 MB/s, faster "
    "on outer tracks)", "https://www.toolnova.io/tools/cheat-sheets/disk-io-reference",
    note="handbook/labs/v1_04.md storage table; a typical figure, not one drive's datasheet",
    label="Hard disk sequential read (assumed, typical)")
HDD_RANDOM_IOPS = spec(
    150.0, "1/s",
    "Assumed: a 7,200 rpm disk completes about 150 random reads per second (seek plus half a rotation, about 8 "
    "ms); the published range is 50 to 200", "https://www.toolnova.io/tools/cheat-sheets/disk-io-reference",
    note="handbook/errata.md#e7: a labelled assumption (est), the top of the 50-200 IOPS range",
    label="Hard disk random reads per second (assumed)")
HDD_RANDOM_IOPS_LOW = spec(
    50.0, "1/s",
    "Hard disks complete 50 to 200 random reads per second (seek plus half a rotation): the bottom of the "
    "published range", "https://www.toolnova.io/tools/cheat-sheets/disk-io-reference",
    note="V1-04's random-read slider spans this range and its help quotes it",
    label="Hard disk random reads per second, bottom of the usual range")
HDD_RANDOM_IOPS_HIGH = spec(
    200.0, "1/s",
    "Hard disks complete 50 to 200 random reads per second (seek plus half a rotation): the top of the published "
    "range", "https://www.toolnova.io/tools/cheat-sheets/disk-io-reference",
    note="V1-04's random-read slider spans this range and its help quotes it",
    label="Hard disk random reads per second, top of the usual range")
SATA_SSD_BW = spec(
    550e6, "B/s",
    "SATA III SSD sequential read, about 550 MB/s: the 6 Gb/s link with 8b/10b coding carries 600 MB/s and drives "
    "reach 550 to 560 MB/s", "https://sata-io.org/", label="SATA SSD sequential read (typical)")
NVME_GEN4_BW = spec(
    7.0e9, "B/s",
    "PCIe 4.0 x4 NVMe SSD sequential read, about 7 GB/s (Samsung 990 PRO: up to 7,450 MB/s; the x4 link carries "
    "7.9 GB/s)", _SAMSUNG_990_PRO_URL, label="NVMe Gen4 SSD sequential read (typical)")
PAGE_CACHE_BW = spec(
    20e9, "B/s",
    "Assumed: a dataset held in the operating system's page cache (RAM) is read at about 20 GB/s by a loader's "
    "memory copies; an estimate, not a measured figure", "", note="handbook/labs/v1_04.md storage table (est)",
    label="Page cache (RAM) read bandwidth (assumed)")

# Object stores and cluster file systems
S3_GET_PER_PREFIX_PER_S = spec(
    5500.0, "1/s", "AWS, Amazon S3 User Guide, 'Best practices design patterns: optimizing Amazon S3 performance'",
    "https://docs.aws.amazon.com/AmazonS3/latest/userguide/optimizing-performance.html",
    note="at least 3,500 PUT/COPY/POST/DELETE or 5,500 GET/HEAD requests per second per partitioned prefix; more "
    "prefixes scale the rate (S3 partitions them automatically over time)")
S3_PUT_PER_PREFIX_PER_S = spec(
    3500.0, "1/s", "AWS, Amazon S3 User Guide, 'Best practices design patterns: optimizing Amazon S3 performance'",
    "https://docs.aws.amazon.com/AmazonS3/latest/userguide/optimizing-performance.html",
    note="PUT/COPY/POST/DELETE requests per second per partitioned prefix")
S3_GET_BW_PER_CONNECTION = spec(
    90e6, "B/s",
    "AWS whitepaper 'Best Practices Design Patterns: Optimizing Amazon S3 Performance', 'Horizontal Scaling and "
    "Request Parallelization for High Throughput'",
    "https://docs.aws.amazon.com/whitepapers/latest/s3-optimizing-performance-best-practices/"
    "horizontal-scaling-and-request-parallelization-for-high-throughput.html",
    note="'Make one concurrent request for each 85-90 MB/s of desired network throughput' (within a Region, S3 to "
    "EC2); the upper end, so the store is not understated",
    label="Amazon S3 throughput of one GET connection (AWS guidance, upper end)")
TECTONIC_SUSTAINED_BW = spec(
    2e12, "B/s", "Dubey et al. 2024, sec. 3.3.1 (Tectonic: 2 TB/s sustained, 7 TB/s peak)", _LLAMA3_PAPER_URL)
TECTONIC_PEAK_BW = spec(7e12, "B/s", "Dubey et al. 2024, sec. 3.3.1 (Tectonic peak throughput)", _LLAMA3_PAPER_URL)

# Compression of stored images
LEPTON_SIZE_RATIO = spec(
    0.77, "1",
    "Horn et al., NSDI 2017 (Lepton): losslessly compresses JPEG images to 77 % of their original size on average",
    "https://www.usenix.org/conference/nsdi17/technical-sessions/presentation/horn",
    label="Lossless JPEG recompression (Lepton), size after ÷ before")
