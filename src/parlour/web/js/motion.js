// What moved on the board, shown by motion (the FLIP technique): the board is redrawn at once in its
// final state, and only then each component that changed plays a short animation over it, from where
// it stood (a slide), from where it came from (a token travelling), or turning over (a card flipping).
//
// A board module marks its components, and this module compares the drawing before and after:
//   data-motion="<id>"       the component's identity (several may share one: a Yamataï wood boat);
//                            the same id at another place slides from its old place to its new one;
//   data-face="<what shows>" its face: a new component, or one whose face changed, flips over;
//   data-motion-from="<id>"  where a new component (or one whose count grew) came from: it travels
//                            from that component's old place instead of flipping (a count that
//                            shrank only flips).
// Nothing waits for an animation: input and the final state are never held back.

export const SLIDE_MS = 350;
export const FLIP_MS = 300;

/** Whether the reader asked for less motion (the system setting): then nothing moves. */
export function motionless() {
  return matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** The drawing a component is part of, by its title (a redraw makes a new one with the same title). */
function frameOf(node) {
  const drawing = node.ownerSVGElement || (node.tagName === "svg" ? node : null);
  return drawing ? drawing.getAttribute("aria-label") || "" : "";
}

/** Where a component is, by its centre and size: within its drawing or its line of text (which a
 * redraw may shift as a whole: that is no move), and on the page. An SVG component is measured
 * without the transforms an animation (the last move's mark) may be playing on it. */
function place(node) {
  const drawing = node.ownerSVGElement;
  if (drawing) {
    const box = node.getBBox();
    const screen = drawing.getScreenCTM() || { a: 1, d: 1, e: 0, f: 0 };
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
    return { frame: frameOf(node), x, y, width: box.width, height: box.height, page: { x: x * screen.a + screen.e, y: y * screen.d + screen.f } };
  }
  const box = node.getBoundingClientRect();
  const line = node.parentElement.getBoundingClientRect();
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  return { frame: "", x: x - line.x, y: y - line.y, width: box.width, height: box.height, page: { x, y } };
}

/** Every marked component of `root` before a redraw: id → [{frame, x, y, width, height, page, face}]. */
export function snapshot(root) {
  const seen = new Map();
  for (const node of root.querySelectorAll("[data-motion]")) {
    const id = node.dataset.motion;
    if (!seen.has(id)) seen.set(id, []);
    seen.get(id).push({ ...place(node), face: node.dataset.face });
  }
  return seen;
}

/** Still where it was: in the same drawing, its centre within its old box (a card whose caption
 * changed keeps its place). */
function samePlace(a, b) {
  return a.frame === b.frame && Math.abs(a.x - b.x) < Math.max(1, a.width / 2) && Math.abs(a.y - b.y) < Math.max(1, a.height / 2);
}

/** The old component a new one was: one of the same id at the same place, else the first unclaimed. */
function counterpart(olds, now) {
  if (!olds || !olds.length) return null;
  const index = Math.max(0, olds.findIndex((old) => samePlace(old, now)));
  return olds.splice(index, 1)[0];
}

/** A page offset in the units the node is drawn in (an SVG drawing may be scaled). */
function offset(node, from, to) {
  const scale = node.ownerSVGElement ? node.ownerSVGElement.getScreenCTM() : { a: 1, d: 1 };
  return `translate(${(from.x - to.x) / (scale.a || 1)}px, ${(from.y - to.y) / (scale.d || 1)}px)`;
}

function slide(node, from, to, id) {
  return node.animate([{ transform: offset(node, from, to) }, { transform: "none" }], { duration: SLIDE_MS, easing: "ease-out", id });
}

/** A component travelling from another drawing flies as a copy in a layer of its own above the
 * page (its drawing and the mats that scroll would clip it), over the component already drawn at its
 * place; the copy is gone once it has arrived, or when the board is drawn again. */
function travel(node, from, to) {
  const drawing = node.ownerSVGElement;
  if (!drawing) return slide(node, from, to, "travel");
  const box = drawing.getBoundingClientRect();
  const layer = drawing.cloneNode(false);
  for (const name of ["role", "aria-label", "id"]) layer.removeAttribute(name);
  layer.setAttribute("aria-hidden", "true");
  layer.classList.add("motion-layer");
  Object.assign(layer.style, { position: "fixed", left: `${box.x}px`, top: `${box.y}px`, width: `${box.width}px`, height: `${box.height}px`, margin: "0" });
  const copy = node.cloneNode(true);
  for (const part of [copy, ...copy.querySelectorAll("[data-key], title")]) part.tagName === "title" ? part.remove() : part.removeAttribute("data-key");
  layer.append(copy);
  document.body.append(layer);
  const animation = slide(copy, from, to, "travel");
  // Removed after the animation's own listeners have run (a test's among them).
  animation.finished.then(() => setTimeout(() => layer.remove()), () => layer.remove());
  return animation;
}

function flip(node) {
  return node.animate([{ transform: "scaleX(0.1)" }, { transform: "none" }], { duration: FLIP_MS, easing: "ease-out", id: "flip" });
}

/** Whether a component's face is a count that went down (then it came from nowhere). */
function shrank(old, node) {
  return Boolean(old) && Number(node.dataset.face) < Number(old.face);
}

/** Play, over the board already drawn in its final state, the motion of what changed since `before`
 * (a `snapshot`); the animations started. */
export function animateChanges(before, root) {
  const olds = new Map([...before].map(([id, list]) => [id, [...list]]));
  const news = [...root.querySelectorAll("[data-motion]")].map((node) => [node, place(node)]);
  // Components at the same place first, so that of three boats of one colour the one that moved slides.
  const claimed = new Map();
  for (const [node, now] of news) {
    const list = olds.get(node.dataset.motion) || [];
    const index = list.findIndex((old) => samePlace(old, now));
    if (index >= 0) claimed.set(node, list.splice(index, 1)[0]);
  }
  const started = [];
  for (const [node, now] of news) {
    if (node.hasAttribute("transform")) continue; // a CSS transform would replace the drawn one
    const old = claimed.get(node) || counterpart(olds.get(node.dataset.motion), now);
    const changed = "face" in node.dataset && (!old || old.face !== node.dataset.face);
    if (old && old.frame !== now.frame) started.push(travel(node, old.page, now.page));
    else if (old && !samePlace(old, now)) started.push(slide(node, old.page, now.page, "slide"));
    else if (old && !changed) continue;
    else if (node.dataset.motionFrom && before.has(node.dataset.motionFrom) && !shrank(old, node)) started.push(travel(node, before.get(node.dataset.motionFrom)[0].page, now.page));
    else if (changed) started.push(flip(node));
  }
  return started;
}

/** The motion of one board across redraws. The steps of a turn arrive together, each redrawing the
 * board: a redraw while a motion still plays is compared with the board from before that motion,
 * so that the whole turn shows, not only its last step. */
export class BoardMotion {
  constructor(root) {
    this.root = root;
    this.base = null;
    this.until = 0;
  }

  /** Before a redraw to show by motion: what the board showed before any motion still playing. */
  capture() {
    if (!this.base || performance.now() > this.until) this.base = snapshot(this.root);
  }

  /** After that redraw: play what changed; the animations started. */
  play() {
    for (const animation of this.playing || []) if (animation.effect.target.closest(".motion-layer")) animation.cancel();
    if (!this.base) return [];
    this.until = performance.now() + Math.max(SLIDE_MS, FLIP_MS);
    this.playing = animateChanges(this.base, this.root);
    return this.playing;
  }

  /** A redraw not to show by motion (this seat's own move): the next one starts afresh. */
  still() {
    this.base = null;
  }
}
