// The final scores in the player's terms: who won (or "You won" / "You lost"), each seat's
// breakdown, and, when the points tie, how the game's tie-break decided.

import { h } from "./dom.js";
import { seatNames } from "./explain.js";

function names(seats, seat) {
  return seatNames(seats).map((name, i) => (i === seat ? "You" : name));
}

function both(list) {
  return list.length > 1 ? `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}` : list[0];
}

/** The headline: the result as the seat `seat` (null: a spectator) would say it. */
export function verdict(result, seats, seat) {
  const who = names(seats, seat);
  const winners = result.winners.map((w) => who[w]);
  if (result.winners.length > 1) return `Shared win: ${both(winners)}`;
  if (seat === null || seat === undefined) return `${winners[0]} wins`;
  return result.winners.includes(seat) ? "You won!" : `You lost: ${winners[0]} wins`;
}

/** Why the winner won when the points alone did not say it. */
export function tieBreakNote(result, tiebreak) {
  const best = Math.max(...result.scores.map((score) => score.total));
  const tied = result.scores.filter((score) => score.total === best).length;
  if (tied < 2) return null;
  if (result.winners.length >= tied) return `Equal on ${fmt(best)} points and on the tie-break: the win is shared.`;
  return `Equal on ${fmt(best)} points, decided by the tie-break. ${tiebreak || ""}`.trim();
}

export function scoreTable(result, seats, { seat = null, tiebreak = null } = {}) {
  const parts = [];
  for (const score of result.scores) for (const name of Object.keys(score.breakdown)) if (!parts.includes(name)) parts.push(name);
  const who = names(seats, seat);
  const note = tieBreakNote(result, tiebreak);
  return h("div", { class: "scores", id: "scores" },
    h("h2", { class: result.winners.includes(seat) ? "won" : "" }, verdict(result, seats, seat)),
    note ? h("p", { class: "tie-break", id: "tie-break" }, note) : null,
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Score"), ...result.scores.map((_, i) => h("th", { scope: "col", class: result.winners.includes(i) ? "winner" : "" }, who[i], result.winners.includes(i) ? " ★" : "")))),
      h("tbody", {},
        ...parts.map((part) => h("tr", {}, h("th", { scope: "row" }, part), ...result.scores.map((s) => h("td", {}, fmt(s.breakdown[part]))))),
        h("tr", { class: "total" }, h("th", { scope: "row" }, "Total"), ...result.scores.map((s) => h("td", {}, fmt(s.total)))))));
}

function fmt(value) {
  if (value === undefined) return "–";
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}
