// Each game's drawing and click mapping is its board module, shipped in the game's own package and
// served at /games/<name>/board.js; a game that ships none (the server answers 404) gets generic.js.

const loaded = new Map();

async function load(game) {
  try {
    return await import(`/games/${encodeURIComponent(game)}/board.js`);
  } catch (error) {
    console.info(`${game}: no board module (${error.message}), drawing the generic board`);
    return import("./generic.js");
  }
}

export async function loadModule(game) {
  if (!loaded.has(game)) loaded.set(game, load(game));
  return (await loaded.get(game)).default;
}
