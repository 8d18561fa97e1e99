// Ratings: the rating beside a player's name, and the leaderboards page (/?ratings=GAME).

import { call, games } from "./api.js";
import { clear, h, plural } from "./dom.js";
import { levelRatings } from "./levels.js";

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
  const [board, levels] = await Promise.all([call(`/api/ratings/${chosen.name}`), levelRatings().catch(() => null)]);
  const calibrated = levels ? levels.games[chosen.name] : null;
  const sections = chosen.players.map((count) => {
    const people = board.ratings.filter((r) => r.players === count).map((r) => ({ ...r, bot: false }));
    // The levels were rated at two players: listed beside people there, on the same openskill ordinal.
    const bots = calibrated && count === calibrated.players
      ? levels.levels.map((level) => ({ name: level.spec, rating: calibrated.ratings[level.spec].rating, last_change: null, games: null, bot: true }))
      : [];
    const rows = [...people, ...bots].sort((a, b) => b.rating - a.rating);
    let rank = 0;
    const row = (r) => (r.bot
      ? h("tr", { class: "level-row", "data-level": r.name },
        h("td", {}, ""), h("td", {}, `${r.name.slice("level:".length).replace(/^./, (c) => c.toUpperCase())} bot`),
        h("td", { class: "rating" }, r.rating.toFixed(1)), h("td", {}, ""), h("td", { class: "muted" }, "—"))
      : h("tr", { "data-player": r.name },
        h("td", {}, String(++rank)), h("td", {}, h("a", { href: `/?player=${encodeURIComponent(r.name)}` }, r.name)),
        h("td", { class: "rating" }, r.rating.toFixed(1)),
        h("td", { class: "rating-change" }, r.last_change === null ? "" : changeText(r.last_change)),
        h("td", {}, String(r.games))));
    return h("section", { class: "card", id: `ratings-${count}` }, h("h2", {}, plural(count, "player")),
      people.length ? null : h("p", { class: "muted" }, "No rated game yet."),
      // In a box of its own that scrolls sideways on a narrow screen, rather than the whole page.
      rows.length
        ? h("div", { class: "table-scroll", role: "region", tabindex: "0", "aria-label": `Ratings, ${plural(count, "player")}` }, h("table", { class: "profile" },
          h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "Player"), h("th", {}, "Rating"), h("th", {}, "Last game"), h("th", {}, "Games"))),
          h("tbody", {}, ...rows.map(row))))
        : null,
      bots.length ? h("p", { class: "muted levels-scale" }, levels.scale) : null);
  });
  clear(app).append(h("h1", {}, `${chosen.title}: ratings`),
    h("p", {}, ...list.map((g) => h("a", { class: "button", href: `/?ratings=${g.name}` }, g.title))),
    h("p", { class: "muted" }, "Rated tables: people only, each signed in, on a deal the server draws. A rating is openskill's μ − 3σ, per player count."),
    ...sections);
}
