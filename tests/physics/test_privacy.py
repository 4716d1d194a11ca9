"""The Rényi-DP accountant, its (ε, δ) conversions and the membership-inference bound, checked
against TensorFlow Privacy's published figures and the curriculum's golden vectors
(handbook/labs/v2_11.md §2 and §4)."""

from __future__ import annotations

import math
import random

import pytest

from pylabs.physics import privacy as P

MNIST_N, MNIST_BATCH = 60000, 256
USERS = 1e8                      # V2-11: 100 M devices
ROUNDS, DELTA = 2000, 1e-9       # V2-11 handbook/labs/v2_11.md §2: T = 2,000 rounds, δ = 1e-9


def mnist_steps(epochs: int) -> int:
    return epochs * MNIST_N // MNIST_BATCH


# ---- published figures: TF-Privacy rdp_accountant_test.py (integer orders) ----------------


def test_tf_privacy_compute_rdp_scalar():
    """compute_rdp(q=0.1, z=2, steps=10, order=5) = 0.07737."""
    assert P.rdp_steps(0.1, 2.0, 10, 5) == pytest.approx(0.07737, abs=5e-6)


@pytest.mark.parametrize("order, expected", [(5, 0.00218075), (50, 0.023846), (100, 167.416307)])
def test_tf_privacy_compute_rdp_sequence(order, expected):
    """compute_rdp(q=0.01, z=2.5, steps=50, orders) at its integer orders."""
    assert P.rdp_steps(0.01, 2.5, 50, order) == pytest.approx(expected, abs=1e-5)


def test_no_sampling_is_the_plain_gaussian_and_no_data_costs_nothing():
    assert P.sampled_gaussian_rdp(1.0, 10.0, 20) == pytest.approx(0.1)  # α/(2z²)
    assert P.sampled_gaussian_rdp(0.0, 10.0, 20) == 0.0


def test_tight_conversion_matches_tf_privacy_constant_rdp_case():
    """get_privacy_spent(orders 2..32, rdp ≡ 1.1, δ = 1e-5) = 1.32783806176 at order 32."""
    eps = {a: P.epsilon_at_order(1.1, a, 1e-5, "tight") for a in range(2, 33)}
    assert min(eps, key=eps.get) == 32
    assert eps[32] == pytest.approx(1.32783806176, abs=1e-10)


@pytest.mark.parametrize("n, batch, z, epochs, delta, expected, order", [
    (60000, 150, 1.3, 15, 1e-5, 0.7242234026109595, 19),
    (100000, 100, 1.0, 30, 1e-7, 1.4154988495444845, 13),
])
def test_tf_privacy_compute_dp_sgd_privacy(n, batch, z, epochs, delta, expected, order):
    """compute_dp_sgd_privacy_test.py: ε and best order with the tight conversion."""
    eps, best = P.epsilon_and_order(batch / n, z, epochs * n / batch, delta, "tight")
    assert eps == pytest.approx(expected, rel=1e-9)
    assert best == order


# ---- published figures: the TF-Privacy MNIST tutorial (handbook/errata.md#e27) -------


def test_mnist_tutorial_classic_3_01():
    """Older tutorial: q = 256/60,000, z = 1.1, 60 epochs, δ = 1e-5 → ε = 3.01 (handbook/errata.md#e27)."""
    assert round(P.epsilon(MNIST_BATCH / MNIST_N, 1.1, mnist_steps(60), 1e-5), 2) == 3.01


def test_mnist_tutorial_current_2_92_and_tight_2_60():
    """Current tutorial uses z = 1.12 → 2.92; the tighter conversion gives 2.60 for z = 1.1 (handbook/errata.md#e27)."""
    q = MNIST_BATCH / MNIST_N
    assert round(P.epsilon(q, 1.12, mnist_steps(60), 1e-5), 2) == 2.92
    assert round(P.epsilon(q, 1.1, mnist_steps(60), 1e-5, "tight"), 2) == 2.60


@pytest.mark.parametrize("z, epochs, published", [(1.3, 15, 1.19), (0.7, 45, 7.10)])
def test_mnist_tutorial_table_rows_within_integer_order_slack(z, epochs, published):
    """The older table searched fractional orders too, so integer orders give a bound at or a
    little above it (within 0.5 %)."""
    eps = P.epsilon(MNIST_BATCH / MNIST_N, z, mnist_steps(epochs), 1e-5)
    assert published - 0.005 <= eps <= published * 1.005


def test_abadi_2016_moments_accountant_example():
    """Abadi et al. 2016's worked example: q = 0.01, σ = 4, δ = 1e-5, T = 10,000 gives ε ≈ 1.26
    with the moments accountant (9.34 by strong composition). Their tail bound at integer moment λ
    is the classic conversion at order α = λ + 1, so the accountant reproduces it."""
    assert round(P.epsilon(0.01, 4.0, 10000, 1e-5), 2) == 1.26


# ---- the curriculum's golden vectors (handbook/labs/v2_11.md §4) ---------------------------------------


@pytest.mark.parametrize("clients, z, expected", [
    (1e3, 1.0, 0.9427), (1e4, 1.0, 1.2197), (1e4, 1.09, 1.013), (1e5, 1.0, 1.7513),
])
def test_v2_11_golden_epsilons(clients, z, expected):
    assert P.epsilon(clients / USERS, z, ROUNDS, DELTA) == pytest.approx(expected, abs=6e-4)


def test_v2_11_noise_needed_for_epsilon_one():
    assert P.noise_multiplier_for_epsilon(1e4 / USERS, ROUNDS, DELTA, 1.0) == pytest.approx(1.092, abs=5e-4)


def test_small_q_closed_form_tracks_the_accountant_for_mnist():
    """handbook/labs/v2_11.md §2: ε ≈ 2q√(T ln(1/δ))/z + Tq²/z² is a rough check (within 15 %) when q√T is not tiny."""
    q = MNIST_BATCH / MNIST_N
    approx = P.epsilon_small_q_approx(q, 1.1, mnist_steps(60), 1e-5)
    assert approx == pytest.approx(P.epsilon(q, 1.1, mnist_steps(60), 1e-5), rel=0.15)


def test_small_q_closed_form_fails_in_the_federated_regime():
    """At q = 1e-5 the δ term ln(1/δ)/(α−1) sets ε, not composition: the closed form is 200× low."""
    exact = P.epsilon(1e3 / USERS, 1.0, ROUNDS, DELTA)
    assert P.epsilon_small_q_approx(1e3 / USERS, 1.0, ROUNDS, DELTA) < exact / 100


# ---- properties -------------------------------------------------------------------------


def test_tight_is_never_above_classic():
    for q in (1e-5, 1e-3, 0.05, 0.5):
        for z in (0.6, 1.0, 3.0):
            assert P.epsilon(q, z, 1000, 1e-6, "tight") <= P.epsilon(q, z, 1000, 1e-6)


def test_epsilon_grows_with_steps_and_sampling_and_falls_with_noise():
    base = P.epsilon(1e-3, 1.0, 1000, 1e-6)
    assert P.epsilon(1e-3, 1.0, 10000, 1e-6) > base
    assert P.epsilon(2e-3, 1.0, 1000, 1e-6) > base
    assert P.epsilon(1e-3, 2.0, 1000, 1e-6) < base


def test_early_stop_finds_the_same_minimum_as_a_full_search():
    for q, z, t, d in ((1e-5, 1.0, 2000, 1e-9), (0.01, 0.8, 5000, 1e-5), (0.3, 2.0, 10, 1e-3)):
        for conversion in P.CONVERSIONS:
            full = min(P.epsilon_at_order(P.rdp_steps(q, z, t, a), a, d, conversion) for a in P.ORDERS)
            assert P.epsilon(q, z, t, d, conversion) == pytest.approx(full, rel=1e-12)


def test_the_classic_bisection_finds_the_full_search_best_order_and_epsilon_exactly():
    """The classic conversion bisects on ε(α+1) − ε(α) (ε is unimodal in α); on 150 seeded draws
    across the labs' domains and beyond it returns exactly the full scan's ε and smallest best α."""
    rng = random.Random(11)
    cases = [(0.0, 1.0, 100.0, 1e-5), (1.0, 1.0, 10.0, 1e-5), (0.01, 0.0, 100.0, 1e-5), (1e-6, 50.0, 1.0, 1e-9)]
    cases += [(10 ** rng.uniform(-7, 0), rng.uniform(0.05, 10), 10 ** rng.uniform(0, 8), 10 ** rng.uniform(-12, -2))
              for _ in range(150)]
    for q, z, t, d in cases:
        scan = [P.epsilon_at_order(P.rdp_steps(q, z, t, a), a, d, "classic") for a in P.ORDERS]
        best = min(scan)
        assert P.epsilon_and_order(q, z, t, d, "classic") == (best, P.ORDERS[scan.index(best)])


def test_extremes_stay_finite_and_ordered():
    assert math.isfinite(P.sampled_gaussian_rdp(1e-12, 0.05, 256))
    assert P.sampled_gaussian_rdp(0.5, 0.0, 2) == math.inf
    assert math.isfinite(P.epsilon(0.01, 0.5, 2000, 1e-9))
    assert P.epsilon(1e-6, 3.0, 1, 1e-9) > 0


def test_logsumexp_is_stable():
    assert P.logsumexp([1000.0, 1000.0]) == pytest.approx(1000.0 + math.log(2))
    assert P.logsumexp([-math.inf]) == -math.inf
    assert P.logsumexp([]) == -math.inf


def test_noise_search_returns_infinity_when_no_noise_is_enough():
    assert P.noise_multiplier_for_epsilon(1.0, 1e6, 1e-9, 1e-4, z_max=2.0) == math.inf


# ---- membership inference and the single-release bound -----------------------------------


def test_mi_bound_at_epsilon_one_is_73_percent():
    """handbook/labs/v2_13.md §2: (e^ε + δ)/(1 + e^ε); V2-13 quotes 73 % at ε = 1."""
    assert P.membership_advantage_bound(1.0, 0.0) == pytest.approx(math.e / (1 + math.e))
    assert round(P.membership_advantage_bound(1.0, 1e-9), 3) == 0.731


def test_mi_bound_limits():
    assert P.membership_advantage_bound(0.0, 0.0) == 0.5
    assert P.membership_advantage_bound(800.0, 0.0) == 1.0
    assert P.membership_advantage_bound(math.inf, 0.0) == 1.0


def test_single_release_gaussian_bound_refuses_epsilon_above_one():
    assert P.gaussian_single_release_sigma(1.0, 1e-5) == pytest.approx(math.sqrt(2 * math.log(1.25e5)))
    with pytest.raises(P.PrivacyError, match="outside \\(0, 1\\]"):
        P.gaussian_single_release_sigma(2.0, 1e-5)


@pytest.mark.parametrize("call, message", [
    (lambda: P.sampled_gaussian_rdp(1.5, 1.0, 2), "sampling rate 1.5"),
    (lambda: P.sampled_gaussian_rdp(0.1, 1.0, 1), "order 1 must be an integer from 2 to 256"),
    (lambda: P.epsilon_at_order(1.0, 2, 0.0), "delta 0.0"),
    (lambda: P.epsilon_at_order(1.0, 2, 1e-5, "loose"), "conversion 'loose'"),
])
def test_bad_inputs_name_the_value(call, message):
    with pytest.raises(P.PrivacyError, match=message):
        call()


def naive_rdp(q: float, z: float, alpha: int) -> float:
    """The textbook binomial sum, term by term with lgamma (slow, for comparison only)."""
    terms = [math.lgamma(alpha + 1) - math.lgamma(k + 1) - math.lgamma(alpha - k + 1)
             + k * math.log(q) + (alpha - k) * math.log1p(-q) + (k * k - k) / (2 * z * z) for k in range(alpha + 1)]
    return P.logsumexp(terms) / (alpha - 1)


@pytest.mark.parametrize("q", [1e-6, 1e-4, 0.01, 0.3, 0.9])
@pytest.mark.parametrize("z", [0.3, 1.0, 4.0])
def test_fast_rdp_matches_the_textbook_sum(q, z):
    for alpha in (2, 3, 8, 32, 128, 256):
        fast, slow = P.sampled_gaussian_rdp(q, z, alpha), naive_rdp(q, z, alpha)
        assert fast == pytest.approx(slow, rel=1e-9, abs=1e-15)


# ---- V2-13 The Privacy Measurement Gap: handbook/labs/v2_13.md §4 golden vectors ------------------


@pytest.mark.parametrize("eps, cap", [(0.1, 0.5250), (0.2, 0.5498), (1.0, 0.7311), (3.0, 0.9526)])
def test_v2_13_spec_4_mi_caps(eps, cap):
    assert P.membership_advantage_bound(eps, 1e-6) == pytest.approx(cap, abs=5e-5)


@pytest.mark.parametrize("train, test, accuracy", [(0.995, 0.70, 0.6475), (0.94, 0.82, 0.56)])
def test_v2_13_spec_4_gap_attack(train, test, accuracy):
    """Yeom et al. 2018: balanced accuracy 0.5 + gap/2 (the upstream's 0.5 + gap doubled it)."""
    assert P.gap_attack_accuracy(train, test) == pytest.approx(accuracy, abs=1e-12)


def test_gap_attack_is_symmetric_and_chance_without_a_gap():
    assert P.gap_attack_accuracy(0.7, 0.9) == pytest.approx(P.gap_attack_accuracy(0.9, 0.7))
    assert P.gap_attack_accuracy(0.8, 0.8) == 0.5
    assert P.gap_attack_accuracy(1.0, 0.0) == 1.0


def test_v2_13_spec_2_error_3_fifty_five_percent_needs_epsilon_about_0_2():
    """handbook/labs/v2_13.md §2: ≤ 55 % needs ε ≤ 0.2 (0.2007 exactly); 73.1 % corresponds to ε = 1."""
    assert P.epsilon_for_attack_accuracy(0.55, 1e-6) == pytest.approx(0.2007, abs=1e-4)
    assert P.epsilon_for_attack_accuracy(P.membership_advantage_bound(1.0, 1e-6), 1e-6) == \
        pytest.approx(1.0, rel=1e-9)


def test_epsilon_for_attack_accuracy_edges():
    assert P.epsilon_for_attack_accuracy(0.5, 1e-6) == 0.0
    assert P.epsilon_for_attack_accuracy(1.0, 1e-6) == math.inf
    for p in (0.51, 0.6, 0.9, 0.999):
        eps = P.epsilon_for_attack_accuracy(p, 1e-5)
        assert P.membership_advantage_bound(eps, 1e-5) == pytest.approx(p, rel=1e-9)


@pytest.mark.parametrize("n, z, eps", [(1e6, 1.15, 0.9622), (1e6, 1.1, 1.035), (1e7, 1.15, 0.6332),
                                       (1e6, 0.8, 2.151)])
def test_v2_13_spec_4_dp_sgd_epsilons(n, z, eps):
    """handbook/labs/v2_13.md §4: B = 1,000, E = 10, δ = 1e-6, q = B/N, T = E·N/B, classic conversion."""
    assert P.epsilon(1000 / n, z, 10 * n / 1000, 1e-6) == pytest.approx(eps, abs=6e-4)


def test_v2_13_spec_2_error_8_single_release_sigma_is_5_30():
    """The single-release bound at ε = 1, δ = 1e-6 is 5.30 (upstream printed 5.26); it is not an accountant."""
    assert P.gaussian_single_release_sigma(1.0, 1e-6) == pytest.approx(5.30, abs=5e-3)
