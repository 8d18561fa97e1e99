"""Per-component statistics: when a component was offered, did taking it rather than passing it go with winning?

A component (a flag, a specialist, a building tile…) is judged only at the decisions it was
*offered* at (`parlour.arena.offers`: one of the seat's legal moves would have taken it). Its takers
are compared with the seats that were offered it in the same context and passed it, never with
seats that could not have taken it. Four mistakes are easy here, and this module avoids them.

- **Availability.** Counted over every seat, a component that only comes up late, or only to a
  seat that can afford it, goes with whatever those seats have in common. Compared among the seats
  it was offered to, each passer had the chance to take it.
- **The seat's strength and the moment.** A seat doing well can afford more and takes more, so
  every component it takes goes with winning, a 1-prestige tile as much as an 8-prestige one.
  So takers and passers are compared only *within* strata of the decision's context, fixed before
  the seat chose: the agent spec, the seat, the part of the game (first, second or last third of
  its moves) and the seat's standing then (behind, level or ahead on total score). A seat offered
  a component in several contexts counts once in each (a pass early, a take late). Pooled over the
  strata with the Mantel-Haenszel weights, the difference answers "offered it in the same position,
  did the seats that took it win more often than those that passed it?".
- **Two seats of one game.** When one seat takes a tile the other passed, one of them wins: their
  outcomes are not independent (nor are one seat's several contexts), and a test that treats them
  so is too sure of itself. The difference's variance is summed by game (a cluster-robust,
  "sandwich" variance), and never taken below the variance the strata would have with no
  difference at all.
- **Many components at once.** With dozens tested, some look telling by chance alone; a component
  is called *strong* or *weak* only when its Benjamini-Hochberg adjusted p-value (q) is below the
  false discovery rate asked for (5% unless told otherwise).

What it cannot tell: the price of a component is not a covariate of its own. A passer spent the
same decision on something else, so the comparison is "taking it against the seat's other choices
there", which prices it in the game's terms, not in coins. It tells nothing about players who
choose differently from the agents that played: a component the agents take whenever it is offered
has no passers, and one they never take has no takers, and neither can be judged; against random
agents a pass is a random move, so any useful component looks strong. It is an association matched
on the context, not an experiment: what the strata do not hold (a seat's hand, its plans) can still
differ between takers and passers.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour.arena.offers import is_component
from parlour.arena.stats import Z95, Rate

FDR = 0.05
"""The false discovery rate below which a component is called strong or weak."""
MIN_TAKERS = 5
"""Components taken on fewer seats than this are left out: nothing could be told of them."""
Stratum = tuple[str, int, int, int]  # (agent spec, seat, part of the game, standing: -1 behind, 0 level, 1 ahead)


@dataclass(frozen=True)
class Seat:
    """A seat offered a component in one context: its game, its stratum, whether it took it there and whether it won."""

    game: int
    stratum: Stratum
    took: bool
    won: bool


@dataclass
class Component:
    """One component with how often it was offered and taken, and how its takers fared against its passers."""

    name: str
    kind: str
    offered: Rate  # seats it was offered to, out of all seats
    taken: Rate  # seats that took it, out of the seats it was offered to
    takers: Rate  # wins of the seats that took it
    others: Rate  # wins of the seats that were offered it and never took it
    difference: float  # takers' win rate minus the passers', matched on the context of the first offer
    error: float  # the difference's standard error (clustered by game)
    p_value: float  # two-sided, normal
    q_value: float = 1.0  # Benjamini-Hochberg adjusted over every component of the run
    by_agent: dict[str, Rate] = field(default_factory=dict)  # takers' wins per agent spec
    informative: bool = True  # some stratum had both takers and passers to compare

    @property
    def interval(self) -> tuple[float, float]:
        """The difference's 95% normal interval."""
        return self.difference - Z95 * self.error, self.difference + Z95 * self.error

    def verdict(self, fdr: float = FDR) -> str:
        """ "strong" or "weak" when the difference survives the false discovery rate, else ""."""
        if self.q_value >= fdr or self.difference == 0:
            return ""
        return "strong" if self.difference > 0 else "weak"

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "offered": self.offered.to_json(),
            "taken": self.taken.to_json(),
            "takers": self.takers.to_json(),
            "others": self.others.to_json(),
            "difference": self.difference,
            "difference_low": self.interval[0],
            "difference_high": self.interval[1],
            "p": self.p_value,
            "q": self.q_value,
            "verdict": self.verdict(),
            "takers_by_agent": {spec: rate.to_json() for spec, rate in self.by_agent.items()},
        }


def components(
    records: Sequence[Mapping[str, Any]], spec_of: Mapping[str, str], minimum: int = MIN_TAKERS
) -> list[Component]:
    """Every component taken on at least `minimum` seats, strongest evidence first.

    `spec_of` maps the agents' display names ("greedy #2") to their specs ("greedy"): only seats
    played by equal specs are compared. Games whose records carry no offers (written before the
    arena noted them) are left out.
    """
    offered = [record for record in records if "offers" in record["arena"]]
    all_seats = sum(len(record["arena"]["agents"]) for record in offered)
    cells = offered_cells(offered, spec_of)
    found = [_component(name, cells[name], all_seats) for name in sorted(cells)]
    found = [component for component in found if component.taken.wins >= minimum]
    for component, q in zip(found, benjamini_hochberg([c.p_value for c in found]), strict=True):
        component.q_value = q
    found.sort(key=lambda c: (c.q_value, -abs(c.difference), c.name))
    return found


def offered_cells(records: Sequence[Mapping[str, Any]], spec_of: Mapping[str, str]) -> dict[str, list[Seat]]:
    """Per component, every seat it was offered to, once per context it was offered in, with whether the
    seat took it there and whether it won."""
    cells: dict[str, list[Seat]] = {}
    for game, record in enumerate(records):
        arena, winners = record["arena"], record["winners"]
        for seat, offered in enumerate(arena["offers"]):
            agent = arena["agents"][seat]
            for name, contexts in offered.items():
                if not is_component(name):
                    continue
                for cell, took in contexts.items():
                    phase, standing = (int(part) for part in cell.split())
                    stratum = (spec_of.get(agent, agent), seat, phase, standing)
                    cells.setdefault(name, []).append(Seat(game, stratum, bool(took), winners == [seat]))
    return cells


def _component(name: str, cells: Sequence[Seat], all_seats: int) -> Component:
    # The figures a person reads are per seat (a seat took it if it took it anywhere); the test is per cell.
    took: dict[tuple[int, int, str], bool] = {}
    won: dict[tuple[int, int, str], bool] = {}
    for cell in cells:
        key = (cell.game, cell.stratum[1], cell.stratum[0])
        took[key] = took.get(key, False) or cell.took
        won[key] = cell.won
    by_agent: dict[str, Rate] = {}
    for key, taken in took.items():
        if taken:
            rate = by_agent.setdefault(key[2], Rate(0, 0))
            rate.games += 1
            rate.wins += won[key]
    takers = [key for key, taken in took.items() if taken]
    passers = [key for key, taken in took.items() if not taken]
    difference, error, p_value, informative = matched(cells)
    return Component(
        name=name,
        kind=name.partition(": ")[0],
        offered=Rate(len(took), all_seats),
        taken=Rate(len(takers), len(took)),
        takers=Rate(sum(won[key] for key in takers), len(takers)),
        others=Rate(sum(won[key] for key in passers), len(passers)),
        difference=difference,
        error=error,
        p_value=p_value,
        by_agent=dict(sorted(by_agent.items())),
        informative=informative,
    )


def matched(seats: Sequence[Seat]) -> tuple[float, float, float, bool]:
    """The Mantel-Haenszel difference of win rates (takers minus passers) over the seats' strata, its
    standard error, its two-sided p-value and whether any stratum had both takers and passers.

    Stratum k with n1 takers and n0 passers weighs w = n1 n0 / (n1 + n0); the difference is
    sum(w (rate1 - rate0)) / sum(w). Its variance is the larger of two: the cluster-robust one,
    each game's seats' deviations from their arm's rate in their stratum summed before squaring
    (with the G / (G - 1) small-sample factor), and the one the strata would give with no
    difference (each stratum's pooled rate in both arms, as the Cochran-Mantel-Haenszel test
    assumes). The first holds when one game's seats are tied together (one wins, so the others do
    not); the second keeps a small stratum that happens to agree perfectly from looking certain.
    A stratum with no takers or no passers carries no information; with none, the answer is
    (0, 0, 1, False).
    """
    strata: dict[Stratum, list[Seat]] = {}
    for seat in seats:
        strata.setdefault(seat.stratum, []).append(seat)
    total_weight, weighted, null_variance = 0.0, 0.0, 0.0
    influence: dict[int, float] = {}
    parts = []
    for members in strata.values():
        takers = [seat for seat in members if seat.took]
        passers = [seat for seat in members if not seat.took]
        if not takers or not passers:
            continue
        n1, n0 = len(takers), len(passers)
        weight = n1 * n0 / (n1 + n0)
        rate1, rate0 = sum(s.won for s in takers) / n1, sum(s.won for s in passers) / n0
        pooled = (rate1 * n1 + rate0 * n0) / (n1 + n0)
        total_weight += weight
        weighted += weight * (rate1 - rate0)
        null_variance += weight**2 * pooled * (1 - pooled) * (1 / n1 + 1 / n0)
        parts.append((weight, takers, rate1, passers, rate0))
    if total_weight == 0:
        return 0.0, 0.0, 1.0, False
    for weight, takers, rate1, passers, rate0 in parts:
        for seat in takers:
            influence[seat.game] = influence.get(seat.game, 0.0) + weight * (seat.won - rate1) / len(takers)
        for seat in passers:
            influence[seat.game] = influence.get(seat.game, 0.0) - weight * (seat.won - rate0) / len(passers)
    games = len(influence)
    clustered = sum(value**2 for value in influence.values()) * (games / (games - 1) if games > 1 else 1.0)
    error = math.sqrt(max(clustered, null_variance)) / total_weight
    difference = weighted / total_weight
    if error == 0:
        return difference, 0.0, 1.0, True
    return difference, error, math.erfc(abs(difference) / error / math.sqrt(2)), True


def benjamini_hochberg(p_values: Sequence[float]) -> list[float]:
    """Benjamini-Hochberg adjusted p-values (q-values), in the order given.

    q of the i-th smallest of m p-values is min over j >= i of p_(j) * m / j, capped at 1;
    calling every q below α discoveries keeps the expected share of false ones at most α.
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    running = 1.0
    for rank in range(m, 0, -1):
        index = order[rank - 1]
        running = min(running, p_values[index] * m / rank)
        adjusted[index] = min(1.0, running)
    return adjusted
