//! Watching a busy game comfortably: marks that never cover each other's labels, the
//! board and its controls in the window, fort and march details on a tap, the fort
//! names, zoom and full screen.

use serde_json::{json, Value};

use super::harness::{viewport, Visit, DESKTOP};
use bottlebats::Replay;

/// The boxes on the screen of the march labels shown and of the forts' garrisons.
fn label_boxes(v: &Visit) -> (Vec<[f64; 4]>, Vec<[f64; 4]>) {
    let boxes = v.b.execute(
        "const box = (e) => { const r = e.getBoundingClientRect();
                              return [r.left, r.top, r.right, r.bottom]; };
         const shown = (e) => e.getAttribute('display') !== 'none' &&
             e.closest('g').getAttribute('display') !== 'none' && e.textContent !== '';
         return [
           [...document.querySelectorAll('.bbv-march text')].filter(shown).map(box),
           [...document.querySelectorAll('.bbv-fort text:not(.bbv-fort-name)')].map(box)];",
    );
    let read = |v: &Value| -> Vec<[f64; 4]> { serde_json::from_value(v.clone()).unwrap() };
    (read(&boxes[0]), read(&boxes[1]))
}

fn intersect(a: &[f64; 4], b: &[f64; 4]) -> bool {
    a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}

/// At several turns of the busy 8-player game: one mark per owner, road and way; no
/// march label shown touches another or a fort's garrison; most marks keep their
/// label. Returns how many labels were shown and left out in all.
pub fn busy_marches_never_cover_each_others_labels(
    v: &mut Visit,
    replay: &Replay,
) -> (usize, usize) {
    let b = v.b;
    viewport(b, DESKTOP);
    let (mut shown, mut left) = (0, 0);
    for t in [60, 120, 200, 300, 420] {
        b.execute(&format!("window.bottleBatsViewer.goTo({t});"));
        let groups: std::collections::HashSet<(usize, u8, i32)> = replay.turns[t]
            .marches
            .iter()
            .filter(|m| (t as i64 - m.4) > 0)
            .map(|m| (m.0, m.1, m.2))
            .collect();
        let marks =
            b.execute("return document.querySelectorAll('.bbv-march:not([display=none])').length;");
        assert!(
            marks.as_u64().unwrap() as usize <= groups.len(),
            "turn {t}: {marks} marks for {} groups of marches",
            groups.len()
        );
        let (labels, forts) = label_boxes(v);
        for (i, a) in labels.iter().enumerate() {
            for (j, c) in labels.iter().enumerate().skip(i + 1) {
                assert!(
                    !intersect(a, c),
                    "turn {t}: march labels {i} and {j} overlap: {a:?} {c:?}"
                );
            }
            for f in &forts {
                assert!(
                    !intersect(a, f),
                    "turn {t}: a march label covers a garrison: {a:?} {f:?}"
                );
            }
        }
        let all = marks.as_u64().unwrap() as usize;
        assert!(
            labels.len() * 2 >= all,
            "turn {t}: only {} of {all} labels shown",
            labels.len()
        );
        shown += labels.len();
        left += all - labels.len();
    }
    b.execute("window.bottleBatsViewer.goTo(200);");
    v.cam.both("viewer-busy");
    (shown, left)
}

/// A tap on a fort tells its name, holder, garrison and roads; on a mark, its marches.
pub fn a_tap_tells_a_forts_and_a_marchs_details(v: &mut Visit, replay: &Replay) {
    let b = v.b;
    b.execute("window.bottleBatsViewer.goTo(200);");
    let name = &replay.map.forts[0].0;
    b.click(&format!(".bbv-fort[data-fort='{name}'] circle"));
    let info = b.wait_text(".bbv-info", name);
    assert!(
        info.contains("soldiers") && info.contains("road to"),
        "{info}"
    );
    v.cam.snap("viewer-fort-details");
    b.click(".bbv-info-close");
    assert_eq!(
        b.execute("return document.querySelector('.bbv-info').hidden;"),
        json!(true)
    );
    // The biggest mark: its path, clicked in its middle.
    b.execute(
        "const marks = [...document.querySelectorAll('.bbv-march:not([display=none]) path')];
         const big = marks.sort((a, c) => c.getBBox().width - a.getBBox().width)[0];
         big.dispatchEvent(new MouseEvent('click', { bubbles: true }));",
    );
    let info = b.wait_text(".bbv-info", "soldiers from");
    assert!(info.contains("arriving in"), "{info}");
    b.click(".bbv-info-close");
}

/// N shows every fort's name and hides them again; + and − zoom, 0 shows it all; the
/// full-screen button fills the screen.
pub fn names_zoom_and_full_screen(v: &mut Visit) {
    let b = v.b;
    let names_shown =
        "return getComputedStyle(document.querySelector('.bbv-fort-name')).display !== 'none';";
    assert_eq!(b.execute(names_shown), json!(false));
    b.press(&["n"]);
    assert_eq!(b.execute(names_shown), json!(true), "N shows the names");
    v.cam.snap("viewer-names");
    b.press(&["n"]);
    assert_eq!(b.execute(names_shown), json!(false));
    let width = "return +document.querySelector('.bbv-svg').getAttribute('viewBox').split(' ')[2];";
    let whole = b.execute(width).as_f64().unwrap();
    b.press(&["+"]);
    let zoomed = b.execute(width).as_f64().unwrap();
    assert!(
        (zoomed - whole / 1.5).abs() < 1.0,
        "zoomed in: {whole} → {zoomed}"
    );
    b.press(&["0"]);
    assert!(
        (b.execute(width).as_f64().unwrap() - whole).abs() < 1.0,
        "0 shows it all"
    );
    b.click(".bbv-fullscreen");
    let full = b.execute(
        "return new Promise(r => setTimeout(() => r(document.fullscreenElement !== null &&
             document.fullscreenElement.classList.contains('bbv')), 400));",
    );
    assert_eq!(full, json!(true), "the viewer fills the screen");
    v.cam.snap("viewer-fullscreen");
    b.press(&["f"]);
    let back = b.execute(
        "return new Promise(r => setTimeout(() => r(document.fullscreenElement === null), 400));",
    );
    assert_eq!(back, json!(true), "F leaves full screen");
    viewport(b, DESKTOP);
}

/// At 1366×768 and 1920×1080, the board and its controls are in the window as the page
/// opens (`open` opens it and its game).
pub fn the_board_and_its_controls_fit_the_window(v: &mut Visit, open: impl Fn(&mut Visit)) {
    for (w, h) in [(1366, 768), (1920, 1080)] {
        viewport(v.b, (w, h));
        open(v);
        let b = v.b;
        b.wait_text(".bbv-turn", "/");
        let fit = b.execute(
            "const c = document.querySelector('.bbv-controls').getBoundingClientRect();
             const m = document.querySelector('.bbv-map').getBoundingClientRect();
             return [c.bottom, m.top, m.height, window.innerHeight];",
        );
        let [bottom, top, height, inner] = serde_json::from_value::<[f64; 4]>(fit).unwrap();
        assert_eq!(inner, f64::from(h), "{w}×{h}: the window's height");
        assert!(
            bottom <= inner,
            "{w}×{h}: the controls end at {bottom} in a {inner} px window"
        );
        assert!(
            top >= 0.0 && height >= 300.0,
            "{w}×{h}: the map is {height} px high"
        );
        v.cam.snap(&format!("viewer-fits-{w}x{h}"));
    }
    viewport(v.b, DESKTOP);
}

/// "Hide the result until the end": the result, the winner's badge and the charts ahead
/// of the turn shown are hidden until the last turn; the choice is kept.
pub fn the_result_can_be_hidden_until_the_end(v: &mut Visit) {
    let b = v.b;
    b.execute("window.bottleBatsViewer.goTo(200);");
    let hidden = "const r = document.querySelector('.bbv-result');
         const f = document.querySelector('.bbv-future');
         return [getComputedStyle(r).visibility === 'hidden', getComputedStyle(f).display !== 'none'];";
    assert_eq!(b.execute(hidden), json!([false, false]), "shown by default");
    b.click(".bbv-hide-result input");
    assert_eq!(b.execute(hidden), json!([true, true]), "hidden at turn 200");
    assert_eq!(
        b.execute("return localStorage.getItem('bottlebats-viewer-hide-result');"),
        json!("1")
    );
    v.cam.snap("viewer-result-hidden");
    b.execute("window.bottleBatsViewer.goTo(window.bottleBatsViewer.lastTurn());");
    assert_eq!(b.execute(hidden), json!([false, false]), "shown at the end");
    b.click(".bbv-hide-result input");
    b.execute("localStorage.removeItem('bottlebats-viewer-hide-result');");
}

/// The colour-blind palette, chosen in the viewer's head: the first player's forts and
/// legend swatch are drawn in Okabe and Ito's yellow (its forts' numbers dark on it);
/// the choice is kept for the next game opened (`reopen`), and unchosen the usual red
/// comes back.
pub fn a_colour_blind_palette_is_kept(v: &mut Visit, reopen: impl Fn(&mut Visit)) {
    let colours = "window.bottleBatsViewer.goTo(0);
         const first = window.bottleBatsViewer.replay.players[0];
         const fort = document.querySelector(`g.bbv-fort[data-owner=\"${first}\"]`);
         return [fort.querySelector('circle').getAttribute('fill'),
           document.querySelector('.bbv-legend tbody tr .bbv-swatch circle').getAttribute('fill'),
           getComputedStyle(fort.querySelector('text')).fill,
           document.querySelector('.bbv-palette input').checked];";
    let b = v.b;
    let usual = json!(["#e8505b", "#e8505b", "rgb(255, 255, 255)", false]);
    assert_eq!(b.execute(colours), usual, "the usual palette at first");
    b.click(".bbv-palette input");
    let blind = json!(["#f0e442", "#f0e442", "rgb(20, 28, 44)", true]);
    assert_eq!(b.execute(colours), blind, "Okabe and Ito's colours");
    assert_eq!(
        b.execute("return localStorage.getItem('bottlebats-viewer-palette');"),
        json!("colour-blind")
    );
    v.cam.snap("viewer-colour-blind");
    reopen(v);
    let b = v.b;
    assert_eq!(b.execute(colours), blind, "kept for the next game");
    b.click(".bbv-palette input");
    assert_eq!(b.execute(colours), usual, "the usual palette again");
    b.execute("localStorage.removeItem('bottlebats-viewer-palette');");
}
