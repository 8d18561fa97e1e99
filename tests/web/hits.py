"""Can every highlighted target be clicked where it is drawn? Each is scrolled into view as focus
would scroll it (the nearest edge, inside every frame that scrolls), then the point at the centre of
its hit area must belong to it: not to the sticky action bar, a neighbour drawn over it, or nothing
(outside the screen)."""

from __future__ import annotations

from typing import Any

UNREACHABLE = """async () => {
  // A resized page lays out and tells its observers (the bar's height) at the next frames.
  for (let i = 0; i < 2; i++) await new Promise((done) => requestAnimationFrame(done));
  const name = (node) => node ? (node.closest('[data-key]')?.dataset.key || node.id || node.className?.baseVal
    || node.className || node.tagName) : 'nothing (outside the screen)';
  const bar = document.querySelector('#action-bar');
  const found = [];
  for (const target of document.querySelectorAll('#board .target.legal')) {
    const hit = target.querySelector('.hit') || target;
    hit.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    const box = hit.getBoundingClientRect();
    const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
    const at = document.elementFromPoint(x, y);
    const under = bar && bar.getClientRects().length && y >= bar.getBoundingClientRect().top;
    if ((at && at.closest('[data-key]')) !== target || under)
      found.push(`${target.dataset.key} at (${Math.round(x)}, ${Math.round(y)}): the point hits ${name(at)}`);
  }
  window.scrollTo(0, 0);
  return found;
}"""


def unreachable(page: Any) -> list[str]:
    """The highlighted targets of the page whose centre, once scrolled into view, is not theirs."""
    return list(page.evaluate(UNREACHABLE))
