"""Adversarial robustness on CIFAR-10 at L-infinity epsilon = 8/255: published accuracies and training times."""

from pylabs.physics.constants.registry import spec

_MADRY_URL = "https://arxiv.org/abs/1706.06083"
_TRADES_URL = "https://github.com/yaodongyu/TRADES"
_AUTOATTACK_URL = "https://github.com/fra31/auto-attack"
_FAST_AT_URL = "https://github.com/locuslab/fast_adversarial"

# Threat model
CIFAR10_EPS_LINF = spec(
    8.0 / 255.0, "1",
    "Madry et al. 2018, Towards Deep Learning Models Resistant to Adversarial Attacks (CIFAR-10 threat model: each "
    "pixel moved by at most 8 of 255 levels)", _MADRY_URL,
    label="CIFAR-10 L∞ perturbation budget ε (fraction of pixel range)")

# Accuracy, clean and under attack
MADRY_NATURAL_CLEAN_ACC = spec(
    0.952, "1", "Madry et al. 2018, CIFAR-10 naturally trained wide ResNet, clean test accuracy", _MADRY_URL,
    note="confirmed via Raghunathan et al. 2019 (handbook/errata.md#e35)",
    label="Naturally trained CIFAR-10 model, clean accuracy")
MADRY_NATURAL_PGD_ACC = spec(
    0.035, "1", "Madry et al. 2018, CIFAR-10 naturally trained model under PGD at ε = 8/255", _MADRY_URL,
    note="confirmed via Raghunathan et al. 2019 (handbook/errata.md#e35)",
    label="Naturally trained CIFAR-10 model, accuracy under PGD")
MADRY_AT_CLEAN_ACC = spec(
    0.873, "1", "Madry et al. 2018, CIFAR-10 PGD adversarially trained model, clean accuracy", _MADRY_URL,
    label="PGD adversarial training (Madry), clean accuracy")
MADRY_AT_PGD20_ACC = spec(
    0.458, "1", "Madry et al. 2018, CIFAR-10 PGD adversarially trained model under 20-step PGD", _MADRY_URL,
    label="PGD adversarial training (Madry), accuracy under PGD-20")
TRADES_BETA6_CLEAN_ACC = spec(
    0.8492, "1",
    "Zhang et al. 2019 (TRADES), official repository README, WRN-34-10 white-box leaderboard, natural accuracy",
    _TRADES_URL, label="TRADES (1/λ = 6), clean accuracy")
TRADES_BETA6_PGD20_ACC = spec(
    0.5661, "1",
    "Zhang et al. 2019 (TRADES), official repository README, WRN-34-10 under the 20-step PGD attack (listed as "
    "'FGSM-20'), ε = 0.031", _TRADES_URL, label="TRADES (1/λ = 6), accuracy under PGD-20")
TRADES_BETA6 = spec(
    6.0, "1", "Zhang et al. 2019 (TRADES), the released CIFAR-10 model's trade-off weight β = 1/λ", _TRADES_URL,
    label="TRADES trade-off weight β = 1/λ of the released model")
# a later recipe without extra data, as the AutoAttack leaderboard lists it: it lies above the line
# through Madry's and TRADES' points, so that line is not the frontier
QIN2019_LLR_CLEAN_ACC = spec(
    0.8628, "1",
    "Croce & Hein, AutoAttack leaderboard (fra31/auto-attack README), CIFAR-10 L∞ ε = 8/255, Qin et al. 2019 "
    "(local linearization), clean accuracy", _AUTOATTACK_URL,
    label="Qin et al. 2019 (LLR) CIFAR-10 model, clean accuracy")
QIN2019_LLR_AA_ACC = spec(
    0.5307, "1",
    "Croce & Hein, AutoAttack leaderboard (fra31/auto-attack README), CIFAR-10 L∞ ε = 8/255, Qin et al. 2019 "
    "(local linearization), robust accuracy under AutoAttack (authors report 52.81 %)", _AUTOATTACK_URL,
    label="Qin et al. 2019 (LLR) CIFAR-10 model, accuracy under AutoAttack")

# Training time
# measured training times, so the lab can set them beside its idealised (1 + k)× pass count
WONG2020_PGD_AT_SECONDS = spec(
    4966.0 * 60, "s",
    "Wong, Rice and Kolter 2020 (Fast is better than free), repository README table: CIFAR-10 PGD adversarial "
    "training (87.30 % clean, 45.80 % at ε = 8/255), training time", _FAST_AT_URL,
    label="PGD adversarial training on CIFAR-10, measured training time")
WONG2020_FREE_AT_SECONDS = spec(
    785.0 * 60, "s",
    "Wong, Rice and Kolter 2020, repository README table: CIFAR-10 'free' adversarial training (Shafahi et al. "
    "2019: 'negligible additional cost compared to natural training'), training time", _FAST_AT_URL,
    label="'Free' adversarial training on CIFAR-10 (about a natural run), measured training time")
