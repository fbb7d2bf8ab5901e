//! A match's page as a stranger and as a bot's owner see it: the result, the downloads
//! (the replay and the classic log, `replays.rs`), the API's view of it, and each bot's
//! stderr for its owner only.

use axum::http::StatusCode;

use super::PW;

#[tokio::test]
async fn a_match_page_shows_the_result_and_its_downloads() {
    let (c, _) = super::ladder("page", 3).await;
    let id: i64 = sqlx::query_scalar(
        "select m.id from matches m join match_players p on p.match_id = m.id join bots b on b.id = p.bot_id \
         where m.status = 'finished' and b.name = 'chatty' limit 1",
    )
    .fetch_one(&c.state.db)
    .await
    .unwrap();
    let mut anon = c.stranger();
    let page = anon.get(&format!("/matches/{id}")).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains(&format!("<h1>Match {id}</h1>")));
    assert!(page.body.contains("href=\"/bots/chatty\""));
    assert!(page
        .body
        .contains(&format!("data-replay=\"/matches/{id}/replay.json\"")));
    assert!(
        !page.body.contains("Your bot's stderr"),
        "strangers see no stderr"
    );
    super::replays::the_replay_and_its_classic_log_are_served(&mut anon, id).await;
    let api = anon.get(&format!("/api/matches/{id}")).await;
    let v: serde_json::Value = serde_json::from_str(&api.body).unwrap();
    assert_eq!(v["status"], "finished");
    assert_eq!(v["players"].as_array().unwrap().len(), 2);
    assert!(v["players"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["warnings"].as_i64().unwrap() > 0));
    assert_eq!(
        anon.get("/matches/999999").await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        anon.get("/api/matches/999999").await.status,
        StatusCode::NOT_FOUND
    );
    let api_page = anon.get("/api").await;
    assert!(api_page.body.contains("GET /api/leaderboard"));
    // Every read of the API and every replay download, answers and refusals alike, may
    // be used from other origins; the site's pages may not.
    for path in [
        "/api/leaderboard".to_string(),
        "/api/matches?bot=chatty".into(),
        format!("/api/matches/{id}"),
        format!("/api/matches/{id}/replay"),
        format!("/matches/{id}/replay.json"),
        "/api/bots/chatty".into(),
        "/api/matches/999999".into(),
        "/api/matches/abc".into(),
        "/api/bots/nobody".into(),
    ] {
        let r = anon.get(&path).await;
        assert_eq!(
            r.headers
                .get("access-control-allow-origin")
                .map(|v| v.to_str().unwrap()),
            Some("*"),
            "{path} ({})",
            r.status
        );
    }
    for path in [
        "/leaderboard".to_string(),
        format!("/matches/{id}"),
        "/api".into(),
    ] {
        let r = anon.get(&path).await;
        assert!(
            !r.headers.contains_key("access-control-allow-origin"),
            "{path}"
        );
    }
}

#[tokio::test]
async fn a_bots_stderr_is_served_to_its_owner_only() {
    let (mut alice, _) = super::ladder("stderr", 3).await;
    let (id, seat): (i64, i32) = sqlx::query_as(
        "select p.match_id, p.seat from match_players p join bots b on b.id = p.bot_id \
         join matches m on m.id = p.match_id where b.name = 'chatty' and m.status = 'finished' limit 1",
    )
    .fetch_one(&alice.state.db)
    .await
    .unwrap();
    let url = format!("/matches/{id}/stderr/{seat}");
    let page = alice.get(&format!("/matches/{id}")).await;
    assert!(page.body.contains("Your bot's stderr") && page.body.contains(&url));
    let r = alice.get(&url).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.headers["content-encoding"], "gzip");
    let mut other = alice.stranger();
    other.register("mallory", PW).await;
    assert_eq!(other.get(&url).await.status, StatusCode::FORBIDDEN);
    assert!(!other
        .get(&format!("/matches/{id}"))
        .await
        .body
        .contains(&url));
    assert_eq!(
        alice.stranger().get(&url).await.status,
        StatusCode::UNAUTHORIZED
    );
    // The other seat is a house bot's: alice may not read it either.
    let r = alice
        .get(&format!("/matches/{id}/stderr/{}", 1 - seat))
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    // The test game's stderr and files of a version: the owner's only too.
    let bot = other.get("/bots/chatty").await;
    assert!(
        !bot.body.contains("thinking about turn"),
        "the smoke game's stderr is not shown to others"
    );
    assert_eq!(
        other.get("/bots/chatty/versions/1/smoke.json").await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        other.get("/bots/chatty/versions/1/source").await.status,
        StatusCode::FORBIDDEN
    );
    assert!(alice
        .get("/bots/chatty")
        .await
        .body
        .contains("thinking about turn"));
}

/// A whole game's stderr downloads as text, every turn under its number, for the
/// bot's owner only; the match page links it.
#[tokio::test]
async fn a_bots_whole_stderr_downloads_as_text_for_its_owner_only() {
    let (mut alice, _) = super::ladder("stderr-text", 3).await;
    let (id, seat, turns): (i64, i32, i32) = sqlx::query_as(
        "select p.match_id, p.seat, m.turns from match_players p join bots b on b.id = p.bot_id \
         join matches m on m.id = p.match_id where b.name = 'chatty' and m.status = 'finished' limit 1",
    )
    .fetch_one(&alice.state.db)
    .await
    .unwrap();
    let url = format!("/matches/{id}/stderr/{seat}.txt");
    assert!(alice
        .get(&format!("/matches/{id}"))
        .await
        .body
        .contains(&url));
    let r = alice.get(&url).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.headers["content-type"], "text/plain; charset=utf-8");
    assert_eq!(
        r.headers["content-disposition"],
        format!("attachment; filename=\"match-{id}-chatty-stderr.txt\"")
    );
    assert!(r
        .body
        .starts_with(&format!("stderr of chatty in match {id}\n")));
    // Every turn the bot answered, in order, under its number.
    let said = r.body.matches("thinking about turn").count();
    assert!(said >= 2 && said as i32 <= turns + 1, "{said} of {turns}");
    let first = r.body.find("\n--- turn ").expect("turns are headed");
    assert!(r.body[first..].contains("thinking about turn 0\n"));
    assert!(
        r.body.find("thinking about turn 0").unwrap()
            < r.body.find("thinking about turn 1").unwrap()
    );
    let mut other = alice.stranger();
    other.register("mallory", PW).await;
    assert_eq!(other.get(&url).await.status, StatusCode::FORBIDDEN);
    assert_eq!(
        alice.stranger().get(&url).await.status,
        StatusCode::UNAUTHORIZED
    );
    // The house bot's seat is not alice's; a seat that is none is not found.
    let house = format!("/matches/{id}/stderr/{}.txt", 1 - seat);
    assert_eq!(alice.get(&house).await.status, StatusCode::FORBIDDEN);
    for seat in ["7.txt", "x.txt", "0.json"] {
        let r = alice.get(&format!("/matches/{id}/stderr/{seat}")).await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{seat}");
    }
}

/// The error board groups one problem repeated over matches into one line, with the
/// number of matches and a link to the latest.
#[tokio::test]
async fn the_error_board_groups_a_repeated_problem_with_its_count_and_latest_match() {
    let (mut alice, _) = super::ladder("board-groups", 3).await;
    let matches: Vec<i64> = sqlx::query_scalar(
        "select p.match_id from match_players p join bots b on b.id = p.bot_id \
         join matches m on m.id = p.match_id where b.name = 'chatty' and m.status = 'finished' \
         order by p.match_id desc",
    )
    .fetch_all(&alice.state.db)
    .await
    .unwrap();
    assert!(matches.len() >= 2, "{matches:?}");
    let page = alice.get("/bots/chatty").await;
    let board = page
        .body
        .split("id=\"errors\"")
        .nth(1)
        .and_then(|b| b.split("</section>").next())
        .unwrap();
    // chatty sends the same bad command every turn of every match: one line.
    assert_eq!(board.matches("<li class=\"problem").count(), 1, "{board}");
    assert!(
        board.contains(&format!(
            "in <strong class=\"matches\">{}</strong> matches",
            matches.len()
        )),
        "{board}"
    );
    assert!(
        board.contains(&format!("latest <a href=\"/matches/{}#t=", matches[0])),
        "{board}"
    );
}
