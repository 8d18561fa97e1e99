// "My games" (/?games): the signed-in player's tables from any device, by where each stands, with
// Resume; and a player's profile (/?player=NAME): games played and won, per game.

import { account } from "./account.js";
import { call, games } from "./api.js";
import { clear, h } from "./dom.js";
import { seatNames } from "./explain.js";

const SECTIONS = [
  ["your_turn", "Your turn"],
  ["their_turn", "Others' turn"],
  ["waiting", "Waiting for players"],
  ["finished", "Finished"],
];

/** Who plays, by name (bots by their kind), "you" for the account's own seat: never seat numbers. */
function seatsText(table) {
  return seatNames(table.seats).map((name, i) => (i === table.seat ? `${name} (you)` : name)).join(" · ");
}

function entry(table) {
  const link = table.where === "finished"
    ? h("a", { class: "button", href: `/?replay=${table.id}` }, "Replay")
    : h("a", { class: "button primary", href: `/?table=${table.id}&resume=1` }, "Resume");
  return h("li", { class: "card my-game", "data-table": table.id, "data-where": table.where },
    h("strong", {}, table.title), " — ", seatsText(table), " ", link);
}

/** The page title, marked with how many tables wait for the player's move. */
export function markTitle(title, yourTurn) {
  document.title = yourTurn > 0 ? `(${yourTurn}) ${title}` : title;
}

export async function showMyGames(app) {
  const me = await account();
  if (!me) {
    clear(app).append(h("h1", {}, "My games"), h("p", {}, h("a", { href: "/?account" }, "Sign in"), " to see your games on every device."));
    return;
  }
  const mine = await call("/api/account/games");
  markTitle("parlour — my games", mine.your_turn);
  const sections = SECTIONS.map(([where, title]) => {
    const tables = mine.tables.filter((t) => t.where === where);
    return h("section", { id: `games-${where}` }, h("h2", {}, `${title} (${tables.length})`),
      tables.length ? h("ul", { class: "my-games" }, ...tables.map(entry)) : h("p", { class: "muted" }, "None."));
  });
  clear(app).append(h("h1", {}, "My games"),
    h("p", {}, h("a", { href: `/?player=${encodeURIComponent(me.name)}`, id: "my-profile" }, "My profile")), ...sections);
}

export async function showProfile(app, name) {
  const [player, list] = await Promise.all([call(`/api/players/${encodeURIComponent(name)}`), games()]);
  const titles = Object.fromEntries(list.map((game) => [game.name, game.title])); // a game by its title, not its id
  document.title = `parlour — ${player.name}`;
  const rows = Object.entries(player.games).map(([game, counts]) =>
    h("tr", {}, h("td", {}, titles[game] || game), h("td", {}, String(counts.played)), h("td", {}, String(counts.won))));
  clear(app).append(
    h("h1", {}, player.name),
    h("p", { id: "profile-totals" }, `Games played: ${player.played} · won: ${player.won}`),
    h("table", { class: "profile", id: "profile-games" },
      h("thead", {}, h("tr", {}, h("th", {}, "Game"), h("th", {}, "Played"), h("th", {}, "Won"))),
      h("tbody", {}, ...rows)));
}
