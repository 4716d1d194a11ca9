"""What V1-15 says about the law, worded as its sources word it: the US statute on employment
tests (42 U.S.C. §2000e–2(l); law.cornell.edu/uscode/text/42/2000e-2), the Uniform Guidelines
(29 CFR 1607.3(A)-(B), 1607.4(D)) and which checks are the team's policy. A teaching model, not
legal advice."""

from __future__ import annotations

from pylabs.framework import callout, prose

STATUTE = ("to adjust the scores of, use different cutoff scores for, or otherwise alter the results of, "
           "employment related tests on the basis of race, color, religion, sex, or national origin")


def law_and_policy():
    """Which checks are law, which federal guidelines and which the team's policy, as the sources word them."""
    return callout("info", "Law and policy on this page (a teaching model, not legal advice)", prose(
        f"**US law.** 42 U.S.C. §2000e–2(l) makes it an unlawful employment practice, in selecting or referring "
        f"applicants, \"{STATUTE}\". On the test's own scale, one probability cutoff on a score calibrated within "
        "each group is two different cutoffs when the groups' base rates differ, so this lab's check asks for one "
        "cutoff on the test for both groups.",
        "**US federal guidelines.** Under the Uniform Guidelines, a selection rate under four-fifths of the highest "
        "group's \"will generally be regarded by the Federal enforcement agencies as evidence of adverse impact\" "
        "(29 CFR 1607.4(D)); a procedure with adverse impact is considered discriminatory unless it has been "
        "validated or section 6 of the Guidelines is satisfied (1607.3(A)), and the validity study should look "
        "for alternatives with less adverse impact (1607.3(B)). The four-fifths ratio is a screen, not a "
        "definition of fairness.",
        "**The team's policy.** The recall floor, the equalized-odds tolerance, the audit budget and the audits "
        "themselves are the team's choices, not the law's; the audit prices are this story's assumptions."))
