// Hanbok Runway: the six colour queues of fabric tokens (face down unless flipped or known to you),
// each with its VP token and additional VP, both designers' tableaux (style symbols and fabric
// cards) and the sets they made with the token each earned.
//
// Clicks: a style symbol of your tableau, then a fabric card, then the queue whose colour you earn;
// a token to peek at or flip; a style symbol to discard. Drawing and passing are buttons.

import { gameData } from "/js/api.js";
import { h, plural, s, svg, target } from "/js/dom.js";

const INK = { green: "#2e8b57", red: "#c0392b", blue: "#2a6fdb", orange: "#e67e22", black: "#2b2b2b", pink: "#e75480" };
// Designers' colours are none of the six fabric colours (a player is never read as a colour to earn).
// The style effects' numbers, from the game's config.toml (R13, R14).
let CONFIG = { triangle_bonus: 2, trapezoid_factor: 2 };

/** What an earned token counts at scoring once its set's style has acted on it (null: not known yet). */
function counts(style, value) {
  if (value === null || value === undefined) return null;
  if (style === "triangle") return value + Number(CONFIG.triangle_bonus);
  if (style === "bell") return Math.abs(value);
  if (style === "trapezoid") return value * Number(CONFIG.trapezoid_factor);
  return value;
}

const SEAT_COLOURS = ["#1f6f8b", "#7b4f9d"];

function shape(style, x, y, size, fill = "#fff") {
  const c = x + size / 2;
  const attrs = { fill, stroke: "#2b2622", "stroke-width": 2, "stroke-linejoin": "round" };
  switch (style) {
    case "oval": return s("ellipse", { cx: c, cy: y + size / 2, rx: size * 0.3, ry: size * 0.42, ...attrs });
    case "triangle": return s("path", { d: `M${c} ${y + 4} L${x + size - 5} ${y + size - 4} L${x + 5} ${y + size - 4}Z`, ...attrs });
    case "trapezoid": return s("path", { d: `M${x + size * 0.3} ${y + 6} H${x + size * 0.7} L${x + size - 4} ${y + size - 6} H${x + 4}Z`, ...attrs });
    case "bell": return s("path", { d: `M${c} ${y + 4} C${x + size * 0.75} ${y + 4} ${x + size * 0.7} ${y + size * 0.6} ${x + size - 3} ${y + size - 5} H${x + 3} C${x + size * 0.3} ${y + size * 0.6} ${x + size * 0.25} ${y + 4} ${c} ${y + 4}Z`, ...attrs });
    case "mannequin": return s("g", {}, s("circle", { cx: c, cy: y + size * 0.2, r: size * 0.13, ...attrs }),
      s("path", { d: `M${c - size * 0.22} ${y + size * 0.38} H${c + size * 0.22} L${c + size * 0.12} ${y + size * 0.7} H${c - size * 0.12}Z M${c} ${y + size * 0.7} V${y + size - 3} M${c - size * 0.2} ${y + size - 3} H${c + size * 0.2}`, ...attrs }));
    default: return s("rect", { x: x + 4, y: y + 4, width: size - 8, height: size - 8, ...attrs });
  }
}

function token(t, x, y, r, viewer) {
  const known = t.face_up || t.value !== null;
  const mine = !t.face_up && t.value !== null;
  const value = t.value === null ? "?" : (t.value > 0 ? `+${t.value}` : String(t.value));
  const parts = [s("circle", { cx: x, cy: y, r, fill: t.face_up ? "#fff" : INK[t.colour], stroke: INK[t.colour], "stroke-width": 4 })];
  if (known) parts.push(s("text", { x, y: y + 5, "text-anchor": "middle", "font-size": r * 0.9, "font-weight": 700, fill: t.face_up ? "#222" : "#fff", text: value }));
  else parts.push(s("text", { x, y: y + 5, "text-anchor": "middle", "font-size": r * 0.8, fill: "#fff", text: "?" }));
  if (mine) parts.push(s("circle", { cx: x + r * 0.75, cy: y - r * 0.75, r: 5, fill: "#ffd43b", stroke: "#222" }));
  const words = t.face_up ? `face up, ${value}` : t.value !== null ? `face down, you know it is ${value}` : "face down";
  const label = `${t.colour} token ${t.position} (${words})`;
  const drawn = target(`tok:${t.colour}:${t.position}`, label, ...parts, s("circle", { class: "hit", cx: x, cy: y, r: r + 4 }));
  // A token keeps its position for good: it travels from its queue to the set that earns it, and
  // turns over when flipped face up (its face as everyone sees it, not what one seat peeked at).
  return moving(drawn, `tok:${t.colour}:${t.position}`, t.face_up ? value : "down");
}

/** A component the table animates when another seat's move changes it (web/js/motion.js). */
function moving(node, id, face, from) {
  node.dataset.motion = id;
  if (face !== undefined) node.dataset.face = face;
  if (from) node.dataset.motionFrom = from;
  return node;
}

function drawQueues(view) {
  const rowH = 54;
  const width = 640;
  const parts = [s("rect", { x: 0, y: 0, width, height: rowH * 6 + 30, rx: 12, fill: "#f7efe2" })];
  parts.push(s("text", { x: 12, y: 20, "font-size": 13, fill: "#6f655b", text: "Queues — tokens leave from position 1; a gold dot marks a face-down token you know" }));
  view.colours.forEach((colour, row) => {
    const y = 30 + row * rowH;
    const cy = y + rowH / 2;
    parts.push(s("rect", { x: 8, y: y + 4, width: width - 16, height: rowH - 8, rx: 10, fill: "#fff", stroke: INK[colour.colour], "stroke-width": 2 }));
    for (let p = 1; p <= 6; p++) parts.push(s("circle", { cx: 90 + (p - 1) * 62, cy, r: 19, fill: "none", stroke: "#d9cfc0", "stroke-dasharray": "3 3" }),
      s("text", { x: 90 + (p - 1) * 62, y: y + 12, "text-anchor": "middle", "font-size": 9, fill: "#9a8f83", text: String(p) }));
    // The queue's click target (to earn its colour) is its name, apart from the tokens.
    parts.push(target(`queue:${colour.colour}`, `${colour.colour} queue: earn ${colour.colour}`,
      s("rect", { x: 12, y: y + 8, width: 52, height: rowH - 16, rx: 8, fill: INK[colour.colour], "fill-opacity": 0.12 }),
      s("text", { x: 38, y: cy + 5, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: INK[colour.colour], text: colour.colour }),
      s("rect", { class: "hit", x: 10, y: y + 6, width: 56, height: rowH - 12, rx: 9 })));
    for (const t of colour.queue) parts.push(token(t, 90 + (t.position - 1) * 62, cy, 19, view.viewer));
    const vx = 90 + 6 * 62 + 10;
    parts.push(s("g", {}, s("title", { text: `${colour.colour} VP token: ${plural(colour.vp_trophies, "trophy", "trophies")}, ${plural(colour.additional_vp, "additional VP token")} beside it` }),
      s("path", { d: `M${vx} ${cy - 16} h28 v10 a14 14 0 0 1 -28 0z`, fill: "#f2c94c", stroke: "#8a6d1d", "stroke-width": 2 }),
      s("rect", { x: vx + 9, y: cy + 6, width: 10, height: 8, fill: "#8a6d1d" }),
      s("text", { x: vx + 14, y: cy - 3, "text-anchor": "middle", "font-size": 13, "font-weight": 700, text: String(colour.vp_trophies) }),
      colour.additional_vp ? s("g", {}, s("circle", { cx: vx + 50, cy, r: 12, fill: "#fff3bf", stroke: "#8a6d1d" }),
        s("text", { x: vx + 50, y: cy + 4, "text-anchor": "middle", "font-size": 11, "font-weight": 700, text: `+${colour.additional_vp}` })) : null));
  });
  const drawing = svg(width, rowH * 6 + 34, "The six queues of fabric tokens", ...parts);
  drawing.classList.add("wide", "queues");
  return drawing;
}

function fabricCard(fabric, x, y, w, hgt) {
  const [a, b] = fabric.split("/");
  return s("g", {}, s("rect", { x, y, width: w, height: hgt, rx: 6, fill: "#fff", stroke: "#2b2622", "stroke-width": 1.5 }),
    s("path", { d: `M${x + 4} ${y + 4} H${x + w - 4} L${x + 4} ${y + hgt - 4}Z`, fill: INK[a] }),
    s("path", { d: `M${x + w - 4} ${y + 4} V${y + hgt - 4} H${x + 4}Z`, fill: INK[b] }));
}

const PER_ROW = 7; // tableau cards per row; the drawing keeps one width so nothing shrinks as it fills
const SETS_PER_ROW = 5;
const WIDTH = 8 + PER_ROW * 60;

function styleCard(style, x, y) {
  return [s("rect", { x, y, width: 54, height: 72, rx: 6, fill: "#fffaf0", stroke: "#c9b99f" }), shape(style, x + 5, y + 4, 40),
    s("text", { x: x + 27, y: y + 56, "text-anchor": "middle", "font-size": 9, fill: "#6f655b", text: style })];
}

/** The tableau's cards, then (greyed, crossed out) those named at this Pass step (R20): these reach
 * the discard piles together only once the hand is down to the limit. */
function tableauCards(view, player, own) {
  const cards = [];
  for (const [style, count] of Object.entries(player.tableau.style)) {
    cards.push((x, y) => {
      const card = [...styleCard(style, x, y), s("text", { x: x + 27, y: y + 68, "text-anchor": "middle", "font-size": 11, "font-weight": 700, text: `×${count}` }),
        s("rect", { class: "hit", x: x - 2, y: y - 2, width: 58, height: 76, rx: 6 })];
      const drawn = own ? target(`style:${style}`, `${style} style card (${count})`, ...card) : s("g", { "data-info": `style:${style}` }, s("title", { text: `${style} ×${count}` }), ...card);
      return moving(drawn, `card:${player.seat}:style:${style}`, String(count));
    });
  }
  for (const [fabric, count] of Object.entries(player.tableau.fabric)) {
    cards.push((x, y) => {
      const card = [fabricCard(fabric, x, y, 54, 72), s("rect", { x: x + 15, y: y + 56, width: 24, height: 14, rx: 4, fill: "#fff" }),
        s("text", { x: x + 27, y: y + 67, "text-anchor": "middle", "font-size": 11, "font-weight": 700, text: `×${count}` }),
        s("rect", { class: "hit", x: x - 2, y: y - 2, width: 58, height: 76, rx: 6 })];
      const drawn = own ? target(`fabric:${fabric}`, `${fabric} fabric card (${count})`, ...card) : s("g", { "data-info": `fabric:${fabric}` }, s("title", { text: `${fabric} ×${count}` }), ...card);
      return moving(drawn, `card:${player.seat}:fabric:${fabric}`, String(count));
    });
  }
  const discarding = view.discarding || { style: {}, fabric: {} };
  if (player.seat === view.to_move) {
    const named = [...Object.entries(discarding.style).map(([k, n]) => ["style", k, n]), ...Object.entries(discarding.fabric).map(([k, n]) => ["fabric", k, n])];
    for (const [kind, name, count] of named) {
      cards.push((x, y) => s("g", { class: "discarding" }, s("title", { text: `${name} ${kind} card being discarded (×${count})` }),
        s("g", { opacity: 0.4 }, ...(kind === "style" ? styleCard(name, x, y) : [fabricCard(name, x, y, 54, 72)])),
        s("path", { d: `M${x + 8} ${y + 8} L${x + 46} ${y + 64} M${x + 46} ${y + 8} L${x + 8} ${y + 64}`, stroke: "#c0392b", "stroke-width": 3, "stroke-linecap": "round" }),
        s("text", { x: x + 27, y: y + 84, "text-anchor": "middle", "font-size": 9, fill: "#c0392b", text: `discarding${count > 1 ? ` ×${count}` : ""}` })));
    }
  }
  return cards;
}

function drawDesigner(view, player, context) {
  const cards = tableauCards(view, player, player.seat === context.seat);
  const parts = [s("text", { x: 8, y: 16, "font-size": 12, fill: "#6f655b", text: `Tableau: ${player.cards} card${player.cards === 1 ? "" : "s"}` })];
  cards.forEach((card, i) => parts.push(card(8 + (i % PER_ROW) * 60, 24 + Math.floor(i / PER_ROW) * 90)));
  if (!cards.length) parts.push(s("text", { x: 8, y: 60, "font-size": 13, fill: "#6f655b", text: "no cards in the tableau" }));
  const top = 24 + Math.max(1, Math.ceil(cards.length / PER_ROW)) * 90 + 16;
  parts.push(s("text", { x: 8, y: top, "font-size": 12, fill: "#6f655b", text: `Sets: ${player.sets.length}` }));
  player.sets.forEach((set, i) => {
    const sx = 8 + (i % SETS_PER_ROW) * 84;
    const sy = top + 6 + Math.floor(i / SETS_PER_ROW) * 88;
    // A new set's cards travel from the tableau's style card that made it.
    parts.push(moving(s("g", { "data-info": `style:${set.style}` }, s("title", { text: `set: ${set.style} + ${set.fabric}` }),
      s("rect", { x: sx, y: sy, width: 34, height: 46, rx: 4, fill: "#fffaf0", stroke: "#c9b99f" }), shape(set.style, sx + 3, sy + 6, 28),
      fabricCard(set.fabric, sx + 36, sy, 34, 46)), `set:${player.seat}:${i}`, `${set.style}+${set.fabric}`, `card:${player.seat}:style:${set.style}`));
    parts.push(token(set.token, sx + 35, sy + 62, 15, view.viewer));
    const worth = counts(set.style, set.token.value);
    if (worth !== null && worth !== set.token.value) parts.push(s("text", { x: sx + 54, y: sy + 66, "font-size": 11, "font-weight": 700, fill: "#2b2622", text: `= ${worth > 0 ? "+" : ""}${worth}` }, s("title", { text: `counts ${worth} at scoring after the ${set.style}` })));
  });
  const height = top + 6 + Math.max(1, Math.ceil(player.sets.length / SETS_PER_ROW)) * 88;
  return svg(WIDTH, height, `${context.names[player.seat]}'s tableau and sets`, ...parts);
}

/** The lobby's picture of the game, drawn with the table's own pieces: a set and a row of tokens. */
function picture() {
  const tokens = ["green", "red", "blue", "orange", "pink"].map((colour, i) =>
    token({ colour, position: i + 1, face_up: i % 2 === 0, value: i % 2 === 0 ? [4, 0, 2, 0, -1][i] : null }, 170 + i * 44, 60, 18, null));
  return svg(400, 100, "Hanbok Runway: a style card and a fabric card make a set; fabric tokens of five colours",
    ...styleCard("oval", 10, 14), fabricCard("red/blue", 70, 14, 54, 72), ...tokens);
}

export default {
  picture,
  async prepare(summary) {
    CONFIG = await gameData(summary.game, "config.toml");
  },

  /** The colours of the players and of the components, kept apart (tests/web/test_table_explains.py). */
  palette: { players: SEAT_COLOURS, components: Object.values(INK) },

  /** The players' panel: cards in hand, sets made and the influence each colour's tokens count that
   * this seat can see (a face-down token's value stays its owner's: no score is shown until the end). */
  panel(view, seat) {
    const player = view.players[seat];
    const influence = {};
    let hidden = 0;
    for (const set of player.sets) {
      const worth = counts(set.style, set.token.value);
      if (worth === null) hidden += 1;
      else influence[set.token.colour] = (influence[set.token.colour] || 0) + worth;
    }
    const seen = Object.entries(influence).map(([colour, n]) => `${colour} ${n}`).join(", ");
    const items = [plural(player.cards, "card") + " in hand", plural(player.sets.length, "set")];
    if (seen || hidden) items.push(`influence ${seen || "none seen"}${hidden ? ` (+${plural(hidden, "token")} face down)` : ""}`);
    return { items };
  },

  colour(view, seat) {
    return SEAT_COLOURS[seat];
  },

  draw(view, context) {
    const decks = `Style deck ${view.style_deck} · fabric deck ${view.fabric_deck} · style discard ${Object.entries(view.style_discard).map(([k, n]) => `${k}×${n}`).join(", ") || "empty"} · fabric discard ${Object.values(view.fabric_discard).reduce((a, b) => a + b, 0)} · additional VP supply ${view.additional_vp_supply}`;
    // One's own designer first (the mat one plays from), then the rival's.
    const players = [...view.players].sort((a, b) => (b.seat === context.seat) - (a.seat === context.seat));
    const mats = players.map((player) => h("div", { class: "mat" },
      h("h3", { class: "seat-title", style: `--seat:${SEAT_COLOURS[player.seat]}` }, `${context.names[player.seat]}${player.seat === context.seat ? " — you" : ""}${player.seat === view.to_move ? " — to move" : ""}`),
      drawDesigner(view, player, context)));
    return h("div", { class: "hanbok" },
      h("p", { class: "muted" }, `Turn ${view.turns_played + 1} · phase: ${view.phase}${view.end_triggered ? " · the end is triggered" : ""}${view.oval_colour ? ` · oval: ${view.oval_colour}` : ""}`),
      drawQueues(view), h("p", { class: "muted" }, decks), h("div", { class: "mats" }, ...mats));
  },

  keys(action) {
    switch (action.kind) {
      case "set": return [`style:${action.style}`, `fabric:${action.fabric}`, `queue:${action.colour}`];
      case "peek": case "flip": return [`tok:${action.colour}:${action.position}`];
      case "discard": return action.fabric ? [`fabric:${action.fabric}`] : [`style:${action.style}`];
      default: return [];
    }
  },

  /** The token an event touched (earned, peeked at, flipped), marked until the next move. */
  touched(event) {
    return event.colour && event.position ? [`tok:${event.colour}:${event.position}`] : [];
  },

  describe(key) {
    const [kind, a, b] = key.split(":");
    if (kind === "style") return `the ${a} style`;
    if (kind === "fabric") return `the ${a} fabric`;
    if (kind === "queue") return `earn ${a}`;
    if (kind === "tok") return `${a} token ${b}`;
    return key;
  },

  prompt(view, legal) {
    const kinds = new Set(legal.map((a) => a.kind));
    if (kinds.has("draw")) return "choose how many style and fabric cards to draw.";
    if (kinds.has("peek") || kinds.has("flip")) return "click a face-down token to peek at or to flip.";
    if (kinds.has("set")) return "make a set: a style of your tableau, a fabric card, then the queue to earn from — or pass.";
    if (kinds.has("discard")) return "your hand is over the limit: click a card of your tableau to discard (the crossed-out ones are already on their way out).";
    return "choose a move.";
  },

  guess(key, picker) {
    const [style, fabric] = picker.selection;
    if (key.startsWith("queue:") && style && fabric) return `set ${style.slice(6)} + ${fabric.slice(7)}, earn ${key.slice(6)}`;
    if (key.startsWith("tok:")) {
      const [, colour, position] = key.split(":");
      return `peek at ${colour} ${position}`;
    }
    return null;
  },
};
