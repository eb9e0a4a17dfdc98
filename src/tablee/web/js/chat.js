// The chat box of a table (`table`: its id) or of the lobby (`table`: null): the last messages,
// the quick phrases (one tap: no typing needed on a phone), a line to write, and for each message
// of someone else "signaler" (a report to the admins) and "masquer" (this player's messages hidden
// from me). Every text from the server goes in as text (h() makes text nodes), never as HTML.
//
// Muting another player is kept in this browser (localStorage): it is the reader's own filter,
// which nobody else sees and nothing on the server depends on, so the server need not store whom
// a player ignores nor look it up for every message it pushes.

import { h, replace } from "./dom.js";

/** The quick phrases: key (what the server gets) -> text; the server holds the same list
 * (tablee.protocol.QUICK_PHRASES). */
export const QUICK_PHRASES = {
  bonjour: "Bonjour !",
  bien_joue: "Bien joué !",
  merci: "Merci",
  bravo_partenaire: "Bravo partenaire",
  oups: "Oups",
  bonne_partie: "Bonne partie",
  vite: "On accélère ?",
  au_revoir: "Au revoir !",
};
const SHOWN_PHRASES = ["bien_joue", "merci", "bravo_partenaire", "oups", "bonne_partie", "bonjour"];
const MUTED_KEY = "tablee.chat.muted";
const MAX_LINES = 200;
const MAX_CHARS = 300;
const BUBBLE_MS = 4000;

export function mutedPlayers() {
  try {
    const list = JSON.parse(localStorage.getItem(MUTED_KEY) || "{}");
    return list && typeof list === "object" ? list : {};
  } catch {
    return {};
  }
}

function saveMuted(list) {
  localStorage.setItem(MUTED_KEY, JSON.stringify(list));
}

function hhmm(iso) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : d.toLocaleTimeString("fr-FR", { hour: "2-digit", minute: "2-digit" });
}

export class ChatBox {
  /** `onBubble(message)`: a quick phrase from a seated player (the table shows it over the
   * seat). */
  constructor({ socket, player, table = null, onBubble = null, title = "Discussion" }) {
    this.socket = socket;
    this.player = player;
    this.table = table;
    this.onBubble = onBubble;
    this.messages = [];
    this.mutedUntil = null;
    this.list = h("ol.chat-list", { role: "log", "aria-live": "polite", "aria-label": title });
    this.error = h("p.chat-error", { role: "alert" });
    this.input = h("input.chat-input", {
      type: "text",
      maxlength: MAX_CHARS,
      placeholder: table == null ? "Écrire au salon…" : "Écrire à la table…",
      "aria-label": "Votre message",
      autocomplete: "off",
    });
    this.sendButton = h("button.btn.small", { type: "submit" }, "Envoyer");
    const form = h("form.chat-form", { onsubmit: (ev) => { ev.preventDefault(); this.sendText(); } }, this.input, this.sendButton);
    const phrases = h("div.chat-phrases", { role: "group", "aria-label": "Phrases rapides" },
      SHOWN_PHRASES.map((key) => h("button.chip.phrase", { type: "button", dataset: { phrase: key }, onclick: () => this.sendPhrase(key) }, QUICK_PHRASES[key])));
    this.mutedNote = h("p.chat-muted-note.muted");
    this.el = h("section.panel.chat", { id: table == null ? "lobby-chat" : "table-chat" },
      h("h3", title), this.list, this.mutedNote, phrases, form, this.error);
    this.drawMutedNote();
  }

  start() {
    if (this.table == null) this.socket?.lobbySubscribe();
  }

  stop() {
    if (this.table == null) this.socket?.lobbyUnsubscribe();
  }

  /** A server message; true if it was the chat's. */
  receive(msg) {
    if (!["chat", "chat_history", "chat_deleted", "chat_muted"].includes(msg.type)) return false;
    const channel = msg.type === "chat" ? msg.message.table : msg.table;
    if (msg.type !== "chat_muted" && (channel ?? null) !== this.table) return false;
    if (msg.type === "chat_history") {
      this.messages = msg.messages.slice(-MAX_LINES);
      this.mutedUntil = msg.muted_until || null;
      this.draw();
    } else if (msg.type === "chat") {
      if (this.messages.some((m) => m.id === msg.message.id)) return true;
      this.messages.push(msg.message);
      if (this.messages.length > MAX_LINES) this.messages.shift();
      this.draw();
      const muted = mutedPlayers()[msg.message.author.id];
      if (!muted && msg.message.phrase && msg.message.seat != null) this.onBubble?.(msg.message);
    } else if (msg.type === "chat_deleted") {
      this.messages = this.messages.filter((m) => m.id !== msg.message);
      this.draw();
    } else if (msg.type === "chat_muted") {
      this.mutedUntil = msg.until;
      this.error.textContent = msg.message;
    }
    return true;
  }

  async send(payload) {
    if (!this.socket) return false;
    this.error.textContent = "";
    try {
      await this.socket.chat(this.table, payload);
      return true;
    } catch (e) {
      this.error.textContent = e.message || "Message non envoyé.";
      return false;
    }
  }

  async sendText() {
    const text = this.input.value.trim();
    if (!text) return;
    if ([...text].length > MAX_CHARS) {
      this.error.textContent = `Le message est trop long : ${MAX_CHARS} caractères au plus.`;
      return;
    }
    this.sendButton.disabled = true;
    if (await this.send({ text })) this.input.value = "";
    this.sendButton.disabled = false;
  }

  sendPhrase(key) {
    return this.send({ phrase: key });
  }

  mute(author) {
    const list = mutedPlayers();
    list[author.id] = author.name;
    saveMuted(list);
    this.draw();
    this.drawMutedNote();
  }

  unmuteAll() {
    saveMuted({});
    this.draw();
    this.drawMutedNote();
  }

  async report(message) {
    if (!confirm(`Signaler ce message de ${message.author.name} aux admins ?`)) return;
    try {
      await this.socket.report(message.id, "signalé depuis la table");
      this.error.textContent = "Message signalé aux admins. Merci.";
    } catch (e) {
      this.error.textContent = e.message || "Signalement non envoyé.";
    }
  }

  drawMutedNote() {
    const names = Object.values(mutedPlayers());
    if (!names.length) {
      replace(this.mutedNote);
      this.mutedNote.hidden = true;
      return;
    }
    this.mutedNote.hidden = false;
    replace(this.mutedNote, `Masqués : ${names.join(", ")} `,
      h("button.linklike", { type: "button", onclick: () => this.unmuteAll() }, "tout réafficher"));
  }

  draw() {
    const muted = mutedPlayers();
    const me = this.player?.id;
    const lines = this.messages.filter((m) => !muted[m.author.id]).map((m) => {
      const mine = m.author.id === me;
      const tools = mine ? null : h("span.chat-tools",
        h("button.linklike.small", { type: "button", title: "signaler ce message aux admins", onclick: () => this.report(m) }, "signaler"),
        h("button.linklike.small", { type: "button", title: `ne plus voir les messages de ${m.author.name}`, onclick: () => this.mute(m.author) }, "masquer"));
      return h("li", { class: `chat-line${mine ? " mine" : ""}${m.audience === "spectators" ? " gallery" : ""}${m.phrase ? " phrase" : ""}`, dataset: { id: m.id } },
        h("span.chat-at", hhmm(m.at)),
        h("span.chat-author", m.author.name, m.seat == null && this.table != null ? h("span.chat-role", " (spectateur)") : null),
        h("span.chat-text", m.text),
        m.audience === "spectators" ? h("span.chat-audience", { title: "écrit pendant la donne : les joueurs le voient à la fin de la donne" }, " · entre spectateurs") : null,
        tools);
    });
    if (!lines.length) lines.push(h("li.chat-empty.muted", "Aucun message pour l'instant."));
    replace(this.list, lines);
    this.list.scrollTop = this.list.scrollHeight;
  }
}

/** Quick-phrase bubbles over the seats of a table: kept for a few seconds, put back after each
 * drawing of the felt (which draws the seats anew). */
export class SeatBubbles {
  constructor(root) {
    this.root = root;
    this.shown = new Map();
  }

  show(message) {
    const until = Date.now() + BUBBLE_MS;
    this.shown.set(message.seat, { text: message.text, until });
    this.apply();
    setTimeout(() => this.apply(), BUBBLE_MS + 50);
  }

  apply() {
    const now = Date.now();
    for (const old of this.root.querySelectorAll(".chat-bubble")) old.remove();
    for (const [seat, { text, until }] of this.shown) {
      if (until < now) {
        this.shown.delete(seat);
        continue;
      }
      const badge = this.root.querySelector(`.seat[data-seat="${seat}"]`);
      if (badge) badge.append(h("div.chat-bubble", { role: "status" }, text));
    }
  }
}
