// The table page (`#/table/ID`): the controller (table/controller.js) between the server and the
// page's state (table/state.js), and the view (table/view.js) that draws that state with the
// render modules of table/. docs/client.md has the map.

import { toastError } from "./dom.js";
import { ChatBox, SeatBubbles } from "./chat.js";
import { loadGames } from "./lobby.js";
import { TableController } from "./table/controller.js";
import { ONE_CLICK, newTableState } from "./table/state.js";
import { TableView } from "./table/view.js";

export function showTable(root, rawId, { socket, player, invitation = null }) {
  const tableId = /^\d+$/.test(rawId) ? Number(rawId) : rawId;
  const state = newTableState({ oneClick: localStorage.getItem(ONE_CLICK) !== "0" });
  let view = null;
  let bubbles = null;
  const controller = new TableController(tableId, {
    socket,
    player,
    invitation,
    state,
    draw: () => {
      view.draw();
      bubbles?.apply();
    },
    markBusy: (on) => view.markBusy(on),
    invalidate: () => view.invalidatePanel(),
    gone: () => view.showMissing(),
    gather: (held) => view.gatherTrick(held),
  });
  view = new TableView(root, {
    tableId,
    player,
    state,
    actions: {
      send: (action) => controller.send(action),
      join: (seat) => controller.join(seat),
      leaveSeat: () => controller.leaveSeat(),
      leaveGame: () => controller.leaveGame(),
      takeBack: () => controller.takeBack(),
      startGame: (fill) => controller.startGame(fill),
      rematch: () => controller.rematch(),
      gather: () => controller.gather(),
    },
  });
  bubbles = new SeatBubbles(view.felt);
  const chat = new ChatBox({ socket, player, table: tableId, onBubble: (m) => bubbles.show(m) });
  view.addChat(chat.el);
  chat.draw();
  loadGames().catch(() => {});
  controller.start();

  return {
    onState: (msg) => controller.receive(msg),
    onMessage: (msg) => chat.receive(msg),
    onConn(status) {
      view.setOnline(status === "open");
    },
    onSocketError(msg) {
      if (msg.code === "unknown_table") return;
      toastError(msg);
    },
    leave() {
      controller.stop();
      view.stop();
    },
  };
}
