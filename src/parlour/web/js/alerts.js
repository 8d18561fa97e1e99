// Turn alerts: when the turn comes to this seat, an optional beep (WebAudio, off by default, kept in
// localStorage) and, while the tab is hidden, a browser notification (permission asked on a click).

import { h } from "./dom.js";

const SOUND_KEY = "parlour.sound";

function beep() {
  const Audio = window.AudioContext || window.webkitAudioContext;
  if (!Audio) return;
  const context = new Audio();
  const tone = context.createOscillator();
  const gain = context.createGain();
  tone.frequency.value = 660;
  gain.gain.setValueAtTime(0.15, context.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.001, context.currentTime + 0.35);
  tone.connect(gain).connect(context.destination);
  tone.start();
  tone.stop(context.currentTime + 0.35);
  tone.addEventListener("ended", () => context.close());
}

export class TurnAlerts {
  constructor(title) {
    this.title = title;
    this.mine = false;
    this.sound = h("input", { type: "checkbox", id: "alert-sound", checked: localStorage.getItem(SOUND_KEY) === "on",
      onchange: () => localStorage.setItem(SOUND_KEY, this.sound.checked ? "on" : "off") });
    this.notify = h("button", { type: "button", id: "alert-notify", class: "link", onclick: () => this.askPermission() }, "Notify me when the tab is hidden");
    this.element = h("div", { class: "alerts", id: "alerts" },
      h("label", { for: "alert-sound" }, this.sound, " Sound at my turn"), " ", "Notification" in window ? this.notify : null);
    this.showPermission();
  }

  showPermission() {
    if (!("Notification" in window)) return;
    const state = Notification.permission;
    this.notify.disabled = state !== "default";
    if (state === "granted") this.notify.textContent = "Notifications on when the tab is hidden";
    if (state === "denied") this.notify.textContent = "Notifications are blocked by the browser";
  }

  async askPermission() {
    await Notification.requestPermission();
    this.showPermission();
  }

  /** Called with every position: alerts only when the turn passes to this seat. */
  update(mine) {
    const arrived = mine && !this.mine;
    this.mine = mine;
    if (!arrived) return;
    if (this.sound.checked) beep();
    if (document.hidden && "Notification" in window && Notification.permission === "granted") {
      new Notification("Your turn", { body: this.title, tag: `parlour-${this.title}` });
    }
  }
}
