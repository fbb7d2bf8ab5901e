/* The organizer's bot field on /admin: its completion list starts as the bots that
 * played last (written in the page); as the organizer types, it becomes the bots whose
 * name or owner's name holds the text, asked of `data-find` (at most 50, a quarter of a
 * second after the last key). Cleared, the field gets the first list back. */

const WAIT_MS = 250;

function follow(input) {
  const list = document.getElementById(input.getAttribute("list"));
  if (!list) return;
  const first = Array.from(list.children, (o) => o.cloneNode(true));
  let timer = 0;
  let asked = 0;
  const show = (options) => list.replaceChildren(...options);
  input.addEventListener("input", () => {
    clearTimeout(timer);
    const q = input.value.trim();
    if (q.length < 2) {
      show(first.map((o) => o.cloneNode(true)));
      return;
    }
    timer = setTimeout(async () => {
      const mine = ++asked;
      const url = input.dataset.find + "?q=" + encodeURIComponent(q);
      const resp = await fetch(url, { credentials: "same-origin" }).catch(() => null);
      if (!resp || !resp.ok || mine !== asked) return;
      const bots = await resp.json();
      if (mine !== asked) return;
      show(bots.map((b) => {
        const o = document.createElement("option");
        o.value = b.name;
        o.label = b.owner + (b.disabled ? " · disabled" : "");
        return o;
      }));
    }, WAIT_MS);
  });
}

document.querySelectorAll("input[data-find][list]").forEach(follow);
