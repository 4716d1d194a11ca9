"""What V2-16 says about the law, worded as its sources word it: the US statute on employment tests,
the Uniform Guidelines' four-fifths rule, the EU AI Act and the EU race-equality directive, and which
of the lab's launch checks are the company's policy instead. A teaching model, not legal advice.

Sources, checked against their text: 42 U.S.C. §2000e–2(l) and (k)(1)(A) (Civil Rights Act of 1991 §§105-106,
105 Stat. 1074-1075; law.cornell.edu/uscode/text/42/2000e-2); 29 CFR 1607.3(A)-(B) and 1607.4(D)
(GPO, law.cornell.edu/cfr/text/29/1607.3 and 1607.4); Regulation (EU) 2024/1689 Art. 10(2)(f)-(g),
Art. 99(4) and Annex III 4(a); Council Directive 2000/43/EC Arts. 2(2) and 5 (OJ L 180, 19.7.2000)."""

from __future__ import annotations

from pylabs.framework import callout, fmt, prose
from pylabs.physics import constants as C
from pylabs.physics import units as U

STATUTE = ("to adjust the scores of, use different cutoff scores for, or otherwise alter the results of, "
           "employment related tests on the basis of race, color, religion, sex, or national origin")


def group_cutoff_law(markets: set[str]) -> list[str]:
    """What the law says of cut-offs that differ by group, in the markets where they do."""
    said = []
    if "US" in markets:
        said.append(f"US law: 42 U.S.C. §2000e–2(l) makes it an unlawful employment practice, in selecting or "
                    f"referring applicants for employment, {STATUTE}.")
    if "EU" in markets:
        said.append("EU: where the groups differ in racial or ethnic origin, treating one person less favourably "
                    "than another in a comparable situation on those grounds is direct discrimination (Directive "
                    "2000/43/EC, Art. 2(2)(a)); Art. 5 lets member states keep or adopt specific measures to "
                    "prevent or compensate for disadvantages linked to that origin (positive action).")
    return said


def law_and_policy():
    """Which statements on this page are law and which are the company's policy, as the sources word them."""
    fine = (f"€{fmt(C.EU_AI_ACT_FINE_HIGH_RISK_EUR / U.MILLION, 'num')} M or "
            f"{fmt(C.EU_AI_ACT_FINE_HIGH_RISK_TURNOVER, 'pct')} of worldwide annual turnover")
    return callout("info", "Law and policy on this page (a teaching model, not legal advice)", prose(
        f"**US law.** 42 U.S.C. §2000e–2(l): it is an unlawful employment practice {STATUTE}. A practice shown "
        "to cause a disparate impact is an unlawful employment practice if the employer fails to show that it is "
        "\"job related for the position in question and consistent with business necessity\" "
        "(§2000e–2(k)(1)(A)(i)), or if the complaining party shows an alternative employment practice that the "
        "employer refuses to adopt ((k)(1)(A)(ii)).",
        "**US guideline.** The four-fifths rule (29 CFR 1607.4(D)) is a rule of thumb: a lower ratio \"will "
        "generally be regarded by the Federal enforcement agencies as evidence of adverse impact\", and smaller "
        "differences \"may nevertheless constitute adverse impact, where they are significant in both statistical "
        "and practical terms\". A procedure with adverse impact is considered discriminatory under the Guidelines "
        "unless it has been validated or meets their section 6 (1607.3(A)), and among substantially equally valid "
        "procedures the user should use the one with the lesser adverse impact (1607.3(B)).",
        "**EU law.** AI systems that filter job applications are high-risk under the AI Act (Annex III, 4(a)); "
        "Art. 10(2)(f)–(g) asks that their training, validation and testing data be examined for possible biases, "
        "with measures to detect, prevent and mitigate them, and names no metric. Art. 99(4) caps fines for "
        f"breaches of these obligations at {fine}, whichever is higher. The race-equality directive also forbids "
        "indirect discrimination: an apparently neutral criterion that puts persons of a racial or ethnic origin at "
        "a particular disadvantage, unless objectively justified by a legitimate aim pursued by appropriate and "
        "necessary means (Directive 2000/43/EC, Art. 2(2)(b)).",
        "**Company policy.** The four-fifths launch check, the error-gap tolerance and the harm budget are the "
        "company's choices, not the law's."))
