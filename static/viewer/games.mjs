/* The games the viewer shows, each a folder of static/ with its `game.mjs` (see the
 * contract at the top of viewer.mjs). A replay's game is the one whose `accepts` takes
 * it (its JSON's `format`); Bottle Bats, the first game, is the one for anything else:
 * its reader says why it is not a replay. */

import { bottlebats } from "../bottlebats/game.mjs";
import { vindinium } from "../vindinium/game.mjs";
import { connectfour } from "../connectfour/game.mjs";

export const GAMES = [bottlebats, vindinium, connectfour];

// Each game's own stylesheet (its `style`), on every page that shows a game.
if (typeof document !== "undefined") {
  for (const g of GAMES) {
    if (g.style && !document.querySelector(`link[href="${g.style}"]`)) {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = g.style;
      document.head.append(link);
    }
  }
}

/** The game of `replay` (parsed JSON, a replay read, or a live stream's head). */
export function gameOf(replay) {
  return GAMES.find((g) => g.accepts(replay)) || bottlebats;
}

/** The game that reads `text` (not JSON: a classic log), or null. */
export function gameOfText(text) {
  return GAMES.find((g) => g.readsText && g.readsText(text)) || null;
}
