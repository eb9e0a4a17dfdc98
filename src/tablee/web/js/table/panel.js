// The actions bar: the controls of every legal action that is not a card of the hand (bids,
// announces, a choice among variants of the selected card, a group of cards picked), or the
// game's own panel.

import { h } from "../dom.js";
import { cardControls, multiControls, otherControls } from "../actions.js";

/** What the bar shows; it is rebuilt only when this changes, so a half-made choice (a bid value
 * picked, a suit to come) survives the other players' moves. */
export function panelKey(scene, S) {
  return JSON.stringify([scene.legal, S.selected, S.multi, scene.view.hand, S.busy, S.oneClick, S.ui]);
}

/** The bar's controls for `model` (actions.js `analyse`) and the player's choice in `S`. */
export function panelControls(scene, model, S) {
  const { send } = scene;
  const controls = [];
  if (S.selected && model.byCard.has(S.selected)) {
    controls.push(cardControls(S.selected, model.byCard.get(S.selected), scene, send));
  } else if (model.byCard.size && !model.multi.length) {
    controls.push(h("div.group.hint", S.oneClick ? "Cliquez sur une carte pour la jouer." : "Choisissez une carte, puis confirmez."));
  }
  if (model.multi.length) controls.push(multiControls(model.multi, S.multi, scene, send));
  const custom = scene.renderer.panel?.(model, scene);
  if (custom) controls.push(custom);
  else controls.push(...otherControls(model.others, scene, send));
  return controls;
}

/** The bar while a robot plays for the viewer (`away`: their seat's `away`, from the server):
 * what happened, and the button that takes the seat back (at once, or once the robot has made
 * the decision before it: then it says so and waits). */
export function standInPanel(away, onTakeBack) {
  const why = away.why === "timeout"
    ? "Vous n'avez pas joué à temps : un robot joue pour vous."
    : "Vous avez quitté la table : un robot joue pour vous.";
  const label = away.why === "timeout" ? "Reprendre la main" : "Reprendre ma place";
  return h("div.group.stand-in", { id: "stand-in" },
    h("span", away.back ? "Vous reprenez votre place dès que le robot a joué ce coup…" : why),
    h("button.btn.primary", {
      type: "button",
      id: "take-back",
      disabled: away.back,
      onclick: (ev) => {
        ev.currentTarget.disabled = true;
        onTakeBack();
      },
    }, label));
}
