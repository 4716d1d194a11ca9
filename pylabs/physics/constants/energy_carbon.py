"""Energy and carbon: facility overhead and the lifecycle emissions of electricity sources."""

from pylabs.physics.constants.registry import spec

_IPCC_AR5_ANNEX_III_URL = "https://www.ipcc.ch/site/assets/uploads/2018/02/ipcc_wg3_ar5_annex-iii.pdf"
_IPCC_AR5_SOURCE = ("IPCC AR5 WGIII (2014), Annex III, Table A.III.2: lifecycle emissions of electricity "
                    "supply technologies, median, gCO2eq/kWh")
_G_PER_KWH = 1e-3 / 3.6e6  # one gram per kilowatt-hour, in kg per joule

# Facility overhead
PUE_INDUSTRY_AVG_2023 = spec(
    1.58, "1", "Uptime Institute Global Data Center Survey 2023: industry average PUE",
    "https://intelligence.uptimeinstitute.com/resource/large-data-centers-are-mostly-more-efficient-analysis-confirms",
    note="flat at 1.55-1.59 since about 2020; hyperscalers report about 1.1",
    label="Data-centre PUE, industry average (2023)")

# Lifecycle carbon per unit of electricity
IPCC_LIFECYCLE_COAL = spec(
    820 * _G_PER_KWH, "kg/J", _IPCC_AR5_SOURCE + " (coal, pulverised: 820)", _IPCC_AR5_ANNEX_III_URL,
    note="a generation figure, not a grid average", label="Lifecycle carbon, coal (820 g/kWh)")
IPCC_LIFECYCLE_GAS = spec(
    490 * _G_PER_KWH, "kg/J", _IPCC_AR5_SOURCE + " (gas, combined cycle: 490)", _IPCC_AR5_ANNEX_III_URL,
    label="Lifecycle carbon, gas (490 g/kWh)")
IPCC_LIFECYCLE_SOLAR_PV = spec(
    48 * _G_PER_KWH, "kg/J", _IPCC_AR5_SOURCE + " (solar PV, utility: 48; rooftop 41)", _IPCC_AR5_ANNEX_III_URL,
    label="Lifecycle carbon, utility solar PV (48 g/kWh)")
IPCC_LIFECYCLE_HYDRO = spec(
    24 * _G_PER_KWH, "kg/J", _IPCC_AR5_SOURCE + " (hydropower: 24)", _IPCC_AR5_ANNEX_III_URL,
    label="Lifecycle carbon, hydropower (24 g/kWh)")
IPCC_LIFECYCLE_NUCLEAR = spec(
    12 * _G_PER_KWH, "kg/J", _IPCC_AR5_SOURCE + " (nuclear: 12)", _IPCC_AR5_ANNEX_III_URL,
    label="Lifecycle carbon, nuclear (12 g/kWh)")
IPCC_LIFECYCLE_WIND = spec(
    11 * _G_PER_KWH, "kg/J", _IPCC_AR5_SOURCE + " (wind onshore: 11; offshore 12)", _IPCC_AR5_ANNEX_III_URL,
    label="Lifecycle carbon, onshore wind (11 g/kWh)")
