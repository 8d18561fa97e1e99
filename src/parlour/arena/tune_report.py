"""The tuning report: the optimisation history, the parameters' importances, the best values against
the base, and the before/after comparison of the base data with the best (the comparison report's
own sections), in one self-contained HTML file."""

from __future__ import annotations

import html
from collections.abc import Sequence

from parlour.arena import report
from parlour.arena.tune import Outcome, Setup, Trial
from parlour.arena.tune_check import Check

MAX_LISTED_TRIALS = 20
"""The trials listed in the report's table (the best ones); the history plot shows them all."""


def history_figure(trials: Sequence[Trial]) -> object:
    """Each finished trial's score in order, and the best so far."""
    figure = report._figure()
    axes = figure.add_subplot()
    complete = [(trial.number, trial.value) for trial in trials if trial.value is not None]
    axes.scatter([n for n, _ in complete], [v for _, v in complete], s=14, label="trial")
    best: list[float] = []
    for _, value in complete:
        best.append(min(best[-1], value) if best else value)
    axes.step([n for n, _ in complete], best, where="post", color="C3", label="best so far")
    pruned = [
        (trial.number, trial.reached) for trial in trials if trial.state == "pruned" and trial.reached is not None
    ]
    if pruned:  # drawn at the score they had when the pruner stopped them
        axes.scatter([n for n, _ in pruned], [v for _, v in pruned], marker="x", color="grey", s=18, label="pruned")
    axes.set_xlabel("trial")
    axes.set_ylabel("score (weighted penalty; 0 meets every objective)")
    axes.legend(fontsize="small")
    return figure


def importance_figure(importances: dict[str, float]) -> object:
    figure = report._figure(7.0, 1.0 + 0.35 * len(importances))
    axes = figure.add_subplot()
    names = sorted(importances, key=lambda name: importances[name])
    axes.barh(names, [importances[name] for name in names])
    axes.set_xlabel("importance (PED-ANOVA, normalised to sum to 1)")
    return figure


def history_section(outcome: Outcome) -> str:
    states = {state: sum(1 for t in outcome.trials if t.state == state) for state in ("complete", "pruned", "fail")}
    counts = ", ".join(f"{count} {state}" for state, count in states.items())
    note = f'<p class="note">{len(outcome.trials)} trials: {counts}. Lower is better.</p>'
    return report._section("history", "Optimisation history", report._png(history_figure(outcome.trials)) + note)


def importance_section(outcome: Outcome) -> str:
    if not outcome.importances:
        body = "<p>Too few finished trials (or values) to tell which parameters matter.</p>"
    else:
        body = report._png(importance_figure(outcome.importances))
        body += "<p class=\"note\">Optuna's PED-ANOVA importances: how far each parameter's values among the"
        body += " best trials stand apart from its values over all finished trials (they add up to 1).</p>"
    return report._section("importances", "Parameter importances", body)


def best_section(setup: Setup, outcome: Outcome) -> str:
    best = outcome.best
    if best is None:
        return report._section("best", "Best values", "<p>No trial finished.</p>")
    rows = [
        [
            p.label,
            p.base,
            best.values.get(p.label, p.base),
            f"{p.low}..{p.high}" + (f" step {p.step}" if p.step else ""),
        ]
        for p in setup.space.parameters
    ]
    table = report._table(["value", "base", "study's best", "range"], rows)
    runs = f" (mean of {len(best.trials)} evaluations on different seeds)" if len(best.trials) > 1 else ""
    scores = f"<p>The study's best: trial {best.number}, score {best.value:.4f}{runs}"
    scores += "".join(f"; {html.escape(name)} {value:.3f}" for name, value in best.measures.items() if name != "games")
    scores += ".</p>"
    listed = sorted((t for t in outcome.trials if t.value is not None), key=lambda t: (t.value, t.number))
    header = ["trial", "score", "repeat", *[p.label for p in setup.space.parameters]]
    trial_rows = [
        [t.number, f"{t.value:.4f}", t.repeat or "", *[t.values.get(p.label, "") for p in setup.space.parameters]]
        for t in listed[:MAX_LISTED_TRIALS]
    ]
    failed = [t for t in outcome.trials if t.error]
    errors = "".join(f"<li>trial {t.number}: {html.escape(t.error)}</li>" for t in failed[:10])
    refused = f"<p>Trials whose data the game refused:</p><ul>{errors}</ul>" if errors else ""
    body = scores + table + "<h3>Best trials</h3>" + report._table(header, trial_rows) + refused
    return report._section("best", "Best values against the base", body)


def check_section(setup: Setup, checked: Check) -> str:
    """The base and the study's best points replayed on fresh seeds, and which one is named."""
    if not checked.candidates:
        return report._section("check", "Check on fresh seeds", "<p>No trial finished, so nothing was checked.</p>")
    names = [name for name in checked.base.measures if name != "games"]
    header = ["", "score in the study", "evaluations", "score on fresh seeds", *names, "named"]
    rows = []
    for candidate in [checked.base, *checked.candidates]:
        study = f"{candidate.study_value:.4f}" if candidate.study_value is not None else "—"
        shown = [f"{candidate.measures.get(name, 0.0):.3f}" for name in names]
        named = "best" if candidate is checked.named else ""
        rows.append([candidate.label, study, candidate.evaluations, f"{candidate.check_value:.4f}", *shown, named])
    note = (
        f'<p class="note">The study\'s {len(checked.candidates)} best points (by their mean over every evaluation)'
        f" and the base, each played again on the same {checked.games} games from seeds no trial played"
        " (seed {checked.seed}). The best of many noisy scores is flattered by its luck; a point is named the best"
        " only when its score here is below the base's, so the check never names a point it contradicts.</p>"
    ).replace("{checked.seed}", str(checked.seed))
    verdict = f"<p><strong>{html.escape(checked.line())}</strong></p>"
    return report._section("check", "Check on fresh seeds", verdict + report._table(header, rows) + note)


def render(title: str, facts: Sequence[tuple[str, str]], setup: Setup, outcome: Outcome, checked: Check) -> str:
    content = history_section(outcome) + importance_section(outcome) + best_section(setup, outcome)
    content += check_section(setup, checked)
    if checked.compared:
        paired = [checked.paired] if checked.paired is not None else []
        content += "<h2>Before and after on fresh seeds</h2>" + report.body(checked.compared, paired)
    return report.page(title, facts, content)
