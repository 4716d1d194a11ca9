"""Edge boards, phones and microcontrollers, and the batteries that feed them.

One "peak" per device is the dense rate on its main ML path. Values the vendor does not publish are
labelled assumptions ("Assumed: ..." in the source, "assumed" in the label), and labs show them as such.
"""

from pylabs.physics.constants.registry import spec

_ORIN_NX_URL = "https://www.nvidia.com/en-us/autonomous-machines/embedded-systems/jetson-orin/"
_ORIN_NANO_SUPER_URL = "https://developer.nvidia.com/blog/nvidia-jetson-orin-nano-developer-kit-gets-a-super-boost/"
_ORIN_NX_SUPER_URL = ("https://developer.nvidia.com/blog/"
                      "nvidia-jetpack-6-2-brings-super-mode-to-nvidia-jetson-orin-nano-and-jetson-orin-nx-modules/")
_A17_URL = "https://www.apple.com/newsroom/2023/09/apple-unveils-iphone-15-pro-and-iphone-15-pro-max/"
_STM32H743_URL = "https://www.st.com/en/microcontrollers-microprocessors/stm32h743-753.html"
_ORIN_DEVICEQUERY_URL = "https://gist.github.com/atinfinity/8cede915acda05d0ff427c09604735dd"
_COREML_QUANT_PERF_URL = "https://apple.github.io/coremltools/docs-guides/source/opt-quantization-perf.html"
_METAL_BENCHMARKS_URL = "https://github.com/philipturner/metal-benchmarks"
_HMC_A17_GPU_URL = "https://hmc-tech.com/gpu/apple-6-core-a17-pro-vs-imagination-img-axe-2-16"

# Jetson Orin NX 16 GB
ORIN_NX_PEAK_INT8_SPARSE_TOTAL = spec(
    100e12, "OP/s", "NVIDIA Jetson Orin NX 16 GB: 'up to 100 TOPS' (INT8 with 2:4 sparsity, GPU plus two DLAs)",
    _ORIN_NX_URL, note="the upstream labs used this as an FP16 FLOP/s rate; it is neither dense nor FP16",
    label="Jetson Orin NX 16 GB advertised AI rate (INT8, sparse, GPU + DLAs)")
ORIN_NX_PEAK_FP16_DENSE = spec(
    15.04e12, "FLOP/s",
    "Derived: 8 SM x 0.918 GHz x 2,048 FP16 FLOP per clock per SM (dense tensor cores); the same GA10B SM gives "
    "the Orin Nano Super's published 67 sparse INT8 TOPS at 1.02 GHz", _ORIN_NANO_SUPER_URL,
    note="handbook/devices.md [der]: 8 * 0.918e9 * 2048 = 15.04e12",
    label="Jetson Orin NX 16 GB GPU peak, FP16 dense (derived from the GPU's clock and SMs)")
ORIN_NX_PEAK_INT8_DENSE = spec(
    30.08e12, "OP/s", "Derived: twice the FP16 dense tensor rate on the same GPU (8 SM x 0.918 GHz x 4,096)",
    _ORIN_NANO_SUPER_URL, label="Jetson Orin NX 16 GB GPU peak, INT8 dense (derived)")
ORIN_NX_PEAK_FP32 = spec(
    1024 * 2 * 0.918e9, "FLOP/s",
    "Derived: 1,024 CUDA cores x one FMA (2 FLOP) per cycle x 918 MHz, the Orin NX 16 GB GPU's core count and "
    "maximum clock as CUDA deviceQuery reports them (8 SM x 128 cores)", _ORIN_DEVICEQUERY_URL,
    note="no tensor cores in FP32; 1.88 TFLOP/s",
    label="Jetson Orin NX 16 GB GPU peak, FP32 without tensor cores (derived)")
ORIN_NX_MEM_BW = spec(
    102.4e9, "B/s", "NVIDIA Jetson Orin NX 16 GB: 128-bit LPDDR5 at 6,400 MT/s (128/8 x 6.4e9 = 102.4 GB/s)",
    _ORIN_NX_URL, label="Jetson Orin NX 16 GB memory bandwidth")
ORIN_NX_MEM_BYTES = spec(
    16e9, "B", "NVIDIA Jetson Orin NX 16 GB module (16 GB LPDDR5)", _ORIN_NX_URL,
    label="Jetson Orin NX 16 GB memory")
ORIN_NX_POWER_MIN_W = spec(
    10.0, "W", "NVIDIA Jetson Orin NX 16 GB: configurable 10 W to 25 W", _ORIN_NX_URL,
    label="Jetson Orin NX 16 GB power, lowest mode")
ORIN_NX_POWER_MAX_W = spec(
    25.0, "W", "NVIDIA Jetson Orin NX 16 GB: configurable 10 W to 25 W", _ORIN_NX_URL,
    note="JetPack 6.2 (Jan 2025) adds a 40 W mode and MAXN SUPER: ORIN_NX_SUPER_POWER_W",
    label="Jetson Orin NX 16 GB power, top of the datasheet's 10 to 25 W modes")
ORIN_NX_SUPER_POWER_W = spec(
    40.0, "W",
    "NVIDIA technical blog, 'JetPack 6.2 Brings Super Mode to NVIDIA Jetson Orin Nano and Jetson Orin NX Modules' "
    "(Jan 2025): the Orin NX 16 GB gains a 40 W mode and an uncapped MAXN SUPER mode at higher clocks",
    _ORIN_NX_SUPER_URL,
    note="a user report reads GPU 1,173 MHz under MAXN_SUPER on an Orin NX 16 GB (L4T 36.4.7), against the 918 MHz "
    "ORIN_NX_PEAK_FP16_DENSE counts; Seeed's reComputer wiki (JetPack 6.2) tells Orin NX 16 GB users of its "
    "industrial boxes not to enable MAXN SUPER", label="Jetson Orin NX 16 GB power, 40 W Super mode (JetPack 6.2)")

# Apple A17 Pro and the iPhone 15 Pro
A17_PRO_NPU_OPS = spec(
    35e12, "OP/s",
    "Apple, iPhone 15 Pro announcement (Sept 2023): Neural Engine, 35 trillion operations per second (precision "
    "not stated)", _A17_URL, label="Apple A17 Pro Neural Engine rate (precision not stated by Apple)")
A17_PRO_NPU_FP16_ASSUMED = spec(
    A17_PRO_NPU_OPS / 2, "FLOP/s",
    "Assumed: half of Apple's 35 trillion operations per second. Apple states no precision; coremltools "
    "(Quantization: Performance) says the A17 Pro's Neural Engine has 'increased throughput possible for int8-int8 "
    "compute' over earlier ones, so the headline 35 is read as the INT8 rate and FP16 taken at half of it, the 2:1 "
    "INT8:FP16 ratio of matrix units", _COREML_QUANT_PERF_URL,
    note="V1-11 review: the lab first took the whole 35 as FP16, an upper bound at best (Apple would headline the "
    "faster INT8 rate)", label="Apple A17 Pro Neural Engine FP16 peak (assumed: half of Apple's 35 TOPS)")
A17_PRO_GPU_CORES = spec(
    6.0, "1", "Apple, iPhone 15 Pro announcement (Sept 2023): 'the new 6-core GPU in A17 Pro'", _A17_URL,
    label="Apple A17 Pro GPU cores")
APPLE_GPU_ALUS_PER_CORE = spec(
    128.0, "1",
    "Third-party measurements, not Apple: metal-benchmarks (P. Turner) gives 128 ALUs per core for the Apple 7 and "
    "8 GPU families (its table: A15, 5 cores, 1,710 GFLOPS FP32 at 1,336 MHz = 128 a core) and F16 no faster than "
    "F32; hmc-tech lists the A17 Pro GPU with 768 shaders (6 x 128)", _METAL_BENCHMARKS_URL,
    label="ALUs per Apple GPU core")
A17_PRO_GPU_CLOCK_HZ_ASSUMED = spec(
    1.398e9, "Hz",
    "Assumed: 1,398 MHz as third-party GPU databases list the A17 Pro GPU (hmc-tech: 768 shaders, 1,398 MHz, 2.15 "
    "TFLOPS FP32 and FP16); metal-benchmarks gives 1,398 MHz for the M2 GPU and at least 1,336 MHz for the A15 and "
    "A16. Apple does not publish GPU clocks", _HMC_A17_GPU_URL,
    label="Apple A17 Pro GPU clock (assumed; Apple does not publish it)")
A17_PRO_GPU_FP32_ASSUMED = spec(
    A17_PRO_GPU_CORES * APPLE_GPU_ALUS_PER_CORE * 2
    * A17_PRO_GPU_CLOCK_HZ_ASSUMED, "FLOP/s",
    "Derived and assumed: 6 cores (Apple) x 128 ALUs (third-party) x 2 FLOP per fused multiply-add x 1.398 GHz "
    "(assumed clock) = 2.15 TFLOP/s, FP32 and FP16 alike. Apple publishes no GPU rate. Training frameworks on "
    "Apple devices run on the CPU or the GPU (MLX and ML Compute name no other device), not the Neural Engine",
    _METAL_BENCHMARKS_URL,
    note="replaces the Neural Engine's 35 TOPS, which V1-08 first trained on: an inference rate with no stated "
    "precision, on a unit training frameworks do not use",
    label="Apple A17 Pro GPU peak, FP32 and FP16 (derived, clock assumed)")
A17_PRO_MEM_BW = spec(
    51.2e9, "B/s",
    "Assumed: LPDDR5-6400 on a 64-bit bus (6.4e9 x 8 B), the figure third-party spec databases list for the A16; "
    "Apple publishes neither chip's memory bandwidth", _A17_URL,
    note="handbook/errata.md#e7: a labelled assumption (est); V1-05 review: the source said 'as published for the "
    "A16', but Apple "
    "publishes no A16 figure either", label="Apple A17 Pro memory bandwidth (assumed, not published)")
A17_PRO_MEM_BYTES = spec(
    8e9, "B", "iPhone 15 Pro, 8 GB LPDDR5 as reported by teardowns and benchmarks (Apple does not publish RAM)",
    _A17_URL, label="iPhone 15 Pro memory (reported, not published by Apple)")
PHONE_SUSTAINED_POWER_W = spec(
    3.0, "W",
    "Assumed: a phone holds about 3 W (3 to 5 W) before it throttles; an engineering estimate, not a vendor figure",
    "", note="handbook/devices.md (est); handbook/errata.md#e7 keeps it an "
    "assumption", label="Phone sustained power (assumed, 3 to 5 W)")
PHONE_SUSTAINED_POWER_HIGH_W = spec(
    5.0, "W",
    "Assumed: the top of the 3 to 5 W a phone holds before it throttles; an engineering estimate, not a vendor "
    "figure", "", note="handbook/devices.md (est); handbook/errata.md#e7 keeps it an assumption; the range V1-03's "
    "power help quotes",
    label="Phone sustained power, top of the range (assumed)")
PHONE_BATTERY_J = spec(
    12.7 * 3600, "J",
    "iPhone 15 Pro battery, 3,274 mAh and 12.70 Wh in a Chinese regulatory database listing, as reported in "
    "September 2023 (Apple does not publish Wh)",
    "https://thetechnext.com/mobiles/iphone-15-pro-models-feature-enhanced-battery-capacities-and-wattage/",
    label="iPhone 15 Pro battery energy (reported)")

# STM32H743 microcontroller
STM32H743_CLOCK_HZ = spec(
    480e6, "Hz", "ST STM32H743 product page: Arm Cortex-M7 at up to 480 MHz", _STM32H743_URL,
    label="STM32H743 (Cortex-M7) clock")
STM32H743_PEAK_FP32 = spec(
    0.96e9, "FLOP/s", "Derived: one single-precision fused multiply-add (2 FLOP) per cycle x 480 MHz",
    _STM32H743_URL, note="library FMA loops take 5 to 6 cycles, about 0.17 GFLOP/s in practice",
    label="STM32H743 peak, FP32 (one FMA per cycle)")
STM32H743_PEAK_INT8 = spec(
    1.92e9, "OP/s", "Derived: 2 INT8 multiply-accumulates per cycle with the Cortex-M7's SIMD (SMLAD) x 480 MHz",
    _STM32H743_URL, label="STM32H743 peak, INT8 SIMD (2 MAC per cycle)")
STM32H743_SRAM_BYTES = spec(
    1024 * 1024.0, "B", "ST STM32H743 product page: 1 MB of RAM in total", _STM32H743_URL,
    label="STM32H743 RAM, total")
STM32H743_AXI_SRAM_BYTES = spec(
    512 * 1024.0, "B", "ST STM32H743 reference manual: 512 KB AXI SRAM, the largest contiguous block",
    _STM32H743_URL, label="STM32H743 largest contiguous SRAM (AXI)")
STM32H743_FLASH_BYTES = spec(
    2 * 1024 * 1024.0, "B", "ST STM32H743 product page: 2 MB of flash", _STM32H743_URL, label="STM32H743 flash")
STM32H743_ONCHIP_BW = spec(
    1.9e9, "B/s",
    "Assumed: on-chip SRAM bus about 1.9 GB/s (an estimate; 0.05 GB/s is only the external QSPI flash)",
    _STM32H743_URL, note="handbook/devices.md (est)", label="STM32H743 on-chip memory bandwidth (assumed)")
STM32H743_QSPI_BW = spec(
    0.05e9, "B/s", "Derived: external quad-SPI flash, 4 bits x 100 MHz = 50 MB/s", _STM32H743_URL,
    label="STM32H743 external QSPI flash bandwidth")
MCU_ACTIVE_POWER_W = spec(
    0.1, "W",
    "Assumed: a Cortex-M7 MCU running flat out draws on the order of 0.1 W (0.1 to 0.3 W); an order-of-magnitude "
    "estimate, shown as an adjustable instrument", _STM32H743_URL,
    note="handbook/errata.md#e1: ST's run-mode table was not retrievable; at 0.3 W a CR2032 lasts 46.1 days",
    label="MCU active power (assumed, order of magnitude)")

# Batteries
CR2032_ENERGY_J = spec(
    0.675 * 3600, "J", "A CR2032 lithium coin cell: about 225 mAh at 3 V", "", label="CR2032 coin cell energy")
CR2032_PULSE_MAX_W = spec(
    15e-3 * 3.0, "W",
    "A CR2032 is rated for pulses of about 15 mA at most (3 mA continuous) at its nominal 3 V: about 45 mW. "
    "Manufacturers' ratings as summarised by Wikipedia's 'CR2032 battery' entry",
    "https://en.wikipedia.org/wiki/CR2032_battery",
    note="a secondary summary and the largest rating: Energizer's CR2032 datasheet allows 2 s pulses of 6.8 mA "
    "(continuous 0.19 mA), as quoted by J. Cook, 'CR2032 Maximum Current Capacity', Embedded Computing "
    "Design, Jan 2025 (independent reviews of V1-00)",
    label="CR2032 coin cell, largest rated pulse power (about 15 mA at 3 V)")
AA_PAIR_ENERGY_J = spec(
    7.5 * 3600, "J", "Two alkaline AA cells: about 2,500 mAh at 1.5 V each", "", label="Two AA cells, energy")
