"""Unit conversions, each named for what it converts: the models compute in SI units, and a page
shows milliseconds, gigabytes, percent or "8K tokens". A value in Y times X_PER_Y is the value in X
(seconds * MS_PER_S are milliseconds; seconds / S_PER_HOUR are hours).

These are definitions, not measurements: they need no citation and do not belong in the
constants registry (whose entries are cited facts) or in a lab's Scenario (whose fields are the
lab's own assumptions).
"""

# time
MS_PER_S = 1e3
US_PER_S = 1e6
S_PER_MS = 1e-3
S_PER_MINUTE = 60.0
S_PER_HOUR = 3600.0
S_PER_DAY = 86400.0

# length and speed
M_PER_KM = 1e3
M_PER_S_PER_MPH = 0.44704  # exact: 1 mile = 1,609.344 m, 1 h = 3,600 s

# bytes (decimal, as storage and network rates are quoted) and power
B_PER_GB = 1e9
B_PER_TB = 1e12
W_PER_KW = 1e3

# counts: plain powers of ten for "5 billion", "1 T parameters", "per 1,000 requests", "EUR 15 M"
THOUSAND = 1e3
MILLION = 1e6
BILLION = 1e9
TRILLION = 1e12
KIBI = 1024  # the K of "8K tokens": context windows are quoted in powers of two

# fractions
PERCENT = 100.0  # percent (or percentage points) per unit fraction
