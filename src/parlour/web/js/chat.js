// A table's chat beside the board: the latest messages (from /api/tables/ID/chat, then each `chat`
// message of the websocket), a box to write in for a seat, and Mute, this browser's own choice.
// Messages are shown as text (textContent), never as HTML. Signed in, a reader may report a
// message to the server's admins, or block its writer's account (their messages are then hidden).

import { account } from "./account.js";
import { call } from "./api.js";
import { clear, h } from "./dom.js";

export class ChatPanel {
  constructor(tableId, send) {
    this.tableId = tableId;
    this.send = send;
    this.muteKey = `parlour.mute.${tableId}`;
    this.log = h("ol", { class: "chat-log", id: "chat-log", "aria-live": "polite" });
    this.muted = h("input", { type: "checkbox", id: "chat-mute", checked: localStorage.getItem(this.muteKey) === "1" });
    this.muted.addEventListener("change", () => this.mute(this.muted.checked));
    this.text = h("input", { type: "text", id: "chat-text", maxlength: 500, "aria-label": "Chat message", autocomplete: "off" });
    this.form = h("form", { class: "chat-form", id: "chat-form", hidden: true }, this.text, h("button", { type: "submit" }, "Send"));
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      // A message that could not be sent (the connection is down) stays in the box to send again.
      if (this.text.value.trim() && this.send(this.text.value) !== false) this.text.value = "";
    });
    this.status = h("p", { class: "status chat-status", id: "chat-status", role: "status" });
    this.me = null;
    this.hidden = new Set(); // seats whose account this reader blocks
    this.element = h("section", { class: "card chat", id: "chat" },
      h("div", { class: "bar" }, h("h2", {}, "Chat"), h("label", { for: "chat-mute" }, this.muted, " Mute")),
      this.log, this.status, this.form);
  }

  /** Whether this browser writes as a seat (spectators read only). */
  seated(yes) {
    this.form.hidden = !yes;
  }

  async load() {
    this.me = await account();
    if (this.muted.checked) return this.showMuted();
    const history = await call(`/api/tables/${this.tableId}/chat`); // without blocked writers' messages
    if (this.me) this.hidden = await this.blockedSeats();
    clear(this.log).append(...history.messages.map((m) => this.entry(m)));
    this.log.scrollTop = this.log.scrollHeight;
  }

  entry(message) {
    const item = h("li", { class: "chat-message", "data-id": message.id, "data-seat": message.seat },
      h("strong", {}, message.name || "a player"), ": ", h("span", { class: "chat-text" }, message.text));
    if (this.me) {
      item.append(" ",
        h("button", { type: "button", class: "link chat-report", title: "Report this message to the admins", onclick: () => this.report(message) }, "Report"),
        h("button", { type: "button", class: "link chat-block", title: "Hide this player's messages from you", onclick: () => this.block(message) }, "Block"));
    }
    return item;
  }

  say(text, failed = false) {
    this.status.textContent = text;
    this.status.classList.toggle("error", failed);
  }

  async report(message) {
    const reason = window.prompt(`Why report this message of ${message.name || "a player"}?`);
    if (!reason || !reason.trim()) return;
    try {
      await call("/api/reports", { method: "POST", body: { table: this.tableId, message: message.id, reason: reason.trim().slice(0, 1000) } });
      this.say("Reported to the admins. Thank you.");
    } catch (error) {
      this.say(error.message, true);
    }
  }

  /** The seats of this table whose accounts the reader blocks. */
  async blockedSeats() {
    const [{ blocked }, table] = await Promise.all([call("/api/account/blocks"), call(`/api/tables/${this.tableId}`)]);
    const seats = Object.entries(table.ratings || {}).filter(([, holder]) => blocked.includes(holder.account));
    return new Set(seats.map(([seat]) => Number(seat)));
  }

  /** Block the account at the message's seat (a guest's seat has none): its messages leave this log. */
  async block(message) {
    try {
      const table = await call(`/api/tables/${this.tableId}`);
      const holder = (table.ratings || {})[String(message.seat)];
      if (!holder) return this.say(`${message.name || "This player"} plays as a guest: there is no account to block.`, true);
      await call("/api/account/blocks", { method: "POST", body: { name: holder.account } });
      this.say(`You blocked ${holder.account}: their messages are hidden from you.`);
      await this.load();
    } catch (error) {
      this.say(error.message, true);
    }
  }

  receive(message) {
    // The server sends a blocked writer's messages to none of this account's seats, but a
    // spectator's connection has no account: its page leaves them out itself.
    if (this.muted.checked || this.hidden.has(message.seat) || this.log.querySelector(`[data-id="${message.id}"]`)) return;
    this.log.append(this.entry(message));
    this.log.scrollTop = this.log.scrollHeight;
  }

  /** An admin removed a message: it leaves the screen too. */
  remove(id) {
    const shown = this.log.querySelector(`[data-id="${id}"]`);
    if (shown) shown.remove();
  }

  showMuted() {
    clear(this.log).append(h("li", { class: "muted", id: "chat-muted" }, "Chat muted (for you only)."));
  }

  mute(on) {
    if (on) localStorage.setItem(this.muteKey, "1");
    else localStorage.removeItem(this.muteKey);
    if (on) this.showMuted();
    else this.load();
  }
}
