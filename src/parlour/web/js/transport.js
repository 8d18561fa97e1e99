// The table's transport: one websocket to /api/tables/ID/ws that says hello (with the seat's token,
// if this browser holds one), hands every message it receives to the page, and reconnects after a
// drop for as long as the page still wants it. The page never touches the socket itself.
//
// Reconnecting waits a little longer after each failed try (RETRY_FIRST doubling up to RETRY_MOST,
// with some randomness so that the clients of a server that died do not all come back at once) and
// goes round the addresses the page lists in <meta name="parlour-servers" content="host:port ...">
// (docs/server.md, "Several server processes"); without that tag, the page's own address (one
// address behind a proxy that spreads connections over the servers).
const RETRY_FIRST = 500;
const RETRY_MOST = 8000;

function addresses() {
  const listed = document.querySelector('meta[name="parlour-servers"]')?.getAttribute("content") ?? "";
  const hosts = listed.split(/\s+/).filter(Boolean);
  return hosts.length ? hosts : [location.host];
}

export class TableSocket {
  /**
   * @param {string} tableId
   * @param {{ token: () => (string | undefined), receive: (message: object) => void, wanted: () => boolean }} page
   */
  constructor(tableId, page) {
    this.tableId = tableId;
    this.page = page;
    this.socket = null;
    this.hosts = addresses();
    this.host = 0;
    this.pause = RETRY_FIRST;
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${this.hosts[this.host]}/api/tables/${this.tableId}/ws`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.pause = RETRY_FIRST;
      socket.send(JSON.stringify({ type: "hello", token: this.page.token() }));
    });
    socket.addEventListener("message", (event) => this.page.receive(JSON.parse(event.data)));
    socket.addEventListener("close", () => {
      // Only the newest socket reconnects, and only while the table is still on screen.
      if (this.socket !== socket || !this.page.wanted()) return;
      this.host = (this.host + 1) % this.hosts.length; // the next server, in case this one is gone
      const wait = this.pause * (0.5 + Math.random());
      this.pause = Math.min(this.pause * 2, RETRY_MOST);
      setTimeout(() => this.connect(), wait);
    });
  }

  get open() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  /** Send a message; false (and nothing sent) while the connection is down. */
  send(message) {
    if (!this.open) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }
}
