// A table: the board drawn by the game's module, the move picker, the list of legal moves, the
// players, the game log, hints, and the final scores. Talks to the server through transport.js.

import { account, claimButton, resumeSeat } from "./account.js";
import { call, savedSeat, saveSeat } from "./api.js";
import { ChatPanel } from "./chat.js";
import { ClockLine } from "./clock.js";
import { ratingText } from "./ratings.js";
import { RematchBox } from "./rematch.js";
import { ConcedeBox, endingText, expelButton } from "./leaving.js";
import { asAccount } from "./joining.js";
import { cap, clear, h } from "./dom.js";
import { openRules } from "./rules.js";
import { TableSocket } from "./transport.js";
import { fixedDealWarning, noteDeal, showDeal } from "./deal.js";
import { TurnAlerts } from "./alerts.js";
import { annotate, glossary, nameSeats, seatNames, withRuleLinks } from "./explain.js";
import { loadModule } from "./games/index.js";
import { BoardMotion, motionless, SLIDE_MS } from "./motion.js";
import { coachFor } from "./learn.js";
import { Picker } from "./picker.js";
import { noteSideways, padForBar, revealSideways } from "./frames.js";
import { playerPanel } from "./panel.js";
import { scoreTable } from "./scores.js";
import { reviewPanel } from "./review.js";

const REFUSED = new Set(["stale_version", "illegal_action", "unknown_action", "not_your_turn", "game_over", "waiting", "storage_error"]);
const COLOURS = ["#d4a017", "#7b3fa0", "#2a7ab9", "#c0392b", "#2e8b57", "#555"];

/** A seat by its name (a person's name, or the kind of bot), never by its number. */
export function seatName(seats, index) {
  return seatNames(seats)[index] || "a free seat";
}

/** One log entry: who moved, what (when they may know), and what happened, in words. */
export function logEntry(seats, step, phrase = (text) => text) {
  const who = step.actor >= 0 ? seatName(seats, step.actor) : "the game";
  const names = seatNames(seats);
  // A line for the reader alone may speak to her ("you keep Peru in your atelier"): a sentence of its own.
  const texts = (step.events || []).map((e) => e.text).filter((t) => t && t !== step.label).map((text) => phrase(nameSeats(text, names)).replace(/^you\b/, "You"));
  // A sentence starts with a capital, unless it starts with a square's name ("e4 now wears…").
  const sentence = (text) => (/^[a-z]\d/.test(text) ? text : cap(text));
  // One line per move, in the events' own sentences (which name the player): the first is the line,
  // what followed from it under it. The same whether the move's words are known (one's own, or any
  // once the game is over) or not (another seat's, during play), so the log never changes its words.
  if (texts.length) {
    const item = h("li", {}, sentence(texts[0]));
    if (texts.length > 1) item.append(h("ul", {}, ...texts.slice(1).map((t) => h("li", {}, sentence(t)))));
    return item;
  }
  // A move that told the others nothing is still listed, so none seems lost.
  return h("li", {}, h("strong", {}, who), step.label ? `: ${phrase(step.label)}` : " moved (no public details)");
}

/** A drawing with targets is a group of buttons, not one image. A target is named by its <title>
 * (what it is, then what it does: also its tooltip), not by an aria-label that would leave out the
 * words drawn on it. */
function accessible(board) {
  for (const drawing of board.querySelectorAll("svg.board")) if (drawing.querySelector("[data-key]")) drawing.setAttribute("role", "group");
  for (const node of board.querySelectorAll("svg [data-key][aria-label]")) {
    const title = [...node.children].find((child) => child.tagName === "title");
    if (title) node.removeAttribute("aria-label");
  }
}

/** The hint in a player's words: the move, and how sure the bot is of it. */
function hintWords(answer, phrase) {
  const move = phrase(answer.action.label);
  const share = /in (\d+)% of/.exec(answer.text || "");
  if (!share) return `The only move you can play: ${move}. It is marked on the board.`;
  return `The bot would play: ${move} (marked on the board). It chose this move in ${share[1]}% of its simulations.`;
}

async function joinForm(app, tableId, summary) {
  const free = summary.seats.filter((s) => !s.taken);
  const name = h("input", { id: "join-name", type: "text", required: true, maxlength: 40, value: localStorage.getItem("parlour.name") || "" });
  const seat = h("select", { id: "join-seat" }, ...free.map((s) => h("option", { value: s.seat }, `Place ${s.seat + 1} in the turn order`)));
  const status = h("p", { class: "status", role: "status" });
  const form = h("form", { class: "card join" },
    h("h2", {}, `Join ${summary.title}`),
    summary.deal && summary.deal.fixed ? fixedDealWarning() : null,
    h("p", {}, "Seats: ", seatNames(summary.seats).join(" · ")),
    h("div", { class: "field" }, h("label", { for: "join-name" }, "Your name"), name),
    h("div", { class: "field" }, h("label", { for: "join-seat" }, "Seat"), seat),
    h("button", { type: "submit", class: "primary", id: "join" }, "Take the seat"),
    " ",
    h("a", { class: "button", href: `/?table=${tableId}&watch=1` }, "Just watch"),
    status);
  clear(app).append(form);
  name.focus();
  asAccount(name); // signed in: the account's name, nothing to type
  return new Promise((resolve) => {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        await account(); // signed in, the seat is the account's (the join carries the CSRF token)
        const taken = await call(`/api/tables/${tableId}/join`, { method: "POST", body: { name: name.value, seat: Number(seat.value) } });
        localStorage.setItem("parlour.name", name.value);
        const held = { token: taken.token, seat: taken.seat, name: taken.name, account: taken.account };
        saveSeat(tableId, held);
        resolve(held);
      } catch (error) {
        status.textContent = error.message;
        status.classList.add("error");
      }
    });
  });
}

export async function showTable(app, tableId) {
  const watch = new URLSearchParams(location.search).get("watch") === "1";
  let summary = await call(`/api/tables/${tableId}`);
  noteDeal(tableId, summary.deal);
  const resume = new URLSearchParams(location.search).get("resume") === "1";
  let held = watch ? null : (resume && (await resumeSeat(tableId))) || savedSeat(tableId);
  if (!held && !watch && summary.status === "open") held = await joinForm(app, tableId, summary);
  if (summary.status === "finished" && !held) {
    location.replace(`/?replay=${tableId}`);
    return;
  }
  const module = await loadModule(summary.game);
  const [words, , coach] = await Promise.all([glossary(summary.game), module.prepare ? module.prepare(summary) : null, coachFor(summary.game)]);
  const page = new TablePage(app, summary, held, module, words);
  page.coach = coach; // a lesson's coach (learn.js), or null
  page.start();
}

class TablePage {
  constructor(app, summary, held, module, words) {
    this.app = app;
    this.words = words;
    // The game's words for its own codes (Yamataï's B06, I14, S037), in the log and on buttons.
    // Given the seats' names, so that a module may call a player by name (Hatairo's "Red pays Red").
    this.phrase = module.phrase ? (text) => module.phrase(text, seatNames(this.seats())) : (text) => text;
    this.summary = summary;
    this.held = held;
    this.module = module;
    this.seat = held ? held.seat : null;
    this.version = -1;
    this.message = null;
    this.waiting = [];
    this.picker = new Picker(module, (action) => this.play(action));
    this.build();
  }

  build() {
    const game = this.summary.game;
    document.title = `parlour — ${this.summary.title}`;
    this.status = h("p", { class: "turn", id: "turn", role: "status", "aria-live": "polite" });
    this.explain = h("p", { class: "explain", id: "explain", role: "alert" });
    // A region of its own, focusable, since a drawing too wide for a phone scrolls inside it.
    this.board = h("div", { class: "board-area", id: "board", role: "region", "aria-label": "The table", tabindex: "0" });
    this.motion = new BoardMotion(this.board);
    this.choices = h("div", { class: "choices", id: "choices", role: "group", "aria-label": "Moves that are not on the board" });
    this.backButton = h("button", { type: "button", id: "back", onclick: () => this.back() }, "← Back");
    // Takes back a step the server holds tentative (shown only while there is one; off with --no-undo).
    const undoHelp = "Take back your last step. Only you see this turn's steps until the turn passes or one shows something hidden; then they stay.";
    this.undoButton = h("button", { type: "button", id: "undo", hidden: true, title: undoHelp, onclick: () => this.socket.send({ type: "undo" }) }, "↶ Undo step");
    this.moveSelect = h("select", { id: "moves", "aria-label": "Every legal move" });
    this.playButton = h("button", { type: "button", id: "play-move", class: "primary", onclick: () => this.playSelected() }, "Play");
    this.hintButton = h("button", { type: "button", id: "hint", onclick: () => this.hint() }, "Hint");
    this.hintText = h("p", { class: "hint", id: "hint-text", hidden: true });
    this.detail = h("p", { class: "detail", id: "detail", "aria-live": "polite" });
    this.players = h("div", { class: "players", id: "players" });
    this.alerts = new TurnAlerts(this.summary.title);
    this.deal = h("section", { class: "card deal", id: "deal" });
    this.result = h("section", { class: "card result", id: "result", hidden: true });
    this.log = h("ol", { class: "log", id: "log", "aria-live": "polite", "aria-label": "Game log", tabindex: "0" }); // it scrolls: focusable
    this.chat = new ChatPanel(this.summary.id, (text) => this.socket.send({ type: "chat", text }));
    this.chat.seated(this.seat !== null);
    this.clock = new ClockLine(this.summary.id, this.seat);
    // Seats whose time ran out and that the others may expel (the clock's answer), and what an expel did.
    this.expellable = [];
    this.clock.fetched = (clock) => this.expellableNow(clock.expellable || []);
    this.expelStatus = h("p", { class: "status", id: "expel-status", role: "status" });
    this.rematch = new RematchBox(this.summary.id, () => this.held);
    this.rematch.offered(this.summary.rematch);
    this.concede = new ConcedeBox(this.summary.id, () => this.held);
    const rules = h("button", { type: "button", id: "rules", onclick: () => openRules(game) }, "Rules");
    const invite = h("button", { type: "button", id: "invite", onclick: () => this.copyInvite(invite) }, "Invite link");

    clear(this.app).append(
      h("div", { class: "table-page" },
        h("section", { class: "play" },
          h("div", { class: "bar" }, h("h1", {}, this.summary.title), rules, invite),
          this.clock.element, this.result, this.rematch.element, this.concede.element, this.board,
          // What to do, why a click was refused, the hint and the move buttons stay in view while one plays.
          h("div", { class: "action-bar", id: "action-bar" },
            this.status, this.explain, this.hintText,
            h("div", { class: "controls" }, this.backButton, this.undoButton, this.choices, this.hintButton),
            this.detail),
          h("div", { class: "controls move-list" }, h("label", { for: "moves" }, "All legal moves"), this.moveSelect, this.playButton)),
        h("aside", { class: "side" }, this.players, this.alerts.element, this.deal, h("h2", {}, "Game log"), this.log, this.chat.element)));

    padForBar(this.app.querySelector("#action-bar"));
    // A phone turned, a window resized: the frames that scroll sideways are not the same.
    window.addEventListener("resize", () => this.message && this.frame());
    this.board.addEventListener("click", (event) => this.boardClick(event));
    // What a component does, for the one pointed at, focused or tapped (a phone has no hover).
    for (const type of ["pointerover", "focusin"]) {
      for (const area of [this.board, this.choices]) area.addEventListener(type, (event) => this.showDetail(event.target));
    }
    this.board.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        const target = event.target.closest("[data-key]");
        if (target) {
          event.preventDefault();
          this.boardClick(event);
        }
      }
    });
    // Focus follows the play only for someone using the keyboard (a mouse user's page must not jump).
    document.addEventListener("keydown", () => (this.byKeyboard = true), true);
    document.addEventListener("pointerdown", () => (this.byKeyboard = false), true);
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && !document.getElementById("rules-dialog").open) this.back();
    });
  }

  start() {
    this.loadLog();
    this.chat.load().catch((error) => this.showExplain(error.message));
    this.connect();
    claimButton(this.summary.id, this.held).then((button) => button && this.players.before(button));
  }

  async loadLog() {
    try {
      const log = await call(`/api/tables/${this.summary.id}/log`, { token: this.held && this.held.token });
      clear(this.log).append(...log.steps.map((step) => logEntry(this.seats(), step, this.phrase)));
      // Opened or reloaded after the rival's turn: that turn is marked from the log, as it would have been live.
      if (this.turnActor === undefined) this.markFromLog(log.steps);
      for (const [version, entry] of this.waiting) if (version > log.version) this.log.append(entry);
      this.loggedUpTo = Math.max(log.version, ...this.waiting.map(([version]) => version));
      this.waiting = [];
      this.log.scrollTop = this.log.scrollHeight;
    } catch (error) {
      this.showExplain(error.message);
    }
  }

  appendLog(entry) {
    if (this.markLogged) entry.classList.add("last-turn");
    this.markLogged = false;
    this.log.append(entry);
    this.log.scrollTop = this.log.scrollHeight;
  }

  seats() {
    return (this.message && this.message.seats) || this.summary.seats;
  }

  connect() {
    this.socket = new TableSocket(this.summary.id, {
      token: () => (this.held ? this.held.token : undefined),
      receive: (message) => this.receive(message),
      wanted: () => document.body.contains(this.board),
    });
    this.socket.connect();
  }

  receive(message) {
    if (message.type === "chat") return this.chat.receive(message);
    if (message.type === "chat_removed") return this.chat.remove(message.id);
    if (message.type === "rematch") return this.rematch.offered(message.rematch);
    if (message.type === "expellable") return this.expellableNow(message.seats);
    if (message.type === "error") {
      this.showExplain(message.message);
      // A refused move (the table moved on, or the move is no longer legal): fetch the position again.
      if (REFUSED.has(message.code)) this.socket.send({ type: "sync" });
      if (message.code === "bad_token") {
        localStorage.removeItem(`parlour.seat.${this.summary.id}`);
        this.held = null;
        this.seat = null;
        this.clock.seat = null;
        this.chat.seated(false);
      }
      return;
    }
    if (message.type !== "sync" && message.type !== "update") return;
    if (message.type === "update") {
      // Marked before it is logged, so that its own log line carries the mark.
      const current = message.version >= this.version;
      if (current) this.markTurn(message);
      // Only a position past the one shown is drawn. The steps this seat held tentative come back as
      // updates once its turn is committed, each at a version already shown (or older), and with the
      // legal moves of that moment: drawn, they would offer again for an instant a turn already played.
      const newer = message.version > this.version;
      const entry = logEntry(message.seats || this.seats(), { actor: message.actor, label: message.action ? message.action.label : null, events: message.events }, this.phrase);
      // Until the earlier log has arrived, moves wait in order so that none is shown twice or lost.
      // Logged even when the position is older than the one shown: a turn's tentative steps arrive
      // as updates once they are committed.
      if (this.loggedUpTo === undefined) this.waiting.push([message.version, entry]);
      else if (message.version > this.loggedUpTo) {
        this.appendLog(entry);
        this.loggedUpTo = message.version;
      }
      if (!newer) return;
    }
    // A sync is the server's whole position and always replaces the page's (after an undo its
    // version is lower than the tentative one shown).
    this.message = { ...message, seats: message.seats || (this.message && this.message.seats) || this.summary.seats };
    this.version = message.version;
    this.picker.reset(message.legal || []);
    this.hintText.hidden = true;
    this.hinted = null;
    // Another seat's move is shown by motion over the board drawn at once in its final state.
    const rival = message.type === "update" && message.actor !== this.seat && !motionless();
    if (rival) this.motion.capture();
    else this.motion.still();
    this.render();
    if (this.coach) this.coach.update(this);
    if (rival) this.motion.play();
    this.clock.refresh(this.message.seats, message.status === "running").catch(() => {});
    this.rematch.show(message.status === "finished");
    this.concede.show(message.status);
    // The tab says so when this seat must move, to be seen from another tab.
    const mine = message.status === "running" && message.to_move === this.seat && this.seat !== null;
    document.title = `${mine ? "Your turn — " : ""}parlour — ${this.summary.title}`;
    this.alerts.update(mine);
    if (message.type === "update" && message.actor !== this.seat) this.slide(message.events || []);
    if (message.deal) this.renderDeal(message.deal);
    // Once the game is over every move may be named: the log is fetched again with all the words.
    if (message.status === "finished" && !this.fullLog) {
      this.fullLog = true;
      this.loggedUpTo = undefined;
      this.loadLog();
    }
  }

  /** What the last turn of another seat touched, every sub-step of it (a placement and then the pig,
   * sets and then the pass), marked until that seat plays again; this seat's own steps leave it shown. */
  markTurn(message) {
    const keys = this.module.touched ? message.events.flatMap((e) => this.module.touched(e)) : [];
    const actor = message.actor;
    if (this.seat !== null && actor === this.seat) {
      this.turnActor = actor;
      return;
    }
    if (actor >= 0 && actor !== this.turnActor) {
      this.turnActor = actor;
      this.lastKeys = new Set();
      for (const entry of this.log.querySelectorAll(".last-turn")) entry.classList.remove("last-turn");
    }
    this.lastKeys = this.lastKeys || new Set();
    for (const key of keys) this.lastKeys.add(key);
    this.markLogged = true;
  }

  /** Slide the pieces another seat's move displaced (the module's `slides`) from where they stood to
   * where they are now, so that one sees what happened. */
  slide(events) {
    if (!this.module.slides || motionless()) return;
    for (const [from, to, selector] of events.flatMap((event) => this.module.slides(event))) {
      const start = this.board.querySelector(`[data-key="${from}"]`);
      const end = this.board.querySelector(`[data-key="${to}"]`);
      const piece = end && end.querySelector(selector);
      const scale = piece && piece.ownerSVGElement ? piece.ownerSVGElement.getScreenCTM() : null;
      if (!start || !piece || !scale) continue;
      const [a, b] = [start.getBoundingClientRect(), end.getBoundingClientRect()];
      const offset = `translate(${(a.x - b.x) / scale.a}px, ${(a.y - b.y) / scale.d}px)`;
      piece.animate([{ transform: offset }, { transform: "none" }], { duration: SLIDE_MS, easing: "ease-out", id: "slide" });
    }
  }

  markFromLog(steps) {
    const entries = [...this.log.children];
    steps.forEach((step, i) => {
      this.markTurn(step);
      if (this.markLogged) entries[i].classList.add("last-turn");
      this.markLogged = false;
    });
    if (this.message) this.decorate();
  }

  render() {
    const message = this.message;
    const seats = this.seats();
    const mine = message.legal && message.legal.length > 0;
    if (message.status === "finished") this.status.textContent = message.ended ? `The table ended: ${endingText(message.ended, seatNames(seats))}.` : "The game is over.";
    else if (message.status === "open") this.status.textContent = "Waiting for every seat to be taken — share the invite link.";
    else if (mine) this.status.textContent = "Your turn: " + this.stepPrompt();
    else this.status.textContent = `Waiting for ${seatName(seats, message.to_move)}.`;
    // Opened without a seat of its own (another browser, a cleared one) and not asked to watch:
    // the person may be a player who lost their seat's key, so say how to take the seat back.
    const watching = new URLSearchParams(location.search).get("watch") === "1";
    if (this.seat === null && !watching && message.status === "running") {
      this.status.textContent += " You are watching. If a seat here is yours, sign in with the account you joined with"
        + " and use Resume in My games, or open this table in the browser you joined from.";
    }
    this.status.classList.toggle("mine", Boolean(mine));

    const context = { seat: this.seat, seats, colours: COLOURS, names: seats.map((_, i) => seatName(seats, i)), toMove: message.to_move };
    // A keyboard player whose focus was on the board or a move button keeps it there after the redraw.
    const focused = this.board.contains(document.activeElement) || this.choices.contains(document.activeElement) || this.keepFocus;
    this.keepFocus = focused && !mine;
    clear(this.board).append(this.module.draw(message.view, context));
    // The component last pointed at may be gone or changed: its words go with the old drawing.
    this.detail.textContent = "";
    annotate(this.board, this.words);
    accessible(this.board);
    this.decorate();
    if (focused && mine) this.focusNext();
    this.frame(mine);
    this.renderMoves();
    this.panelContext = context;
    this.drawPlayers(context);
    if (message.result) {
      this.result.hidden = false;
      clear(this.result).append(scoreTable(message.result, seats, { seat: this.seat, tiebreak: this.words.tiebreak }), h("a", { class: "button", id: "open-replay", href: `/?replay=${this.summary.id}` }, "Replay this game"));
      // A game played to its end may be reviewed; the panel is made once, so a review in progress survives a redraw.
      if (!message.ended) {
        this.reviewCard = this.reviewCard || reviewPanel(this.summary.id, { names: context.names, colours: seats.map((_, i) => this.seatColour(i)), token: this.held ? this.held.token : undefined });
        this.result.append(this.reviewCard);
      }
    }
  }

  /** The players' panel, with an Expel button beside each seat that ran out of time (for a seated page). */
  drawPlayers(context) {
    const view = this.message.view;
    this.openScores = this.openScores || new Set();
    const expel = (i) => this.held && i !== this.seat && this.expellable.includes(i)
      ? expelButton(this.summary.id, this.held.token, i, context.names[i], (text) => (this.expelStatus.textContent = text))
      : null;
    const panel = { ...context, expel, colour: (i) => this.seatColour(i), rating: (i) => ratingText(this.summary, i) };
    clear(this.players).append(h("h2", {}, "Players"), playerPanel(this.module, view, panel, this.openScores), this.expelStatus);
  }

  /** A seat's colour as the game draws it (the game's own where it has one). */
  seatColour(i) {
    const view = this.message.view;
    return (this.module.colour && this.module.colour(view, i)) || COLOURS[i];
  }

  /** The seats that may be expelled now, as the clock last said: the panel is drawn again when they change. */
  expellableNow(seats) {
    if (String(seats) === String(this.expellable)) return;
    this.expellable = seats;
    if (this.panelContext) this.drawPlayers(this.panelContext);
  }

  /** The deal panel, drawn again only when the deal changes (it is revealed by the game's last move). */
  renderDeal(deal) {
    const shown = JSON.stringify(deal);
    if (shown === this.shownDeal) return;
    this.shownDeal = shown;
    showDeal(this.deal, this.summary.id, deal);
  }

  stepPrompt() {
    if (!this.picker.selection.length) return this.module.prompt ? this.module.prompt(this.message.view, this.picker.legal) : "choose a highlighted piece or a move below.";
    const words = this.picker.selection.map((key) => this.describe(key)).join(" → ");
    return `${words} — now choose the next step, or go back.`;
  }

  describe(key) {
    return this.module.describe ? this.module.describe(key) : key;
  }

  /** Mark the board's targets: which can be clicked next, which are already chosen. */
  decorate() {
    const next = this.picker.nextKeys();
    const chosen = new Set(this.picker.selection);
    const last = this.lastKeys || new Set();
    for (const node of this.board.querySelectorAll("[data-key]")) {
      const key = node.dataset.key;
      node.classList.toggle("last", last.has(key));
      node.classList.toggle("legal", next.has(key));
      node.classList.toggle("chosen", chosen.has(key));
      if (next.has(key) || chosen.has(key)) node.setAttribute("tabindex", "0");
      else node.removeAttribute("tabindex");
      node.setAttribute("role", "button");
    }
    const onBoard = new Set([...this.board.querySelectorAll("[data-key]")].map((n) => n.dataset.key));
    const buttons = [];
    // Steps whose target the drawing does not show are offered as buttons too, so nothing is unreachable.
    for (const key of next) {
      if (!onBoard.has(key)) buttons.push(h("button", { type: "button", class: "step", "data-info": key, onclick: () => this.boardKey(key) }, this.describe(key)));
    }
    for (const action of this.picker.finished()) {
      // A button may stand for a component of the game's glossary (a Yamataï trade): its text is the tooltip.
      const info = this.module.info ? this.module.info(action) : null;
      buttons.push(h("button", { type: "button", class: "choice", "data-action": action.id, "data-info": info, onclick: () => this.play(action) }, cap(this.module.label ? this.module.label(action) : action.label)));
    }
    clear(this.choices).append(...buttons);
    annotate(this.choices, this.words);
    this.backButton.disabled = !this.picker.selection.length;
    this.markHint();
    if (this.coach) this.coach.mark(this);
  }

  /** The frames that scroll sideways say so and show the hinted or only target; on one's turn, when
   * no highlighted target is in sight (above the action bar), the page scrolls to the first one. */
  frame(mine = false) {
    const legal = [...this.board.querySelectorAll(".target.legal")];
    const hinted = this.board.querySelector(".target.hinted");
    const shown = hinted || (legal.length === 1 ? legal[0] : null);
    if (shown) revealSideways(shown);
    noteSideways(this.board);
    const wanted = hinted ? [hinted] : legal;
    if (!mine || !wanted.length || this.byKeyboard) return;
    const bottom = this.app.querySelector("#action-bar").getBoundingClientRect().top;
    const seen = wanted.some((node) => {
      const r = node.getBoundingClientRect();
      return r.bottom > 0 && r.top + r.height / 2 < Math.min(bottom, window.innerHeight);
    });
    if (!seen) (shown || legal[0]).scrollIntoView({ block: "nearest" });
  }

  /** The hinted move on the board: its targets (or its button) ringed until the position changes. */
  markHint() {
    const action = this.hinted && this.picker.legal.find((a) => a.id === this.hinted.id);
    const keys = new Set(action ? this.picker.keysOf(action) : []);
    for (const node of this.board.querySelectorAll("[data-key]")) node.classList.toggle("hinted", keys.has(node.dataset.key));
    for (const button of this.choices.querySelectorAll("button.choice")) button.classList.toggle("hinted", Boolean(action) && button.dataset.action === String(action.id));
  }

  /** Focus the first thing that can be chosen next: a highlighted target, else a step or move button. */
  focusNext() {
    if (!this.byKeyboard) return;
    const next = this.board.querySelector(".target.legal") || this.choices.querySelector("button");
    if (next) next.focus();
    else this.keepFocus = true;
  }

  renderMoves() {
    const legal = this.picker.legal;
    // In the game's words, as on the move buttons (Yamataï's spots and islands by name, trades with their price).
    clear(this.moveSelect).append(...legal.map((a) => h("option", { value: a.id }, cap(this.module.label ? this.module.label(a) : this.phrase(a.label)))));
    this.moveSelect.disabled = this.playButton.disabled = !legal.length;
    this.hintButton.disabled = !legal.length || Boolean(this.hintWaiting);
    this.moveSelect.closest(".controls").hidden = this.message.status === "finished" || this.seat === null;
    this.backButton.closest(".controls").hidden = this.message.status === "finished" || this.seat === null;
    this.undoButton.hidden = !(this.message.undoable > 0);
  }

  boardClick(event) {
    const node = event.target.closest("[data-key]");
    if (!node || !this.message) return;
    this.boardKey(node.dataset.key);
  }

  boardKey(key) {
    if (!this.picker.legal.length) {
      this.showExplain(this.message.status === "finished" ? "The game is over." : `It is not your turn: ${seatName(this.seats(), this.message.to_move)} is to move.`);
      return;
    }
    if (this.coach && !this.coach.allowsKey(this, key)) return;
    const outcome = this.picker.click(key);
    if (outcome === null) {
      this.whyNot(key);
      return;
    }
    this.showExplain("");
    if (outcome !== "played") this.refreshStep();
  }

  refreshStep() {
    const focused = this.board.contains(document.activeElement) || this.choices.contains(document.activeElement);
    this.decorate();
    this.frame(true);
    const chosen = document.activeElement && document.activeElement.classList && document.activeElement.classList.contains("chosen");
    // After a step by keyboard, move on to the next thing to choose (a step button may have been replaced).
    if (focused && (chosen || !document.activeElement || document.activeElement === document.body)) this.focusNext();
    this.status.textContent = "Your turn: " + this.stepPrompt();
  }

  back() {
    if (this.picker.back()) {
      this.showExplain("");
      this.refreshStep();
    }
  }

  async whyNot(key) {
    const picked = this.picker.selection.map((k) => this.describe(k)).join(" → ");
    let reason = this.module.explain ? this.module.explain(key, this.message.view, this.picker, this.seat) : null;
    if (!reason && this.module.guess) {
      const label = this.module.guess(key, this.picker, this.message.view);
      if (label) {
        try {
          const answer = await call(`/api/tables/${this.summary.id}/why`, { method: "POST", body: { action: label }, token: this.held.token });
          if (!answer.legal) reason = answer.reason;
        } catch {
          reason = null;
        }
      }
    }
    if (!reason) {
      reason = picked
        ? `${cap(this.describe(key))} does not go with ${picked}: choose a highlighted target, or go back.`
        : `No legal move starts with ${this.describe(key)} now: the highlighted pieces and places are the ones you can use.`;
    }
    this.showExplain(`Not allowed: ${reason}`);
  }

  /** A message of the page or the game's own reason; the rule numbers in it link to the rules. */
  showExplain(text) {
    clear(this.explain).append(...withRuleLinks(this.summary.game, nameSeats(text || "", seatNames(this.seats()))));
  }

  /** The detail line: what the component under the pointer, focused or tapped does. */
  showDetail(node) {
    // Once the game is over the bar says so, and nothing more is to be chosen: no component's words.
    if (this.message && this.message.status === "finished") return;
    const component = node && node.closest && node.closest("[data-help]");
    if (component) this.detail.textContent = component.dataset.help;
  }

  play(action) {
    if (this.coach && !this.coach.allowsAction(this, action)) return;
    this.keepFocus = this.board.contains(document.activeElement) || this.choices.contains(document.activeElement);
    if (!this.socket || !this.socket.send({ type: "act", action: action.id, version: this.version })) {
      this.showExplain("Reconnecting to the server… try again in a moment.");
      return;
    }
    this.picker.reset([]);
    this.decorate();
    this.renderMoves();
    this.status.textContent = `Playing: ${this.phrase(action.label)}…`;
    this.status.classList.remove("mine");
  }

  playSelected() {
    const action = this.picker.legal.find((a) => String(a.id) === this.moveSelect.value);
    if (action) this.play(action);
  }

  async hint() {
    this.hintButton.disabled = true;
    this.hintText.hidden = false;
    delete this.hintText.dataset.waiting;
    this.hintText.textContent = "Thinking…";
    try {
      const answer = await call(`/api/tables/${this.summary.id}/hint`, { method: "POST", token: this.held.token });
      this.hintText.textContent = hintWords(answer, this.phrase);
      this.moveSelect.value = String(answer.action.id);
      this.hinted = answer.action;
      this.markHint();
      this.frame(true);
    } catch (error) {
      // The hints' pace (one every N s once the burst is spent): the button waits, counting down.
      const every = error.code === "rate_limited" && /one every ([\d.]+) s/.exec(error.message);
      if (every) return this.hintLater(Math.ceil(Number(every[1])));
      this.hintText.textContent = error.message;
    }
    this.hintButton.disabled = !this.picker.legal.length;
  }

  /** No hint for `seconds` more: the button says when the next one comes and waits until then. */
  hintLater(seconds) {
    clearInterval(this.hintTimer);
    const until = Date.now() + seconds * 1000;
    const tick = () => {
      const left = Math.ceil((until - Date.now()) / 1000);
      if (left <= 0) {
        clearInterval(this.hintTimer);
        this.hintWaiting = false;
        this.hintButton.textContent = "Hint";
        this.hintButton.disabled = !this.picker.legal.length;
        if (this.hintText.dataset.waiting) this.hintText.hidden = true;
        return;
      }
      this.hintButton.textContent = `Hint (${left} s)`;
      this.hintText.textContent = `You have used the hints allowed for now: next hint in ${left} s.`;
    };
    this.hintWaiting = true;
    this.hintText.dataset.waiting = "1";
    this.hintButton.disabled = true;
    this.hintTimer = setInterval(tick, 1000);
    tick();
  }

  async copyInvite(button) {
    try {
      await navigator.clipboard.writeText(this.summary.invite_url);
      button.textContent = "Link copied";
    } catch {
      window.prompt("Copy the invite link", this.summary.invite_url);
    }
  }
}
