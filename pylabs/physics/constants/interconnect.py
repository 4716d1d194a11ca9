"""Links between chips, nodes and sites: bandwidth per direction, latency, switch radix, fibre."""

from pylabs.physics.constants.registry import spec

_SCALING_BOOK_GPUS_URL = "https://jax-ml.github.io/scaling-book/gpus/"
_PCIE_URL = "https://pcisig.com/specifications"
_PCIE_ENCODING = 128 / 130  # 128b/130b line code used by PCIe 3.0 and later
_FIBRE_URL = "https://www.itu.int/rec/T-REC-G.652"

# Inside a node
NVLINK4_BW = spec(
    450e9, "B/s", "Austin et al., How to Scale Your Model, 'How to Think About GPUs' (NVLink 4)",
    _SCALING_BOOK_GPUS_URL, note="18 links x 25 GB/s per GPU per direction; the datasheet's 900 GB/s sums both",
    label="NVLink 4 bandwidth per GPU, per direction")
NVLINK4_ALLREDUCE_BUSBW_MEASURED = spec(
    370e9, "B/s", "Austin et al., How to Scale Your Model (NCCL AllReduce on 8xH100, no SHARP)",
    _SCALING_BOOK_GPUS_URL, note="read off an empirical plot; about 480 GB/s with NVLS (in-switch reduction)",
    label="Measured NVLink all-reduce bus bandwidth, 8 × H100")
PCIE4_X16_BW = spec(
    16e9 * 16 * _PCIE_ENCODING / 8, "B/s", "PCI-SIG PCIe 4.0 base spec: 16 GT/s per lane, 128b/130b encoding",
    _PCIE_URL, note="16e9 transfers/s x 16 lanes x 128/130 / 8 bits, per direction (31.5 GB/s)",
    label="PCIe 4.0 ×16 link, per direction")
PCIE5_X16_BW = spec(
    32e9 * 16 * _PCIE_ENCODING / 8, "B/s", "PCI-SIG PCIe 5.0 base spec: 32 GT/s per lane, 128b/130b encoding",
    _PCIE_URL,
    note="32e9 transfers/s x 16 lanes x 128/130 / 8 bits, per direction (63.0 GB/s); the H100 datasheet's 128 GB/s "
    "is both directions", label="PCIe 5.0 ×16 link, per direction")

# Between nodes
IB_HDR_BW = spec(
    25e9, "B/s", "InfiniBand HDR port, 200 Gb/s per direction", _SCALING_BOOK_GPUS_URL, note="200e9 bit/s / 8",
    label="InfiniBand HDR port, per direction")
IB_NDR_BW = spec(
    50e9, "B/s", "InfiniBand NDR port, 400 Gb/s per direction (scaling book 'NDR 50GB/s')", _SCALING_BOOK_GPUS_URL,
    note="400e9 bit/s / 8", label="InfiniBand NDR port, per direction")
IB_XDR_BW = spec(
    100e9, "B/s", "NVIDIA ConnectX-8 SuperNIC user manual: InfiniBand XDR at up to 800 Gb/s",
    "https://docs.nvidia.com/networking/display/connectx8supernic/introduction",
    note="800 Gb/s / 8 = 100 GB/s per direction")
IB_NDR_SWITCH_PORTS = spec(
    64.0, "1",
    "NVIDIA QM9700/QM9790 1U NDR InfiniBand switch user manual: 32 OSFP cages, each 2 logical 400 Gb/s ports",
    "https://docs.nvidia.com/networking/display/QM97X0PUB/Interfaces",
    note="a non-blocking leaf gives half its ports (32) to GPUs and half to the spine")
IB_ALPHA_S = spec(
    1.5e-6, "s",
    "per-message inter-node latency typical of InfiniBand (an assumption of the collective-algorithm lab)", "",
    note="a teaching assumption, not a measured figure for one fabric", label="Inter-node message latency (α)")
ETH_100G_BW = spec(
    12.5e9, "B/s", "IEEE 802.3 100 Gigabit Ethernet, per direction", "https://www.ieee802.org/3/ba/",
    note="100e9 bit/s / 8", label="100 Gigabit Ethernet, per direction")
ETH_400G_BW = spec(
    50e9, "B/s", "IEEE 802.3bs 400 Gigabit Ethernet, per direction", "https://www.ieee802.org/3/bs/",
    note="400e9 bit/s / 8; the same line rate as an NDR port")

# Between sites
FIBRE_GROUP_INDEX = spec(
    1.468, "1", "Standard single-mode fibre (ITU-T G.652 class, e.g. Corning SMF-28) group index at 1,550 nm",
    _FIBRE_URL, note="v = c / 1.468 = 204,200 km/s, about 4.9 us per km", label="Optical fibre group index")
SPEED_OF_LIGHT = spec(
    299_792_458.0, "m/s", "SI definition of the metre", "https://www.bipm.org/en/si-base-units",
    label="Speed of light in vacuum")
