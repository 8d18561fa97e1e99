// The server's HTTP API (docs/server.md): every call returns JSON or throws an Error with the server's message.

// The signed-in session's CSRF token (account.js sets it): sent with every request that changes
// something, since the session cookie goes with them all.
let csrfToken = null;
export function setCsrf(token) {
  csrfToken = token;
}

export async function call(path, { method = "GET", body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  if (csrfToken && method !== "GET") headers["X-CSRF-Token"] = csrfToken;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const type = response.headers.get("content-type") || "";
  const payload = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) {
    const message = payload && payload.error ? payload.error.message : `${response.status} ${response.statusText}`;
    const error = new Error(message);
    error.code = payload && payload.error ? payload.error.code : "http";
    throw error;
  }
  return payload;
}

const cache = new Map();

/** A game's component data file as JSON (fetched once per page). */
export function gameData(game, file) {
  const key = `${game}/${file}`;
  if (!cache.has(key)) cache.set(key, call(`/api/games/${game}/data/${file}`));
  return cache.get(key);
}

let gamesList = null;
export function games() {
  if (!gamesList) gamesList = call("/api/games");
  return gamesList;
}

/** The seat this browser holds at a table (kept across reloads), or null. */
export function savedSeat(table) {
  try {
    return JSON.parse(localStorage.getItem(`parlour.seat.${table}`));
  } catch {
    return null;
  }
}

export function saveSeat(table, seat) {
  localStorage.setItem(`parlour.seat.${table}`, JSON.stringify(seat));
}
