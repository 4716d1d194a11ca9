"""Drift statistics and retraining economics (pylabs.physics.drift): the spec's golden vectors
(handbook/labs/v1_14.md §4), the sampled monitor against its closed forms, and a numpy cross-check."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from pylabs.physics import drift as D

W = D.SECONDS_PER_WEEK
DAY = D.SECONDS_PER_DAY
PP_DAY = 0.01 * DAY  # one percentage point for one day, in fraction·seconds


# ---- handbook/labs/v1_14.md §4 golden vectors: the statistic ---------------------------------------


def test_section4_binned_psi_targets_give_the_shifts():
    """handbook/labs/v1_14.md §4: Δ for PSI 0.1 / 0.2 / 0.25 = 0.3235 / 0.4583 / 0.5128 σ."""
    assert [round(D.shift_for_psi(t), 4) for t in (0.1, 0.2, 0.25)] == [0.3235, 0.4583, 0.5128]
    assert D.binned_psi(D.shift_for_psi(0.2)) == pytest.approx(0.2, rel=1e-10)


@pytest.mark.parametrize("drift,cross_wk,psi26", [(0.13, 3.53, 7.60), (0.06, 7.64, 2.14), (0.03, 15.28, 0.571)])
def test_section4_crossing_weeks_and_psi_at_26_weeks(drift, cross_wk, psi26):
    """handbook/labs/v1_14.md §4: δ = 0.13 / 0.06 / 0.03 σ/wk cross 0.2 at 3.53 / 7.64 / 15.28 wk; PSI(26 wk) = 7.60 /
    2.14 / 0.571."""
    assert D.crossing_time_s(0.2, drift / W) / W == pytest.approx(cross_wk, abs=0.005)
    assert D.binned_psi(drift * 26) == pytest.approx(psi26, rel=3e-3)


def test_section4_accuracy_decay():
    """handbook/labs/v1_14.md §4: λ = 0.002976 per week; A(4) 92.888, A(8) 91.788, A(26) 87.000 (in %)."""
    rate = D.decay_rate_per_s(0.94, 0.87, 26 * W)
    assert rate * W == pytest.approx(0.002976, abs=5e-7)
    values = [100 * D.accuracy_exponential(0.94, rate, k * W) for k in (4, 8, 26)]
    assert values == pytest.approx([92.888, 91.788, 87.000], abs=5e-4)


def test_upstream_monthly_rate_was_wrong():
    """handbook/labs/v1_14.md §5: ln(0.94/0.87)/6 = 0.01290 per month, not 0.01267."""
    assert D.decay_rate_per_s(0.94, 0.87, 6.0) == pytest.approx(0.01290, abs=5e-6)


# ---- the statistic's identities -------------------------------------------------------------------


def test_psi_is_the_symmetric_kl_divergence():
    """handbook/labs/v1_14.md §5: PSI = KL(P‖Q) + KL(Q‖P) exactly, so swapping the sides changes nothing."""
    a, e = D.shifted_bin_shares(0.4), (0.1,) * 10
    assert D.psi(a, e) == pytest.approx(D.kl_divergence(a, e) + D.kl_divergence(e, a), rel=1e-12)
    assert D.psi(a, e) == pytest.approx(D.psi(e, a), rel=1e-12)
    assert D.kl_divergence(a, e) != pytest.approx(D.kl_divergence(e, a), rel=1e-3)


def test_binned_psi_is_below_the_continuous_limit_and_approaches_it():
    for shift in (0.1, 0.46, 1.0):
        assert D.binned_psi(shift) < D.continuous_psi(shift)
        assert D.binned_psi(shift, 400) == pytest.approx(D.continuous_psi(shift), rel=0.02)


def test_bin_shares_are_a_distribution_and_deciles_without_drift():
    assert D.shifted_bin_shares(0.0) == pytest.approx((0.1,) * 10, abs=1e-12)
    assert sum(D.shifted_bin_shares(1.3)) == pytest.approx(1.0, abs=1e-12)
    assert D.binned_psi(0.0) == pytest.approx(0.0, abs=1e-20)


def test_no_drift_never_crosses_and_bad_inputs_say_why():
    assert D.crossing_time_s(0.2, 0.0) == math.inf
    with pytest.raises(ValueError, match="positive share"):
        D.psi((0.0, 1.0), (0.5, 0.5))
    with pytest.raises(ValueError, match="threshold must be positive"):
        D.shift_for_psi(0.0)
    with pytest.raises(ValueError, match="at least one record"):
        D.sampled_bin_counts(0.1, 0, 1, 1)


# ---- the sampled monitor against closed forms --------------------------------------------------------


def test_sampling_is_deterministic_and_the_same_records_serve_every_cut():
    assert D.sampled_psi(0.3, 2000, 7, 3) == D.sampled_psi(0.3, 2000, 7, 3)
    assert D.sampled_psi(0.3, 2000, 7, 3) != D.sampled_psi(0.3, 2000, 8, 3)
    tree = D._BitTree(7, 3, 2000)
    below = [tree.count_below(k / 256) for k in range(257)]
    assert below[0] == 0 and below[-1] == 2000
    assert all(a <= b for a, b in zip(below, below[1:]))  # one set of records: counts grow with the cut
    # the stream does not depend on the order the cuts are asked in
    again = D._BitTree(7, 3, 2000)
    assert [again.count_below(k / 256) for k in reversed(range(257))][::-1] == below


def test_walks_that_share_a_path_count_as_separate_walks():
    """``counts_below`` starts each cut's walk where the previous one can be reused: the counts are those
    of one walk per cut, also for cuts crowded in a tail, repeated, or at 0 and 1."""
    rng = random.Random(5)
    for k in range(400):
        n = rng.choice([1, 7, 333, 5000])
        cuts = sorted(rng.choice([rng.random(), rng.random() ** 8, 1 - rng.random() ** 8, 0.0, 1.0, 0.5])
                      for _ in range(rng.randint(1, 12)))
        assert D._BitTree(k, 3, n).counts_below(cuts) == [D._BitTree(k, 3, n).count_below(c) for c in cuts]


def test_the_bit_tree_draws_uniform_records():
    """The records below a cut c are Binomial(n, c): over many seeds the count's mean is n·c and its
    variance n·c(1 − c), and a dyadic cut (½) is the zeros of level 0 alone."""
    n, cut, seeds = 400, 0.3, 2000
    counts = [D._BitTree(seed, 1, n).count_below(cut) for seed in range(seeds)]
    assert statistics.fmean(counts) == pytest.approx(n * cut, abs=4 * math.sqrt(n * cut * (1 - cut) / seeds))
    assert statistics.variance(counts) == pytest.approx(n * cut * (1 - cut), rel=0.12)
    half = D._BitTree(5, 2, 1000)
    assert half.count_below(0.5) == 1000 - half.levels[0].bit_count()


def test_bin_counts_fit_the_multinomial_by_chi_square():
    """Pooled over 300 seeded checks of 500 records at Δ = 0.8 σ, the bin counts pass Pearson's
    goodness-of-fit test against the exact shares (scipy.stats.chisquare)."""
    stats = pytest.importorskip("scipy.stats")
    shares = D.shifted_bin_shares(0.8)
    pooled = [0] * 10
    for seed in range(300):
        for i, c in enumerate(D.sampled_bin_counts(0.8, 500, seed, 9)):
            pooled[i] += c
    total = sum(pooled)
    assert stats.chisquare(pooled, [total * s for s in shares]).pvalue > 0.001


def test_each_checks_counts_are_multinomial_not_only_on_average():
    """Review: the pooled test above checks the mean counts only (a sampler that always returned the
    expected counts would pass it). One check's Pearson X² against the exact shares is χ² with B − 1 = 9
    degrees of freedom only if the counts within a check have the multinomial spread and covariance
    (Kolmogorov–Smirnov against scipy.stats.chi2); consecutive weeks of one seed are uncorrelated; a
    single record, located by bisection on its count, is uniform on [0, 1)."""
    stats = pytest.importorskip("scipy.stats")
    n, shares = 500, D.shifted_bin_shares(0.8)
    pearson = [sum((c - n * s) ** 2 / (n * s) for c, s in zip(D.sampled_bin_counts(0.8, n, seed, 9), shares))
               for seed in range(600)]
    assert stats.kstest(pearson, stats.chi2(9).cdf).pvalue > 0.001
    weeks = [D._BitTree(3, week, 1000).count_below(0.37) for week in range(1, 1202)]
    assert abs(stats.pearsonr(weeks[:-1], weeks[1:])[0]) < 4 / math.sqrt(1200)

    def record(seed):
        tree, lo, hi = D._BitTree(seed, 1, 1), 0.0, 1.0
        for _ in range(30):
            lo, hi = (lo, (lo + hi) / 2) if tree.count_below((lo + hi) / 2) else ((lo + hi) / 2, hi)
        return hi
    assert stats.kstest([record(seed) for seed in range(2000)], "uniform").pvalue > 0.001


def test_sampled_counts_match_the_bin_shares_within_binomial_error():
    n, shift = 10_000, 0.5
    for week in range(1, 6):
        counts = D.sampled_bin_counts(shift, n, 11, week)
        assert sum(counts) == n
        for count, share in zip(counts, D.shifted_bin_shares(shift)):
            assert abs(count - n * share) < 4.5 * math.sqrt(n * share * (1 - share))


@pytest.mark.parametrize("window", [200, 1000, 5000])
def test_no_drift_reads_the_chi_square_noise_floor(window):
    """n·PSI ≈ χ²₉ under no drift: mean (B−1)/n, variance 2(B−1)/n² (Yurdakul 2018)."""
    values = [D.sampled_psi(0.0, window, seed, week) for seed in range(4) for week in range(1, 26)]
    floor = D.null_psi_mean(window)
    se = math.sqrt(2 * 9) / window / math.sqrt(len(values))
    assert statistics.fmean(values) == pytest.approx(floor, abs=4 * se + 0.05 * floor)


def test_sampled_psi_at_the_threshold_shift_centres_on_the_closed_form_plus_noise():
    shift = D.shift_for_psi(0.2)
    values = [D.sampled_psi(shift, 5000, seed, week) for seed in range(4) for week in range(1, 26)]
    assert statistics.fmean(values) == pytest.approx(0.2 + D.null_psi_mean(5000), abs=0.004)


def test_weekly_detection_of_the_amount_feature_is_week_4():
    """handbook/labs/v1_14.md §2: the amount feature (0.13 σ/wk) crosses at 3.53 wk, so a weekly check alarms at week
    4."""
    det = D.detect(0.13 / W, W, 26 * W, 0.2, 5000, 14)
    assert det.alarm_s == pytest.approx(4 * W)
    assert len(det.checks) == 26 and det.alarm_psi() >= 0.2
    monthly = D.detect(0.13 / W, 4 * W, 26 * W, 0.2, 5000, 14)
    assert monthly.alarm_s == pytest.approx(4 * W) and len(monthly.checks) == 6
    # the check at week 4 sees the same records whatever the interval
    assert monthly.checks[0][1] == det.checks[3][1]


def test_a_tiny_window_raises_false_alarms_without_drift():
    assert D.detect(0.0, W, 26 * W, 0.2, 50, 14).alarm_s is not None
    assert D.detect(0.0, W, 26 * W, 0.2, 5000, 14).alarm_s is None


def test_numpy_cross_check_of_psi_and_shares():
    np = pytest.importorskip("numpy")
    a = np.array(D.shifted_bin_shares(0.7))
    e = np.full(10, 0.1)
    assert D.psi(a.tolist(), e.tolist()) == pytest.approx(float(np.sum((a - e) * np.log(a / e))), rel=1e-12)
    rng = np.random.default_rng(3)
    z = rng.normal(0.7, 1.0, 200_000)
    counts = np.histogram(z, bins=[-np.inf, *D.quantile_edges(), np.inf])[0] / z.size
    assert counts == pytest.approx(a, abs=0.004)


# ---- handbook/labs/v1_14.md §4 golden vectors: the cadence ---------------------------------------------

ENVS = {  # C_r ($), D (days to lose 7 pp), V ($/pp·day), floor
    "cloud": (8000.0, 14.0, 1000.0, 0.90),
    "edge": (1000 * 50.0 + 8000.0, 30.0, 200.0, 0.87),
    "mobile": (30000.0, 180.0, 200.0, 0.85),
}


def env(name):
    cost, days, value, floor = ENVS[name]
    rate = 0.07 / (days * DAY)
    return cost, value / PP_DAY, rate, floor


@pytest.mark.parametrize("name,t_star,t_max,annual", [
    ("cloud", 5.66, 8.0, 1_032_376), ("edge", 49.86, 30.0, 961_167), ("mobile", 87.83, 231.4, 249_342)])
def test_section4_cadence_goldens(name, t_star, t_max, annual):
    """handbook/labs/v1_14.md §4: T*, T_max and the annual cost at T_op = min(T*, T_max)."""
    cost, value, rate, floor = env(name)
    star = D.optimal_interval_s(cost, value, rate)
    cap = D.floor_interval_s(0.94, floor, rate)
    assert star / DAY == pytest.approx(t_star, abs=0.005)
    assert cap / DAY == pytest.approx(t_max, abs=0.05)
    assert D.annual_cost_usd(min(star, cap), cost, value, rate) == pytest.approx(annual, abs=1)


def test_section4_edge_at_its_unconstrained_optimum():
    cost, value, rate, _ = env("edge")
    star = D.optimal_interval_s(cost, value, rate)
    assert D.annual_cost_usd(star, cost, value, rate) == pytest.approx(849_230, abs=1)


def test_at_the_optimum_retraining_and_staleness_cost_the_same():
    """handbook/labs/v1_14.md §5: at T* the total is twice the retraining spend."""
    cost, value, rate, _ = env("cloud")
    star = D.optimal_interval_s(cost, value, rate)
    assert D.retrain_usd_per_year(star, cost) == pytest.approx(D.staleness_usd_per_year(star, value, rate))
    for t in (0.5 * star, 2 * star):
        assert D.annual_cost_usd(t, cost, value, rate) > D.annual_cost_usd(star, cost, value, rate)


def test_a_hundred_times_the_cost_is_ten_times_the_interval():
    """handbook/labs/v1_14.md §5: √100 = 10×, not 2–3×."""
    _, value, rate, _ = env("cloud")
    assert D.optimal_interval_s(800_000, value, rate) / D.optimal_interval_s(8000, value, rate) == pytest.approx(10)


def test_a_floor_at_or_above_the_start_allows_no_cycle():
    assert D.floor_interval_s(0.94, 0.94, 1e-7) == 0.0
