"""Per-component statistics: how often each flag, card, specialist… was taken and how its takers fared.

Three mistakes are easy here, and this module avoids them.

- **Unequal agents.** Pooled over a greedy/random/greedy table, whatever the random seat takes
  more often looks like a losing component: the figure measures the agent, not the component.
  So takers are compared with non-takers only *within* a stratum of seats played by the same
  agent spec from the same seat (a Mantel-Haenszel design): the difference is the
  Mantel-Haenszel weighted difference of win rates, the evidence the Cochran-Mantel-Haenszel
  test. A stratum where everyone or no one took the component says nothing and weighs nothing.
- **Taking more of everything.** A seat that is doing well builds more, recruits more, buys
  more: each building tile then goes with winning, a 1-prestige tile as much as an 8-prestige
  one, because its takers built more tiles of every kind. So the strata also hold the number of
  components *of the same kind* the seat took (its building tiles, its specialists): a seat
  that built four tiles, the tile in question among them, is compared with seats of the same
  agent and seat that also built four, other ones. The question answered is "given as many
  picks, did picking this one go with winning?", which is what a designer weighs a component
  on; a seat's strength and how many chances it had are matched away with the count.
- **Many components at once.** With dozens tested, some look telling by chance alone; a component
  is called *strong* or *weak* only when its Benjamini-Hochberg adjusted p-value (q) is below the
  false discovery rate asked for (5% unless told otherwise).

What it cannot tell: whether a component is worth its price in the game's terms (a cheap tile
worth little and a dear one worth much are compared pick for pick), nor anything about players
who choose differently from the agents that played: a component greedy bots never take cannot be
judged. Picks of a component never offered to a seat are counted as passes; a game that offers
some components only sometimes dilutes their differences (towards 0, never away from it).
A component is a game feature named `kind: name` ("flag: sun", "specialist: monk"), taken when
the seat's count is above zero; the generic move kinds ("move: …") are not components.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour.arena.extras import MOVE_PREFIX
from parlour.arena.stats import Z95, Rate

FDR = 0.05
"""The false discovery rate below which a component is called strong or weak."""
MIN_TAKERS = 5
"""Components taken on fewer seats than this are left out: nothing could be told of them."""

Stratum = tuple[str, int, float]  # (agent spec, seat, components of the kind taken)


@dataclass
class Table:
    """One stratum's 2x2 table: takers and non-takers, winners among each."""

    taker_wins: int = 0
    takers: int = 0
    other_wins: int = 0
    others: int = 0

    @property
    def seats(self) -> int:
        return self.takers + self.others


@dataclass
class Component:
    """One component with how often it was taken and how its takers fared against the others."""

    name: str
    kind: str
    taken: Rate  # seats that took it, out of all seats
    takers: Rate  # wins of the seats that took it
    others: Rate  # wins of the seats that did not
    difference: float  # takers' win rate minus the others', matched on agent, seat and picks of its kind
    error: float  # the difference's standard error
    p_value: float  # Cochran-Mantel-Haenszel, two-sided
    q_value: float = 1.0  # Benjamini-Hochberg adjusted over every component of the run
    by_agent: dict[str, Rate] = field(default_factory=dict)  # takers' wins per agent spec
    informative: bool = True  # some agent and seat had both takers and non-takers to compare

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


def is_component(feature: str) -> bool:
    return ": " in feature and not feature.startswith(MOVE_PREFIX)


def components(
    records: Sequence[Mapping[str, Any]], spec_of: Mapping[str, str], minimum: int = MIN_TAKERS
) -> list[Component]:
    """Every component taken on at least `minimum` seats, strongest evidence first.

    `spec_of` maps the agents' display names ("greedy #2") to their specs ("greedy"): seats
    played by equal specs are compared with one another.
    """
    seats = list(_seats(records, spec_of))
    names = sorted({name for _, features, _ in seats for name in features if is_component(name)})
    kinds = [name.partition(": ")[0] for name in names]
    # A kind with one component has no other picks to match on: its count is the component itself.
    matched = {kind for kind in kinds if kinds.count(kind) > 1}
    found = [_component(name, _matched(name, seats, name.partition(": ")[0] in matched)) for name in names]
    found = [component for component in found if component.taken.wins >= minimum]
    for component, q in zip(found, benjamini_hochberg([c.p_value for c in found]), strict=True):
        component.q_value = q
    found.sort(key=lambda c: (c.q_value, -abs(c.difference), c.name))
    return found


Seat = tuple[tuple[str, int], Mapping[str, float], bool]  # (agent spec, seat), its features, won


def _seats(records: Sequence[Mapping[str, Any]], spec_of: Mapping[str, str]) -> Sequence[Seat]:
    rows = []
    for record in records:
        arena, winners = record["arena"], record["winners"]
        for seat, seat_features in enumerate(arena.get("features", [])):
            name = arena["agents"][seat]
            rows.append(((spec_of.get(name, name), seat), seat_features, winners == [seat]))
    return rows


def kind_total(features: Mapping[str, float], kind: str) -> float:
    """How many components of `kind` a seat took (its building tiles, its specialists…)."""
    prefix = kind + ": "
    return sum(value for name, value in features.items() if name.startswith(prefix) and is_component(name))


def _matched(name: str, seats: Sequence[Seat], by_kind: bool) -> list[tuple[Stratum, Mapping[str, float], bool]]:
    """Each seat's stratum for `name`: its agent spec, its seat and (`by_kind`) how many of `name`'s kind it took."""
    kind = name.partition(": ")[0]
    return [
        ((spec, seat, kind_total(features, kind) if by_kind else 0.0), features, won)
        for (spec, seat), features, won in seats
    ]


def _component(name: str, seats: Sequence[tuple[Stratum, Mapping[str, float], bool]]) -> Component:
    tables: dict[Stratum, Table] = {}
    by_agent: dict[str, Rate] = {}
    for stratum, features, won in seats:
        table = tables.setdefault(stratum, Table())
        if features.get(name, 0.0) > 0:
            table.takers += 1
            table.taker_wins += won
            rate = by_agent.setdefault(stratum[0], Rate(0, 0))
            rate.games += 1
            rate.wins += won
        else:
            table.others += 1
            table.other_wins += won
    takers = Rate(sum(t.taker_wins for t in tables.values()), sum(t.takers for t in tables.values()))
    others = Rate(sum(t.other_wins for t in tables.values()), sum(t.others for t in tables.values()))
    difference, error, p_value = mantel_haenszel(list(tables.values()))
    return Component(
        name=name,
        kind=name.partition(": ")[0],
        taken=Rate(takers.games, len(seats)),
        takers=takers,
        others=others,
        difference=difference,
        error=error,
        p_value=p_value,
        by_agent=dict(sorted(by_agent.items())),
        informative=any(table.takers and table.others for table in tables.values()),
    )


def mantel_haenszel(tables: Sequence[Table]) -> tuple[float, float, float]:
    """The Mantel-Haenszel difference of win rates (takers minus others), its standard error and the
    Cochran-Mantel-Haenszel test's p-value.

    The error is that of the strata's differences averaged with the Mantel-Haenszel weights
    (each stratum's binomial variances, the weights taken as fixed). The test statistic has the
    continuity correction (as R's mantelhaen.test by default) and is referred to chi-squared with
    one degree of freedom. Strata with no takers or no non-takers
    carry no information; with none informative the answer is (0, 0, 1).
    """
    weighted, weights, observed, expected, variance, spread = 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    for table in tables:
        n = table.seats
        if table.takers == 0 or table.others == 0 or n < 2:
            continue
        weight = table.takers * table.others / n
        taker_rate, other_rate = table.taker_wins / table.takers, table.other_wins / table.others
        weighted += weight * (taker_rate - other_rate)
        weights += weight
        spread += weight**2 * (
            taker_rate * (1 - taker_rate) / table.takers + other_rate * (1 - other_rate) / table.others
        )
        wins = table.taker_wins + table.other_wins
        observed += table.taker_wins
        expected += table.takers * wins / n
        variance += table.takers * table.others * wins * (n - wins) / (n * n * (n - 1))
    if weights == 0 or variance == 0:
        return 0.0, 0.0, 1.0
    statistic = max(0.0, abs(observed - expected) - 0.5) ** 2 / variance
    return weighted / weights, math.sqrt(spread) / weights, math.erfc(math.sqrt(statistic / 2))


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
