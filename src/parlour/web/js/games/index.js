// Each game's drawing and click mapping lives in its own module, loaded when a table needs it.

const MODULES = {
  hatflings: () => import("./hatflings.js"),
  hanbok_runway: () => import("./hanbok_runway.js"),
  hatairo: () => import("./hatairo.js"),
  yamatai: () => import("./yamatai.js"),
};

export async function loadModule(game) {
  const load = MODULES[game] || (() => import("./generic.js"));
  return (await load()).default;
}
