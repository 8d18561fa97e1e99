// Hatflings!: the 6×6 dance floor with scenery, puddles, the pig and the halflings (hat colour and
// kind), the start zones, and each captain's pools of halflings beside it.
//
// Clicks: a halfling from your pool, then a square to place it (the greedy one also on your own
// edge halfling, to push the line in); one of your halflings, then where it jumps; a square for a
// scenery object, a puddle or the pig.

import { h, plural, s, svg, target } from "/js/dom.js";

const SIZE = 64;
const MARGIN = 24;
const FILES = "abcdef";
const HAT = { yellow: "#e7b416", purple: "#7b3fa0" };
const KIND_MARK = { normal: "", joker: "J", "spent joker": "j", cheating: "C", firebug: "F", clumsy: "K", greedy: "G", stilts: "S" };
const OBJECT_COLOUR = { tree: "#3a7d44", column: "#9aa0a6", box: "#a47148", barrel: "#8b5a2b" };

/** A square's corner on the drawing. The floor is seen from the viewer's side: the second captain's
 * home rank (6) is at the bottom for her, files running f to a from her left. */
function xy(square, turned) {
  const file = FILES.indexOf(square[0]);
  const rank = Number(square.slice(1));
  return turned ? [MARGIN + (5 - file) * SIZE, MARGIN + (rank - 1) * SIZE] : [MARGIN + file * SIZE, MARGIN + (6 - rank) * SIZE];
}

function hatColour(view, seat) {
  return HAT[view.colours[seat]] || ["#e7b416", "#7b3fa0"][seat];
}

function drawObject(kind, x, y, ownerColour) {
  const cx = x + SIZE / 2;
  const cy = y + SIZE / 2;
  switch (kind) {
    case "tree":
      return s("g", {}, s("rect", { x: cx - 4, y: cy + 6, width: 8, height: 16, fill: "#6b4226" }),
        s("circle", { cx, cy: cy - 2, r: 20, fill: OBJECT_COLOUR.tree, stroke: "#234d2a", "stroke-width": 2 }));
    case "column":
      return s("g", {}, s("circle", { cx, cy, r: 22, fill: "#d5d8dc", stroke: "#6c757d", "stroke-width": 3 }),
        s("circle", { cx, cy, r: 12, fill: "none", stroke: "#6c757d", "stroke-width": 2 }));
    case "box":
      return s("g", {}, s("rect", { x: x + 10, y: y + 10, width: SIZE - 20, height: SIZE - 20, fill: OBJECT_COLOUR.box, stroke: "#5c3d22", "stroke-width": 3, rx: 3 }),
        s("path", { d: `M${x + 10} ${y + 10} L${x + SIZE - 10} ${y + SIZE - 10} M${x + SIZE - 10} ${y + 10} L${x + 10} ${y + SIZE - 10}`, stroke: "#5c3d22", "stroke-width": 2 }));
    case "barrel":
      return s("g", {}, s("ellipse", { cx, cy, rx: 20, ry: 25, fill: OBJECT_COLOUR.barrel, stroke: "#4a2f17", "stroke-width": 3 }),
        s("path", { d: `M${cx - 19} ${cy - 9} H${cx + 19} M${cx - 19} ${cy + 9} H${cx + 19}`, stroke: "#2f2f2f", "stroke-width": 3 }));
    case "puddle":
      return s("path", {
        d: `M${x + 10} ${cy} q4 -18 20 -16 q14 -8 22 6 q10 12 -4 20 q-14 10 -26 2 q-14 -2 -12 -12z`,
        fill: "#7fb8e6", stroke: ownerColour || "#3b7fc4", "stroke-width": 4, "fill-opacity": 0.85,
      });
    default:
      return s("g");
  }
}

function drawPig(x, y) {
  const cx = x + SIZE / 2;
  const cy = y + SIZE / 2;
  return s("g", { class: "pig" },
    s("circle", { cx, cy, r: 17, fill: "#f4a6b7", stroke: "#c0607a", "stroke-width": 2 }),
    s("path", { d: `M${cx - 13} ${cy - 12} l-4 -9 l10 4z M${cx + 13} ${cy - 12} l4 -9 l-10 4z`, fill: "#e58aa0" }),
    s("ellipse", { cx, cy: cy + 5, rx: 7, ry: 5, fill: "#e58aa0", stroke: "#c0607a" }),
    s("circle", { cx: cx - 2.5, cy: cy + 5, r: 1.4, fill: "#7a2d3f" }), s("circle", { cx: cx + 2.5, cy: cy + 5, r: 1.4, fill: "#7a2d3f" }),
    s("circle", { cx: cx - 6, cy: cy - 4, r: 2, fill: "#222" }), s("circle", { cx: cx + 6, cy: cy - 4, r: 2, fill: "#222" }));
}

function drawHalfling(halfling, x, y, colour, raised) {
  const cx = x + SIZE / 2;
  const cy = y + SIZE / 2 + (raised ? -6 : 4);
  const mark = KIND_MARK[halfling.kind] || "";
  return s("g", { class: `halfling ${halfling.kind.replace(" ", "-")}` },
    s("circle", { cx, cy: cy + 4, r: 15, fill: "#f1d3b3", stroke: "#7a5a3a", "stroke-width": 2 }),
    s("path", { d: `M${cx - 17} ${cy - 6} L${cx} ${cy - 30} L${cx + 17} ${cy - 6} Z`, fill: colour, stroke: "#222", "stroke-width": 2, "stroke-linejoin": "round" }),
    s("rect", { x: cx - 19, y: cy - 8, width: 38, height: 5, rx: 2, fill: colour, stroke: "#222", "stroke-width": 1.5 }),
    mark ? s("text", { x: cx, y: cy + 10, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: "#222", text: mark }) : null,
    halfling.kind === "spent joker" ? s("path", { d: `M${cx - 10} ${cy + 12} L${cx + 10} ${cy - 2}`, stroke: "#222", "stroke-width": 2 }) : null);
}

/** A piece the glossary explains (its tooltip and the detail line say what it does). */
function explained(info, node) {
  node.dataset.info = info;
  return node;
}

function drawFloor(view, turned) {
  const width = MARGIN * 2 + SIZE * 6;
  const parts = [s("rect", { x: 0, y: 0, width, height: width, fill: "#e9dcc4", rx: 12 })];
  const zones = {};
  view.start_zones.forEach((zone, seat) => zone.forEach((sq) => (zones[sq] = seat)));
  for (let rank = 6; rank >= 1; rank--) {
    for (const file of FILES) {
      const square = `${file}${rank}`;
      const [x, y] = xy(square, turned);
      const dark = (FILES.indexOf(file) + rank) % 2 === 0;
      const entry = view.squares[square] || {};
      const zone = zones[square];
      const cell = [s("rect", { x, y, width: SIZE, height: SIZE, fill: dark ? "#d8c3a0" : "#f3e6cf" })];
      if (zone !== undefined) cell.push(s("rect", { x: x + 3, y: y + 3, width: SIZE - 6, height: SIZE - 6, fill: hatColour(view, zone), "fill-opacity": 0.18, stroke: hatColour(view, zone), "stroke-opacity": 0.5 }));
      if (entry.object) cell.push(explained(`obj:${entry.object}`, drawObject(entry.object, x, y, entry.owner !== undefined ? hatColour(view, entry.owner) : null)));
      if (entry.pig) cell.push(explained("obj:pig", drawPig(x, y)));
      if (entry.halfling) cell.push(explained(`kind:${entry.halfling.kind === "spent joker" ? "joker" : entry.halfling.kind}`, drawHalfling(entry.halfling, x, y, hatColour(view, entry.halfling.seat), entry.object === "box" || entry.object === "barrel")));
      if (view.lander === square) cell.push(s("circle", { cx: x + SIZE - 9, cy: y + 9, r: 5, fill: "#e8590c" }));
      cell.push(s("rect", { class: "hit", x: x + 2, y: y + 2, width: SIZE - 4, height: SIZE - 4, rx: 6 }));
      parts.push(target(`sq:${square}`, describeSquare(square, entry), ...cell));
    }
  }
  for (let i = 0; i < 6; i++) {
    parts.push(s("text", { x: MARGIN + i * SIZE + SIZE / 2, y: width - 6, "text-anchor": "middle", "font-size": 13, fill: "#6f655b", text: FILES[turned ? 5 - i : i] }));
    parts.push(s("text", { x: 10, y: MARGIN + i * SIZE + SIZE / 2 + 4, "text-anchor": "middle", "font-size": 13, fill: "#6f655b", text: String(turned ? i + 1 : 6 - i) }));
  }
  return svg(width, width, "The dance floor", ...parts);
}

function describeSquare(square, entry) {
  const bits = [];
  if (entry.halfling) bits.push(`${entry.halfling.colour} ${entry.halfling.kind} halfling`);
  if (entry.object) bits.push(entry.object === "puddle" && entry.owner !== undefined ? "puddle" : entry.object);
  if (entry.pig) bits.push("the pig");
  return bits.length ? `${square}: ${bits.join(", ")}` : square;
}

/** One pool tile: a halfling of `kind` with its caption, a click target for the captain to move. */
function poolTile(kind, i, colour, caption, words, clickable) {
  const x = 5 + i * 70;
  const piece = [s("rect", { x, y: 2, width: 64, height: 84, rx: 8, fill: "#fff", stroke: "#d9cfc0" }),
    drawHalfling({ kind }, x, 0, colour, false),
    s("text", { x: x + 32, y: 80, "text-anchor": "middle", "font-size": 11, fill: "#2b2622", text: caption }),
    s("rect", { class: "hit", x: x - 2, y: 1, width: 68, height: 86, rx: 8 })];
  return clickable ? target(`kind:${kind}`, words, ...piece) : s("g", {}, s("title", { text: words }), ...piece);
}

/** The general pool, shared by both captains: drawn once, in the hat colour of the captain to move
 * (whose halfling it becomes when placed). */
function drawGeneralPool(view) {
  const mover = view.to_move === 0 || view.to_move === 1 ? view.to_move : null;
  const colour = mover === null ? "#c9c1b6" : hatColour(view, mover);
  const words = `normal halfling: ${view.general_pool} left in the general pool, shared by both captains`;
  return svg(80, 90, "The general pool", poolTile("normal", 0, colour, `${view.general_pool} left`, words, mover !== null));
}

/** A captain's own special halflings (only the captain to move picks from a pool, so only their
 * pool carries click targets). */
function drawPools(view, seat) {
  const kinds = view.special_pools[seat];
  if (!kinds.length) return h("p", { class: "muted" }, "none left");
  const parts = kinds.map((kind, i) => poolTile(kind, i, hatColour(view, seat), kind, `${kind} halfling`, seat === view.to_move));
  return svg(70 * kinds.length + 10, 90, `${view.colours[seat]} captain's special halflings`, ...parts);
}

function drawSupply(view) {
  const objects = Object.entries(view.objects_in_supply || {});
  const parts = objects.map(([kind, count], i) => {
    const x = 5 + i * 70;
    return target(`obj:${kind}`, `${kind} (${count} left)`,
      s("rect", { x, y: 2, width: 64, height: 84, rx: 8, fill: "#fff", stroke: "#d9cfc0" }),
      drawObject(kind, x, 0),
      s("text", { x: x + 32, y: 80, "text-anchor": "middle", "font-size": 11, text: `${kind} ×${count}` }),
      s("rect", { class: "hit", x: x - 2, y: 1, width: 68, height: 86, rx: 8 }));
  });
  return svg(70 * objects.length + 10, 90, "Scenery still to place", ...parts);
}

// The repetition limit of this table (R25: a position seen that often ends the dance), from its options.
let REPETITION_LIMIT = 3;

function repetitionNote(view) {
  const seen = view.position_seen;
  if (!seen || seen < 2 || !REPETITION_LIMIT) return null;
  const left = REPETITION_LIMIT - seen;
  const when = left <= 0 ? "the dance ends now" : left === 1 ? "once more and the dance ends" : `${left} more times and the dance ends`;
  return h("p", { class: "note", id: "repetition" }, `This position has come up ${seen} times: ${when} (a position repeated that often ends the dance).`);
}

/** The lobby's picture of the game, drawn with the table's own pieces: a corner of the dance floor. */
function picture() {
  const squares = [];
  for (let file = 0; file < 4; file++) for (let rank = 0; rank < 2; rank++) {
    squares.push(s("rect", { x: MARGIN + file * SIZE, y: MARGIN + rank * SIZE, width: SIZE, height: SIZE, fill: (file + rank) % 2 ? "#d9c7a7" : "#f3ead7" }));
  }
  const at = (file, rank) => [MARGIN + file * SIZE, MARGIN + rank * SIZE];
  return svg(MARGIN * 2 + 4 * SIZE, MARGIN * 2 + 2 * SIZE, "Hatflings!: halflings in yellow and purple hats, a tree, a barrel and the pig on the dance floor",
    ...squares, drawObject("tree", ...at(0, 0)), drawHalfling({ kind: "normal" }, ...at(1, 0), HAT.yellow, false),
    drawHalfling({ kind: "joker" }, ...at(2, 1), HAT.purple, false), drawObject("barrel", ...at(3, 0)), drawPig(...at(0, 1)),
    drawHalfling({ kind: "normal" }, ...at(1, 1), HAT.purple, false), drawHalfling({ kind: "stilts" }, ...at(2, 0), HAT.yellow, false));
}

export default {
  picture,
  /** The colours of the players and of the components, kept apart (tests/web/test_table_explains.py). */
  palette: { players: Object.values(HAT), components: Object.values(OBJECT_COLOUR) },

  prepare(summary) {
    const limit = summary.options && summary.options.repetition_limit;
    REPETITION_LIMIT = typeof limit === "number" ? limit : 3;
  },

  /** A captain by name where the engine's sentence names her by her hat colour ("yellow places a
   * normal halfling at b1" reads "Ann places…"); a hat's colour stays a colour ("now wears a purple hat"). */
  phrase(text, names) {
    if (!names) return text;
    const colours = Object.keys(HAT); // the first captain wears yellow, the second purple
    const who = (colour) => names[colours.indexOf(colour.toLowerCase())] || colour;
    return text
      .replace(/^(yellow|purple) (places|cannot) /i, (_, colour, verb) => `${who(colour)} ${verb} `)
      .replace(/^(yellow|purple) (.+?) jumps from /i, (_, colour, kind) => `${who(colour)}'s ${kind} halfling jumps from `)
      .replace(/^(yellow|purple)'s /i, (_, colour) => `${who(colour)}'s `)
      .replace(/\b(yellow|purple) wins\b/i, (_, colour) => `${who(colour)} wins`);
  },

  /** The players' panel: hats of the captain's colour on the floor (the score), the special
   * halflings still in her pool; the general pool is shared. */
  panel(view, seat) {
    const hats = (view.hats || [])[seat] ?? 0;
    const zone = (view.in_rival_start_zone || [])[seat] ?? 0;
    const specials = (view.special_pools || [])[seat] || [];
    return {
      score: hats,
      breakdown: { "hats of her colour on the floor": hats, "in the rival's start zone (breaks a tie)": zone },
      items: [`${plural(specials.length, "special halfling")} in her pool`, `${plural(view.general_pool ?? 0, "normal halfling")} in the shared pool`],
    };
  },

  colour(view, seat) {
    return hatColour(view, seat);
  },

  draw(view, context) {
    const stats = view.colours.map((colour, seat) =>
      `${context.names[seat]} — ${colour}: ${view.hats[seat]} hat${view.hats[seat] === 1 ? "" : "s"} on the floor, ${view.in_rival_start_zone[seat]} in the rival start zone`);
    const info = h("div", { class: "hatflings-info" },
      h("p", { class: "muted" }, `Phase: ${view.phase} · turns played ${view.turns_played} · puddles in supply ${view.puddle_supply}` + (view.end ? ` · ${view.end}` : "")),
      h("ul", {}, ...stats.map((t) => h("li", {}, t))));
    // The general pool once, shared by both; each captain's own special halflings under their name.
    const pools = h("div", { class: "strip pools" },
      h("figure", { class: "pool" }, h("figcaption", {}, "General pool (shared)"), drawGeneralPool(view)),
      ...(context.seat === 1 ? [1, 0] : [0, 1]).map((seat) => h("figure", { class: "pool" },
        h("figcaption", {}, `${context.names[seat]}'s special halflings (${view.colours[seat]})`), drawPools(view, seat))));
    const supply = view.objects_in_supply && (view.phase === "scene") ? h("div", { class: "strip" }, h("strong", {}, "Scenery to place:"), drawSupply(view)) : null;
    return h("div", { class: "hatflings" }, repetitionNote(view), h("div", { style: "max-width:560px;margin:auto" }, drawFloor(view, context.seat === 1)), supply, pools, info);
  },

  keys(action) {
    switch (action.kind) {
      case "scene": return [`obj:${action.object}`, `sq:${action.square}`];
      case "place": return [`kind:${action.halfling}`, `sq:${action.square}`];
      // Greedy entry as a player thinks of it: the greedy halfling from the pool, then the edge
      // halfling it pushes in from (on a corner both directions are then offered as buttons).
      case "greedy": return ["kind:greedy", `sq:${action.square}`];
      case "jump": return [`sq:${action.origin}`, `sq:${action.to}`];
      case "pig setup": case "puddle": case "pig": return [`sq:${action.square}`];
      default: return [];
    }
  },

  /** Pieces an event moved, slid from where they stood: [from key, to key, the piece's selector]. */
  slides(event) {
    if (event.kind === "jump") return [[`sq:${event.origin}`, `sq:${event.to}`, ".halfling"]];
    if (event.kind === "pig") return [[`sq:${event.from}`, `sq:${event.to}`, ".pig"]];
    return [];
  },

  /** The squares an event touched, marked on the board until the next move. */
  touched(event) {
    const squares = [event.square, event.origin, event.to, ...(event.squares || []), ...(event.moved || [])];
    return squares.filter((sq) => typeof sq === "string" && /^[a-f][1-6]$/.test(sq)).map((sq) => `sq:${sq}`);
  },

  describe(key) {
    const [kind, value] = key.split(":");
    if (kind === "sq") return value;
    if (kind === "kind") return `a ${value} halfling`;
    if (kind === "obj") return `a ${value}`;
    return key;
  },

  prompt(view, legal) {
    const kinds = new Set(legal.map((a) => a.kind));
    if (kinds.has("scene")) return "pick a scenery object, then the square for it.";
    if (kinds.has("pig setup")) return "choose the pig's starting square.";
    if (kinds.has("puddle")) return "choose where the clumsy halfling's puddle goes.";
    if (kinds.has("pig")) return "move the pig: choose its square.";
    const greedy = kinds.has("greedy") ? " Your greedy halfling can also push a line in: pick it from your pool, then one of your halflings on the edge." : "";
    return "pick a halfling from your pool and a square, or one of your halflings to jump with." + greedy;
  },

  /** The action a wrong click most likely meant, so the server can name the rule that forbids it. */
  guess(key, picker, view) {
    if (!key.startsWith("sq:")) return null;
    const square = key.slice(3);
    const chosen = picker.selection[0];
    if (chosen && chosen.startsWith("kind:")) return `place ${chosen.slice(5)} at ${square}`;
    if (chosen && chosen.startsWith("obj:")) return `${chosen.slice(4)} at ${square}`;
    if (chosen && chosen.startsWith("sq:")) {
      const from = chosen.slice(3);
      const dx = FILES.indexOf(square[0]) - FILES.indexOf(from[0]);
      const dy = Number(square.slice(1)) - Number(from.slice(1));
      if ((dx % 2 === 0 && dy % 2 === 0) && Math.max(Math.abs(dx), Math.abs(dy)) === 2 && (dx === 0 || dy === 0 || Math.abs(dx) === Math.abs(dy))) {
        const over = `${FILES[FILES.indexOf(from[0]) + dx / 2]}${Number(from.slice(1)) + dy / 2}`;
        return `jump ${from} over ${over} to ${square}`;
      }
      return null;
    }
    const phase = view.phase;
    if (phase === "pig set-up") return `pig at ${square}`;
    if (phase === "pig move") return `pig to ${square}`;
    if (phase === "clumsy puddle") return `puddle at ${square}`;
    if (phase === "dance" && !(view.squares[square] || {}).halfling) return `place normal at ${square}`;
    return null;
  },
};
