"""What V1-15 says about the law, worded as its sources word it: the US statute on employment
tests (42 U.S.C. §2000e–2(l) and (k)(1)(A); law.cornell.edu/uscode/text/42/2000e-2), the Uniform
Guidelines (29 CFR 1607.3(A)-(B), 1607.4(D)), the lab's reading where the statute is not explicit,
and which checks are the team's policy. A teaching model, not legal advice."""

from __future__ import annotations

from pylabs.framework import callout, prose

STATUTE = ("to adjust the scores of, use different cutoff scores for, or otherwise alter the results of, "
           "employment related tests on the basis of race, color, religion, sex, or national origin")
# The statute predates machine-learned scores and does not name them: what the lab's legal check rests on is its
# reading, said as one (law worded as the source words it, a reading said to be one).
READING = (
    "The statute does not name machine-learned or calibrated scores. A score calibrated within each group adds the "
    "group's base rate to every applicant's test score (the logit p_g term), close to the within-group score "
    "conversion (\"race-norming\") that this 1991 provision outlawed, and on the test's own scale its one "
    "probability cutoff is two cutoffs. This lab reads such a score as adjusting scores and using different cutoff "
    "scores on the basis of the group, so its legal check asks for one cutoff on the test for both groups. That is "
    "the lab's reading, not a court's or the EEOC's; the calibrated policy also fails the team's equalized-odds "
    "check at every t on the slider.")


def law_and_policy():
    """Which checks are law, which federal guidelines and which the team's policy, as the sources word them."""
    return callout("info", "Law and policy on this page (a teaching model, not legal advice)", prose(
        f"**US law.** 42 U.S.C. §2000e–2(l) makes it an unlawful employment practice, in selecting or referring "
        f"applicants, \"{STATUTE}\". A practice shown to cause a disparate impact is an unlawful employment "
        "practice if the employer fails to show that it is \"job related for the position in question and "
        "consistent with business necessity\" (§2000e–2(k)(1)(A)(i)), or if the complaining party shows an "
        "alternative employment practice that the employer refuses to adopt ((k)(1)(A)(ii)).",
        f"**This lab's reading.** {READING}",
        "**US federal guidelines.** Under the Uniform Guidelines, a selection rate under four-fifths of the highest "
        "group's \"will generally be regarded by the Federal enforcement agencies as evidence of adverse impact\" "
        "(29 CFR 1607.4(D)); a procedure with adverse impact is considered discriminatory unless it has been "
        "validated or section 6 of the Guidelines is satisfied (1607.3(A)), and the validity study should look "
        "for alternatives with less adverse impact (1607.3(B)). The four-fifths ratio is a screen, not a "
        "definition of fairness: smaller differences \"may nevertheless constitute adverse impact, where they are "
        "significant in both statistical and practical terms\" (1607.4(D)); this lab's check uses the screen alone.",
        "**The team's policy.** The recall floor, the equalized-odds tolerance, the audit budget and the audits "
        "themselves are the team's choices, not the law's; the audit prices are this story's assumptions."))
