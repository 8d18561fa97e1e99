"""The tournament report: one self-contained HTML file with tables and matplotlib plots.

A report shows one tournament, or several side by side (`parlour compare`: the same agents and
seeds under different rule variants or options). Plots are drawn off-screen and embedded as
base64 PNGs so the file can be mailed or archived on its own.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Sequence
from typing import Any

from parlour.arena.extras import MOVE_PREFIX, question
from parlour.arena.stats import Feature, Rate, Summary, mean, spread

SECTIONS = ("summary", "seats", "agent-seats", "scores", "lengths", "extras")
STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #f2f2f2; }
section { margin-bottom: 2.5em; }
.note { color: #555; font-size: 0.9em; }
img { max-width: 100%; }
"""
Labelled = Sequence[tuple[str, Summary]]


def _png(figure: Any) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    encoded = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f'<img alt="plot" src="data:image/png;base64,{encoded}">'


def _figure(width: float = 7.0, height: float = 3.6) -> Any:
    # The Figure API draws without pyplot's global state, so no display is ever needed.
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height))


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    head = "".join(f"<th>{html.escape(str(cell))}</th>" for cell in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(cell))}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _pct(rate: Rate) -> str:
    low, high = rate.interval
    return f"{100 * rate.rate:.1f}% [{100 * low:.1f}–{100 * high:.1f}]"


def _num(value: float) -> str:
    return f"{value:.2f}"


def _variant_column(labelled: Labelled) -> bool:
    return len(labelled) > 1


def summary_section(labelled: Labelled) -> str:
    header = ["agent", "games", "wins", "draws", "win rate [95% CI]", "mean score", "spread", "mean rank", "rating"]
    rows = []
    for label, summary in labelled:
        for agent in summary.agents:
            row = [agent.name, agent.record.games, agent.record.wins, agent.draws, _pct(agent.record)]
            row += [_num(mean(agent.scores)), _num(spread(agent.scores)), _num(agent.mean_rank)]
            row.append(f"{agent.rating:.1f} (μ {agent.rating_mu:.1f}, σ {agent.rating_sigma:.1f})")
            rows.append([label, *row] if _variant_column(labelled) else row)
    full = ["variant", *header] if _variant_column(labelled) else header
    note = (
        '<p class="note">Win: the only winner of a game; a shared win counts as a draw. Intervals are 95% Wilson'
        " score intervals. Rating: openskill (Plackett-Luce) ordinal μ − 3σ after rating the games in order;"
        " spread is the sample standard deviation of the score.</p>"
    )
    return _section("summary", "Summary per agent", _table(full, rows) + note)


def seats_section(labelled: Labelled) -> str:
    rows, figure = [], _figure()
    axes = figure.add_subplot()
    width = 0.8 / len(labelled)
    for offset, (label, summary) in enumerate(labelled):
        for seat in summary.seats:
            row = [f"seat {seat.seat + 1}", seat.record.games, seat.record.wins, seat.draws, _pct(seat.record)]
            rows.append([label, *row] if _variant_column(labelled) else row)
        positions = [seat.seat + offset * width for seat in summary.seats]
        rates = [seat.record.rate for seat in summary.seats]
        errors = [
            [rate - seat.record.interval[0] for rate, seat in zip(rates, summary.seats, strict=True)],
            [seat.record.interval[1] - rate for rate, seat in zip(rates, summary.seats, strict=True)],
        ]
        axes.bar(positions, rates, width, yerr=errors, capsize=4, label=label)
    players = len(labelled[0][1].seats)
    axes.axhline(1 / players, color="grey", linestyle="--", linewidth=1, label="fair share")
    axes.set_xticks([s + 0.4 - width / 2 for s in range(players)], [f"seat {s + 1}" for s in range(players)])
    axes.set_ylabel("win rate")
    axes.legend(fontsize="small")
    header = ["seat", "games", "wins", "draws", "win rate [95% CI]"]
    full = ["variant", *header] if _variant_column(labelled) else header
    note = (
        '<p class="note">Seat 1 moves first. The games go through every seating order, so each agent plays'
        " every seat and sits right after every other agent equally often.</p>"
    )
    return _section("seats", "Win rate by seat", _table(full, rows) + _png(figure) + note)


def agent_seats_section(labelled: Labelled) -> str:
    parts = []
    for label, summary in labelled:
        players = len(summary.seats)
        header = ["agent", *[f"seat {s + 1}" for s in range(players)]]
        rows = [[agent.name, *[_pct(rate) for rate in agent.by_seat]] for agent in summary.agents]
        title = f"<h3>{html.escape(label)}</h3>" if _variant_column(labelled) else ""
        parts.append(title + _table(header, rows))
    return _section("agent-seats", "Win rate by agent and seat", "".join(parts))


def scores_section(labelled: Labelled) -> str:
    parts = []
    for label, summary in labelled:
        figure = _figure()
        axes = figure.add_subplot()
        everything = [score for agent in summary.agents for score in agent.scores]
        bins = _bins(everything)
        for agent in summary.agents:
            axes.hist(agent.scores, bins=bins, alpha=0.55, label=agent.name)
        axes.set_xlabel("final score")
        axes.set_ylabel("games")
        axes.legend(fontsize="small")
        title = f"<h3>{html.escape(label)}</h3>" if _variant_column(labelled) else ""
        parts.append(title + _png(figure) + _breakdown_table(summary))
    return _section("scores", "Score distributions", "".join(parts))


def _breakdown_table(summary: Summary) -> str:
    columns: list[str] = []
    for agent in summary.agents:
        columns.extend(part for part in agent.breakdown if part not in columns)
    if not columns:
        return ""
    rows = [[agent.name, *[_num(agent.breakdown.get(part, 0.0)) for part in columns]] for agent in summary.agents]
    return '<p class="note">Mean score breakdown per game:</p>' + _table(["agent", *columns], rows)


def _bins(values: Sequence[float]) -> Any:
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    if all(float(v).is_integer() for v in values) and high - low <= 60:
        return [low - 0.5 + step for step in range(int(high - low) + 2)]
    return 20


def lengths_section(labelled: Labelled) -> str:
    figure = _figure()
    axes = figure.add_subplot()
    rows = []
    for label, summary in labelled:
        lengths = [float(n) for n in summary.lengths]
        axes.hist(lengths, bins=_bins(lengths) if len(labelled) == 1 else 20, alpha=0.6, label=label)
        row = [len(lengths), _num(mean(lengths)), _num(spread(lengths))]
        row += [min(summary.lengths, default=0), max(summary.lengths, default=0)]
        rows.append([label, *row] if _variant_column(labelled) else row)
    axes.set_xlabel("moves per game (every decision, set-up included)")
    axes.set_ylabel("games")
    header = ["games", "mean", "spread", "shortest", "longest"]
    if _variant_column(labelled):
        axes.legend(fontsize="small")
        header.insert(0, "variant")
    table = _table(header, rows)
    return _section("lengths", "Game length", _png(figure) + table)


def extras_section(labelled: Labelled) -> str:
    parts = []
    for label, summary in labelled:
        title = f"<h3>{html.escape(label)}</h3>" if _variant_column(labelled) else ""
        # The game's own features answer its question; the kinds of move come after, in brief.
        own = [feature for feature in summary.features if not feature.name.startswith(MOVE_PREFIX)]
        moves = [feature for feature in summary.features if feature.name.startswith(MOVE_PREFIX)]
        tables = (_features_table(own[:25]) + "<h4>Kinds of move</h4>") if own else ""
        parts.append(title + tables + _features_table(moves[:12]))
    intro = (
        '<p class="note">For each feature of a seat\'s game: its mean among the winners and among the others,'
        " and the win rate of seats that had it against those that did not (95% Wilson intervals). Sorted by"
        " Welch's t of the two means (|t| above 2: unlikely to be chance alone); the strongest are shown and"
        " features seen on fewer than 5 seats are left out. With unequal agents, read it for the stronger"
        " agent's habits as much as for the game's.</p>"
    )
    game = labelled[0][1].game
    return _section("extras", question(game), intro + "".join(parts))


def _features_table(features: Sequence[Feature]) -> str:
    if not features:
        return "<p>No feature was seen often enough to say anything.</p>"
    header = ["feature", "mean (winners)", "mean (others)", "t", "win rate with it", "win rate without it"]
    rows = []
    for feature in features:
        without = _pct(feature.without_it) if feature.without_it.games else "—"
        means = [_num(feature.mean_winners), _num(feature.mean_others), f"{feature.evidence:+.1f}"]
        rows.append([feature.name, *means, _pct(feature.with_it), without])
    return _table(header, rows)


def _section(anchor: str, title: str, body: str) -> str:
    return f'<section id="{anchor}"><h2>{html.escape(title)}</h2>{body}</section>'


def render(title: str, facts: Sequence[tuple[str, str]], labelled: Labelled) -> str:
    """The whole report. `facts` are the lines of the header (game, options, agents, seed…)."""
    header = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in facts)
    if not any(summary.games for _, summary in labelled):
        body = "<p>No game has been played yet.</p>"
    else:
        body = "".join(
            section(labelled)
            for section in (
                summary_section,
                seats_section,
                agent_seats_section,
                scores_section,
                lengths_section,
                extras_section,
            )
        )
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f"<style>{STYLE}</style></head><body><h1>{html.escape(title)}</h1><table>{header}</table>{body}</body></html>\n"
    )
