// The lobby: each game as a card (a picture drawn by its board module, what it is like, players and
// length, Learn to play), a form to create a table (game, players, options, who sits where), its
// invite link, and the open, running and finished tables to join, watch or replay.

import { account } from "./account.js";
import { call, games, savedSeat, saveSeat } from "./api.js";
import { seatNames } from "./explain.js";
import { cap, clear, h } from "./dom.js";
import { openRules } from "./rules.js";
import { modeFields } from "./clock.js";
import { noteDeal } from "./deal.js";
import { ratingText } from "./ratings.js";
import { loadModule } from "./games/index.js";
import { quickPlay } from "./quick.js";
import { endingText } from "./leaving.js";
import { levelRatings, ratingWords } from "./levels.js";

const STRENGTHS = [
  ["human", "a person"],
  ["random", "bot: random moves"],
  // The named levels (agents/levels.py), weakest first; each game's ratings come from /api/levels.
  ["level:novice", "bot: Novice (a short search)"],
  ["level:casual", "bot: Casual (looks one move ahead)"],
  ["level:club", "bot: Club (searches for 0.1 s a move)"],
  ["level:expert", "bot: Expert (searches for 0.4 s a move)"],
  ["level:master", "bot: Master (searches for 1 s a move)"],
];

/** Who sits at a seat, in a player's words: you at the first, opponents after. */
function seatLabel(seat) {
  return seat === 0 ? "You" : `Opponent ${seat}`;
}

function optionField(option) {
  const id = `opt-${option.name}`;
  let input;
  if (option.choices) {
    input = h("select", { id, name: option.name },
      ...option.choices.map((c) => h("option", { value: String(c), selected: c === option.default }, String(c))));
  } else if (option.type === "bool") {
    input = h("input", { id, name: option.name, type: "checkbox", checked: option.default === true });
  } else if (option.type === "int") {
    input = h("input", { id, name: option.name, type: "number", value: option.default, min: option.minimum, max: option.maximum });
  } else {
    input = h("input", { id, name: option.name, type: "text", value: option.default });
  }
  input.dataset.type = option.type;
  return h("div", { class: "field" }, h("label", { for: id }, option.title || option.name), input, h("small", { class: "muted" }, option.help || ""));
}

function readOptions(form, game) {
  const options = {};
  for (const option of game.options) {
    if (option.name === "players") continue;
    const input = form.querySelector(`[name="${option.name}"]`);
    let value;
    if (option.type === "bool") value = input.checked;
    else if (option.type === "int") value = Number(input.value);
    else value = input.value;
    if (value !== option.default) options[option.name] = value;
  }
  return options;
}

/** The seats' pickers; a bot's rating in `game` follows its words where `levels` has one. */
function seatRows(container, count, game, levels) {
  const old = [...container.querySelectorAll("select")].map((s) => s.value);
  clear(container);
  for (let seat = 0; seat < count; seat++) {
    const value = old[seat] || (seat === 0 ? "human" : "random");
    const rated = (spec, text) => {
      const rating = ratingWords(levels, game, spec);
      return rating ? `${text} — ${rating}` : text;
    };
    const words = (spec, text) => (spec !== "human" ? rated(spec, text) : seat === 0 ? "you play" : "a person you invite");
    const select = h("select", { id: `seat-${seat}`, name: `seat-${seat}` },
      ...STRENGTHS.map(([spec, text]) => h("option", { value: spec, selected: spec === value }, words(spec, text))));
    container.append(h("div", { class: "field seat-row" }, h("label", { for: `seat-${seat}` }, seatLabel(seat)), select));
  }
}

function createForm(list, onCreated) {
  const form = h("form", { class: "card create", "aria-label": "Create a table" });
  const gameSelect = h("select", { id: "game", name: "game" },
    ...list.map((g) => h("option", { value: g.name }, g.title)));
  const players = h("select", { id: "players", name: "players" });
  const options = h("div", { class: "options" });
  const seed = h("input", { id: "seed", name: "seed", type: "number", min: 0, placeholder: "random" });
  const fixedDeal = h("input", { id: "fixed-deal", name: "fixed_deal", type: "checkbox" });
  const seats = h("div", { class: "seats" });
  const summary = h("p", { class: "muted summary" });
  const name = h("input", { id: "your-name", name: "name", type: "text", value: localStorage.getItem("parlour.name") || "", placeholder: "your name", required: true, maxlength: 40 });
  const status = h("p", { class: "status", role: "status" });
  const rules = h("button", { type: "button", class: "link", id: "rules" }, "Rules");
  const modes = modeFields();
  const rated = h("input", { id: "rated", name: "rated", type: "checkbox" });

  const current = () => list.find((g) => g.name === gameSelect.value);
  let levels = null;
  const scale = h("small", { class: "muted levels-scale" });
  const showSeats = () => {
    seatRows(seats, Number(players.value), gameSelect.value, levels);
    scale.textContent = levels && levels.games[gameSelect.value] ? levels.scale : "";
  };
  function refreshGame() {
    const game = current();
    summary.textContent = game.summary;
    clear(players).append(...game.players.map((n) => h("option", { value: n }, `${n} player${n === 1 ? "" : "s"}`)));
    clear(options).append(...game.options.filter((o) => o.name !== "players").map(optionField));
    showSeats();
  }
  gameSelect.addEventListener("change", refreshGame);
  players.addEventListener("change", showSeats);
  // The levels' ratings arrive after the form is drawn; the seats are drawn again with them.
  levelRatings().then((answer) => {
    levels = answer;
    showSeats();
  }, () => {});
  rules.addEventListener("click", () => openRules(gameSelect.value));

  form.append(
    h("h2", {}, "New table"),
    h("div", { class: "field" }, h("label", { for: "game" }, "Game"), gameSelect, rules),
    summary,
    h("div", { class: "field" }, h("label", { for: "players" }, "Players"), players),
    h("details", {}, h("summary", {}, "Options"), options,
      h("div", { class: "field" }, h("label", { for: "seed" }, "Seed"), seed, h("small", { class: "muted" }, "the same seed and moves give the same game; empty: the server draws one and commits to it")),
      h("div", { class: "field" }, h("label", { for: "fixed-deal" }, "Fixed deal"), fixedDeal, h("small", { class: "muted" }, "needed for a seed of yours when other people play: everybody is told you chose the deal"))),
    modes.element,
    h("div", { class: "field" }, h("label", { for: "rated" }, "Rated"), rated,
      h("small", { class: "muted" }, "two or more people, each signed in; the game's default options; the server draws the deal. Live without a clock: each seat gets a time bank, and a seat whose time runs out forfeits (ranked last)")),
    h("fieldset", {}, h("legend", {}, "Who plays: people or bots"), seats, scale),
    h("div", { class: "field" }, h("label", { for: "your-name" }, "Your name"), name),
    h("button", { type: "submit", class: "primary", id: "create" }, "Create table"),
    status,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const game = current();
    const seatSpecs = [...seats.querySelectorAll("select")].map((s) => s.value);
    // The server refuses these too (chosen_seed, bad_seed); said here first, without a round trip.
    let refusal = null;
    if (fixedDeal.checked && seed.value === "") refusal = "A fixed deal is the seed you choose: give a seed, or untick “fixed deal”.";
    else if (seed.value !== "" && !fixedDeal.checked && seatSpecs.filter((spec) => spec === "human").length > 1) {
      refusal = "Other people play at this table: leave the seed empty (the server draws the deal and commits to it), or tick “fixed deal” so that everybody is told you chose it.";
    }
    if (refusal) {
      status.textContent = refusal;
      status.classList.add("error");
      return;
    }
    status.classList.remove("error");
    status.textContent = "Creating…";
    try {
      const table = await call("/api/tables", {
        method: "POST",
        body: {
          game: game.name,
          seats: seatSpecs,
          options: { players: Number(players.value), ...readOptions(form, game) },
          seed: seed.value === "" ? undefined : Number(seed.value),
          fixed_deal: fixedDeal.checked || undefined,
          ...modes.body(),
          rated: rated.checked || undefined,
        },
      });
      localStorage.setItem("parlour.name", name.value);
      noteDeal(table.id, table.deal);
      if (seatSpecs.includes("human")) {
        await account(); // signed in, the seat is the account's (the join carries the CSRF token)
        const seat = await call(`/api/tables/${table.id}/join`, { method: "POST", body: { name: name.value } });
        saveSeat(table.id, { token: seat.token, seat: seat.seat, name: seat.name, account: seat.account });
      }
      status.textContent = "";
      // Against bots alone there is nobody to invite: straight to the table.
      if (seatSpecs.filter((spec) => spec === "human").length === 1) location.assign(`/?table=${table.id}`);
      else onCreated(table);
    } catch (error) {
      status.textContent = error.message;
      status.classList.add("error");
    }
  });
  refreshGame();
  return form;
}

function seatsText(table) {
  const names = seatNames(table.seats);
  const seated = table.seats.flatMap((seat, i) => (seat.kind === "bot" ? [names[i]] : seat.taken ? [names[i] + ratingText(table, i)] : []));
  // Free seats are counted, never numbered ("free seat 2" reads as the server's numbering).
  const free = table.seats.filter((seat) => seat.kind !== "bot" && !seat.taken).length;
  return [...seated, free ? `${free} free seat${free > 1 ? "s" : ""}` : null].filter(Boolean).join(" · ");
}

const STATUS_WORDS = { open: "waiting for players", running: "playing", finished: "finished" };

function tableRow(table) {
  const actions = [];
  const held = savedSeat(table.id);
  if (table.status === "finished") {
    if (!table.ended) actions.push(h("a", { class: "button", href: `/?replay=${table.id}` }, "Replay"));
  } else if (held) {
    // A seat this browser holds (its token kept in localStorage): back to it, not to a spectator's view.
    actions.push(h("a", { class: "button primary resume", href: `/?table=${table.id}` }, "Resume"));
  } else {
    if (table.status === "open") actions.push(h("a", { class: "button primary", href: `/?table=${table.id}` }, "Join"));
    actions.push(h("a", { class: "button", href: `/?table=${table.id}&watch=1` }, "Watch"));
  }
  const names = seatNames(table.seats);
  const winners = table.result ? table.result.winners.map((w) => names[w]) : [];
  const result = winners.length ? ` — ${winners.length > 1 ? "shared win" : "winner"}: ${winners.join(", ")}` : "";
  return h("li", { class: "table-row", "data-table": table.id },
    h("div", { class: "row-text" }, h("strong", {}, table.title), ` · ${table.ended ? endingText(table.ended, names) : STATUS_WORDS[table.status] || table.status}${result}`,
      table.deal && table.deal.fixed ? h("span", { class: "tag fixed-deal", title: "the table's creator chose the deal" }, "fixed deal") : null,
      table.rated ? h("span", { class: "tag rated", title: "the players' ratings change with the result" }, "rated") : null,
      h("br"), h("small", { class: "muted" }, seatsText(table))),
    h("div", { class: "row-actions" }, ...actions));
}

async function refreshTables(container) {
  const [live, finished] = await Promise.all([call("/api/tables"), call("/api/tables?status=finished")]);
  const mine = live.filter((table) => savedSeat(table.id));
  // Only nodes: a null given to append() would print as the text "null".
  const parts = [
    mine.length ? h("h2", {}, "My tables") : null,
    mine.length ? h("ul", { class: "tables", id: "my-tables" }, ...mine.map(tableRow)) : null,
    h("h2", {}, "Open and running tables"),
    live.length ? h("ul", { class: "tables" }, ...live.map(tableRow)) : h("p", { class: "muted" }, "No table yet: create one."),
    h("h2", {}, "Finished games"),
    finished.length ? h("ul", { class: "tables" }, ...finished.slice(0, 20).map(tableRow)) : h("p", { class: "muted" }, "None yet."),
  ];
  clear(container).append(...parts.filter(Boolean));
}

function created(panel, table) {
  const link = h("input", { type: "text", readonly: true, value: table.invite_url, id: "invite-link", "aria-label": "Invite link" });
  const copy = h("button", { type: "button", id: "copy-invite" }, "Copy invite link");
  copy.addEventListener("click", async () => {
    link.select();
    try {
      await navigator.clipboard.writeText(table.invite_url);
      copy.textContent = "Copied";
    } catch {
      copy.textContent = "Select the link and copy it";
    }
  });
  clear(panel).append(
    h("h2", {}, `Your table of ${table.title} is ready`),
    h("p", {}, "Share this link with the people you invited:"),
    h("div", { class: "field" }, link, copy),
    h("a", { class: "button primary", id: "go-table", href: `/?table=${table.id}` }, "Go to the table"),
  );
}

function playersText(counts) {
  const low = Math.min(...counts);
  const high = Math.max(...counts);
  if (low === high) return `${low} player${low === 1 ? "" : "s"}`;
  return `${low}–${high} players`;
}

/** A game's card: its picture (drawn by its board module), what it is like, players and length. */
function gameCard(game, chooseGame) {
  // Shown once drawn: a game whose board module draws no picture (a plugin's) has none.
  const picture = h("div", { class: "game-picture", hidden: true });
  loadModule(game.name).then((module) => {
    if (!module.picture) return;
    picture.append(module.picture());
    picture.hidden = false;
  }).catch(() => {});
  const length = game.minutes ? ` · ${game.minutes[0]}–${game.minutes[1]} min` : "";
  const rules = h("button", { type: "button", class: "link", onclick: () => openRules(game.name) }, "Rules");
  const create = h("button", { type: "button", class: "new-table", onclick: () => chooseGame(game.name) }, "New table");
  return h("li", { class: "game-card card", "data-game": game.name },
    picture,
    h("h3", {}, game.title),
    h("p", { class: "feel" }, game.feel || cap(game.summary)),
    h("p", { class: "muted facts" }, playersText(game.players) + length),
    h("div", { class: "card-actions" },
      game.tutorial ? h("a", { class: "button learn", href: `/?learn=${game.name}` }, "Learn to play") : null,
      create, rules),
    game.players.some((n) => n > 1) ? quickPlay(game) : null);
}

function gameCards(list, form) {
  const chooseGame = (name) => {
    const select = form.querySelector("#game");
    select.value = name;
    select.dispatchEvent(new Event("change"));
    form.scrollIntoView({ behavior: "smooth", block: "start" });
    select.focus();
  };
  return h("section", { class: "games", "aria-labelledby": "games-title" },
    h("h1", { id: "games-title" }, "Choose a game"),
    h("p", { class: "muted" }, "New to a game? Learn to play walks you through a first game, then lets you play it out against a gentle bot."),
    h("ul", { class: "game-cards" }, ...list.map((game) => gameCard(game, chooseGame))));
}

export async function showLobby(app) {
  document.title = "parlour — lobby";
  const list = await games();
  const tables = h("section", { class: "card tables-card", "aria-live": "polite" });
  const made = h("section", { class: "card made", hidden: true });
  const form = createForm(list, (table) => {
    made.hidden = false;
    created(made, table);
    refreshTables(tables);
  });
  const boards = h("p", {}, h("a", { href: `/?ratings=${list[0].name}`, id: "leaderboards" }, "Leaderboards"));
  clear(app).append(gameCards(list, form), h("div", { class: "lobby" }, h("div", {}, form, made, boards), tables));
  await refreshTables(tables);
  const timer = setInterval(() => (document.body.contains(tables) ? refreshTables(tables).catch(() => {}) : clearInterval(timer)), 5000);
}
