// The review of a finished game (GET /api/tables/{id}/review): each seat's chances after every move
// as a chart, and the moves that cost a seat most, in words. Shown on the end screen and in the replay.
// The server cuts the review to what this browser's seat saw (a spectator's otherwise): a chance it
// may not read comes as null and is left out of the chart, and others' costly moves that read what
// only their seat knew are only counted.

import { call } from "./api.js";
import { clear, h, plural, s } from "./dom.js";

const WIDTH = 600;
const HEIGHT = 200;
const PAD = 28;
const POLL_MS = 1000;

/** The chart: one line per seat (broken where its chance is hidden), a dot at each costly move. */
function chart(review, names, colours, onStep) {
  const rows = review.chances;
  const plies = Math.max(1, rows.length - 1);
  const [low, high] = review.scale === "winning chance" ? [0, 1] : [-1, 1];
  const x = (ply) => PAD + ((WIDTH - 2 * PAD) * ply) / plies;
  const y = (value) => HEIGHT - PAD - ((HEIGHT - 2 * PAD) * (value - low)) / (high - low);
  const parts = [];
  const middle = review.scale === "winning chance" ? 0.5 : 0;
  parts.push(s("line", { x1: PAD, x2: WIDTH - PAD, y1: y(middle), y2: y(middle), class: "review-mid" }));
  for (const value of [low, middle, high]) {
    const text = review.scale === "winning chance" ? `${Math.round(value * 100)}%` : value.toFixed(0);
    parts.push(s("text", { x: 2, y: y(value) + 4, class: "review-axis", text }));
  }
  parts.push(s("text", { x: WIDTH - PAD, y: HEIGHT - 6, "text-anchor": "end", class: "review-axis", text: `move ${plies}` }));
  for (let seat = 0; seat < review.players; seat++) {
    // One polyline per run of known values: a hidden chance breaks the line.
    let run = [];
    const flush = () => {
      if (run.length > 1) parts.push(s("polyline", { points: run.join(" "), fill: "none", stroke: colours[seat], "stroke-width": 2, class: `review-line seat-${seat}` }));
      else if (run.length === 1) parts.push(s("circle", { cx: run[0].split(",")[0], cy: run[0].split(",")[1], r: 1.5, fill: colours[seat] }));
      run = [];
    };
    rows.forEach((row, ply) => {
      if (row[seat] === null) flush();
      else run.push(`${x(ply).toFixed(1)},${y(row[seat]).toFixed(1)}`);
    });
    flush();
  }
  for (const mistake of review.mistakes) {
    const value = rows[mistake.step][mistake.seat];
    const dot = s("circle", { cx: x(mistake.step), cy: y(value === null ? middle : value), r: 5, fill: "none", stroke: colours[mistake.seat], "stroke-width": 2, class: "review-mistake", "data-step": mistake.step },
      s("title", { text: mistake.words }));
    if (onStep) dot.addEventListener("click", () => onStep(mistake.step));
    parts.push(dot);
  }
  const title = `Each seat's ${review.scale} after every move`;
  const drawing = s("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", class: "review-chart", "aria-label": title }, s("title", { text: title }), ...parts);
  const legend = h("p", { class: "review-legend" }, ...names.map((name, seat) =>
    h("span", { class: "review-key" }, h("span", { class: "swatch", style: `background:${colours[seat]}` }), name)));
  return [drawing, legend];
}

/** What the chart and the list say, and what this viewer does not see. */
function explanation(review, names) {
  const hidden = review.chances.flat().filter((value) => value === null).length;
  const who = review.viewer === null
    ? `A seat's chance is shown after moves where it knew no more than a spectator.${hidden ? ` ${hidden} of the chart's points are left out: there the seat knew what only its player saw (sit at the table, as a player, to see your own).` : ""}`
    : `Every seat's chance as ${names[review.viewer]} could judge it from what ${names[review.viewer]} saw.`;
  const judged = review.judged_by === "learned evaluator" ? "the game's learned evaluator" : "the game's heuristic";
  return `${who} Judged by ${judged}; a costly move is one where the strongest bot (a search from the mover's view alone) prefers another.`;
}

function mistakeList(review, names, onStep) {
  const items = review.mistakes.map((mistake) => {
    const words = mistake.words.replace(`Player ${mistake.seat + 1}`, names[mistake.seat]);
    const item = h("li", { class: "review-mistake-line", "data-step": mistake.step }, words);
    if (onStep) {
      item.append(" ", h("button", { type: "button", class: "link", onclick: () => onStep(mistake.step) }, "see it"));
    }
    return item;
  });
  const list = items.length ? h("ol", { class: "review-mistakes" }, ...items) : h("p", { class: "muted" }, "No move you may see cost anything the search could find.");
  const hidden = review.hidden_mistakes
    ? h("p", { class: "muted review-hidden" }, `${plural(review.hidden_mistakes, "more costly move")} of other seats ${review.hidden_mistakes === 1 ? "is" : "are"} shown to their player only: judging ${review.hidden_mistakes === 1 ? "it" : "them"} reads what that player alone knew.`)
    : null;
  const bounded = review.complete ? null : h("p", { class: "muted" }, `The server's time bound ran out: only the first ${review.decisions} decisions were searched.`);
  return [list, hidden, bounded];
}

/**
 * A card that reviews a finished table on request: a button, then the progress while the server
 * computes, then the chart and the costly moves. `onStep(ply)` (the replay's) makes moves clickable.
 */
export function reviewPanel(tableId, { names, colours, token, onStep } = {}) {
  const body = h("div", { class: "review-body" });
  const status = h("p", { class: "review-status", role: "status", "aria-live": "polite" });
  const progress = h("progress", { class: "review-progress", max: 1, value: 0, hidden: true });
  const start = h("button", { type: "button", id: "review-game", class: "button" }, "Review this game");
  const card = h("section", { class: "card review", id: "review" }, h("h2", {}, "Review"), start, status, progress, body);
  let asked = false;

  async function ask() {
    try {
      const answer = await call(`/api/tables/${tableId}/review`, { token });
      if (answer.status === "running") {
        progress.hidden = false;
        progress.max = Math.max(1, answer.total);
        progress.value = answer.done;
        status.textContent = `Reviewing: move ${answer.done} of ${answer.total}…`;
        setTimeout(ask, POLL_MS);
        return;
      }
      progress.hidden = true;
      status.textContent = "";
      const review = answer.review;
      clear(body).append(h("p", { class: "muted" }, explanation(review, names)), ...chart(review, names, colours, onStep),
        h("h3", {}, "The costliest moves"), ...mistakeList(review, names, onStep).filter(Boolean));
    } catch (error) {
      progress.hidden = true;
      status.textContent = error.code === "busy" ? `${error.message}.` : `No review: ${error.message}.`;
      status.classList.add("error");
      start.hidden = false;
      asked = false;
    }
  }
  start.addEventListener("click", () => {
    if (asked) return;
    asked = true;
    start.hidden = true;
    status.classList.remove("error");
    status.textContent = "Asking the server for a review…";
    ask();
  });
  return card;
}
