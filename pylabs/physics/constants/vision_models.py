"""Vision and keyword-spotting models: size, arithmetic and accuracy; the ImageNet dataset."""

from pylabs.physics.constants.registry import spec

_TORCHVISION_RESNET50_URL = "https://pytorch.org/vision/stable/models/generated/torchvision.models.resnet50.html"
_MLPERF_TINY_URL = "https://arxiv.org/abs/2106.07597"
_HELLO_EDGE_URL = "https://arxiv.org/abs/1711.07128"
_IMAGENET_URL = "https://julsimon.medium.com/imagenet-part-1-going-on-an-adventure-c0a62976dc72"
_TV_RESNET50_URL = "https://pytorch.org/vision/stable/models/generated/torchvision.models.resnet50.html"
_TV_MOBILENET_V2_URL = "https://pytorch.org/vision/stable/models/generated/torchvision.models.mobilenet_v2.html"
_TV_QUANT_RESNET50_URL = ("https://pytorch.org/vision/stable/models/generated/"
                          "torchvision.models.quantization.resnet50.html")
_TV_QUANT_MOBILENET_V2_URL = ("https://pytorch.org/vision/stable/models/generated/"
                              "torchvision.models.quantization.mobilenet_v2.html")

# ResNet-50
RESNET50_PARAMS = spec(
    25_557_032.0, "params", "torchvision ResNet50_Weights.IMAGENET1K_V1: num_params 25,557,032 (He et al. 2016)",
    _TORCHVISION_RESNET50_URL, note="the spec's golden vectors round to 25.6 M; the upstream lab used 50 M",
    label="ResNet-50 parameters")
RESNET50_MACS = spec(
    4.1e9, "MAC",
    "torchvision ResNet-50 at 224 x 224: '4.09 GFLOPS', counted as multiply-adds, the convention of He et al. 2016 "
    "('FLOPs (multiply-adds)'); rounded to 4.1 G (8.2 GFLOP forward) as the curriculum's golden vectors use",
    _TORCHVISION_RESNET50_URL, note="handbook/labs/v1_01.md §5: the '4 GFLOPs' of the upstream labs are multiply-adds",
    label="ResNet-50 multiply-accumulates per image (224 x 224)")
RESNET50_TOP1 = spec(
    0.7613, "1", "torchvision ResNet50_Weights.IMAGENET1K_V1: acc@1 76.13 % on ImageNet-1K", _TV_RESNET50_URL,
    label="ResNet-50 top-1 accuracy (FP32, torchvision)")
RESNET50_INT8_PTQ_TOP1 = spec(
    0.7592, "1",
    "torchvision ResNet50_QuantizedWeights.IMAGENET1K_FBGEMM_V1 (post-training quantization, fbgemm: per-channel "
    "INT8 weights): acc@1 75.920 % on ImageNet-1K, from IMAGENET1K_V1 at 76.130 %", _TV_QUANT_RESNET50_URL,
    note="a measured drop (0.21 pp) in place of the 0.2 pp the lab first estimated",
    label="ResNet-50 top-1 accuracy, INT8 post-training quantized (torchvision, fbgemm)")

# MobileNetV2
MOBILENETV2_PARAMS = spec(
    3_504_872.0, "params", "torchvision MobileNet_V2_Weights.IMAGENET1K_V1: num_params 3,504,872",
    _TV_MOBILENET_V2_URL, label="MobileNetV2 parameters")
MOBILENETV2_FLOP = spec(
    2 * 0.30e9, "FLOP",
    "torchvision MobileNet_V2_Weights.IMAGENET1K_V1: 0.30 GFLOPS per image, counted as multiply-accumulates; 2 "
    "FLOP each", _TV_MOBILENET_V2_URL, label="MobileNetV2 arithmetic per image (FLOP)")
MOBILENETV2_TOP1 = spec(
    0.71878, "1", "torchvision MobileNet_V2_Weights.IMAGENET1K_V1: acc@1 71.878 % on ImageNet-1K",
    _TV_MOBILENET_V2_URL, label="MobileNetV2 top-1 accuracy (FP32, torchvision)")
MOBILENETV2_INT8_QAT_TOP1 = spec(
    0.71658, "1",
    "torchvision MobileNet_V2_QuantizedWeights.IMAGENET1K_QNNPACK_V1 (quantization-aware training, qnnpack): acc@1 "
    "71.658 % on ImageNet-1K, from IMAGENET1K_V1 at 71.878 %. PyTorch's get_default_qat_qconfig('qnnpack') "
    "fake-quantizes weights per_tensor_symmetric (default_fused_wt_fake_quant)", _TV_QUANT_MOBILENET_V2_URL,
    note="a measured drop (0.22 pp) in place of the 1.5 pp the lab first estimated for per-tensor QAT",
    label="MobileNetV2 top-1 accuracy, INT8 per-tensor QAT (torchvision, qnnpack)")

# Keyword spotting (DS-CNN)
KWS_DSCNN_PARAMS = spec(
    38.6e3, "params", "Banbury et al. 2021, MLPerf Tiny: the keyword-spotting DS-CNN has 38.6 K parameters",
    _MLPERF_TINY_URL, label="DS-CNN keyword spotter parameters (MLPerf Tiny)")
KWS_DSCNN_MACS = spec(
    2.7e6, "MAC",
    "Zhang et al. 2017, Hello Edge: DS-CNN (small) 5.4 M operations per inference, multiplies and adds counted "
    "separately, so 2.7 M multiply-accumulates", _HELLO_EDGE_URL,
    note="cross-check: the MLPerf Tiny DS-CNN's layers (10x4 conv to 25x5x64, four depthwise-separable 64-channel "
    "blocks, FC 64->12) count 2.66 M MACs", label="DS-CNN keyword spotter multiply-accumulates per inference")

# ImageNet-1k
IMAGENET_TRAIN_IMAGES = spec(
    1_281_167.0, "1",
    "ImageNet ILSVRC-2012: 1,281,167 training images in 1,000 classes (Russakovsky et al. 2015; J. Simon, "
    "'ImageNet part 1', 2017)", _IMAGENET_URL, label="ImageNet-1k training images")
IMAGENET_BYTES = spec(
    150e9, "B",
    "ImageNet ILSVRC-2012 as JPEG files: about 150 GB (J. Simon, 'ImageNet part 1', 2017; NVIDIA DALI material "
    "quotes the same)", _IMAGENET_URL,
    note="150 GB / 1.28 M images is about 117 KB per image; the lab's default JPEG is 110 KB (handbook/devices.md)",
    label="ImageNet-1k JPEG dataset size (about)")
