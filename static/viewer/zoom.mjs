/* Zoom and pan of the map (a view box within the whole map's), for large maps and the
 * big screen: buttons and keys (+, -, 0), the wheel with Ctrl (or in full screen), and
 * dragging while zoomed in. Pure view: the game drawn does not change. */

/** The most a map is enlarged. */
const MAX_ZOOM = 8;

export class Zoom {
  /** Zoom for `map` (a `MapView`: its `box` element and `setViewBox`), whose whole view
   *  box is `home` (`[x, y, w, h]`); `on` adds listeners the viewer removes. */
  constructor(map, home, on) {
    this.map = map;
    this.home = home;
    this.view = home.slice();
    this.drag = null;
    this.dragged = false;
    const box = map.box;
    on(box, "wheel", (e) => {
      if (!e.ctrlKey && !document.fullscreenElement) return;
      e.preventDefault();
      const at = this.pointAt(e);
      this.zoomBy(e.deltaY < 0 ? 1.25 : 1 / 1.25, at.x, at.y);
    });
    on(box, "pointerdown", (e) => {
      if (this.level() <= 1 || e.button !== 0) return;
      this.drag = { x: e.clientX, y: e.clientY, view: this.view.slice() };
      this.dragged = false;
    });
    on(window, "pointermove", (e) => {
      if (!this.drag) return;
      const dx = e.clientX - this.drag.x, dy = e.clientY - this.drag.y;
      if (Math.abs(dx) + Math.abs(dy) > 4) this.dragged = true;
      if (!this.dragged) return;
      const scale = this.view[2] / (box.clientWidth || 1);
      this.set([this.drag.view[0] - dx * scale, this.drag.view[1] - dy * scale,
        this.view[2], this.view[3]]);
    });
    on(window, "pointerup", () => { this.drag = null; });
    // A drag is not a tap: the click that ends it opens nothing.
    on(box, "click", (e) => {
      if (this.dragged) {
        e.stopPropagation();
        this.dragged = false;
      }
    }, true);
  }

  /** How much the map is enlarged (1: all of it). */
  level() {
    return this.home[2] / this.view[2];
  }

  /** The map point under a mouse event. */
  pointAt(e) {
    const rect = this.map.box.getBoundingClientRect();
    const fx = (e.clientX - rect.left) / (rect.width || 1);
    const fy = (e.clientY - rect.top) / (rect.height || 1);
    return { x: this.view[0] + fx * this.view[2], y: this.view[1] + fy * this.view[3] };
  }

  /** Enlarges by `factor` around the map point (`cx`, `cy`), the middle by default. */
  zoomBy(factor, cx, cy) {
    const v = this.view;
    if (cx === undefined) { cx = v[0] + v[2] / 2; cy = v[1] + v[3] / 2; }
    const level = Math.min(MAX_ZOOM, Math.max(1, this.level() * factor));
    const w = this.home[2] / level, h = this.home[3] / level;
    this.set([cx - (cx - v[0]) * w / v[2], cy - (cy - v[1]) * h / v[3], w, h]);
  }

  reset() {
    this.set(this.home.slice());
  }

  /** Shows view box `v`, kept within the whole map. */
  set(v) {
    const [hx, hy, hw, hh] = this.home;
    v[0] = Math.min(Math.max(v[0], hx), hx + hw - v[2]);
    v[1] = Math.min(Math.max(v[1], hy), hy + hh - v[3]);
    this.view = v;
    this.map.setViewBox(v);
    this.map.box.classList.toggle("bbv-zoomed", this.level() > 1.001);
  }
}
