/* The colours that depend on the game; everything else is in viewer.css. */

/** A neutral fort. */
export const NEUTRAL_FILL = "#8e97a6";
/** A road, unless both its forts are one player's. */
export const ROAD = "#44557a";
/** A battle's flash. */
export const BATTLE = "#ffd166";

/** The players' colours: the usual ones, and Okabe and Ito's (Tol's wine for their
 *  purple, which looks grey as neutral does to the colour blind; white for an eighth),
 *  told apart with every colour vision, deuteranopia and protanopia included: in an
 *  order that keeps the first players' the furthest apart, and from neutral grey. */
export const PALETTES = {
  usual: ["#e8505b", "#3b8fe0", "#3cb56c", "#f2a531", "#9b6ce0", "#1fb5b0", "#ee76b0", "#b38b4d"],
  "colour-blind": ["#f0e442", "#d55e00", "#0072b2", "#56b4e9", "#e69f00", "#009e73", "#882255", "#ffffff"],
};

let chosen = PALETTES.usual;

/** Draws with palette `name` (of `PALETTES`; the usual one for anything else) from now
 *  on: one choice for the page, as the viewer's setting keeps it. */
export function usePalette(name) {
  chosen = PALETTES[name] || PALETTES.usual;
}

/** The colour of player `i` (neutral when negative): eight chosen ones, then spread
 *  around the wheel. */
export function palette(i) {
  if (i < 0) return NEUTRAL_FILL;
  if (i < chosen.length) return chosen[i];
  const hue = Math.round((i * 137.508 + 20) % 360);
  return "hsl(" + hue + ", 62%, 58%)";
}

/** Whether colour `c` (`#rrggbb`) is so light that a fort's number on it is written
 *  dark (yellow, white); relative luminance, as WCAG computes it. */
export function isLight(c) {
  if (!/^#[0-9a-f]{6}$/i.test(c)) return false;
  const lin = (i) => {
    const v = parseInt(c.slice(i, i + 2), 16) / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(1) + 0.7152 * lin(3) + 0.0722 * lin(5) > 0.5;
}

/** Player `i`'s colour on the page's light background (names, chart lines): a light
 *  one (yellow, white) darkened to be seen. */
export function ink(i) {
  const c = palette(i);
  if (!isLight(c)) return c;
  const dark = (k) => Math.round(parseInt(c.slice(k, k + 2), 16) * 0.55).toString(16).padStart(2, "0");
  return "#" + dark(1) + dark(3) + dark(5);
}
