"""What a player sees at a moment of a game, on a desktop and on a phone: a screenshot of the
viewport at each size (tests/web/screenshots/<game>-<moment>-<size>.png, shown in docs/web.md) and
an accessibility audit with axe-core (the npm package, injected into the page) that fails on any
serious or critical violation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .conftest import SCREENSHOTS

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
AUDIT = """async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.html.slice(0, 100)).join(" | ")}`);
}"""


def audit(page: Any) -> list[str]:
    """The serious and critical accessibility violations of the page as it is now."""
    assert AXE.exists(), f"axe-core is missing at {AXE}: run `make install` (npm ci)"
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    return list(page.evaluate(AUDIT))


def record(page: Any, game: str, moment: str) -> None:
    """Screenshots of `moment` at both sizes, each audited; the page is left at the desktop size."""
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.evaluate("window.scrollTo(0, 0)")
        violations = audit(page)
        assert not violations, f"{game} {moment} on a {size}:\n" + "\n".join(violations)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{game}-{moment}-{size}.png"))
    page.set_viewport_size(SIZES["desktop"])
