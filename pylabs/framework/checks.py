"""A capstone's checks: named requirements a design passes or fails (V1-16's fleet, V2-17's
platform). Each check has a title, a failure state the page shows while it fails (with the lever
that moves it), a tone for its metric, and a place in the verdict that counts them."""

from __future__ import annotations

from collections.abc import Mapping

from .components import FailureSpec, Markup, callout, failure, prose


class Checks:
    """The checks of one act, keyed as the model's ``checks()`` keys them; failure ``a{act}_{key}``
    is titled "Check failed: <title>"."""

    def __init__(self, titles: Mapping[str, str], act: int, witnesses: Mapping[str, Mapping] | None = None):
        """``witnesses``: per key, the ``reach``/``leave``/``contexts`` of its FailureSpec."""
        self.titles = dict(titles)
        witnesses = witnesses or {}
        self.failures = tuple(FailureSpec(f"a{act}_{key}", f"Check failed: {title}", act=act, **witnesses.get(key, {}))
                              for key, title in self.titles.items())
        self._by_key = dict(zip(self.titles, self.failures))

    @staticmethod
    def tones(ok: Mapping[str, bool]) -> dict[str, str]:
        """Each check's metric tone: good while it passes, danger while it fails."""
        return {key: "good" if passed else "danger" for key, passed in ok.items()}

    @staticmethod
    def verdict(ok: Mapping[str, bool], feasible_title: str, feasible_text: str, failing_text: str) -> Markup:
        """The callout that says whether every check passes, and how many do when not."""
        feasible = all(ok.values())
        title = feasible_title if feasible else f"{sum(ok.values())} of {len(ok)} checks pass"
        return callout("success" if feasible else "info", title, prose(feasible_text if feasible else failing_text))

    def failing(self, ok: Mapping[str, bool], levers: Mapping[str, str]) -> list[Markup]:
        """The failure callout of every check that fails, in the checks' order, each naming its lever."""
        return [failure(self._by_key[key], levers[key]) for key, passed in ok.items() if not passed]
