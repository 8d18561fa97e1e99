// Where the table is seen: what the sticky action bar hides, and the frames that scroll sideways.
//
// The action bar sticks to the bottom of the screen, so whatever is scrolled into view at the
// bottom edge (by focus, by a click's own scrolling, by `scrollIntoView`) would land under it: the
// page keeps a scroll padding as tall as the bar. A drawing wider than the screen scrolls sideways
// in its frame; the frame says so, with how many highlighted targets lie beyond its edges, and
// brings the hinted or only target into its visible part.

import { h } from "./dom.js";

/** Keep the page's bottom scroll padding equal to the action bar's height. */
export function padForBar(bar) {
  const pad = () => {
    const stuck = bar.getClientRects().length ? bar.offsetHeight + 8 : 0;
    document.documentElement.style.scrollPaddingBottom = `${stuck}px`;
  };
  new ResizeObserver(pad).observe(bar);
  pad();
}

/** The frames inside `board` (and the board itself) whose content is wider than they are. */
function sidewaysFrames(board) {
  // Only a frame with something to click in it: a rival's mat may be seen in part.
  return [board, ...board.querySelectorAll(".mat, .scroll-frame")]
    .filter((frame) => frame.scrollWidth > frame.clientWidth + 2 && frame.querySelector("[data-key]"));
}

/** How many highlighted targets inside `frame` lie beyond its visible part, left and right. */
function hiddenTargets(frame) {
  const box = frame.getBoundingClientRect();
  let left = 0;
  let right = 0;
  for (const target of frame.querySelectorAll(".target.legal")) {
    const own = target.closest(".mat, .scroll-frame, .board-area");
    if (own !== frame) continue; // counted by the frame nearest to it
    const r = target.getBoundingClientRect();
    const centre = r.left + r.width / 2;
    if (centre < box.left) left += 1;
    else if (centre > box.right) right += 1;
  }
  return [left, right];
}

function noteText(frame) {
  const [left, right] = hiddenTargets(frame);
  const beyond = [left ? `${left} to the left` : "", right ? `${right} to the right` : ""].filter(Boolean).join(", ");
  const targets = left + right === 1 ? "highlighted target" : "highlighted targets";
  return beyond ? `↔ Wider than the screen: scroll sideways. ${cap(targets)} out of sight: ${beyond}.` : "↔ Wider than the screen: scroll sideways to see all of it.";
}

function cap(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Each frame that scrolls sideways gets a note saying so (kept up to date as it scrolls). */
export function noteSideways(board) {
  for (const old of board.querySelectorAll(".scroll-note")) old.remove();
  for (const frame of sidewaysFrames(board)) {
    const note = h("p", { class: "scroll-note", "aria-live": "polite" }, noteText(frame));
    frame.prepend(note);
    if (!frame.dataset.noted) {
      frame.dataset.noted = "1";
      frame.addEventListener("scroll", () => {
        const shown = [...frame.children].find((child) => child.classList.contains("scroll-note"));
        if (shown) shown.textContent = noteText(frame);
      }, { passive: true });
    }
  }
}

/** Scroll every sideways frame holding `target` so that it is in the frame's visible part; the
 * page itself does not move. */
export function revealSideways(target) {
  for (let frame = target.parentElement; frame; frame = frame.parentElement) {
    if (frame.scrollWidth <= frame.clientWidth + 2 || frame === document.documentElement || frame === document.body) continue;
    const box = frame.getBoundingClientRect();
    const r = target.getBoundingClientRect();
    if (r.left < box.left || r.right > box.right) frame.scrollLeft += r.left + r.width / 2 - (box.left + box.width / 2);
  }
}
