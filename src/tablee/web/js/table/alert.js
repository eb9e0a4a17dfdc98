// The turn calls the player: a short sound made in the page (Web Audio, nothing to download)
// when it becomes their turn and when five seconds are left on their timer; the tab's title
// "À vous !" while it is their turn and the tab is hidden; and, if they asked for it, a browser
// notification. The sound can be muted; both choices are kept in the browser.

/** The settings kept in the browser. */
export const MUTE = "tablee.mute";
export const NOTIFY = "tablee.notify";
export const YOUR_TURN_TITLE = "À vous !";

/** Seconds left when the timer calls again. */
const HURRY_MS = 5000;

let audio = null;

/** Two short notes (the turn), or one higher (the timer running out). A page that has no
 * AudioContext (or refuses it before any click) stays silent. */
export function playSound(kind = "turn") {
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return false;
  try {
    audio = audio || new AC();
    if (audio.state === "suspended") audio.resume?.();
    const t0 = audio.currentTime;
    const notes = kind === "hurry" ? [[988, 0]] : [[660, 0], [880, 0.13]];
    for (const [freq, at] of notes) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t0 + at);
      gain.gain.exponentialRampToValueAtTime(0.18, t0 + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + 0.28);
      osc.connect(gain);
      gain.connect(audio.destination);
      osc.start(t0 + at);
      osc.stop(t0 + at + 0.3);
    }
    return true;
  } catch {
    return false;
  }
}

export class TurnAlert {
  constructor() {
    this.mine = false;
    this.deadline = null;
    this.hurry = null;
    this.title = null;
    this.muted = localStorage.getItem(MUTE) === "1";
    this.notifyOn = localStorage.getItem(NOTIFY) === "1";
    this.onVisible = () => this.updateTitle();
    document.addEventListener("visibilitychange", this.onVisible);
  }

  stop() {
    clearTimeout(this.hurry);
    document.removeEventListener("visibilitychange", this.onVisible);
    this.mine = false;
    this.updateTitle();
  }

  setMuted(on) {
    this.muted = on;
    localStorage.setItem(MUTE, on ? "1" : "0");
  }

  /** Opt in to notifications: the browser asks the player; a refusal unticks the box. */
  async setNotify(on) {
    this.notifyOn = false;
    localStorage.setItem(NOTIFY, "0");
    if (!on || typeof Notification === "undefined") return false;
    const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
    this.notifyOn = answer === "granted";
    localStorage.setItem(NOTIFY, this.notifyOn ? "1" : "0");
    return this.notifyOn;
  }

  /** Called with every scene drawn: `mine` is the viewer's turn, `deadline` its timer's end. */
  update({ mine, deadline = null, tableName = "" }) {
    const came = mine && !this.mine;
    this.mine = mine;
    if (came) {
      if (!this.muted) playSound("turn");
      if (this.notifyOn && document.hidden && typeof Notification !== "undefined" && Notification.permission === "granted") {
        try {
          new Notification("À vous de jouer !", { body: tableName, tag: "tablee-turn" });
        } catch {
          // some browsers only notify from a service worker: the title still says it
        }
      }
    }
    if (!mine || deadline !== this.deadline) {
      clearTimeout(this.hurry);
      this.hurry = null;
    }
    this.deadline = mine ? deadline : null;
    if (mine && deadline && this.hurry == null) {
      const left = Date.parse(deadline) - Date.now();
      if (left > HURRY_MS) {
        this.hurry = setTimeout(() => {
          if (this.mine && !this.muted) playSound("hurry");
        }, left - HURRY_MS);
      }
    }
    this.updateTitle();
  }

  /** "À vous !" while it is the player's turn and the tab is hidden; the page's own otherwise. */
  updateTitle() {
    const call = this.mine && document.hidden;
    if (call && document.title !== YOUR_TURN_TITLE) {
      this.title = document.title;
      document.title = YOUR_TURN_TITLE;
    } else if (!call && document.title === YOUR_TURN_TITLE && this.title != null) {
      document.title = this.title;
    }
  }
}
