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

from parlour.arena.components import FDR, Component
from parlour.arena.extras import MOVE_PREFIX, question
from parlour.arena.metrics import duration
from parlour.arena.paired import Paired
from parlour.arena.stats import Z95, Feature, Rate, Summary, mean, spread

SECTIONS = (
    "overview",
    "paired",
    "summary",
    "seats",
    "agent-seats",
    "scores",
    "lengths",
    "metrics",
    "components",
    "extras",
)
MAX_PLOTTED_COMPONENTS = 24
"""The components drawn in the report's plot (those with the smallest q); the tables list them all."""
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


def metrics_section(labelled: Labelled) -> str:
    """The game's shape: branching, decisions, lead changes, margins, endings, thinking time."""
    measured = [(label, summary.metrics) for label, summary in labelled if summary.metrics is not None]
    if not measured:
        return ""
    players = len(labelled[0][1].seats)
    rows: list[list[str]] = [
        ["games measured", *[str(m.games) for _, m in measured]],
        ["branching factor (legal moves per decision)", *[f"{m.branching:.1f}" for _, m in measured]],
        ["  a game's mean branching [95% CI]", *[m.branching_per_game.text() for _, m in measured]],
        ["  by third of the game (first / middle / last)", *[_thirds(m.branching_by_third) for _, m in measured]],
        ["  widest decision", *[str(m.widest) for _, m in measured]],
        ["  forced decisions (one legal move)", *[f"{100 * m.forced:.1f}%" for _, m in measured]],
        ["decisions per game [95% CI]", *[m.decisions.text() for _, m in measured]],
    ]
    for seat in range(players):
        cells = [f"{m.seat_decisions[seat]:.1f} (branching {m.seat_branching[seat]:.1f})" for _, m in measured]
        rows.append([f"  seat {seat + 1}'s decisions per game", *cells])
    rows.append(["lead changes per game [95% CI]", *[m.lead_changes.text(2) for _, m in measured]])
    rows.append(["  games with a lead change", *[f"{100 * m.games_with_a_lead_change:.0f}%" for _, m in measured]])
    rows.append(["winning margin (winner − runner-up) [95% CI]", *[m.margin.text(2) for _, m in measured]])
    reasons = list(dict.fromkeys(reason for _, m in measured for reason in m.endings))
    for reason in reasons:
        rows.append([f"ended: {reason}", *[_share(m.endings.get(reason, 0), m.games) for _, m in measured]])
    specs = list(dict.fromkeys(spec for _, m in measured for spec in m.seconds_per_move))
    for spec in specs:
        cells = [_milliseconds(m.seconds_per_move.get(spec), m.timed_games) for _, m in measured]
        rows.append([f"time per move: {spec}", *cells])
    note = (
        '<p class="note">Branching: the legal moves a player chose among, averaged over every decision;'
        " decisions count every move a seat made, set-up included. A lead change is a new sole leader on total"
        " score from one round to the next (the scores the game shows mid-game, looked at when the turn passes"
        " back to an earlier seat). Time per move is the agents' thinking time on"
        " this machine, for the games this run played (a resumed run does not time the games it found). These"
        " describe the games these agents played: other players make other games.</p>"
    )
    header = ["", *[label or "games" for label, _ in measured]]
    return _section("metrics", "Game metrics", _table(header, rows) + note)


def _share(count: int, games: int) -> str:
    return f"{count} ({100 * count / games:.0f}%)" if games else "0"


def _milliseconds(seconds: float | None, timed: int) -> str:
    return f"{duration(seconds)} ({timed} games)" if seconds is not None else "—"


def overview_section(labelled: Labelled) -> str:
    """The sides of a comparison in columns: seat advantage, strategies, length, spread, components."""
    if not _variant_column(labelled):
        return ""
    rows: list[list[str]] = []
    players = len(labelled[0][1].seats)
    for seat in range(players):
        rows.append([f"seat {seat + 1} win rate", *[_pct(summary.seats[seat].record) for _, summary in labelled]])
    for spec in dict.fromkeys(agent.spec for _, summary in labelled for agent in summary.agents):
        rows.append([f"{spec} win rate", *[_pct(_strategy(summary, spec)) for _, summary in labelled]])
    rows.append(["mean length (moves)", *[_mean_interval([float(n) for n in s.lengths]) for _, s in labelled]])
    rows.append(["score spread", *[_num(spread(_scores(summary))) for _, summary in labelled]])
    rows.append(["draws", *[f"{summary.draws} of {summary.games}" for _, summary in labelled]])
    for verdict in ("strong", "weak"):
        rows.append([f"{verdict} components", *[_verdicts(summary, verdict) for _, summary in labelled]])
    note = (
        '<p class="note">The same agents, seeds and seating orders on each side. A strategy\'s win rate pools'
        " the seats its agents played (two greedy agents count as one strategy); the length's interval is the"
        " mean's 95% normal interval; the score spread is the standard deviation of every seat's final score.</p>"
    )
    return _section("overview", "Side by side", _table(["", *[label for label, _ in labelled]], rows) + note)


def paired_section(paired: Sequence[Paired]) -> str:
    """The verdict of a comparison: each side against the first, game by game on the same seeds."""
    if not paired:
        return ""
    parts = []
    for change in paired:
        rows = []
        for seat in change.seats:
            low, high = seat.interval
            cells = [f"{100 * seat.before:.1f}%", f"{100 * seat.after:.1f}%"]
            cells += [f"{100 * seat.difference:+.1f} [{100 * low:+.1f}, {100 * high:+.1f}]"]
            rows.append([f"seat {seat.seat + 1}", *cells, f"{seat.p_value:.3g}", f"{seat.q_value:.3g}"])
        low, high = change.edge_interval
        largest = f"{100 * change.edge_difference:+.1f} [{100 * low:+.1f}, {100 * high:+.1f}]"
        rows.append(["largest seat edge", f"{100 * change.edge_before:.1f}", f"{100 * change.edge_after:.1f}"])
        rows[-1] += [largest, "", ""]
        low, high = change.length_interval
        length = f"{change.length_after - change.length_before:+.1f} [{low:+.1f}, {high:+.1f}]"
        rows.append(["mean length", _num(change.length_before), _num(change.length_after), length, "", ""])
        header = ["", change.before, change.after, "difference [95% CI]", "McNemar p", "Holm q"]
        parts.append(f"<p><strong>{html.escape(change.line())}</strong></p>" + _table(header, rows))
    note = (
        '<p class="note">Both sides played the same games: the same seeds, agents\' seeds and seating orders,'
        " so each game of one side is compared with its twin on the other. A seat's difference is the change of"
        " its win rate with the Agresti-Min interval for paired proportions; p is the exact McNemar test of the"
        " games it won on one side only, q the same adjusted over the seats with Holm's method. The largest seat"
        " edge is the largest distance of a seat's win rate from the seats' mean, in points; its interval is a"
        " paired bootstrap (the same games resampled on both sides), and the verdict reads it: more or less"
        " balanced when the interval excludes 0. These are these agents' findings: an edge greedy bots feel may"
        " differ between stronger players.</p>"
    )
    return _section("paired", "Verdict: paired differences on the same games", "".join(parts) + note)


def _strategy(summary: Summary, spec: str) -> Rate:
    agents = [agent for agent in summary.agents if agent.spec == spec]
    return Rate(sum(agent.record.wins for agent in agents), sum(agent.record.games for agent in agents))


def _scores(summary: Summary) -> list[float]:
    return [score for agent in summary.agents for score in agent.scores]


def _mean_interval(values: Sequence[float]) -> str:
    half = Z95 * spread(values) / len(values) ** 0.5 if values else 0.0
    return f"{mean(values):.1f} [{mean(values) - half:.1f}–{mean(values) + half:.1f}]"


def _thirds(values: Sequence[float]) -> str:
    return " / ".join(f"{value:.1f}" for value in values)


def _verdicts(summary: Summary, verdict: str) -> str:
    return ", ".join(c.name for c in summary.components if c.verdict() == verdict) or "none"


def components_section(labelled: Labelled) -> str:
    """Each component's figures, one group of columns per side, with a plot of the differences."""
    if not any(summary.components for _, summary in labelled):
        return ""
    by_side = [{component.name: component for component in summary.components} for _, summary in labelled]
    names = list(dict.fromkeys(component.name for _, summary in labelled for component in summary.components))
    kinds = list(dict.fromkeys(name.partition(": ")[0] for name in sorted(names)))
    columns = ["offered", "taken when offered", "takers win", "passers win", "Δ matched", "q", ""]
    header = ["component"]
    for label, _ in labelled:
        header += [f"{column} ({label})" if _variant_column(labelled) and column else column for column in columns]
    parts = [_components_plot(labelled, by_side, names)]
    for kind in kinds:
        rows = []
        for name in sorted(n for n in names if n.partition(": ")[0] == kind):
            row = [name.partition(": ")[2]]
            for side in by_side:
                row += _component_cells(side.get(name))
            rows.append(row)
        parts.append(f"<h3>{html.escape(kind)}</h3>" + _table(header, rows))
    intro = (
        '<p class="note">Offered: the share of seats that could have taken the component at some decision (one'
        " of their legal moves would have taken it). Taken when offered: the share of those seats that took it."
        " Takers win / passers win: the win rates of the seats offered it that took it and of those that"
        " passed it (95% Wilson intervals). Δ matched: the takers' win rate minus the passers', compared only"
        " between seats played by the same agent from the same seat, offered the component in the same third"
        " of the game while standing the same way (behind, level or ahead on score), each such context of a"
        " seat counted once, taken or passed: Mantel-Haenszel, with its 95% interval clustered by game."
        " So neither a weak agent's habits, nor a component's coming up only to seats already ahead,"
        " nor a strong seat's taking more of everything pass for a"
        " component's strength. A component the agents take whenever offered, or never, cannot be judged."
        " q: the p-value adjusted for every component of the side (Benjamini-Hochberg); strong or weak only"
        f" where q is below {FDR:g}. Components taken on fewer than 5 seats are left out.</p>"
    )
    return _section("components", "Components: how often taken, how their takers fared", intro + "".join(parts))


def _component_cells(component: Component | None) -> list[str]:
    if component is None:
        return ["—"] * 7
    low, high = component.interval
    difference = f"{100 * component.difference:+.1f} [{100 * low:+.1f}, {100 * high:+.1f}]"
    if not component.informative:
        difference = "— (no seat took it while another passed it in the same position)"
    passers = _pct(component.others) if component.others.games else "—"
    cells = [_pct(component.offered), _pct(component.taken), _pct(component.takers), passers]
    return [*cells, difference, f"{component.q_value:.3g}", component.verdict()]


def _components_plot(labelled: Labelled, by_side: Sequence[dict[str, Component]], names: Sequence[str]) -> str:
    """A forest plot of the within-agent differences of the most telling components, side by side."""
    best = {name: min(side[name].q_value for side in by_side if name in side) for name in names}
    shown = sorted(names, key=lambda name: (best[name], name))[:MAX_PLOTTED_COMPONENTS]
    shown.reverse()  # the most telling at the top
    figure = _figure(7.0, 1.2 + 0.32 * len(shown) * max(1, len(labelled) ** 0.5))
    axes = figure.add_subplot()
    step = 0.7 / len(labelled)
    for offset, ((label, _), side) in enumerate(zip(labelled, by_side, strict=True)):
        rows = [(position, side[name]) for position, name in enumerate(shown) if name in side]
        ys = [position + 0.35 - step / 2 - offset * step for position, _ in rows]
        xs = [100 * component.difference for _, component in rows]
        spans = [100 * Z95 * component.error for _, component in rows]
        axes.errorbar(xs, ys, xerr=spans, fmt="o", capsize=3, label=label or None)
        for y, (_, component) in zip(ys, rows, strict=True):
            if component.verdict():
                axes.annotate(
                    component.verdict(),
                    (100 * component.interval[1], y),
                    xytext=(4, -3),
                    textcoords="offset points",
                    fontsize="x-small",
                )
    axes.axvline(0, color="grey", linestyle="--", linewidth=1)
    axes.set_yticks(range(len(shown)), shown, fontsize="small")
    axes.set_xlabel("takers' win rate minus the passers', matched (percentage points)")
    if _variant_column(labelled):
        axes.legend(fontsize="small")
    return _png(figure)


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


def body(labelled: Labelled, paired: Sequence[Paired] = ()) -> str:
    """Every section of a tournament's (or a comparison's) report, without the page around them."""
    if not any(summary.games for _, summary in labelled):
        return "<p>No game has been played yet.</p>"
    return (
        overview_section(labelled)
        + paired_section(paired)
        + "".join(
            section(labelled)
            for section in (
                summary_section,
                seats_section,
                agent_seats_section,
                scores_section,
                lengths_section,
                metrics_section,
                components_section,
                extras_section,
            )
        )
    )


def page(title: str, facts: Sequence[tuple[str, str]], content: str) -> str:
    """A whole self-contained HTML page: the title, the header's `facts` and the content."""
    header = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in facts)
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f"<style>{STYLE}</style></head><body><h1>{html.escape(title)}</h1><table>{header}</table>{content}"
        "</body></html>\n"
    )


def render(title: str, facts: Sequence[tuple[str, str]], labelled: Labelled, paired: Sequence[Paired] = ()) -> str:
    """The whole report. `facts` are the lines of the header (game, options, agents, seed…); `paired`
    holds a comparison's paired differences, each side against the first."""
    return page(title, facts, body(labelled, paired))
