// The page router: the lobby at /, a table at /?table=ID, the replay of a finished game at /?replay=ID,
// the account page at /?account, my games at /?games, a player's profile at /?player=NAME,
// the leaderboards at /?ratings=GAME.

import { showAccount, showNav } from "./account.js";
import { call } from "./api.js";
import { showMyGames, showProfile } from "./games_page.js";
import { clear, h } from "./dom.js";
import { showLobby } from "./lobby.js";
import { markdown } from "./markdown.js";
import { showRatings } from "./ratings.js";
import { showReplay } from "./replay.js";
import { showTable } from "./table.js";

/** Open the rules of a game in the dialog (one click from every page). */
export async function openRules(game) {
  const dialog = document.getElementById("rules-dialog");
  const body = document.getElementById("rules-body");
  body.innerHTML = "<p class='muted'>Loading the rules…</p>";
  dialog.showModal();
  try {
    body.innerHTML = markdown(await call(`/api/games/${game}/rules`));
  } catch (error) {
    clear(body).append(h("p", { class: "error" }, error.message));
  }
}

function route() {
  const params = new URLSearchParams(location.search);
  const app = document.getElementById("app");
  showNav().catch(() => {});
  if (params.has("account")) return showAccount(app);
  if (params.has("games")) return showMyGames(app);
  if (params.get("player")) return showProfile(app, params.get("player"));
  if (params.get("ratings")) return showRatings(app, params.get("ratings"));
  if (params.get("table")) return showTable(app, params.get("table"));
  if (params.get("replay")) return showReplay(app, params.get("replay"), Number(params.get("ply") || 0));
  return showLobby(app);
}

route().catch((error) => {
  const app = clear(document.getElementById("app"));
  app.append(h("p", { class: "error", role: "alert" }, error.message), h("p", {}, h("a", { href: "/" }, "Back to the lobby")));
});
