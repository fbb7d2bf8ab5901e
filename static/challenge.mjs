/* The challenge form: the maps and opponents offered are the chosen bot's game's, the
 * players' field says what that game seats ("exactly 4" for a game of four), and typing
 * or picking an opponent's name chooses "These bots". Without this script the form
 * works the same; the server refuses what does not fit, keeping what was typed. */

const form = document.querySelector(".challenge-form form");

/** The players' field's hint for a game that seats `seats` ("exactly 4", "2 to 8"). */
export function seatsHint(seats) {
  const m = /^exactly (\d+)$/.exec(seats || "");
  if (m) return seats + ": your bot and " + (Number(m[1]) - 1) + " opponents";
  const most = /(\d+)$/.exec(seats || "");
  return "empty: your bot and every opponent" + (most ? ", " + most[1] + " at most (more opponents take turns)" : "");
}

function follow(select) {
  const option = select.selectedOptions[0];
  if (!option) return;
  const game = option.getAttribute("data-game");
  for (const label of form.querySelectorAll(".map-choices label[data-game]")) {
    const mine = label.getAttribute("data-game") === game;
    label.hidden = !mine;
    if (!mine) label.querySelector("input").checked = false;
  }
  const list = document.getElementById("rivals");
  if (list && !list._all) list._all = [...list.options];
  if (list) list.replaceChildren(...list._all.filter((o) => o.getAttribute("data-game") === game));
  const hint = form.querySelector("[data-challenge-seats]");
  if (hint) hint.textContent = seatsHint(option.getAttribute("data-seats"));
}

if (form) {
  const select = form.querySelector("[data-challenge-bot]");
  if (select) {
    select.addEventListener("change", () => follow(select));
    follow(select);
  }
  const named = form.querySelector('input[name="mode"][value="named"]');
  for (const field of form.querySelectorAll(".name-fields input")) {
    field.addEventListener("input", () => {
      if (named && field.value.trim() !== "") named.checked = true;
    });
  }
}
