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
    # One tournament has no side-by-side overview, and Nim has no components.
    assert sections(page) == [s for s in report.SECTIONS if s not in ("overview", "paired", "components")]
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
    assert sections(page) == [s for s in report.SECTIONS if s not in ("paired", "components")]
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


def test_components_are_shown_side_by_side_with_their_verdicts() -> None:
    from tests.arena.test_components import two_seat_games

    def features(rng, agent):  # type: ignore[no-untyped-def]
        return {"flag: sun": float(rng.random() < 0.5), "flag: moon": float(rng.random() < 0.5)}

    def sun_wins(rng, agents, taken):  # type: ignore[no-untyped-def]
        suns = [seat for seat in (0, 1) if taken[seat]["flag: sun"]]
        return suns[0] if len(suns) == 1 and rng.random() < 0.8 else rng.randrange(2)

    def fair(rng, agents, taken):  # type: ignore[no-untyped-def]
        return rng.randrange(2)

    names, specs = ["greedy", "random"], ["greedy", "random"]
    base = summarize(two_seat_games(300, 3, features, fair), names, specs)
    mine = summarize(two_seat_games(300, 3, features, sun_wins), names, specs)
    page = report.render("nim: data compared", [("game", "nim")], [("base", base), ("mine", mine)])
    assert sections(page) == [s for s in report.SECTIONS if s not in ("paired", "metrics")]  # hand-made games
    section = re.search(r'<section id="components">.*?</section>', page, re.S)
    assert section is not None
    text = section.group(0)
    assert "<h3>flag</h3>" in text and "takers win (base)" in text and "passers win (mine)" in text
    sun_row = re.search(r"<tr><td>sun</td>(.*?)</tr>", text)
    assert sun_row is not None
    cells = re.findall(r"<td>(.*?)</td>", sun_row.group(1))
    assert cells[6] == "" and cells[13] == "strong"  # fair on base, strong on mine
    overview = re.search(r'<section id="overview">.*?</section>', page, re.S)
    assert overview is not None
    assert re.search(r"<td>strong components</td><td>none</td><td>flag: sun</td>", overview.group(0))
    assert len(embedded_images(text)) == 1
