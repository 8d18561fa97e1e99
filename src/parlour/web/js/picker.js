// The move picker: turns the legal actions into clicks on the board, one step at a time.
//
// A game module says which board targets an action goes through (`keys(action)`, e.g. the square a
// halfling leaves, then the square it lands on). The picker highlights the targets that can come
// next, narrows the candidate actions with each click, and plays the action once its last target
// is clicked. Clicking a chosen target again, the Back button or Escape undoes the last step, so a
// compound move can be taken back until it is played. Actions with no board target (pass, end the
// turn) and actions that still tie after every target appear as buttons.

export class Picker {
  constructor(module, onPlay) {
    this.module = module;
    this.onPlay = onPlay;
    this.legal = [];
    this.selection = [];
  }

  reset(legal) {
    this.legal = legal;
    this.selection = [];
  }

  keysOf(action) {
    return this.module.keys ? this.module.keys(action) : [];
  }

  candidates() {
    return this.legal.filter((action) => {
      const keys = this.keysOf(action);
      return keys.length >= this.selection.length && this.selection.every((key, i) => keys[i] === key);
    });
  }

  /** Board targets that can be clicked next. */
  nextKeys() {
    const next = new Set();
    for (const action of this.candidates()) {
      const keys = this.keysOf(action);
      if (keys.length > this.selection.length) next.add(keys[this.selection.length]);
    }
    return next;
  }

  /** Actions whose every target is chosen: shown as buttons (one of them is played by a click). */
  finished() {
    return this.candidates().filter((action) => this.keysOf(action).length === this.selection.length);
  }

  /** A click on a board target: a step forward, a step back, or null when the click does not fit. */
  click(key) {
    const at = this.selection.indexOf(key);
    if (at >= 0) {
      this.selection = this.selection.slice(0, at);
      return "back";
    }
    if (!this.nextKeys().has(key)) return null;
    this.selection.push(key);
    const candidates = this.candidates();
    const done = this.finished();
    if (candidates.length === 1 && done.length === 1) {
      this.onPlay(done[0]);
      return "played";
    }
    return "step";
  }

  back() {
    if (!this.selection.length) return false;
    this.selection.pop();
    return true;
  }
}
