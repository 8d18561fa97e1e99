// Ratings: the rating beside a player's name, and the leaderboards page (/?ratings=GAME).

import { call, games } from "./api.js";
import { clear, h, plural } from "./dom.js";

/** "+1.2", "-0.8" or "±0.0": a rating change, signed. */
export function changeText(change) {
  return `${change > 0 ? "+" : change < 0 ? "-" : "±"}${Math.abs(change).toFixed(1)}`;
}

/** " (12.3)" for a seat whose account has a rating at this game and player count, else ""; once
 * the table's rated game is over, with what it changed the rating by: " (12.3) +1.2 this game". */
export function ratingText(table, seat) {
  const shown = table && table.ratings ? table.ratings[String(seat)] : null;
  if (!shown || shown.rating === null) return "";
  const change = shown.change === null || shown.change === undefined ? "" : ` ${changeText(shown.change)} this game`;
  return ` (${shown.rating.toFixed(1)})${change}`;
}

export async function showRatings(app, game) {
  const list = await games();
  const chosen = list.find((g) => g.name === game) || list[0];
  document.title = `parlour — ${chosen.title} ratings`;
  const board = await call(`/api/ratings/${chosen.name}`);
  const sections = chosen.players.map((count) => {
    const rows = board.ratings.filter((r) => r.players === count);
    return h("section", { class: "card", id: `ratings-${count}` }, h("h2", {}, plural(count, "player")),
      rows.length
        ? h("table", { class: "profile" },
          h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "Player"), h("th", {}, "Rating"), h("th", {}, "Last game"), h("th", {}, "Games"))),
          h("tbody", {}, ...rows.map((r, i) => h("tr", { "data-player": r.name },
            h("td", {}, String(i + 1)), h("td", {}, h("a", { href: `/?player=${encodeURIComponent(r.name)}` }, r.name)),
            h("td", { class: "rating" }, r.rating.toFixed(1)),
            h("td", { class: "rating-change" }, r.last_change === null ? "" : changeText(r.last_change)),
            h("td", {}, String(r.games))))))
        : h("p", { class: "muted" }, "No rated game yet."));
  });
  clear(app).append(h("h1", {}, `${chosen.title}: ratings`),
    h("p", {}, ...list.map((g) => h("a", { class: "button", href: `/?ratings=${g.name}` }, g.title))),
    h("p", { class: "muted" }, "Rated tables: people only, each signed in, on a deal the server draws. A rating is openskill's μ − 3σ, per player count."),
    ...sections);
}
