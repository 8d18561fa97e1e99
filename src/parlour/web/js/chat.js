// A table's chat beside the board: the latest messages (from /api/tables/ID/chat, then each `chat`
// message of the websocket), a box to write in for a seat, and Mute, this browser's own choice.
// Messages are shown as text (textContent), never as HTML.

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
    this.element = h("section", { class: "card chat", id: "chat" },
      h("div", { class: "bar" }, h("h2", {}, "Chat"), h("label", { for: "chat-mute" }, this.muted, " Mute")),
      this.log, this.form);
  }

  /** Whether this browser writes as a seat (spectators read only). */
  seated(yes) {
    this.form.hidden = !yes;
  }

  async load() {
    if (this.muted.checked) return this.showMuted();
    const history = await call(`/api/tables/${this.tableId}/chat`);
    clear(this.log).append(...history.messages.map((m) => this.entry(m)));
    this.log.scrollTop = this.log.scrollHeight;
  }

  entry(message) {
    return h("li", { class: "chat-message", "data-id": message.id },
      h("strong", {}, message.name || "a player"), ": ", h("span", { class: "chat-text" }, message.text));
  }

  receive(message) {
    if (this.muted.checked || this.log.querySelector(`[data-id="${message.id}"]`)) return;
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
