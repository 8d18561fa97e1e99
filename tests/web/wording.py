"""Words a player should never read: a component's code (B04, I14, S037, VP-GR), a rule's number
(R18, P5), a file's name (flags.csv), a programmer's snake_case, a game's id (hatflings), "(s)"
for a plural, and "1 coins". The page's visible text is scanned with its tooltips (titles, SVG
<title>s, aria-labels): what a player reads on hover is read too."""

from __future__ import annotations

import re
from typing import Any

FORBIDDEN = {
    "a component code": re.compile(r"\b(?:[BP]\d\d|I\d\d|S\d\d\d|A?VP-[A-Z0-9]{1,2})\b"),
    "a rule number": re.compile(r"\b[RP]\d{1,3}\b"),
    "a file name": re.compile(r"\b[\w-]+\.(?:csv|toml|py|md|json|js)\b"),
    "snake_case": re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b"),
    "a game id": re.compile(r"\b(?:hatflings|hatairo|yamatai)\b"),
    "a plural in brackets": re.compile(r"\w\(s\)"),
    "a plural after 1": re.compile(
        r"(?<![\d.,])\b1 (?:players|coins|trophies|flags|cards|halflings|tokens|buildings|boats|sets|pigments"
        r"|specialists|times|points|turns|rounds|moves|tiles|hats|seats|games|simulations|bots)\b"
    ),
}

TEXTS = """() => {
  const texts = [document.body.innerText];
  for (const node of document.querySelectorAll('[title], [aria-label]')) {
    if (!node.getClientRects().length && !(node instanceof SVGElement)) continue;
    texts.push(node.getAttribute('title') || '', node.getAttribute('aria-label') || '');
  }
  for (const title of document.querySelectorAll('svg title')) texts.push(title.textContent);
  return texts.filter(Boolean);
}"""

# Words the page may show that look like the forbidden ones: the deal's hex commitment and salt
# (letters and digits), and the addresses of the pages.
ALLOWED = re.compile(r"\b[0-9a-f]{16,}\b|https?://\S+")


def faults(text: str) -> list[str]:
    """Each forbidden word in `text`, with what it is and a little of its context."""
    text = ALLOWED.sub(" ", text)
    found = []
    for kind, pattern in FORBIDDEN.items():
        for match in pattern.finditer(text):
            start = max(0, match.start() - 40)
            found.append(f"{kind}: {match.group(0)!r} in …{text[start : match.end() + 40]!r}…")
    return found


def page_faults(page: Any) -> list[str]:
    """The forbidden words of the page as it is now, tooltips included (each fault once)."""
    return sorted({fault for text in page.evaluate(TEXTS) for fault in faults(text)})
