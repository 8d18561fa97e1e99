// Leaving and ending: how a table ended before its game did, and the Concede and Leave buttons.

import { call } from "./api.js";
import { h } from "./dom.js";

/** "expired" or "conceded by Ann" for a table's `ended` ({reason, seat}); "" while none. */
export function endingText(ended, names) {
  if (!ended) return "";
  if (ended.reason === "expired") return "expired: nobody moved for too long";
  const who = names[ended.seat] || `seat ${ended.seat + 1}`;
  if (ended.reason === "conceded") return `conceded by ${who}`;
  if (ended.reason === "left") return `${who} left`;
  return ended.reason;
}

export class ConcedeBox {
  constructor(tableId, held) {
    this.tableId = tableId;
    this.held = held;
    this.button = h("button", { type: "button", id: "concede" }, "Concede");
    this.leaveButton = h("button", { type: "button", id: "leave" }, "Leave the table");
    this.status = h("span", { class: "status", role: "status" });
    this.element = h("div", { class: "controls concede", id: "concede-box", hidden: true },
      this.button, this.leaveButton, this.status);
    this.button.addEventListener("click", () => this.concede());
    this.leaveButton.addEventListener("click", () => this.leave());
  }

  /** Shown to a seat until its game is over; conceding only once the game has started. */
  show(status) {
    this.element.hidden = !(status !== "finished" && this.held());
    this.button.hidden = status !== "running";
  }

  async leave() {
    const said = "Leave this table? Before the game starts your seat is free again; once it runs, a bot plays it " +
      "(at a rated table, leaving concedes the game).";
    if (!window.confirm(said)) return;
    try {
      await call(`/api/tables/${this.tableId}/leave`, { method: "POST", token: this.held().token });
      localStorage.removeItem(`parlour.seat.${this.tableId}`);
      location.assign("/");
    } catch (error) {
      this.status.textContent = error.message;
    }
  }

  async concede() {
    if (!window.confirm("Concede this game? You lose it; this cannot be taken back.")) return;
    try {
      await call(`/api/tables/${this.tableId}/concede`, { method: "POST", token: this.held().token });
      this.element.hidden = true;
    } catch (error) {
      this.status.textContent = error.message;
    }
  }
}

/** The Expel button beside a seat whose time ran out (the clock's `expellable`): asks first, in
 * plain words, and says what happened through `said`. */
export function expelButton(tableId, token, seat, name, said) {
  const ask = `${name} ran out of time: a bot played their last turn. Expel ${name}? A bot then plays that seat `
    + `to the end of the game, and ${name} cannot come back to it.`;
  return h("button", {
    type: "button", class: "expel", id: `expel-${seat}`,
    title: `${name} ran out of time and has not moved since: you may hand the seat to a bot`,
    onclick: async () => {
      if (!window.confirm(ask)) return;
      try {
        await call(`/api/tables/${tableId}/expel`, { method: "POST", token, body: { seat } });
        said(`${name} was expelled: a bot plays that seat to the end of the game.`);
      } catch (error) {
        said(`${name} was not expelled: ${error.message}`);
      }
    },
  }, "Expel");
}
