// Learn to play: a game's guided first game (docs/web.md). /?learn=GAME opens a table with the
// tutorial's deal against the tutorial bot; at /?table=ID&learn=GAME a coach beside the board says
// what to do and why at each scripted step, rings the place to click, and explains a wrong click
// instead of playing it. After the script the game goes on against the gentle bot.

import { call, saveSeat } from "./api.js";
import { clear, h } from "./dom.js";

const WRONG = "Not in this lesson: the ringed place (or button) is the move this step teaches. The whole game comes after it.";

/** Open a tutorial table for `game` and go to it. */
export async function startLesson(app, game) {
  clear(app).append(h("p", { class: "muted" }, "Setting up your first game…"));
  const tutorial = await call(`/api/games/${encodeURIComponent(game)}/tutorial`);
  const table = await call("/api/tables", {
    method: "POST",
    // One person at the table: the lesson's own deal needs no "fixed deal" warning to others.
    body: { game, seats: tutorial.seats, options: tutorial.options, seed: tutorial.seed },
  });
  const name = localStorage.getItem("parlour.name") || "Learner";
  const seat = await call(`/api/tables/${table.id}/join`, { method: "POST", body: { name } });
  saveSeat(table.id, { token: seat.token, seat: seat.seat, name: seat.name, account: seat.account });
  location.replace(`/?table=${table.id}&learn=${encodeURIComponent(game)}`);
}

/** The coach of a table page, or null when the page is no lesson. */
export async function coachFor(game) {
  const wanted = new URLSearchParams(location.search).get("learn");
  if (wanted !== game) return null;
  return new Coach(await call(`/api/games/${encodeURIComponent(game)}/tutorial`));
}

class Coach {
  constructor(tutorial) {
    this.tutorial = tutorial;
    this.steps = tutorial.steps;
    this.panel = h("section", { class: "card coach", id: "coach", "aria-label": "Lesson", "aria-live": "polite" });
    // The step in one line inside the action bar too, in view while the board scrolls (a phone).
    this.now = h("p", { class: "coach-now", id: "coach-now" });
  }

  /** The scripted learner's step now (by the moves played), or null. */
  step(page) {
    const message = page.message;
    if (!message || message.status !== "running" || message.to_move !== page.seat) return null;
    const step = this.steps[message.version];
    return step && step.seat === page.seat ? step : null;
  }

  expected(page) {
    const step = this.step(page);
    return step ? page.picker.legal.find((action) => action.label === step.move) || null : null;
  }

  /** Drawn again with every position the page receives. */
  update(page) {
    if (!this.panel.isConnected) {
      page.board.before(this.panel);
      page.status.after(this.now);
    }
    const version = page.message.version;
    const learnerSteps = this.steps.filter((s) => s.seat === page.seat);
    const mine = this.steps.slice(0, version).filter((s) => s.seat === page.seat).length;
    // What the bot did since the learner's last scripted move.
    let from = version;
    while (from > 0 && from <= this.steps.length && this.steps[from - 1].seat !== page.seat) from--;
    const notes = this.steps.slice(from, Math.min(version, this.steps.length)).filter((s) => s.seat !== page.seat);
    const step = this.step(page);
    const parts = [h("h2", {}, "Learn to play")];
    if (version <= this.steps.findIndex((s) => s.seat === page.seat)) parts.push(h("p", {}, this.tutorial.welcome));
    if (notes.length) parts.push(h("ul", { class: "coach-notes" }, ...notes.map((s) => h("li", {}, page.phrase(s.say)))));
    if (step) {
      parts.push(
        h("p", { class: "coach-step", id: "coach-step" }, h("strong", {}, `Step ${mine + 1} of ${learnerSteps.length}: `), page.phrase(step.say)),
        h("p", { class: "coach-why" }, h("em", {}, "Why: "), page.phrase(step.why)),
      );
    } else if (version >= this.steps.length) {
      parts.push(h("p", { class: "coach-done", id: "coach-done" }, this.tutorial.goodbye));
    } else {
      parts.push(h("p", { class: "muted" }, "The bot is playing its scripted move…"));
    }
    clear(this.panel).append(...parts);
    this.now.textContent = step ? `Lesson: ${page.phrase(step.say)}` : "";
    this.now.hidden = !step;
  }

  /** A board target clicked: let it through if it is the lesson's next one (or a step back). */
  allowsKey(page, key) {
    const action = this.expected(page);
    if (!action) return true;
    const keys = page.picker.keysOf(action);
    if (page.picker.selection.includes(key) || keys[page.picker.selection.length] === key) return true;
    this.refuse(page);
    return false;
  }

  /** A move played (a button, the list of moves): only the lesson's move while the script is on. */
  allowsAction(page, action) {
    const expected = this.expected(page);
    if (!expected || expected.id === action.id) return true;
    this.refuse(page);
    return false;
  }

  refuse(page) {
    const step = this.step(page);
    page.showExplain(`${page.phrase(step.wrong || WRONG)} This step: ${page.phrase(step.say)}`);
  }

  /** Ring the next place to click (or the button to press) of the lesson's move. */
  mark(page) {
    for (const node of document.querySelectorAll(".coach-next")) node.classList.remove("coach-next");
    const action = this.expected(page);
    if (!action) return;
    const keys = page.picker.keysOf(action);
    const next = keys[page.picker.selection.length];
    const node = next === undefined
      ? page.choices.querySelector(`button.choice[data-action="${action.id}"]`)
      : page.board.querySelector(`.target.legal[data-key="${CSS.escape(next)}"]`) || page.choices.querySelector(`button.step[data-info="${CSS.escape(next)}"]`);
    if (node) node.classList.add("coach-next");
  }
}
