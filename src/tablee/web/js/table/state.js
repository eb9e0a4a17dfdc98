// The state of a table page, in one small object with two writers. The controller (controller.js)
// writes the table's side: what the server said (`info`, the state `msg` on screen), what the
// page made of it (the journal, the seats robots took over, a notice), and the move on its way
// (`busy`, `refused`). The page (view.js) writes the player's side: a half-made choice (a card
// selected, cards picked for a group, a game's own choice such as a Freeze mode) and what they
// asked to see. The render modules only read it, through a scene (scene.js).

/** The one-click setting, kept in the browser. */
export const ONE_CLICK = "tablee.oneclick";

export function newTableState({ oneClick = true } = {}) {
  return {
    // the table as last described (REST, or a state's `info`) and the number of its game
    info: null,
    gameNo: null,
    // the state message on screen; the controller decides when a received one is shown
    msg: null,
    // a completed trick kept on the felt a moment ({cards, winner}); later states wait for it
    held: null,
    // the journal: lines {seq, text, type, mine}; `logEpoch` changes when a new game empties it
    log: [],
    logSeq: 0,
    logEpoch: 0,
    // the seq of the current deal's first line: what a subscription's journal replaces
    dealSeq: 1,
    // the last deal's `deal_end` event, whose breakdown shows on the felt until the player puts it
    // away or moves, or a while after the next deal is dealt (`dealEndTimer`)
    dealEnd: null,
    dealEndTimer: null,
    // seat -> the name of the person a robot replaced there
    replaced: {},
    // a line shown on the felt for a few seconds ({text, type, timer})
    notice: null,
    // a move of this player is on its way: from the click until its state is on screen
    busy: false,
    // how many moves the server refused
    refused: 0,
    // the player's half-made choice
    selected: null,
    multi: [],
    ui: {},
    // what the player asked to see: the last trick; the end-of-game panel put away (its game)
    showLast: false,
    resultHidden: null,
    oneClick,
    // the page is gone (left, or the table does not exist): nothing is drawn any more
    stopped: false,
  };
}

/** A rematch deals a new game at the same table: what belonged to the last one goes. */
export function forgetGame(S) {
  S.log = [];
  S.logEpoch += 1;
  S.dealSeq = S.logSeq + 1;
  S.selected = null;
  S.multi = [];
  S.resultHidden = null;
  S.notice = null;
  S.held = null;
  S.ui = {};
  S.dealEnd = null;
  clearTimeout(S.dealEndTimer);
  S.dealEndTimer = null;
}

/** The last deal's breakdown is put away. */
export function forgetDealEnd(S) {
  S.dealEnd = null;
  clearTimeout(S.dealEndTimer);
  S.dealEndTimer = null;
}
