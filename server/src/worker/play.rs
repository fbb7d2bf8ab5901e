//! A claimed match played: its builds fetched (or its remote seats joined), the game
//! set up through its interface and run on a thread of its own, the lease renewed and
//! the live turns written meanwhile.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::Context;
use engine::process::{BotProcess, BotSpec};
use engine::remote::Seats;
use engine::sandbox::Limits;
use engine::{run_game, RunError};

use super::{Claimed, Played, Worker, LEASE, LIVE_EVERY};

impl Worker {
    /// Fetches the builds and plays the match through its game's interface (its map,
    /// framing and defaults), renewing the lease meanwhile. `None` when stopped; an
    /// error is the platform's.
    pub async fn play(&self, m: &Claimed) -> anyhow::Result<Option<Played>> {
        self.play_seated(m, HashMap::new()).await
    }

    /// [`Worker::play`] with some seats remote (`crate::remote`): `remote` holds
    /// their processes, by seat number; every other seat's build is fetched and run in
    /// the sandbox.
    pub async fn play_seated(
        &self,
        m: &Claimed,
        mut remote: HashMap<i32, Box<dyn BotProcess>>,
    ) -> anyhow::Result<Option<Played>> {
        let kind = crate::games::kind(&m.game)?;
        let mut specs = Vec::new();
        let mut remote_seats = HashMap::new();
        let remote_at: Vec<usize> = (m.players.iter().enumerate())
            .filter(|(_, p)| remote.contains_key(&p.seat))
            .map(|(i, _)| i)
            .collect();
        let names = crate::games::seat_names(m.players.iter().map(|p| p.name.as_str()));
        for (p, name) in m.players.iter().zip(names) {
            if let Some(process) = remote.remove(&p.seat) {
                // Played elsewhere: nothing to fetch, and no folder of ours.
                remote_seats.insert(name.clone(), process);
                specs.push(BotSpec {
                    name,
                    command: String::new(),
                    dir: std::path::PathBuf::new(),
                });
                continue;
            }
            let (root, recipe) = self
                .builder
                .artifact(p.version)
                .await
                .with_context(|| format!("the build of `{}` could not be fetched", p.name))?;
            specs.push(BotSpec {
                name,
                command: recipe.run,
                dir: root,
            });
        }
        let roots: Vec<std::path::PathBuf> = specs.iter().map(|s| s.dir.clone()).collect();
        let mut config = crate::games::match_config(kind, &self.match_config);
        // The worker's own cap on turns (tests play short games); the site's is none.
        config.max_turns = (config.max_turns.min(self.match_config.max_turns))
            .min(m.max_turns.unwrap_or(u32::MAX));
        let names: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
        let game = if m.practice {
            kind.setup_practice(&m.map_text, &names, config.max_turns)
        } else {
            kind.setup(&m.map_text, &names, config.max_turns)
        }
        .map_err(|e| anyhow::anyhow!("the match could not be set up: {e}"))?;
        let framing = kind.framing();
        let sandbox = self.builder.sandbox.launcher(Limits::game());
        let stop = self.stop.clone();
        let lost = Arc::new(AtomicBool::new(false));
        let lost_flag = lost.clone();
        // The turns as they are played, for live viewers (`crate::live`).
        let recorder = crate::live::Recorder::default();
        let mut watcher = recorder.watcher();
        // On a thread of its own, which no web request can take (`crate::dedicated`).
        // What is recorded is read off the match there too: a long game's replay and
        // problems take a while.
        let mut game = crate::dedicated::spawn("match", move || {
            let launcher = Seats::new(&sandbox, remote_seats);
            let played = run_game(game, framing, &specs, &launcher, &config, &mut |m| {
                watcher.saw(m);
                !stop.load(Ordering::Relaxed) && !lost_flag.load(Ordering::Relaxed)
            })?;
            let mut p = Played::of(&*played.game, played.players);
            for seat in remote_at {
                p.last_views.insert(seat, played.game.view(seat));
            }
            Ok::<_, RunError>(p)
        })?;
        let mut renew = tokio::time::interval(LEASE / 3);
        renew.tick().await;
        let mut live = tokio::time::interval(LIVE_EVERY);
        let result = loop {
            tokio::select! {
                done = &mut game => break done?,
                _ = live.tick() => {
                    // A viewer's trouble never stops the match.
                    if let Err(e) = recorder.flush(&self.db, m.id).await {
                        tracing::debug!(match_id = %m.id, "live turns not written: {e}");
                    }
                }
                _ = renew.tick() => {
                    if !self.keep_alive(m.id).await {
                        lost.store(true, Ordering::Relaxed);
                    }
                }
            }
        };
        match result {
            Ok(mut r) => {
                // Its owner sees paths relative to the bot's folder, not the server's.
                for (p, root) in r.players.iter_mut().zip(&roots) {
                    if root.as_os_str().is_empty() {
                        continue;
                    }
                    for (_, text) in &mut p.stderr {
                        *text = crate::builds::relative_paths(text, root);
                    }
                }
                Ok(Some(r))
            }
            Err(RunError::Cancelled) if lost.load(Ordering::Relaxed) => {
                anyhow::bail!("the lease was lost")
            }
            Err(RunError::Cancelled) => Ok(None),
            Err(e) => Err(anyhow::Error::from(e).context("the match could not be run")),
        }
    }
}
