/* The deadline's countdown in the banner every page shows: each `[data-countdown]`
 * (an RFC 3339 time) is rewritten every second as the time left in its two largest
 * units, as the server words it ("2 days 3 hours", "5 minutes 10 seconds"); at zero
 * the page reloads once, to show that submissions are closed. */

const UNITS = [[86400, "day"], [3600, "hour"], [60, "minute"], [1, "second"]];

/** `secs` in words, its two largest units (as crate::contest::time_left). */
export function timeLeft(secs) {
  let rest = Math.max(0, Math.floor(secs));
  const parts = [];
  for (const [size, name] of UNITS) {
    const n = Math.floor(rest / size);
    rest %= size;
    if (n > 0 || parts.length) parts.push(n + " " + name + (n === 1 ? "" : "s"));
    if (parts.length === 2) break;
  }
  const shown = parts.filter((p) => !p.startsWith("0 "));
  return shown.length ? shown.join(" ") : "0 seconds";
}

function tick(spans) {
  const now = Date.now();
  for (const span of spans) {
    const left = (Date.parse(span.getAttribute("data-countdown")) - now) / 1000;
    span.textContent = timeLeft(left);
    if (left <= 0 && !sessionStorage.getItem("bb-deadline-reloaded")) {
      sessionStorage.setItem("bb-deadline-reloaded", "1");
      setTimeout(() => location.reload(), 1500);
      return false;
    }
  }
  return true;
}

if (typeof document !== "undefined") {
  const spans = [...document.querySelectorAll("[data-countdown]")];
  if (spans.length && tick(spans)) {
    const timer = setInterval(() => {
      if (!tick(spans)) clearInterval(timer);
    }, 1000);
  }
}
