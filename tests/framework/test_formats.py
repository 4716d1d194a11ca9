import pytest

from pylabs.framework.formats import UnknownFormat, fmt


@pytest.mark.parametrize("value,name,text", [
    (0.544444, "s", "544 ms"), (60.6875e-6, "s", "60.7 µs"), (39.98 * 86400, "s", "40 days"),
    (48.75e9, "GB", "48.8 GB"), (1_498_050, "B", "1.5 MB"), (450e9, "GB/s", "450 GB/s"),
    (0.876, "pct", "87.6 %"), (5.3226, "x", "5.32×"), (35_872_200, "usd", "$35.9M"),
    (4096, "tokens", "4,096 tokens"), (1024, "int", "1,024"),
    (50_000 * 3600.0, "h", "50,000 h"), (10986.3, "h", "3.05 h"),
    (8302.07, "tokens/s", "8,302 tokens/s"), (2.2989, "req/s", "2.3 requests/s"),
    (float("inf"), "ms", "∞"), (float("inf"), "s", "∞"),
    (0.4, "pct+", "+40 %"), (-0.5, "pct+", "−50 %"), (0.0, "pct+", "0 %"),
    (26 * 7 * 86400.0, "weeks", "26 weeks"), (52 * 3600.0, "weeks", "0.31 weeks"),
    (7 * 86400.0, "weeks", "1 week"),
    (5073.17, "images/s", "5,073 images/s"), (2.5, "images/s", "2.5 images/s"),
    (100e9, "bit/s", "100 Gb/s"), (0.02, "usd/GB", "$0.02/GB"), (24.6e9, "GFLOP", "24.6 GFLOP"),
    (8.18e9, "GFLOP", "8.18 GFLOP"), (24.54e9, "GFLOP", "24.5 GFLOP"),
    (117_600 * 3.6e6, "Wh", "118 MWh"), (96_432.0, "CO2e", "96.4 t CO₂e"), (820e-3 / 3.6e6, "g/kWh", "820 g/kWh"),
    (2_000e3, "km", "2,000 km"), (1_021_090.0, "length", "1,021 km"), (0.5253, "length", "52.5 cm"),
    (0.0, "length", "0 km"), (0.20998e-3, "watts", "210 µW"), (3.0, "watts", "3 W"), (1e-3, "watts", "1 mW"),
    (3_000e3, "km", "3,000 km"), (816_873.0, "km", "817 km"), (295.343, "FLOP/B", "295 FLOP/B"),
    (6.0, "words", "six"), (0.0, "words", "zero"), (12.0, "words", "twelve"), (13.0, "words", "13"),
    (2.5, "words", "2.5"), (1024.0, "words", "1,024"),
])
def test_formats(value, name, text):
    assert fmt(value, name) == text


def test_unknown_format_names_the_known_ones():
    with pytest.raises(UnknownFormat, match="unknown format 'furlongs'; use one of"):
        fmt(1.0, "furlongs")


def test_an_infinite_metric_value_is_spelled_for_javascript():
    from pylabs.framework.components import MetricSpec
    html = str(MetricSpec("wait", "Wait", "s", "ms").show(float("inf")))
    assert 'data-value="Infinity"' in html and "∞" not in html and ">unbounded<" in html
    said = str(MetricSpec("drain", "Drain", "s", "ms", infinite="never").show(float("inf")))
    assert ">never<" in said


def test_the_ledger_record_keeps_an_unbounded_result_as_null():
    from pylabs.framework.render import result_value as finite_or_none
    assert finite_or_none(float("inf")) is None and finite_or_none(2) == 2.0


def test_halves_round_up_the_same_way_wherever_they_come_from():
    # 1.275 is stored just below 1.275; 10,200 W / 8 is the same number: both show as 1.28 kW
    assert fmt(1.275, "num") == "1.28"
    assert fmt(10_200 / 8, "W") == "1.28 kW"
    assert fmt(1275, "W") == "1.28 kW"
    assert fmt(0.0625, "pct") == "6.25 %"
    assert fmt(-2.675, "num") == "−2.68"


def test_plural_agrees_with_the_count():
    from pylabs.framework.formats import plural
    assert plural(1, "NIC") == "1 NIC"
    assert plural(8, "NIC") == "8 NICs"
    assert plural(1.0, "engineer-week") == "1 engineer-week"
    assert plural(0.9, "engineer-week") == "0.9 engineer-weeks"
    assert plural(2, "fix", "fixes") == "2 fixes"
    assert plural(1024, "GPU", count_fmt="int") == "1,024 GPUs"
    assert plural(1, "byte", count_fmt="words") == "one byte"
    assert plural(2, "byte", count_fmt="words") == "two bytes"


def test_power_of_ten_shows_orders_of_magnitude():
    assert fmt(1_030_677.08, "x10") == "1.03 × 10⁶"
    assert fmt(69_687.5, "x10") == "6.97 × 10⁴"
    assert fmt(1e5, "x10") == "10⁵" and fmt(1e3, "x10") == "10³"
    assert fmt(9_996, "x10") == "10⁴"  # 9.996 rounds to 10: carry into the next power
    assert fmt(160.2, "x10") == "160×" and fmt(0.5, "x10") == "0.5×"
    assert fmt(8.2e9, "GFLOP") == "8.2 GFLOP"
    assert fmt(512 * 1024, "iB") == "512 KiB" and fmt(2 * 1024 ** 2, "iB") == "2 MiB" and fmt(80e9, "iB") == "74.5 GiB"


def test_fractions_and_shrinking_read_as_prose_while_simple():
    from pylabs.framework.formats import shrinks
    assert [fmt(x, "fraction") for x in (0.5, 1 / 3, 0.25, 0.4, 0.2)] == ["half", "a third", "a quarter", "40 %", "20 %"]
    assert (shrinks(2), shrinks(3), shrinks(1.5)) == ("halves", "shrinks 3×", "shrinks 1.5×")


def test_a_rounding_that_reaches_a_thousand_moves_to_the_next_unit():
    assert fmt(999.96e6, "B/s") == "1 GB/s" and fmt(999.7e6, "B") == "1 GB" and fmt(0.99996, "ms") == "1 s"


def test_money_shows_cents_only_below_ten_dollars():
    assert fmt(3.5, "usd") == "$3.50" and fmt(661.22, "usd") == "$661" and fmt(100.0, "usd/h") == "$100/h"
    assert fmt(2.5, "usd/h") == "$2.50/h" and fmt(35_872_200, "usd") == "$35.9M"


def test_money_below_a_cent_keeps_its_figures_and_zero_is_zero():
    """V2-01's review: a data table read "$0.00" for nothing owed, and a fraction of a cent read the same."""
    assert fmt(0, "usd") == "$0" and fmt(0.0042, "usd") == "$0.0042" and fmt(0.0055, "usd/GB") == "$0.0055/GB"


def test_units_scale_up_from_a_thousand():
    """103 TB, not 103,421 GB; 268 MFLOP, not 268,435,456 FLOP; 0.96 GFLOP/s as 960 MFLOP/s."""
    assert fmt(103_421e9, "GB") == "103 TB" and fmt(2.443e15, "GB") == "2.44 PB"
    assert fmt(80e9, "GB") == "80 GB" and fmt(0.5e9, "GB") == "0.5 GB" and fmt(999e9, "GB") == "999 GB"
    assert fmt(3.35e12, "GB/s") == "3.35 TB/s" and fmt(900e9, "GB/s") == "900 GB/s"
    assert fmt(1.334, "ms") == "1.33 s" and fmt(0.0998, "us") == "99.8 ms" and fmt(0.02, "ms") == "20 ms"
    assert fmt(268_435_456, "FLOP") == "268 MFLOP" and fmt(274_877_906_944, "FLOP") == "275 GFLOP"
    assert fmt(3.2e13, "FLOP") == "32 TFLOP" and fmt(512, "FLOP") == "512 FLOP"
    assert fmt(9.6e8, "FLOP/s") == "960 MFLOP/s" and fmt(989.4e12, "FLOP/s") == "989 TFLOP/s"


def test_a_datasheet_peak_keeps_its_four_published_figures():
    """The H100's dense BF16 peak reads as NVIDIA's whitepaper states it."""
    assert fmt(989.4e12, "FLOP/s4") == "989.4 TFLOP/s" and fmt(15.04e12, "FLOP/s4") == "15.04 TFLOP/s"
    assert fmt(0.96e9, "FLOP/s4") == "960 MFLOP/s" and fmt(999.96e12, "FLOP/s4") == "1 PFLOP/s"


def test_no_measured_number_shows_more_than_four_figures():
    assert fmt(14_487, "num") == "14,490" and fmt(103_421, "num") == "103,400"
    assert fmt(1_763.2, "x") == "1,763×" and fmt(14_487, "tokens/s") == "14,490 tokens/s"
    assert fmt(8_698.4, "tokens/s") == "8,698 tokens/s"
    assert fmt(131_072, "int") == "131,072"  # a count keeps every figure


def test_tiny_and_near_whole_shares_never_round_to_a_false_zero_or_hundred():
    assert fmt(2.79e-10, "pct") == "< 0.001 %" and fmt(3.59e-7, "pct") == "< 0.001 %"
    assert fmt(1.5e-5, "pct") == "0.0015 %" and fmt(0.0, "pct") == "0 %" and fmt(1.0, "pct") == "100 %"
    assert fmt(0.999997, "pct") == "> 99.99 %" and fmt(0.999997, "pct1") == "> 99.99 %"
    assert fmt(0.9995, "pct") == "99.95 %" and fmt(0.99995, "pct") == "> 99.99 %" and fmt(0.0548, "pct1") == "5.5 %"
    assert fmt(1e-7, "pp") == "< 0.001 pp"


def test_availability_shows_its_nines():
    assert [fmt(v, "nines") for v in (0.9, 0.99, 0.999, 0.9995, 0.99999, 0.999997)] == \
        ["90 %", "99 %", "99.9 %", "99.95 %", "99.999 %", "99.9997 %"]


def test_no_time_reads_zero_nanoseconds():
    assert fmt(0.0, "s") == "0 s" and fmt(1e-12, "s") == "< 1 ns" and fmt(2e-9, "s") == "2 ns"
    assert fmt(60.0, "s") == "1 min" and fmt(29.167, "s") == "29.2 s"


def test_numbers_far_from_one_read_in_scientific_notation():
    assert fmt(1.62e-32, "sci") == "1.62 × 10⁻³²" and fmt(1e-5, "sci") == "10⁻⁵" and fmt(2e-10, "sci") == "2 × 10⁻¹⁰"
    assert fmt(0.25, "sci") == "0.25" and fmt(9.996e-6, "sci") == "10⁻⁵" and fmt(3.3e-5, "sci") == "3.3 × 10⁻⁵"


def test_an_exact_zero_reads_in_the_base_unit_not_the_smallest():
    """V1-00's review: a ceiling of nothing read '0 nW' on the card and in the ledger."""
    assert fmt(0.0, "watts") == "0 W"
    assert fmt(0.0, "B") == "0 B" and fmt(0.0, "B/s") == "0 B/s"
    assert fmt(2e-9, "watts") == "2 nW"


def test_integer_rates_are_printed_in_tops_as_vendors_print_them():
    """NVIDIA's H100 datasheet gives INT8 Tensor Core throughput as 1,979 TOPS (3,958 with sparsity);
    no vendor writes "POP/s", which the format printed as 1.98 POP/s."""
    assert fmt(1.979e15, "OP/s") == "1,979 TOP/s" and fmt(3.958e15, "OP/s") == "3,958 TOP/s"
    assert fmt(624e12, "OP/s") == "624 TOP/s" and fmt(2.5e12, "OP/s") == "2.5 TOP/s"


def test_num4_keeps_four_significant_figures():
    assert fmt(1.468, "num4") == "1.468" and fmt(1.4, "num4") == "1.4" and fmt(14487.0, "num4") == "14,490"


def test_a_share_with_fixed_decimals_never_rounds_a_nonzero_value_to_zero():
    """V2-08's review: pct1 printed 0.000404 as "0.0 %" beside another card's "< 0.001 %"."""
    assert fmt(0.000404, "pct1") == "0.0404 %" and fmt(-0.0002, "pct1") == "−0.02 %"
    assert fmt(0.123, "pct1") == "12.3 %" and fmt(0.0, "pct1") == "0 %"


def test_listed_joins_items_as_a_sentence_does():
    from pylabs.framework.formats import listed
    assert listed(["a"]) == "a" and listed(["a", "b"]) == "a or b" and listed(["a", "b", "c"]) == "a, b or c"
    assert listed(["a", "b"], "and") == "a and b"


def test_kept_answers_are_what_the_formatter_gives():
    """fmt keeps its answers across slider moves: a kept answer is the formatter's own, a negative
    zero is never taken for a zero (their keys are equal), and an int reads as its float."""
    from pylabs.framework.formats import FORMATS
    values = [0.0, -0.0, 1.0, 1, 0.5, -2.5e9, 3.14159e-7, 12345.678, 0.999996]
    for name, formatter in FORMATS.items():
        for _ in range(2):  # the second pass reads what the first kept
            assert [fmt(v, name) for v in values] == [formatter(float(v)) for v in values], name
