// The keyboard's place in the controls. The hand and the actions are drawn anew as the game
// goes; for a keyboard user the focus goes back where it was (the same card, else the card at
// the same place, else the first action). Only after keyboard input: a finger or a mouse is
// never moved.

export class FocusKeeper {
  constructor(hand, panel) {
    this.hand = hand;
    this.panel = panel;
    // where the keyboard was: {zone: "hand", card, index} or {zone: "panel", action}
    this.focus = null;
    // "panel": the next controls drawn take the focus in the panel (a card's variants)
    this.next = null;
    this.keyboard = false;
    this.onKey = (ev) => {
      if (ev.key === "Tab" || ev.key === "Enter" || ev.key === " " || ev.key.startsWith("Arrow")) this.keyboard = true;
    };
    this.onPointer = () => {
      this.keyboard = false;
    };
    window.addEventListener("keydown", this.onKey, true);
    window.addEventListener("pointerdown", this.onPointer, true);
  }

  stop() {
    window.removeEventListener("keydown", this.onKey, true);
    window.removeEventListener("pointerdown", this.onPointer, true);
  }

  /** Notes where the focus is, before the controls are drawn again. */
  keep() {
    const a = document.activeElement;
    if (!a || a === document.body || !a.isConnected) return;
    if (this.hand.contains(a)) {
      this.focus = { zone: "hand", card: a.dataset.card, index: [...this.hand.querySelectorAll(".card")].indexOf(a) };
    } else if (this.panel.contains(a)) {
      this.focus = { zone: "panel", action: a.dataset.action };
    } else {
      this.focus = null;
    }
  }

  /** Puts the focus back once the controls are there again, if it was lost with them. */
  restore() {
    const want = this.focus;
    if (!want || !this.keyboard) return;
    const a = document.activeElement;
    if (a && a !== document.body && a.isConnected) return;
    const cards = [...this.hand.querySelectorAll("button.card:not(:disabled)")];
    const buttons = [...this.panel.querySelectorAll("button:not(:disabled)")];
    let target;
    if (this.next === "panel" || want.zone === "panel") {
      target = (want.action && buttons.find((b) => b.dataset.action === want.action)) || buttons[0] || cards[0];
    } else {
      target = cards.find((el) => el.dataset.card === want.card) || cards[Math.min(want.index, cards.length - 1)] || buttons[0];
    }
    if (target) {
      this.next = null;
      target.focus();
    }
  }
}
