// The table's transport: one websocket to /api/tables/ID/ws that says hello (with the seat's token,
// if this browser holds one), hands every message it receives to the page, and reconnects after a
// drop for as long as the page still wants it. The page never touches the socket itself.

export class TableSocket {
  /**
   * @param {string} tableId
   * @param {{ token: () => (string | undefined), receive: (message: object) => void, wanted: () => boolean }} page
   */
  constructor(tableId, page) {
    this.tableId = tableId;
    this.page = page;
    this.socket = null;
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/api/tables/${this.tableId}/ws`);
    this.socket = socket;
    socket.addEventListener("open", () => socket.send(JSON.stringify({ type: "hello", token: this.page.token() })));
    socket.addEventListener("message", (event) => this.page.receive(JSON.parse(event.data)));
    socket.addEventListener("close", () => {
      // Only the newest socket reconnects, and only while the table is still on screen.
      if (this.socket === socket && this.page.wanted()) setTimeout(() => this.connect(), 1000);
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
