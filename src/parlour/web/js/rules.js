// The rules dialog: one click from every page. A module of its own, so the pages that offer it
// (lobby, table, replay, explanations) need not import the router, which imports them.

import { call } from "./api.js";
import { clear, h } from "./dom.js";
import { markdown } from "./markdown.js";

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
