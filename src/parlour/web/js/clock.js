// The clock of a turn-based table (/api/tables/ID/clock): the time per move, the time left to the
// seat to move, and what happens when it runs out; and the lobby's fields to open such a table.

import { call } from "./api.js";
import { h } from "./dom.js";
import { seatNames } from "./explain.js";

export const MOVE_TIMES = [
  [3600, "1 hour"],
  [8 * 3600, "8 hours"],
  [86400, "1 day"],
  [3 * 86400, "3 days"],
];

export const TIME_BANKS = [
  [5 * 60, "5 minutes"],
  [15 * 60, "15 minutes"],
  [30 * 60, "30 minutes"],
];

export function duration(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  if (days) return `${days}d ${hours}h`;
  if (hours) return `${hours}h ${minutes}m`;
  if (minutes) return `${minutes}m ${s % 60}s`;
  return `${s}s`;
}

/** The lobby's mode fields: live (optionally with a time bank per seat), or turn-based with a
 * time per move; and, for either clock, what happens when it runs out. */
export function modeFields() {
  const mode = h("select", { id: "mode", name: "mode" },
    h("option", { value: "live" }, "live (real time)"), h("option", { value: "turn_based" }, "turn-based (a time per move)"));
  const moveTime = h("select", { id: "move-seconds", name: "move_seconds" },
    ...MOVE_TIMES.map(([seconds, text]) => h("option", { value: seconds, selected: seconds === 86400 }, text)));
  const bank = h("select", { id: "time-bank", name: "time_bank_seconds" },
    h("option", { value: "" }, "none"), ...TIME_BANKS.map(([seconds, text]) => h("option", { value: seconds }, text)));
  const onTimeout = h("select", { id: "on-timeout", name: "on_timeout" },
    h("option", { value: "bot" }, "a bot plays that turn"), h("option", { value: "forfeit" }, "the seat is forfeited to a bot"));
  const perMove = h("div", { class: "field", hidden: true }, h("label", { for: "move-seconds" }, "Time per move"), moveTime);
  const banked = h("div", { class: "field" }, h("label", { for: "time-bank" }, "Time bank each"), bank);
  const whenOut = h("div", { class: "field", hidden: true }, h("label", { for: "on-timeout" }, "When time runs out"), onTimeout);
  const update = () => {
    const turnBased = mode.value === "turn_based";
    perMove.hidden = !turnBased;
    banked.hidden = turnBased;
    whenOut.hidden = !(turnBased || bank.value);
  };
  mode.addEventListener("change", update);
  bank.addEventListener("change", update);
  const element = h("div", {}, h("div", { class: "field" }, h("label", { for: "mode" }, "Mode"), mode), perMove, banked, whenOut);
  const body = () => {
    if (mode.value === "turn_based") return { mode: "turn_based", move_seconds: Number(moveTime.value), on_timeout: onTimeout.value };
    return bank.value ? { time_bank_seconds: Number(bank.value), on_timeout: onTimeout.value } : {};
  };
  return { element, body };
}

/** The table page's clock line: refreshed after every move, counting down every second. */
export class ClockLine {
  /** `seat`: the seat this page plays (spoken to as "you"), or null for a spectator. */
  constructor(tableId, seat = null) {
    this.tableId = tableId;
    this.seat = seat;
    this.element = h("p", { class: "clock", id: "clock", hidden: true });
    this.clock = null;
    this.timer = setInterval(() => this.show(), 1000);
  }

  async refresh(seats, running) {
    this.seats = seats;
    this.running = running;
    this.clock = await call(`/api/tables/${this.tableId}/clock`);
    this.fetchedAt = Date.now();
    if (this.fetched) this.fetched(this.clock);
    this.show();
    // The server sets a turn's deadline within a moment of the move: until then, ask again.
    clearTimeout(this.again);
    if (this.clock.mode === "turn_based" && this.clock.deadline === null && running) {
      this.again = setTimeout(() => this.refresh(this.seats, this.running).catch(() => {}), 500);
    }
  }

  show() {
    const clock = this.clock;
    if (!clock || (clock.mode !== "turn_based" && !clock.time_banks)) {
      this.element.hidden = true;
      return;
    }
    this.element.hidden = false;
    const yours = clock.to_move === this.seat && this.seat !== null;
    const then = clock.on_timeout === "forfeit" ? `then ${yours ? "your" : "the"} seat is forfeited to a bot` : `then a bot plays ${yours ? "your" : "the"} turn`;
    // Seats by name (a bot by its kind), never by number; this page's own seat is "you".
    const name = (i) => (i === this.seat ? "you" : seatNames(this.seats)[i] || "a free seat");
    if (clock.time_banks) return this.showBanks(clock, name, then);
    let text = `Turn-based: ${duration(clock.move_seconds)} per move`;
    if (clock.seconds_left !== null) {
      const left = clock.seconds_left - (Date.now() - this.fetchedAt) / 1000;
      text += ` — ${yours ? "you have" : `${name(clock.to_move)} has`} ${duration(left)} left (${then}).`;
      this.element.dataset.toMove = String(clock.to_move);
    } else {
      text += ".";
    }
    this.element.textContent = text;
  }

  /** A live table's time banks, the one being spent counting down. */
  showBanks(clock, name, then) {
    const spent = (Date.now() - this.fetchedAt) / 1000;
    const banks = clock.time_banks.map((left, i) => {
      const now = clock.seconds_left !== null && i === clock.to_move ? clock.seconds_left - spent : left;
      const who = name(i);
      return `${who.charAt(0).toUpperCase()}${who.slice(1)} ${duration(now)}`;
    });
    this.element.textContent = `Time banks: ${banks.join(" · ")} (${then} when one runs out).`;
    if (clock.to_move !== null) this.element.dataset.toMove = String(clock.to_move);
  }
}
