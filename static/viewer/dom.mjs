/* DOM helpers of the viewer: HTML and SVG elements, its icons, numbers as shown. */

export const SVG_NS = "http://www.w3.org/2000/svg";

/** A new `tag` element, with class `cls` and text `text` when given, added to `parent`
 *  when given. */
export function el(tag, cls, parent, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

/** A new SVG `tag` element with the attributes `attrs`, added to `parent` when given. */
export function svg(tag, attrs, parent) {
  const e = document.createElementNS(SVG_NS, tag);
  if (attrs) for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

/** The icons: a path on a 24 × 24 grid, and whether it is drawn as a line (else filled). */
export const ICONS = {
  first: ["M5 5h2.6v14H5zM19.5 5.2v13.6L9 12z", false],
  back: ["M15 5.5 8.5 12l6.5 6.5", true],
  play: ["M8 5.2v13.6L19 12z", false],
  pause: ["M6.8 5h3.6v14H6.8zM13.6 5h3.6v14h-3.6z", false],
  forward: ["M9 5.5l6.5 6.5L9 18.5", true],
  last: ["M19 5h-2.6v14H19zM4.5 5.2v13.6L15 12z", false],
  crown: ["M3 8l4.5 4L12 5l4.5 7L21 8l-2 11H5z", false],
  names: ["M4 6.5h16M4 12h10M4 17.5h13", true],
  "zoom-in": ["M10.5 4a6.5 6.5 0 1 0 0 13a6.5 6.5 0 1 0 0-13M15.3 15.3 20 20M10.5 7.8v5.4M7.8 10.5h5.4", true],
  "zoom-out": ["M10.5 4a6.5 6.5 0 1 0 0 13a6.5 6.5 0 1 0 0-13M15.3 15.3 20 20M7.8 10.5h5.4", true],
  fullscreen: ["M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5", true],
};

/** The icon `name` of `ICONS`, as an SVG added to `parent`. */
export function icon(parent, name) {
  const [d, stroke] = ICONS[name];
  const s = svg("svg", { viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" }, parent);
  const attrs = { d };
  if (stroke) {
    attrs.fill = "none";
    attrs.stroke = "currentColor";
    attrs["stroke-width"] = "2.4";
    attrs["stroke-linecap"] = "round";
    attrs["stroke-linejoin"] = "round";
  } else {
    attrs.fill = "currentColor";
  }
  svg("path", attrs, s);
  return s;
}

/** A count as shown: rounded, thousands separated ("12,345"). */
export function fmt(n) {
  return Math.round(n).toLocaleString("en-US");
}

/** Adds `text` to `parent`, each `quoted` part (how messages quote commands) as a
 *  `<code>` element; all as text, never as HTML. */
export function codeText(parent, text) {
  const parts = String(text).split("`");
  parts.forEach((part, i) => {
    const quoted = i % 2 === 1 && i < parts.length - 1;
    if (quoted) el("code", null, parent, part);
    else parent.appendChild(document.createTextNode((i % 2 === 1 ? "`" : "") + part));
  });
}
