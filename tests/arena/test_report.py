"""The HTML report: every section present, plots embedded, numbers from the tournament."""

from __future__ import annotations

import base64
import re
from pathlib import Path

from parlour.arena import report
from parlour.arena.runner import facts, run
from parlour.arena.stats import summarize
from parlour.arena.store import REPORT
from parlour.arena.tournament import plan

PNG = b"\x89PNG\r\n\x1a\n"


def sections(page: str) -> list[str]:
    return re.findall(r'<section id="([a-z-]+)">', page)


def embedded_images(page: str) -> list[bytes]:
    return [base64.b64decode(data) for data in re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)]


def test_the_report_has_every_section_and_its_plots(tmp_path: Path) -> None:
    result = run(plan("nim", "random,greedy", 20, seed=6), out=tmp_path, workers=1)
    page = (tmp_path / REPORT).read_text(encoding="utf-8")
    assert sections(page) == list(report.SECTIONS)
    images = embedded_images(page)
    assert len(images) == 3 and all(image.startswith(PNG) for image in images)  # seats, scores, lengths
    alpha, beta = result.summary.agents
    for agent in (alpha, beta):
        low, high = agent.record.interval
        assert f"{100 * agent.record.rate:.1f}% [{100 * low:.1f}–{100 * high:.1f}]" in page
    assert "Which kinds of move go with winning?" in page and "move: take" in page
    assert "openskill" in page and "Wilson" in page
    assert "<th>seed</th><td>6</td>" in page
    assert 'src="http' not in page  # one self-contained file


def test_a_comparison_shows_every_variant_in_every_section() -> None:
    first = run(plan("nim", "random,random", 8, options={"stones": 10}))
    second = run(plan("nim", "random,random", 8, options={"stones": 30}))
    page = report.render(
        "nim: variants compared", facts(first.tournament, 8), [("ten", first.summary), ("thirty", second.summary)]
    )
    assert sections(page) == list(report.SECTIONS)
    for section in re.findall(r"<section.*?</section>", page):
        assert "ten" in section and "thirty" in section
    assert all(image.startswith(PNG) for image in embedded_images(page))


def test_an_empty_tournament_says_so() -> None:
    page = report.render("nothing", [("game", "nim")], [("", summarize([], ["a", "b"], ["random", "random"]))])
    assert "No game has been played yet." in page and sections(page) == []


def test_a_game_with_its_own_question_shows_its_features_before_the_moves(tmp_path: Path) -> None:
    run(plan("hatflings", "random,random", 16, seed=2), out=tmp_path, workers=1)
    page = (tmp_path / REPORT).read_text(encoding="utf-8")
    extras = re.search(r'<section id="extras">.*?</section>', page, re.S)
    assert extras is not None
    text = extras.group(0)
    assert "Special halflings: which ones go with winning?" in text
    assert text.index("special: ") < text.index("Kinds of move") < text.index("move: place")
