// The replay viewer: step through a finished game move by move, with the log and the final scores.

import { call, savedSeat } from "./api.js";
import { clear, h } from "./dom.js";
import { openRules } from "./rules.js";
import { showDeal } from "./deal.js";
import { annotate, glossary, seatNames } from "./explain.js";
import { loadModule } from "./games/index.js";
import { logEntry, seatName } from "./table.js";
import { scoreTable } from "./scores.js";
import { reviewPanel } from "./review.js";

const COLOURS = ["#d4a017", "#7b3fa0", "#2a7ab9", "#c0392b", "#2e8b57", "#555"];

export async function showReplay(app, tableId, startPly) {
  const summary = await call(`/api/tables/${tableId}`);
  if (summary.status !== "finished") {
    location.replace(`/?table=${tableId}`);
    return;
  }
  document.title = `parlour — replay of ${summary.title}`;
  const module = await loadModule(summary.game);
  const [words] = await Promise.all([glossary(summary.game), module.prepare ? module.prepare(summary) : null]);
  const log = await call(`/api/tables/${tableId}/log`);
  const plies = log.steps.length;
  const seats = summary.seats;
  // The game's words for its own codes (Yamataï's B06, I14, S037), as at the live table.
  const phrase = module.phrase ? (text) => module.phrase(text, seatNames(seats)) : (text) => text;
  let ply = Math.max(0, Math.min(plies, startPly));

  // A region of its own, focusable, since a drawing too wide for a phone scrolls inside it.
  const board = h("div", { class: "board-area", id: "board", role: "region", "aria-label": "The table", tabindex: "0" });
  const where = h("p", { class: "turn", id: "ply", role: "status", "aria-live": "polite" });
  const slider = h("input", { type: "range", min: 0, max: plies, value: ply, id: "ply-slider", "aria-label": "Move number" });
  const entries = log.steps.map((step, i) => {
    const entry = logEntry(seats, step, phrase);
    entry.dataset.ply = String(i + 1);
    entry.tabIndex = 0;
    entry.addEventListener("click", () => go(i + 1));
    entry.addEventListener("keydown", (e) => e.key === "Enter" && go(i + 1));
    return entry;
  });
  const list = h("ol", { class: "log replay-log", id: "log" }, ...entries);
  const deal = h("section", { class: "card deal", id: "deal" });
  // The review, seen as this browser's seat saw the game if it held one; its moves lead to their position.
  const held = savedSeat(tableId);
  const review = reviewPanel(tableId, { names: seats.map((_, i) => seatName(seats, i)), colours: COLOURS, token: held ? held.token : undefined, onStep: (step) => go(step) });
  const button = (id, text, to) => h("button", { type: "button", id, onclick: () => go(to()) }, text);

  let pending = 0;
  async function go(target) {
    ply = Math.max(0, Math.min(plies, target));
    slider.value = ply;
    const asked = ++pending;
    const position = await call(`/api/tables/${tableId}/replay/${ply}`);
    if (asked !== pending) return;
    const context = { seat: null, seats, colours: COLOURS, names: seats.map((_, i) => seatName(seats, i)), toMove: position.to_move };
    clear(board).append(module.draw(position.view, context));
    annotate(board, words); // every component's text as its tooltip, as at a live table
    // What this move touched is marked, as at a live table.
    const events = ply > 0 ? log.steps[ply - 1].events || [] : [];
    const touched = new Set(module.touched ? events.flatMap((event) => module.touched(event)) : []);
    for (const node of board.querySelectorAll("[data-key]")) node.classList.toggle("last", touched.has(node.dataset.key));
    const step = position.step;
    where.textContent = ply === 0 ? `Start of the game (${plies} moves)` : `Move ${ply} of ${plies}: ${seatName(seats, step.actor)} — ${phrase(step.label)}`;
    for (const entry of entries) entry.classList.toggle("current", Number(entry.dataset.ply) === ply);
    if (ply > 0) entries[ply - 1].scrollIntoView({ block: "nearest" });
    history.replaceState(null, "", `/?replay=${tableId}&ply=${ply}`);
  }
  slider.addEventListener("input", () => go(Number(slider.value)));
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement && event.target !== slider) return;
    if (board.contains(event.target)) return; // the arrows scroll a drawing wider than the screen
    if (event.key === "ArrowRight") go(ply + 1);
    else if (event.key === "ArrowLeft") go(ply - 1);
  });

  clear(app).append(h("div", { class: "table-page" },
    h("section", { class: "play" },
      h("div", { class: "bar" }, h("h1", {}, `Replay: ${summary.title}`), h("button", { type: "button", onclick: () => openRules(summary.game) }, "Rules")),
      where, board,
      h("div", { class: "controls" },
        button("first", "« Start", () => 0), button("prev", "◀ Back", () => ply - 1),
        slider, button("next", "Next ▶", () => ply + 1), button("last", "End »", () => plies)),
      h("section", { class: "card result" }, scoreTable(summary.result, seats, { tiebreak: words.tiebreak })), review, deal),
    h("aside", { class: "side" }, h("h2", {}, "Moves"), list)));
  await Promise.all([go(ply), showDeal(deal, tableId, summary.deal)]);
}
