// Which renderer draws which game: the default (render.js) plus each game's own overrides.

import { DEFAULT } from "./render.js";
import barbu from "./games/barbu.js";
import { beloteRenderer } from "./games/belote.js";
import contrecarte from "./games/contrecarte.js";
import freeze from "./games/freeze.js";
import motton from "./games/motton.js";
import tarot from "./games/tarot.js";
import yaniv from "./games/yaniv.js";

const RENDERERS = {};

function register(name, renderer) {
  RENDERERS[name] = {
    ...DEFAULT,
    ...renderer,
    labels: { ...DEFAULT.labels, ...(renderer.labels || {}) },
  };
}

register("barbu", barbu);
register("belote", beloteRenderer("belote"));
register("contree", beloteRenderer("contree"));
register("contrecarte", contrecarte);
register("freeze", freeze);
register("motton", motton);
register("tarot", tarot);
register("yaniv", yaniv);

export function rendererFor(game) {
  return RENDERERS[game] || DEFAULT;
}
