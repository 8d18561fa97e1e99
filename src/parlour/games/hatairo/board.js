// Hatairo: the market rows of flag cards (only the rightmost of a row can be taken), the motif
// supply, and each player's gallery grid with its motif spaces, topography row, palette of
// pigments and atelier. A flag card is drawn as bands of the pigments it needs, with its VP and
// bonus pigment.
//
// Clicks: a flag card, then where it goes (palette to gain it, atelier to reserve it, gallery to
// complete it); a gallery cell to place the flag being completed; a motif, then its space; a
// topography tile at set-up (its column is the leftmost still empty); a palette pigment to discard. Payments are buttons.

import { call, gameData } from "/js/api.js";
import { h, plural, s, svg, target } from "/js/dom.js";

const PIGMENT = { Red: "#d62828", Orange: "#f77f00", Yellow: "#fcbf49", Green: "#2a9d8f", Cyan: "#4cc9f0", Blue: "#1d4ed8", Black: "#222", Others: "#b5838d" };
// A player's colour is drawn in a deep tone no pigment has, so "Red pays Red" never shows one colour twice.
const SEATS = { Red: "#7a1c2e", Yellow: "#7a5c00", Blue: "#0f2a5c", Green: "#1f6b2e" };
const CARD_W = 96;
const CARD_H = 66;
let FLAGS = {};
let FLAG_ORDER = []; // the engine's flag ids are rows of flags.csv, in order
let FLAG_CODES = {}; // flag name → ISO code of its image (flag_codes.csv), when the server has the images

function flagCard(name, x, y, { dim = false } = {}) {
  const flag = FLAGS[name];
  const parts = [s("rect", { x, y, width: CARD_W, height: CARD_H, rx: 6, fill: "#fff", stroke: "#8a7f72", "stroke-width": 1.5 })];
  if (flag) {
    const bands = flag.required_pigments.split("|");
    const code = FLAG_CODES[name];
    // The real flag (flag-icons, 4:3) beside the pigments it needs, when the server has the images.
    const left = code ? 42 : 6;
    if (code) parts.push(s("image", { href: `/flags/${code}.svg`, x: x + 5, y: y + 5, width: 32, height: 24, preserveAspectRatio: "none" }),
      s("rect", { x: x + 5, y: y + 5, width: 32, height: 24, fill: "none", stroke: "#0004" }));
    const bw = (CARD_W - left - 6) / bands.length;
    // Pigment bands, then the topography and the VP on lines of their own so they never overlap.
    bands.forEach((pigment, i) => parts.push(s("rect", { x: x + left + i * bw, y: y + 5, width: bw, height: 24, fill: PIGMENT[pigment] || "#ccc" })));
    parts.push(s("rect", { x: x + left, y: y + 5, width: CARD_W - left - 6, height: 24, fill: "none", stroke: "#0003" }));
    parts.push(s("circle", { cx: x + CARD_W - 13, cy: y + 44, r: 7, fill: PIGMENT[flag.bonus_pigment], stroke: "#0006" }));
    parts.push(s("text", { x: x + 7, y: y + 39, "font-size": 9, fill: "#6f655b", text: flag.topography }));
    parts.push(s("text", { x: x + 7, y: y + 52, "font-size": 12, "font-weight": 700, fill: "#2b2622", text: `${flag.vp} VP` }));
  }
  parts.push(s("text", { x: x + CARD_W / 2, y: y + CARD_H - 4, "text-anchor": "middle", "font-size": name.length > 16 ? 8 : 10, fill: "#2b2622", text: name.length > 22 ? name.slice(0, 21) + "…" : name }));
  parts.push(s("rect", { class: "hit", x: x - 2, y: y - 2, width: CARD_W + 4, height: CARD_H + 4, rx: 8 }));
  const words = flag ? `${name}: needs ${flag.required_pigments.replaceAll("|", ", ")}; ${flag.vp} VP; bonus ${flag.bonus_pigment}; ${flag.topography}, ${flag.continent}; ${flag.features.replaceAll("|", ", ")}` : name;
  // A flag card slides from the market to where it is taken, and turns over where it first shows.
  return moving(target(`flag:${name}`, words, ...parts, dim ? s("rect", { x, y, width: CARD_W, height: CARD_H, rx: 6, fill: "#fff", "fill-opacity": 0.35 }) : null), `flag:${name}`, name);
}

/** A component the table animates when another seat's move changes it (web/js/motion.js). */
function moving(node, id, face, from) {
  node.dataset.motion = id;
  if (face !== undefined) node.dataset.face = face;
  if (from) node.dataset.motionFrom = from;
  return node;
}

function motifTile(design, x, y, key, w = 86, label) {
  const parts = [s("rect", { x, y, width: w, height: 40, rx: 8, fill: design ? "#efe3ff" : "#faf7f2", stroke: design ? "#6a4c93" : "#c9b99f", "stroke-dasharray": design ? "" : "4 3" }),
    s("text", { x: x + w / 2, y: y + 24, "text-anchor": "middle", "font-size": 10, fill: design ? "#3c2a57" : "#9a8f83", text: design || "motif" }),
    s("rect", { class: "hit", x: x - 2, y: y - 2, width: w + 4, height: 44, rx: 9 })];
  return key ? target(key, label || design || "empty motif space", ...parts) : s("g", {}, ...parts);
}

function drawMarket(view) {
  const rows = view.market;
  // The motif supply stands to the right of the longest row (six cards a row with four players).
  const columns = Math.max(1, ...rows.map((row) => row.length));
  const width = 16 + columns * (CARD_W + 8) + 220;
  const height = Math.max(30 + rows.length * (CARD_H + 10) + 10, 52 + Math.ceil(view.motif_supply.length / 2) * 48 + 8);
  const parts = [s("rect", { x: 0, y: 0, width, height, rx: 12, fill: "#f7efe2" }),
    s("text", { x: 10, y: 20, "font-size": 13, fill: "#6f655b", text: `Market — take the rightmost card of a row · flag supply ${view.flag_supply} · ` },
      s("tspan", { "data-motion": "pigment-supply", text: `pigment supply ${view.pigment_supply}` }))];
  rows.forEach((row, r) => {
    const y = 30 + r * (CARD_H + 10);
    parts.push(s("text", { x: 8, y: y + CARD_H / 2 + 4, "font-size": 11, fill: "#6f655b", text: `${r + 1}` }));
    row.forEach((name, i) => parts.push(flagCard(name, 20 + i * (CARD_W + 8), y, { dim: i !== row.length - 1 })));
  });
  const mx = 20 + columns * (CARD_W + 8);
  parts.push(s("text", { x: mx, y: 44, "font-size": 12, "font-weight": 700, text: `Motif supply (piles ${view.motif_piles.join(" / ")})` }));
  view.motif_supply.forEach((design, i) => parts.push(motifTile(design, mx + (i % 2) * 96, 52 + Math.floor(i / 2) * 48, `motif:${design}`, 90, `motif ${design}`)));
  const drawing = svg(width, height, "The market and the motif supply", ...parts);
  drawing.classList.add("wide");
  return drawing;
}

function drawMat(view, player, context) {
  const gallery = player.gallery;
  const columns = gallery[0].length;
  const left = 100;
  const top = 56;
  const cell = CARD_W + 8;
  const gridH = gallery.length * (CARD_H + 8);
  const parts = [];
  const own = player.seat === context.seat;
  const spaces = Object.entries(player.motifs);
  spaces.forEach(([name, design], index) => {
    const x = index < columns ? left + index * cell : 6;
    const y = index < columns ? 8 : top + (index - columns) * (CARD_H + 8) + 12;
    const tile = motifTile(design, x, y, own ? `space:${index}` : null, index < columns ? CARD_W : 88, `${name}${design ? `: ${design}` : " (empty)"}`);
    if (design) tile.dataset.info = `motif:${design}`;
    parts.push(tile);
  });
  gallery.forEach((row, r) => row.forEach((name, c) => {
    const x = left + c * cell;
    const y = top + r * (CARD_H + 8);
    if (name) parts.push(flagCard(name, x, y));
    else {
      const slot = [s("rect", { x, y, width: CARD_W, height: CARD_H, rx: 6, fill: "#faf7f2", stroke: "#c9b99f", "stroke-dasharray": "4 3" }),
        s("text", { x: x + CARD_W / 2, y: y + CARD_H / 2 + 4, "text-anchor": "middle", "font-size": 10, fill: "#b0a594", text: `row ${r + 1} col ${c + 1}` }),
        s("rect", { class: "hit", x: x - 2, y: y - 2, width: CARD_W + 4, height: CARD_H + 4, rx: 8 })];
      parts.push(own ? target(`cell:${r}:${c}`, `gallery row ${r + 1} column ${c + 1}`, ...slot) : s("g", {}, ...slot));
    }
  }));
  const ty = top + gridH + 4;
  (player.topography || Array(columns).fill(null)).forEach((topo, c) => {
    const x = left + c * cell;
    const tile = [s("rect", { x, y: ty, width: CARD_W, height: 26, rx: 5, fill: topo ? "#d8f3dc" : "#faf7f2", stroke: topo ? "#2d6a4f" : "#c9b99f", "stroke-dasharray": topo ? "" : "4 3" }),
      s("text", { x: x + CARD_W / 2, y: ty + 17, "text-anchor": "middle", "font-size": 11, fill: "#2d6a4f", text: topo || "topography" }),
      s("rect", { class: "hit", x: x - 2, y: ty - 2, width: CARD_W + 4, height: 30, rx: 6 })];
    const drawn = s("g", {}, s("title", { text: `topography under column ${c + 1}` }), ...tile);
    if (topo) drawn.dataset.info = `topo:${topo}`;
    parts.push(drawn);
  });
  // The palette: one chip per pigment, then the atelier of reserved flags.
  const py = ty + 40;
  const held = Object.values(player.palette || {}).filter(Boolean).length; // pigments with a chip each
  const rowW = Math.max(left + columns * cell - 10, 126 + held * 48 - 20);
  parts.push(s("rect", { x: 6, y: py, width: rowW, height: 50, rx: 10, fill: "#fff8e7", stroke: "#d4a373" }));
  // The palette's click target is its label box, apart from the pigment chips (clicked to discard).
  const palette = [s("rect", { x: 10, y: py + 4, width: 88, height: 42, rx: 8, fill: "#fde9c4", stroke: "#d4a373" }),
    s("text", { x: 54, y: py + 22, "text-anchor": "middle", "font-size": 11, "font-weight": 700, text: "Palette" }),
    s("text", { x: 54, y: py + 37, "text-anchor": "middle", "font-size": 11, text: `${player.pigments ?? "?"}/10` }),
    s("rect", { class: "hit", x: 7, y: py, width: 94, height: 50, rx: 9 })];
  parts.push(own ? target("area:palette", "your palette (gain a flag as a pigment)", ...palette) : s("g", {}, ...palette));
  // One chip per pigment, with how many the palette holds: a target 46 units square (44 px and more
  // on a phone, where a mat keeps 520 px for its 520 units).
  let px = 126;
  for (const [pigment, count] of Object.entries(player.palette || {})) {
    if (!count) continue;
    const words = `${pigment} pigment${count > 1 ? ` ×${count}` : ""}`;
    const chip = [s("circle", { cx: px, cy: py + 20, r: 13, fill: PIGMENT[pigment], stroke: "#0007", "stroke-width": 1.5 }),
      s("text", { x: px, y: py + 45, "text-anchor": "middle", "font-size": 10, fill: "#2b2622", text: `×${count}` }),
      s("rect", { class: "hit", x: px - 23, y: py + 2, width: 46, height: 46, rx: 8 })];
    // A pigment gained travels in from the supply (one spent only turns over to its new count).
    parts.push(moving(own ? target(`pig:${pigment}`, words, ...chip) : s("g", {}, s("title", { text: words }), ...chip), `pig:${player.seat}:${pigment}`, String(count), "pigment-supply"));
    px += 48;
  }
  const ay = py + 60;
  parts.push(s("rect", { x: 6, y: ay, width: rowW, height: CARD_H + 12, rx: 10, fill: "#eef4fb", stroke: "#7da0c4" }));
  const atelier = [s("rect", { x: 10, y: ay + 4, width: 88, height: CARD_H + 4, rx: 8, fill: "#d6e4f5", stroke: "#7da0c4" }),
    s("text", { x: 54, y: ay + CARD_H / 2 + 9, "text-anchor": "middle", "font-size": 11, "font-weight": 700, text: "Atelier" }),
    s("rect", { class: "hit", x: 8, y: ay + 2, width: 92, height: CARD_H + 8, rx: 9 })];
  parts.push(own ? target("area:atelier", "your atelier (reserve a flag)", ...atelier) : s("g", {}, ...atelier));
  (player.atelier || []).forEach((name, i) => parts.push(flagCard(name, 108 + i * (CARD_W + 8), ay + 6)));
  const height = ay + CARD_H + 20 + (player.setup ? 20 : 0);
  if (player.setup) parts.push(s("text", { x: left, y: height - 6, "font-size": 12, fill: "#6f655b", text: `Set-up ${player.setup}` }));
  const width = Math.max(left + columns * cell + 4, 112 + (player.atelier || []).length * (CARD_W + 8), rowW + 10);
  return svg(width, height + 6, `${context.names[player.seat]}'s gallery, palette and atelier`, ...parts);
}

/** The set-up hand, three cards a row so that all of them fit a phone's width without scrolling. */
function drawHand(player) {
  const hand = player.hand || [];
  if (!hand.length) return null;
  const perRow = 3;
  const parts = hand.map((name, i) => flagCard(name, 6 + (i % perRow) * (CARD_W + 8), 6 + Math.floor(i / perRow) * (CARD_H + 8)));
  const drawing = svg(perRow * (CARD_W + 8) + 4, Math.ceil(hand.length / perRow) * (CARD_H + 8) + 6, "Your hand (set-up)", ...parts);
  drawing.classList.add("hand");
  return h("div", { class: "hand-area" }, h("h4", {}, `Your hand (set-up): ${plural(hand.length, "card")}`), drawing);
}

// The engine calls a player by their colour (R28: Red, Yellow, Blue, Green in seat order), which
// pigments share ("Red pays Red"): a sentence's subject is called by the player's name instead.
const PLAYERS = ["Red", "Yellow", "Blue", "Green"];
const SUBJECT = new RegExp(`\\b(${PLAYERS.join("|")}) (?=(?:pays|places|completes|keeps|lays|drafts|reveals|gains|loses|reserves|starts|passes|discards|will)\\b)`, "g");

/** The lobby's picture of the game, drawn with the table's own pieces: flag cards and a motif. */
function picture() {
  const flags = [["Red", "Green"], ["Blue", "Yellow", "Red"], ["Black", "Orange"], ["Cyan", "Green", "Yellow"]];
  const cards = flags.map((bands, i) => {
    const x = 8 + i * (CARD_W + 8);
    const w = (CARD_W - 12) / bands.length;
    return s("g", {}, s("rect", { x, y: 8, width: CARD_W, height: CARD_H, rx: 6, fill: "#fff", stroke: "#8a7f72", "stroke-width": 1.5 }),
      ...bands.map((pigment, b) => s("rect", { x: x + 6 + b * w, y: 14, width: w, height: 30, fill: PIGMENT[pigment] })),
      s("circle", { cx: x + CARD_W - 14, cy: 56, r: 7, fill: PIGMENT[bands[0]], stroke: "#0006" }),
      s("text", { x: x + 8, y: 61, "font-size": 13, "font-weight": 700, fill: "#2b2622", text: `${3 * bands.length - 3} VP` }));
  });
  return svg(8 + 4 * (CARD_W + 8), CARD_H + 64, "Hatairo: flag cards with the pigments they need, and a motif tile",
    ...cards, motifTile("Horizontal Stripes", 8, CARD_H + 16, null, 4 * (CARD_W + 8) - 8));
}

export default {
  picture,
  /** Players by name where the engine's words give their colour, never a pigment ("Ann pays Red"). */
  phrase(text, names) {
    if (!names) return text;
    const who = (colour) => names[PLAYERS.indexOf(colour)] || colour;
    return text.replace(SUBJECT, (_, colour) => `${who(colour)} `)
      .replace(/^game over: (.*)$/, (_, totals) => `game over: ${totals.replace(/\b(Red|Yellow|Blue|Green)(?= \d)/g, who)}`);
  },

  /** The colours of the players and of the components, kept apart (tests/web/test_table_explains.py). */
  palette: { players: Object.values(SEATS), components: Object.values(PIGMENT) },

  async prepare(summary) {
    const [rows, codes, images] = await Promise.all([gameData(summary.game, "flags.csv"), gameData(summary.game, "flag_codes.csv"), call("/flags/index.json")]);
    FLAGS = Object.fromEntries(rows.map((row) => [row.name, row]));
    FLAG_ORDER = rows.map((row) => row.name);
    FLAG_CODES = images.available ? Object.fromEntries(codes.map((row) => [row.name, row.iso_code])) : {};
  },

  /** The flag an event names (gained, reserved, completed, placed), marked until the next move. */
  touched(event) {
    const name = typeof event.flag === "number" ? FLAG_ORDER[event.flag] : null;
    return name ? [`flag:${name}`] : [];
  },

  /** The players' panel: flags completed, pigments held and flags in the atelier (the score comes
   * from the view once the set-ups are revealed). */
  panel(view, seat) {
    const player = view.players[seat];
    const items = [`${plural(player.flags_completed, "flag")} completed`];
    if (player.pigments !== undefined) items.push(`${player.pigments}/10 pigments`, `${plural((player.atelier || []).length, "flag")} in the atelier`);
    return { items };
  },

  colour(view, seat) {
    return SEATS[view.players[seat].colour];
  },

  draw(view, context) {
    const notes = [];
    if (view.completing) {
      const unpaid = Object.entries(view.completing.unpaid).map(([c, n]) => `${c}×${n}`).join(", ");
      notes.push(`Completing ${view.completing.flag}${unpaid ? ` — still to pay: ${unpaid}` : ""}`);
    }
    if (view.spending) notes.push(`Spending ${view.spending.n} ${view.spending.pigment}: palette flag cards leave the game, pigment cards return to the supply`);
    if (view.bonus_choice) notes.push(`Bonus pigments: ${view.bonus_choice.bonuses.join(", ")} (take ${view.bonus_choice.can_take})`);
    // A mat may scroll sideways on a phone: it is a focusable region, so a keyboard can scroll it too.
    const mat = (player) => h("div", { class: "mat", role: "region", tabindex: "0", "aria-label": `${context.names[player.seat]}'s mat` },
      h("h3", { class: "seat-title", style: `--seat:${SEATS[player.colour]}` }, `${context.names[player.seat]} — ${player.colour}${player.seat === context.seat ? " — you" : ""} · ${plural(player.flags_completed, "flag")} completed`),
      drawHand(player), drawMat(view, player, context));
    // One's own mat comes first, at full size; the rivals' mats, which hold nothing to click, side by
    // side and smaller, so that a table of three or four stays a page one can take in.
    const own = view.players.filter((player) => player.seat === context.seat);
    const rivals = view.players.filter((player) => player.seat !== context.seat);
    return h("div", { class: "hatairo" },
      h("p", { class: "muted" }, `Phase: ${view.phase}${view.end_triggered_by >= 0 ? ` · the end is triggered by ${context.names[view.end_triggered_by]}` : ""}`),
      notes.length ? h("p", { class: "turn" }, notes.join(" · ")) : null,
      drawMarket(view), h("div", { class: "mats" }, ...own.map(mat)),
      rivals.length ? h("div", { class: "mats rivals" }, ...rivals.map(mat)) : null);
  },

  keys(action) {
    switch (action.kind) {
      case "keep_palette": case "gain": return [`flag:${action.flag}`, "area:palette"];
      case "keep_atelier": case "reserve": return [`flag:${action.flag}`, "area:atelier"];
      case "draft": case "complete": return [`flag:${action.flag}`];
      case "place": return [`cell:${action.row}:${action.column}`];
      // The set-up fills the columns from the left: the column is never a choice.
      case "topography": return [`topo:${action.topography}`];
      case "motif": return [`motif:${action.motif}`, `space:${action.space}`];
      case "discard": return [`pig:${action.pigment}`];
      default: return [];
    }
  },

  describe(key) {
    const [kind, a, b] = key.split(":");
    if (kind === "flag") return a;
    if (kind === "area") return `your ${a}`;
    if (kind === "cell") return `gallery row ${Number(a) + 1} column ${Number(b) + 1}`;
    if (kind === "topo") return `the ${a} topography tile`;
    if (kind === "motif") return `the ${a} motif`;
    if (kind === "space") return `motif space ${Number(a) + 1}`;
    if (kind === "pig") return `a ${a} pigment`;
    return key;
  },

  prompt(view, legal) {
    const kinds = new Set(legal.map((a) => a.kind));
    if (kinds.has("keep_palette")) return "click a flag of your hand, then your palette or your atelier.";
    if (kinds.has("draft")) return "draft a flag from your hand.";
    if (kinds.has("topography")) return `choose the topography tile for column ${legal.find((a) => a.kind === "topography").column + 1} (the columns fill from the left).`;
    if (kinds.has("place")) return "click the gallery cell for the flag.";
    if (kinds.has("pay") || kinds.has("pay_pair") || kinds.has("spare") || kinds.has("spare_lost")) return "choose how to pay the flag's pigments.";
    if (kinds.has("cards")) return "choose how many of the pigments spent are palette flag cards (the rest are pigment cards).";
    if (kinds.has("motif")) return "choose a motif, then its space on your gallery.";
    if (kinds.has("discard")) return "your palette is over its limit: click a pigment to discard.";
    return "take the rightmost flag of a market row (then palette or atelier), complete a flag, or start the motif phase.";
  },

  guess(key, picker) {
    const [first] = picker.selection;
    if (key.startsWith("flag:") && !first) return `complete ${key.slice(5)}`;
    if (first && first.startsWith("flag:") && key === "area:atelier") return `reserve ${first.slice(5)}`;
    if (key.startsWith("cell:")) {
      const [, r, c] = key.split(":");
      return `place at row ${Number(r) + 1} column ${Number(c) + 1}`;
    }
    return null;
  },
};
