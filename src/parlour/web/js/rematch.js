// Rematch: at the end of a game, one click opens (or joins) the same players' next table.

import { account } from "./account.js";
import { call, saveSeat } from "./api.js";
import { h } from "./dom.js";

export class RematchBox {
  constructor(tableId, held) {
    this.tableId = tableId;
    this.held = held;
    this.button = h("button", { type: "button", class: "primary", id: "rematch" }, "Rematch");
    this.status = h("span", { class: "status", role: "status" });
    this.element = h("div", { class: "controls rematch", id: "rematch-box", hidden: true }, this.button, this.status);
    this.button.addEventListener("click", () => this.take());
  }

  /** Shown once the game is over, to a seat of it. */
  show(finished) {
    this.element.hidden = !(finished && this.held());
  }

  /** Another player opened the rematch: this button now joins it. */
  offered(tableId) {
    if (tableId) this.button.textContent = "Join the rematch";
  }

  async take() {
    try {
      await account(); // signed in, the new seat is the account's (the request carries the CSRF token)
      const seat = await call(`/api/tables/${this.tableId}/rematch`, { method: "POST", token: this.held().token });
      saveSeat(seat.table, { token: seat.token, seat: seat.seat, name: seat.name, account: seat.account });
      location.assign(`/?table=${seat.table}`);
    } catch (error) {
      this.status.textContent = error.message;
    }
  }
}
