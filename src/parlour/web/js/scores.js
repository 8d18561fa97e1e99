// The final scores with each seat's breakdown.

import { h } from "./dom.js";

function seatLabel(seats, i) {
  const seat = seats[i];
  if (!seat) return `Seat ${i}`;
  return `${seat.kind === "bot" ? seat.agent : seat.name || "seat"} (seat ${i})`;
}

export function scoreTable(result, seats) {
  const parts = [];
  for (const score of result.scores) for (const name of Object.keys(score.breakdown)) if (!parts.includes(name)) parts.push(name);
  const winners = result.winners.map((w) => seatLabel(seats, w)).join(" and ");
  return h("div", { class: "scores", id: "scores" },
    h("h2", {}, result.winners.length > 1 ? `Shared win: ${winners}` : `${winners} wins`),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Score"), ...result.scores.map((_, i) => h("th", { scope: "col", class: result.winners.includes(i) ? "winner" : "" }, seatLabel(seats, i))))),
      h("tbody", {},
        ...parts.map((part) => h("tr", {}, h("th", { scope: "row" }, part), ...result.scores.map((s) => h("td", {}, fmt(s.breakdown[part]))))),
        h("tr", { class: "total" }, h("th", { scope: "row" }, "Total"), ...result.scores.map((s) => h("td", {}, fmt(s.total)))))));
}

function fmt(value) {
  if (value === undefined) return "–";
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}
