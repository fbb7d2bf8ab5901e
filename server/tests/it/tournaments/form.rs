//! The tournament form of `/admin`: a refused form comes back as it was typed (escaped,
//! each field cut to its length), naming and marking the field at fault; only the
//! formats the chosen game can play are offered, and a game of four plays groups of
//! four without being told.

use axum::http::StatusCode;

use super::by_game::organizer_site;

/// The opening tag of the page's first element that starts with `start`.
pub fn tag<'a>(body: &'a str, start: &str) -> &'a str {
    let at = body
        .find(start)
        .unwrap_or_else(|| panic!("no `{start}` in the page: {body}"));
    let end = body[at..].find('>').expect("the tag ends");
    &body[at..=at + end]
}

/// The text of the page's first `<textarea` whose tag starts with `start`.
fn textarea<'a>(body: &'a str, start: &str) -> &'a str {
    let open = tag(body, start);
    let at = body.find(open).unwrap() + open.len();
    let end = body[at..].find("</textarea>").expect("the textarea ends");
    &body[at..at + end]
}

/// The form with `fields` changed from a filled-in Swiss tournament of named bots.
fn form<'a>(fields: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut all = vec![
        ("name", "Final"),
        ("game", "bottlebats"),
        ("format", "swiss"),
        ("who", "named"),
        ("top", "5"),
        ("names", "bb-ann, bb-ben"),
        ("maps", "ring-2p"),
        ("players", ""),
        ("games", ""),
        ("rounds", "3"),
        ("seed", "2016"),
    ];
    for (k, v) in fields {
        all.iter_mut().find(|f| f.0 == *k).unwrap().1 = v;
    }
    all
}

#[tokio::test]
async fn a_refused_tournament_form_comes_back_as_typed_naming_the_field_at_fault() {
    let mut c = organizer_site().await;
    // A bot that does not play: every field comes back, the names marked.
    let r = c
        .post(
            "/admin/tournaments",
            &form(&[("names", "bb-ann, nobody"), ("name", "Final <b>&</b>")]),
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    let b = &r.body;
    assert!(
        b.contains("<strong>Participants:</strong> <code>nobody</code> is not a bot that plays"),
        "{b}"
    );
    let names = tag(b, "<textarea name=\"names\"");
    assert!(names.contains("aria-invalid=\"true\"") && names.contains("autofocus"));
    assert_eq!(textarea(b, "<textarea name=\"names\""), "bb-ann, nobody");
    let name = tag(b, "<input name=\"name\"");
    assert!(
        name.contains("value=\"Final &#60;b&#62;&#38;&#60;/b&#62;\"")
            || name.contains("value=\"Final &lt;b&gt;&amp;&lt;/b&gt;\""),
        "escaped: {name}"
    );
    assert!(!name.contains("aria-invalid"), "{name}");
    assert!(tag(b, "<option value=\"bottlebats\"").contains(" selected"));
    assert!(tag(b, "<option value=\"swiss\"").contains(" selected"));
    assert!(tag(b, "<input type=\"radio\" name=\"who\" value=\"named\"").contains(" checked"));
    assert!(!tag(b, "<input type=\"radio\" name=\"who\" value=\"all\"").contains(" checked"));
    for (field, value) in [
        ("top", "5"),
        ("maps", "ring-2p"),
        ("rounds", "3"),
        ("seed", "2016"),
    ] {
        let t = tag(b, &format!("<input name=\"{field}\""));
        assert!(t.contains(&format!("value=\"{value}\"")), "{field}: {t}");
    }
    // Nothing was made.
    let made: i64 = sqlx::query_scalar("select count(*) from tournaments")
        .fetch_one(&c.state.db)
        .await
        .unwrap();
    assert_eq!(made, 0);

    // A number that is none: the field named and marked, the rest kept.
    let r = c
        .post(
            "/admin/tournaments",
            &form(&[("format", "groups"), ("players", "four")]),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);
    assert!(
        r.body
            .contains("<strong>Players a game:</strong> <code>four</code> is not a whole number."),
        "{}",
        r.body
    );
    let players = tag(&r.body, "<input name=\"players\"");
    assert!(
        players.contains("value=\"four\"") && players.contains("aria-invalid=\"true\""),
        "{players}"
    );
    assert!(tag(&r.body, "<option value=\"groups\"").contains(" selected"));

    // A name past its length, with markup: escaped, and cut to the field's 100
    // characters.
    let long = format!("<script>alert(1)</script>{}", "x".repeat(5000));
    let r = c
        .post("/admin/tournaments", &form(&[("name", &long)]))
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);
    assert!(r
        .body
        .contains("<strong>Name:</strong> Give the tournament a name of 1 to 100"));
    assert!(!r.body.contains("<script>alert"), "escaped");
    let name = tag(&r.body, "<input name=\"name\"");
    let xs = 100 - "<script>alert(1)</script>".len();
    assert!(
        name.contains(&format!("{}\"", "x".repeat(xs))) && !name.contains(&"x".repeat(xs + 1)),
        "cut to 100 characters: {name}"
    );
    assert!(name.contains("aria-invalid=\"true\""));
}

#[tokio::test]
async fn the_form_offers_the_formats_a_game_plays_and_a_game_of_four_plays_groups_of_four() {
    let mut c = organizer_site().await;
    let page = c.get("/admin").await.body;
    // Each game says what it plays, for the page's script; the default game's formats
    // are offered, its default chosen.
    let bb = tag(&page, "<option value=\"bottlebats\"");
    assert!(
        bb.contains("data-formats=\"round-robin groups swiss\"") && bb.contains(" selected"),
        "{bb}"
    );
    let vin = tag(&page, "<option value=\"vindinium\"");
    assert!(
        vin.contains("data-formats=\"groups\"")
            && vin.contains("data-fewest=\"4\"")
            && vin.contains("data-most=\"4\""),
        "{vin}"
    );
    assert!(tag(&page, "<option value=\"round-robin\"").contains(" selected"));
    assert!(!tag(&page, "<option value=\"swiss\"").contains("disabled"));
    assert!(page.contains("<script type=\"module\" src=\"/static/tournament-form.mjs\">"));

    // Duels in a game of four: refused, the format named and marked, the game and the
    // format kept as sent, the formats it cannot play not offered.
    let vindinium = form(&[
        ("game", "vindinium"),
        ("format", "round-robin"),
        ("who", "all"),
        ("maps", ""),
        ("rounds", ""),
    ]);
    let r = c.post("/admin/tournaments", &vindinium).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);
    assert!(
        r.body.contains(
            "<strong>Format:</strong> A game of Vindinium has 4 players, and a round robin is played in duels: play free-for-all groups of 4."
        ),
        "{}",
        r.body
    );
    assert!(tag(&r.body, "<option value=\"vindinium\"").contains(" selected"));
    let rr = tag(&r.body, "<option value=\"round-robin\"");
    assert!(rr.contains(" selected") && !rr.contains("disabled"), "{rr}");
    assert!(tag(&r.body, "<option value=\"swiss\"").contains("disabled hidden"));
    assert!(tag(&r.body, "<select name=\"format\"").contains("aria-invalid=\"true\""));
    let players = tag(&r.body, "<input name=\"players\"");
    assert!(
        players.contains("min=\"4\"") && players.contains("placeholder=\"4\""),
        "{players}"
    );
    assert!(r
        .body
        .contains("A game of Vindinium has 4 players: free-for-all groups only."));

    // Groups with the players' field left empty: games of four.
    let groups = form(&[
        ("game", "vindinium"),
        ("format", "groups"),
        ("who", "all"),
        ("maps", ""),
        ("rounds", ""),
    ]);
    let r = c.post("/admin/tournaments", &groups).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let (game, k): (String, i32) = sqlx::query_as("select game, players_per_game from tournaments")
        .fetch_one(&c.state.db)
        .await
        .unwrap();
    assert_eq!((game.as_str(), k), ("vindinium", 4));
}
