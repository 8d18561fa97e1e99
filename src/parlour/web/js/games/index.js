// Each game's drawing and click mapping is its board module, shipped in the game's own package and
// served at /games/<name>/board.js; for a game that ships none the server redirects to generic.js,
// which is also the fallback should the module fail to load.

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
