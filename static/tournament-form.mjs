/* The tournament form of /admin: the formats offered are those the chosen game can
 * play (a game of four plays no duels), the format falls back to the game's default
 * when the one chosen does not fit, and the players' field takes what the game's groups
 * may have. Without this script the form works the same for the game shown first; the
 * server refuses what does not fit, keeping what was typed. */

const form = document.querySelector("form.tournament-form");

/** The formats a game's option offers, and what its groups may have. */
export function gameOf(option) {
  return {
    formats: (option.getAttribute("data-formats") || "").split(" ").filter(Boolean),
    fewest: option.getAttribute("data-fewest") || "2",
    most: option.getAttribute("data-most") || "8",
    hint: option.getAttribute("data-hint") || "",
  };
}

/** The format to choose for `game` when `chosen` was: it, if the game plays it, else
 * the game's first (its default). */
export function formatFor(game, chosen) {
  return game.formats.includes(chosen) ? chosen : game.formats[0] || chosen;
}

function follow(select) {
  const option = select.selectedOptions[0];
  if (!option) return;
  const game = gameOf(option);
  const format = form.querySelector("[data-tournament-format]");
  if (format) {
    for (const o of format.options) {
      const plays = game.formats.includes(o.value);
      o.disabled = !plays;
      o.hidden = !plays;
    }
    format.value = formatFor(game, format.value);
  }
  const players = form.querySelector("[data-tournament-players]");
  if (players) {
    players.min = game.fewest;
    players.max = game.most;
    players.placeholder = game.fewest;
  }
  const hint = form.querySelector("[data-tournament-hint]");
  if (hint) hint.textContent = game.hint;
}

if (form) {
  const select = form.querySelector("[data-tournament-game]");
  // Only on a change: the page as served shows what was typed, even a refused choice.
  if (select) select.addEventListener("change", () => follow(select));
}
