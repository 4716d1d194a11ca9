"""Cited constants: hardware, model-shape and published-run facts, one module per topic.

Every constant is written once, ``NAME = spec(value, unit, source, url, note=..., label=...)``, in
the module for its topic; ``spec`` files the citation in the one ``REGISTRY`` (registry.py) that
the Sources page shows. Values are in SI units. This package re-exports every topic's names, so a
lab reads ``constants.NAME`` (or imports it from here) without knowing the topic. Pedagogical
defaults (prices a lab assumes, slider positions) do not belong here: they sit in the lab.

    accelerators        datacenter GPUs and the DGX H100 node
    edge_devices        Jetson, phone, microcontroller; their batteries
    interconnect        NVLink, PCIe, InfiniBand, Ethernet, fibre
    number_formats      bytes per value, quantisation groups, optimizer state
    language_models     GPT-2, GPT-3, Llama shapes
    vision_models       ResNet-50, MobileNetV2, the keyword spotter, ImageNet
    training_runs       published runs: tokens, compute, scale, failures, checkpoints
    storage             disks, page cache, object stores, cluster file systems
    runtime_operations  kernel launches, vLLM, autoscaling, tail latency, retries, drift
    energy_carbon       PUE and lifecycle carbon of electricity
    economics           hours per year, cloud transfer prices, defect cost
    adversarial         CIFAR-10 robustness results
    regulation          US hiring screen, EU AI Act fines, HIPAA
"""

from pylabs.physics.constants import (accelerators, adversarial, economics, edge_devices, energy_carbon,
                                      interconnect, language_models, number_formats, regulation,
                                      runtime_operations, storage, training_runs, vision_models)
from pylabs.physics.constants.accelerators import *  # noqa: F403
from pylabs.physics.constants.adversarial import *  # noqa: F403
from pylabs.physics.constants.economics import *  # noqa: F403
from pylabs.physics.constants.edge_devices import *  # noqa: F403
from pylabs.physics.constants.energy_carbon import *  # noqa: F403
from pylabs.physics.constants.interconnect import *  # noqa: F403
from pylabs.physics.constants.language_models import *  # noqa: F403
from pylabs.physics.constants.number_formats import *  # noqa: F403
from pylabs.physics.constants.regulation import *  # noqa: F403
from pylabs.physics.constants.registry import REGISTRY as REGISTRY, Spec as Spec, register, spec as spec
from pylabs.physics.constants.runtime_operations import *  # noqa: F403
from pylabs.physics.constants.storage import *  # noqa: F403
from pylabs.physics.constants.training_runs import *  # noqa: F403
from pylabs.physics.constants.vision_models import *  # noqa: F403

TOPICS = (accelerators, edge_devices, interconnect, number_formats, language_models, vision_models,
          training_runs, storage, runtime_operations, energy_carbon, economics, adversarial, regulation)
for _topic in TOPICS:
    register(_topic)
