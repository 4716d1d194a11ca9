"""Economics: hours in a year, cloud transfer prices, the cost of a late defect."""

from pylabs.physics.constants.registry import spec

_BOEHM_BASILI_URL = "https://www.cs.umd.edu/projects/SoftEng/ESEG/papers/82.78.pdf"
_AWS_EC2_PRICING_URL = "https://aws.amazon.com/ec2/pricing/on-demand/"

# Time
HOURS_PER_YEAR = spec(
    8760.0, "h/year", "365-day year x 24 h (convention used by the TCO labs)", "", note="365 x 24",
    label="Hours in a year")

# Cloud data-transfer prices
AWS_INTER_REGION_USD_PER_GB = spec(
    0.02, "USD/GB",
    "AWS EC2 on-demand pricing, Data Transfer: out to another AWS region, $0.02 per GB from US regions (2026 "
    "pricing guides agree)", _AWS_EC2_PRICING_URL,
    note="upstream used $0.08/GB; 'between regions $0.02 to $0.08' depending on the pair",
    label="AWS data transfer between regions, per GB")
AWS_INTERNET_EGRESS_USD_PER_GB = spec(
    0.09, "USD/GB",
    "AWS EC2 on-demand pricing, Data Transfer: out to the internet, $0.09 per GB for the first 10 TB a month (US "
    "East)", _AWS_EC2_PRICING_URL, label="AWS data transfer out to the internet, per GB")
# the rest of the tiered internet rate (US East): every GB is billed at the rate of the tier it falls in
AWS_EGRESS_TIER1_BYTES = spec(
    10e12, "B",
    "AWS EC2 on-demand pricing, Data Transfer out to the internet: the first tier is the first 10 TB a month "
    "($0.09 per GB)", _AWS_EC2_PRICING_URL,
    note="the tiers correct a first version that billed every GB at the first tier's rate: 1 PB cost $90k "
    "there, about $54k tier by tier",
    label="AWS internet egress, end of the first tier")
AWS_EGRESS_TIER2_BYTES = spec(
    50e12, "B", "AWS EC2 on-demand pricing, Data Transfer out to the internet: the next 40 TB a month, to 50 TB",
    _AWS_EC2_PRICING_URL, label="AWS internet egress, end of the second tier")
AWS_EGRESS_TIER3_BYTES = spec(
    150e12, "B",
    "AWS EC2 on-demand pricing, Data Transfer out to the internet: the next 100 TB a month, to 150 TB",
    _AWS_EC2_PRICING_URL, label="AWS internet egress, end of the third tier")
AWS_EGRESS_TIER2_USD_PER_GB = spec(
    0.085, "USD/GB",
    "AWS EC2 on-demand pricing, Data Transfer out to the internet (US East): $0.085 per GB for the next 40 TB a "
    "month", _AWS_EC2_PRICING_URL, label="AWS internet egress, 10 to 50 TB a month, per GB")
AWS_EGRESS_TIER3_USD_PER_GB = spec(
    0.07, "USD/GB",
    "AWS EC2 on-demand pricing, Data Transfer out to the internet (US East): $0.07 per GB for the next 100 TB a "
    "month", _AWS_EC2_PRICING_URL, label="AWS internet egress, 50 to 150 TB a month, per GB")
AWS_EGRESS_TIER4_USD_PER_GB = spec(
    0.05, "USD/GB",
    "AWS EC2 on-demand pricing, Data Transfer out to the internet (US East): $0.05 per GB above 150 TB a month",
    _AWS_EC2_PRICING_URL, label="AWS internet egress, above 150 TB a month, per GB")

# Software defects
DEFECT_COST_RATIO_AFTER_DELIVERY = spec(
    100.0, "1",
    "Boehm and Basili 2001, 'Software Defect Reduction Top 10 List', IEEE Computer 34(1), item 1: finding and "
    "fixing a software problem after delivery is often 100 times more expensive than during requirements and "
    "design (about 5:1 for small, non-critical systems)", _BOEHM_BASILI_URL,
    note="handbook/labs/v1_03.md (mem) confirmed; an empirical software figure, not the chapter's 2^(N-1) heuristic",
    label="Cost to fix a software defect after delivery vs during requirements (Boehm and Basili)")
