// The page router: the lobby at /, a table at /?table=ID, the replay of a finished game at /?replay=ID,
// the account page at /?account, my games at /?games, a player's profile at /?player=NAME,
// the leaderboards at /?ratings=GAME, the admin page at /?admin, a game's lesson at /?learn=GAME.

import { showAccount, showNav } from "./account.js";
import { showAdmin } from "./admin.js";
import { showMyGames, showProfile } from "./games_page.js";
import { clear, h } from "./dom.js";
import { startLesson } from "./learn.js";
import { showLobby } from "./lobby.js";
import { showRatings } from "./ratings.js";
import { showReplay } from "./replay.js";
import { showTable } from "./table.js";

function route() {
  const params = new URLSearchParams(location.search);
  const app = document.getElementById("app");
  showNav().catch(() => {});
  if (params.has("account")) return showAccount(app);
  if (params.has("admin")) return showAdmin(app);
  if (params.has("games")) return showMyGames(app);
  if (params.get("player")) return showProfile(app, params.get("player"));
  if (params.get("ratings")) return showRatings(app, params.get("ratings"));
  if (params.get("learn") && !params.get("table")) return startLesson(app, params.get("learn"));
  if (params.get("table")) return showTable(app, params.get("table"));
  if (params.get("replay")) return showReplay(app, params.get("replay"), Number(params.get("ply") || 0));
  return showLobby(app);
}

route().catch((error) => {
  const app = clear(document.getElementById("app"));
  app.append(h("p", { class: "error", role: "alert" }, error.message), h("p", {}, h("a", { href: "/" }, "Back to the lobby")));
});
