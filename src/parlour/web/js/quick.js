// Quick play: "Play now" on a game's card. The player chooses the player count, live or
// turn-based, and how long to wait for people; the page asks the server for a seat
// (POST /api/quick) and looks at its ticket every 2 s until it is seated, then goes to the table.

import { call, saveSeat } from "./api.js";
import { h } from "./dom.js";
import { levelRatings, levelsLine } from "./levels.js";

const WAITS = [
  [0, "no wait: play bots now"],
  [15, "up to 15 seconds"],
  [30, "up to 30 seconds"],
  [60, "up to a minute"],
  [120, "up to 2 minutes"],
];
const LOOK_MS = 2000;

function field(id, label, input) {
  return h("div", { class: "field" }, h("label", { for: id }, label), input);
}

/** The Play now box of a game's card. */
export function quickPlay(game) {
  const id = (name) => `quick-${name}-${game.name}`;
  const players = h("select", { id: id("players") },
    ...game.players.filter((n) => n > 1).map((n) => h("option", { value: n }, `${n} players`)));
  const mode = h("select", { id: id("mode") },
    h("option", { value: "live" }, "live: play now"), h("option", { value: "turn_based" }, "turn-based: a day per move"));
  const wait = h("select", { id: id("wait") }, ...WAITS.map(([seconds, text]) => h("option", { value: seconds, selected: seconds === 30 }, text)));
  const name = h("input", { id: id("name"), type: "text", required: true, maxlength: 40, value: localStorage.getItem("parlour.name") || "", placeholder: "your name" });
  const status = h("p", { class: "status quick-status", role: "status" });
  const cancel = h("button", { type: "button", class: "quick-cancel", hidden: true }, "Stop waiting");
  const go = h("button", { type: "submit", class: "primary" }, "Find a game");
  // Which bots may fill the free seats, and how strong each is here.
  const levels = h("small", { class: "muted quick-levels" }, "Free seats go to a bot level near your rating.");
  levelRatings().then((answer) => levels.append(" ", levelsLine(answer, game.name)), () => {});
  const form = h("form", { class: "quick-form", "aria-label": `Play ${game.title} now` },
    field(id("players"), "Players", players),
    field(id("mode"), "Mode", mode),
    field(id("wait"), "Wait for people", wait),
    field(id("name"), "Your name", name),
    levels,
    h("div", { class: "card-actions" }, go, cancel), status);
  let ticket = null;
  let timer = null;

  const stop = () => {
    clearTimeout(timer);
    ticket = null;
    go.disabled = false;
    cancel.hidden = true;
  };
  const show = (answer) => {
    if (answer.status === "seated") {
      saveSeat(answer.table, { token: answer.token, seat: answer.seat, name: answer.name, account: null });
      status.textContent = "Found a table: taking your seat…";
      location.assign(`/?table=${answer.table}`);
      return;
    }
    ticket = answer.ticket;
    const people = answer.people_waiting > 1 ? `${answer.people_waiting} players are waiting for this game` : "You are the only one waiting for this game so far";
    const bots = answer.bots_in_seconds > 0 ? `; bots take the free seats in ${Math.ceil(answer.bots_in_seconds)} s` : "; bots take the free seats now";
    status.textContent = people + bots + ".";
    timer = setTimeout(look, LOOK_MS);
  };
  const fail = (error) => {
    stop();
    status.textContent = error.message;
    status.classList.add("error");
  };
  const look = () => {
    if (!ticket || !document.body.contains(form)) return;
    call(`/api/quick/${encodeURIComponent(ticket)}`).then(show, fail);
  };

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    status.classList.remove("error");
    status.textContent = "Looking for players…";
    go.disabled = true;
    cancel.hidden = false;
    localStorage.setItem("parlour.name", name.value);
    call("/api/quick", {
      method: "POST",
      body: { game: game.name, players: Number(players.value), mode: mode.value, wait_seconds: Number(wait.value), name: name.value },
    }).then(show, fail);
  });
  cancel.addEventListener("click", () => {
    const leaving = ticket;
    stop();
    status.textContent = "You stopped waiting.";
    if (leaving) call(`/api/quick/${encodeURIComponent(leaving)}`, { method: "DELETE" }).catch(() => {});
  });
  form.id = id("form");
  form.hidden = true;
  const open = h("button", { type: "button", class: "primary play-now", "aria-expanded": "false", "aria-controls": form.id }, "Play now");
  open.addEventListener("click", () => {
    form.hidden = !form.hidden;
    open.setAttribute("aria-expanded", String(!form.hidden));
    if (!form.hidden) players.focus();
  });
  return h("div", { class: "quick" }, open, form);
}
