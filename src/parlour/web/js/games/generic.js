// A game without its own drawing: the position as readable JSON. Moves come from the move list.

import { h } from "../dom.js";

export default {
  draw(view) {
    return h("pre", { class: "generic-view" }, JSON.stringify(view, null, 1));
  },
  keys() {
    return [];
  },
};
