"""Software at run time and in operation: kernel launches, vLLM, autoscaling, retries, tails, drift."""

from pylabs.physics.constants.registry import spec

_VLLM_ARGS_URL = "https://docs.vllm.ai/en/latest/models/engine_args.html"
_TAIL_URL = "https://doi.org/10.1145/2408776.2408794"
_SRE_OVERLOAD_URL = "https://sre.google/sre-book/handling-overload/"
_HTA_URL = ("https://github.com/facebookresearch/HolisticTraceAnalysis/blob/main/docs/source/features/"
            "cuda_kernel_launch_stats.rst")
_CUDAJL_GRAPHS_URL = "https://cuda.juliagpu.org/dev/usage/graphs/"
_YURDAKUL_URL = "https://scholarworks.wmich.edu/dissertations/3208"

# Kernel launches
KERNEL_LAUNCH_CPU_LOW_S = spec(
    5e-6, "s",
    "Meta, Holistic Trace Analysis docs, 'CUDA kernel launch statistics': the CPU side of a launch usually takes 5 "
    "to 20 microseconds", _HTA_URL,
    note="handbook/labs/v1_07.md uses 10 us for the cloud (the chapter's 5-20 us range); confirmed by HTA",
    label="CPU time of one kernel launch, low end of the usual range")
KERNEL_LAUNCH_CPU_HIGH_S = spec(
    20e-6, "s",
    "Meta, Holistic Trace Analysis docs, 'CUDA kernel launch statistics': the CPU side of a launch usually takes 5 "
    "to 20 microseconds", _HTA_URL, label="CPU time of one kernel launch, high end of the usual range")
CUDA_GRAPH_PER_KERNEL_S = spec(
    1e-6, "s",
    "CUDA.jl documentation, 'Graphs': 80 small broadcast kernels launched as one CUDA graph run in 70 us (under "
    "0.9 us per kernel, execution included) against 260 us launched one by one", _CUDAJL_GRAPHS_URL,
    note="handbook/labs/v1_07.md §2: 'CUDA graphs: t_cpu -> ~1 us'; an upper figure per kernel",
    label="Cost per kernel inside a replayed CUDA graph (about 1 us)")

# Serving engines and autoscaling
VLLM_BLOCK_TOKENS = spec(
    16.0, "tokens", "vLLM engine arguments: --block-size {8,16,32}, default 16 tokens per KV block",
    _VLLM_ARGS_URL)
VLLM_GPU_MEMORY_UTILIZATION = spec(
    0.9, "1", "vLLM engine arguments: --gpu-memory-utilization, default 0.9 of each GPU's memory", _VLLM_ARGS_URL,
    note="vLLM's worker sizes the KV cache as total_gpu_memory x gpu_memory_utilization - peak_memory (the "
    "weights, the profiled activation peak and non-torch memory): activations come out of this share; the "
    "rest of the GPU is left unused (headroom for other processes)")
K8S_HPA_SYNC_PERIOD = spec(
    15.0, "s",
    "Kubernetes documentation, Horizontal Pod Autoscaling: the controller runs every 15 s by default "
    "(--horizontal-pod-autoscaler-sync-period)",
    "https://kubernetes.io/docs/concepts/workloads/autoscaling/horizontal-pod-autoscale/",
    label="Kubernetes HPA sync period (default)")

# Tail latency and retries
TAIL_AT_SCALE_LEAVES = spec(
    100.0, "1", "Dean and Barroso 2013, 'The Tail at Scale', CACM 56(2): the fan-out example", _TAIL_URL,
    note="a request that must wait for 100 servers", label="Tail at scale: fan-out leaves in the example")
TAIL_AT_SCALE_LEAF_SLOW = spec(
    0.01, "1", "Dean and Barroso 2013, 'The Tail at Scale', CACM 56(2): each server slow 1 in 100 times",
    _TAIL_URL, label="Tail at scale: share of slow answers per leaf")
TAIL_AT_SCALE_SLOW_REQUESTS = spec(
    0.63, "1", "Dean and Barroso 2013, 'The Tail at Scale', CACM 56(2): 63 % of user requests are slow", _TAIL_URL,
    note="1 - 0.99**100 = 0.634", label="Tail at scale: share of slow user requests (published)")
SRE_RETRY_BUDGET_RATIO = spec(
    0.10, "1",
    "Beyer et al. 2016, Site Reliability Engineering, ch. 21 'Handling Overload': a per-client retry budget keeps "
    "retries below 10 % of requests", _SRE_OVERLOAD_URL,
    note="the same chapter caps each request at three attempts", label="Per-client retry budget (Google SRE)")
SRE_RETRY_ATTEMPTS_PER_REQUEST = spec(
    3.0, "1",
    "Beyer et al. 2016, Site Reliability Engineering, ch. 21 'Handling Overload': a per-request retry budget of up "
    "to three attempts; a request that failed three times bubbles up to the caller", _SRE_OVERLOAD_URL,
    label="Per-request retry budget, attempts (Google SRE)")

# Drift thresholds
PSI_MINOR_SHIFT = spec(
    0.10, "1",
    "Yurdakul 2018, Statistical Properties of Population Stability Index (WMU dissertation): the credit-scoring "
    "rule of thumb, PSI below 0.10 is little change", _YURDAKUL_URL,
    note="The 0.10 / 0.25 convention goes back to Lewis 1994 (credit scoring); a practitioner convention, not a "
    "statistical test. handbook/labs/v1_14.md §5.", label="PSI rule of thumb: moderate shift above")
PSI_MAJOR_SHIFT = spec(
    0.25, "1",
    "Yurdakul 2018, Statistical Properties of Population Stability Index (WMU dissertation): the credit-scoring "
    "rule of thumb, PSI above 0.25 is a significant shift, action required", _YURDAKUL_URL,
    label="PSI rule of thumb: significant shift above")
