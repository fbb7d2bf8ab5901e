/* The colours that depend on the game; everything else is in viewer.css. */

/** A neutral fort. */
export const NEUTRAL_FILL = "#8e97a6";
/** A road, unless both its forts are one player's. */
export const ROAD = "#44557a";
/** A battle's flash. */
export const BATTLE = "#ffd166";

const PALETTE = [
  "#e8505b", "#3b8fe0", "#3cb56c", "#f2a531",
  "#9b6ce0", "#1fb5b0", "#ee76b0", "#b38b4d",
];

/** The colour of player `i` (neutral when negative): eight chosen ones, then spread
 *  around the wheel. */
export function palette(i) {
  if (i < 0) return NEUTRAL_FILL;
  if (i < PALETTE.length) return PALETTE[i];
  const hue = Math.round((i * 137.508 + 20) % 360);
  return "hsl(" + hue + ", 62%, 58%)";
}
