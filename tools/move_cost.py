"""Python's share of a slider move in every lab, measured in CPython:
    .venv/bin/python -m tools.move_cost [--lab ID ...] [--top 15]

`make bench` times one slider per lab in the browser, moved between two neighbouring values (after
the first two moves every answer is in the labs' caches). A student drags to values never seen, so
this times ``pylabs.bridge.update`` for every slider of every lab, with every question locked (every
act open), at eight positions across its range that no earlier move visited, after one whole render.
Python in the browser (Pyodide, in the worker) runs this code 2.5 to 4 times slower than CPython.

Machines here differ up to 3x from day to day, so beside the milliseconds each row gives the ratio
to a floor measured in the same run: sorting 20,000 seeded random numbers (the median of 21).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from pylabs import bridge
from pylabs.framework.controls import Slider
from pylabs.labs import all_labs

LOCKED_AT = "2026-01-01T00:00:00Z"


def floor_ms() -> float:
    """The same run's yardstick: sorting 20,000 seeded random numbers."""
    draw = random.Random(1).random
    numbers = [draw() for _ in range(20_000)]
    times = []
    for _ in range(21):
        start = time.perf_counter()
        sorted(numbers)
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def slider_moves(lab) -> list[tuple[str, list[float]]]:
    """Each slider's eight moves (ms), from a state with every question locked."""
    answers = {q.id: {"choice": q.answer(), "locked_at": LOCKED_AT} for q in lab.questions}
    bridge.update(lab.id, json.dumps({"answers": answers, "controls": {}}), None, True)
    moves = []
    for slider in (c for c in lab.controls if isinstance(c, Slider)):
        times = []
        for fraction in bridge.WARM_AT:  # the places bridge.warm visits
            state = json.dumps({"answers": answers, "controls": {slider.name: slider.at(fraction)}})
            start = time.perf_counter()
            bridge.update(lab.id, state, slider.name)
            times.append((time.perf_counter() - start) * 1e3)
        moves.append((slider.name, times))
    return moves


def report(lab_ids: list[str] | None = None, top: int = 15) -> None:
    """Print the slowest sliders (median and slowest of their eight moves) and a summary."""
    floor = floor_ms()
    rows = []
    for lab in all_labs():
        if not lab_ids or lab.id in lab_ids:
            rows += [(statistics.median(t), max(t), lab.id, name) for name, t in slider_moves(lab)]
    rows.sort(reverse=True)
    print(f"Python's share of a slider move, CPython (Pyodide 2.5-4x slower): {len(rows)} sliders, 8 new "
          f"positions each. Floor: sorting 20,000 numbers took {floor:.2f} ms.")
    print(f"{'lab':6} {'slider':26} {'p50 ms':>7} {'max ms':>7} {'p50/floor':>9}")
    for median, most, lab_id, name in rows[:top]:
        print(f"{lab_id:6} {name:26} {median:7.2f} {most:7.2f} {median / floor:9.2f}")
    medians = [row[0] for row in rows]
    print(f"All sliders: p50 of the medians {statistics.median(medians):.2f} ms; "
          f"{sum(m > 3.2 for m in medians)} over 3.2 ms (about 8 ms in Pyodide).")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lab", action="append", help="only this lab id (repeatable; default: all)")
    parser.add_argument("--top", type=int, default=15, help="how many of the slowest sliders to list")
    args = parser.parse_args()
    report(args.lab, args.top)


if __name__ == "__main__":
    main()
