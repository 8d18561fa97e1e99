// Leaving and ending: how a table ended before its game did, and the button that concedes.

import { call } from "./api.js";
import { h } from "./dom.js";

/** "expired" or "conceded by Ann" for a table's `ended` ({reason, seat}); "" while none. */
export function endingText(ended, names) {
  if (!ended) return "";
  if (ended.reason === "expired") return "expired: nobody moved for too long";
  if (ended.reason === "conceded") return `conceded by ${names[ended.seat] || `seat ${ended.seat + 1}`}`;
  return ended.reason;
}

export class ConcedeBox {
  constructor(tableId, held) {
    this.tableId = tableId;
    this.held = held;
    this.button = h("button", { type: "button", id: "concede" }, "Concede");
    this.status = h("span", { class: "status", role: "status" });
    this.element = h("div", { class: "controls concede", id: "concede-box", hidden: true }, this.button, this.status);
    this.button.addEventListener("click", () => this.concede());
  }

  /** Shown to a seat while its game runs. */
  show(running) {
    this.element.hidden = !(running && this.held());
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
