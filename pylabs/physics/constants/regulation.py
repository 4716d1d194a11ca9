"""The law the fairness and privacy labs check against: US hiring screens, the EU AI Act, HIPAA."""

from pylabs.physics.constants.registry import spec

_UGESP_URL = "https://www.law.cornell.edu/cfr/text/29/1607.4"
_EU_AI_ACT_URL = "https://eur-lex.europa.eu/eli/reg/2024/1689/oj"

# Fairness
UGESP_FOUR_FIFTHS = spec(
    0.8, "1",
    "US Uniform Guidelines on Employee Selection Procedures, 29 CFR 1607.4(D): a selection rate below four-fifths "
    "of the highest group's rate is generally regarded as evidence of adverse impact", _UGESP_URL,
    note="a selection-rate (demographic-parity-type) screen, not equalized odds; the upstream lab confused the two",
    label="US four-fifths rule (impact ratio screen)")

# EU AI Act fines
EU_AI_ACT_FINE_HIGH_RISK_EUR = spec(
    15e6, "EUR",
    "Regulation (EU) 2024/1689 (AI Act), Art. 99(4): up to EUR 15 M or 3 % of worldwide annual turnover, whichever "
    "is higher, for breaches of operators' obligations such as high-risk requirements", _EU_AI_ACT_URL,
    note="the upstream lab said 6 %", label="EU AI Act fine ceiling, operator obligations (fixed amount)")
EU_AI_ACT_FINE_HIGH_RISK_TURNOVER = spec(
    0.03, "1", "Regulation (EU) 2024/1689 (AI Act), Art. 99(4): 3 % of total worldwide annual turnover",
    _EU_AI_ACT_URL, label="EU AI Act fine ceiling, operator obligations (share of turnover)")
EU_AI_ACT_FINE_PROHIBITED_EUR = spec(
    35e6, "EUR",
    "Regulation (EU) 2024/1689 (AI Act), Art. 99(3): up to EUR 35 M for prohibited practices (Art. 5)",
    _EU_AI_ACT_URL, label="EU AI Act fine ceiling, prohibited practices (fixed amount)")
EU_AI_ACT_FINE_PROHIBITED_TURNOVER = spec(
    0.07, "1", "Regulation (EU) 2024/1689 (AI Act), Art. 99(3): 7 % of total worldwide annual turnover",
    _EU_AI_ACT_URL, label="EU AI Act fine ceiling, prohibited practices (share of turnover)")

# Health privacy
HIPAA_SAFE_HARBOR_IDENTIFIERS = spec(
    18.0, "1", "45 CFR 164.514(b)(2)(i) (HIPAA Privacy Rule, de-identification: the Safe Harbor method)",
    "https://www.ecfr.gov/current/title-45/subtitle-A/subchapter-C/part-164/subpart-E/section-164.514",
    note="Safe Harbor removes 18 kinds of identifiers; the alternative, 164.514(b)(1), is Expert Determination "
    "that re-identification risk is very small. Neither names a differential-privacy ε")
