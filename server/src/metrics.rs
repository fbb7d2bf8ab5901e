//! `/metrics` in the Prometheus text format: what this process measured (HTTP
//! latency by route, durations of the matches its workers played, the size of its
//! build cache) and the state of the whole ladder read from the database (queue
//! depth, matches finished and voided, bot problems by kind, workers and their last
//! heartbeat). The ladder's state is read at most once every [`REFRESH`], however
//! many scrape at once. With a `metrics_token` set, `/metrics` asks for it and names
//! each worker; without one it is public and only counts them.

use std::sync::atomic::AtomicU64;
use std::sync::OnceLock;
use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::middleware::Next;
use axum::response::Response;
use prometheus_client::encoding::text::encode;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;
use std::sync::Mutex;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RouteLabels {
    pub method: String,
    pub route: String,
    pub status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct KindLabels {
    pub kind: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct BuildLabels {
    pub version: String,
    pub revision: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct WorkerLabels {
    pub worker: String,
}

type FloatGauge = Gauge<f64, AtomicU64>;

/// Every metric of the process.
pub struct Metrics {
    registry: Mutex<Registry>,
    pub http: Family<RouteLabels, Histogram, fn() -> Histogram>,
    pub match_seconds: Histogram,
    queue: Family<KindLabels, Gauge>,
    matches: Family<KindLabels, Gauge>,
    problems: Family<KindLabels, Gauge>,
    workers: Gauge,
    heartbeat: Family<WorkerLabels, FloatGauge>,
    pub build_cache_bytes: Gauge,
    /// The registry without per-worker labels, for public scrapes.
    public: Mutex<Registry>,
}

/// How often the ladder's state is read again from the database.
pub const REFRESH: std::time::Duration = std::time::Duration::from_secs(10);

fn http_histogram() -> Histogram {
    // 0.5 ms to ~16 s.
    Histogram::new(exponential_buckets(0.0005, 2.0, 16))
}

/// The process's metrics.
pub fn global() -> &'static Metrics {
    static METRICS: OnceLock<Metrics> = OnceLock::new();
    METRICS.get_or_init(|| {
        let m = Metrics {
            registry: Mutex::new(Registry::with_prefix("bottlebats")),
            http: Family::new_with_constructor(http_histogram as fn() -> Histogram),
            match_seconds: Histogram::new(exponential_buckets(0.25, 2.0, 14)),
            queue: Family::default(),
            matches: Family::default(),
            problems: Family::default(),
            workers: Gauge::default(),
            heartbeat: Family::default(),
            build_cache_bytes: Gauge::default(),
            public: Mutex::new(Registry::with_prefix("bottlebats")),
        };
        for (registry, private) in [(&m.registry, true), (&m.public, false)] {
            let mut r = registry.lock().unwrap_or_else(|e| e.into_inner());
            r.register(
                "http_request_duration_seconds",
                "Time to answer an HTTP request, by method, route and status",
                m.http.clone(),
            );
            r.register(
                "match_duration_seconds",
                "Wall time of the matches this process's workers played",
                m.match_seconds.clone(),
            );
            r.register("queue_matches", "Matches queued and running, by status", m.queue.clone());
            r.register("matches", "Matches finished and voided so far, by status", m.matches.clone());
            r.register(
                "bot_problems",
                "Problems of bots in finished matches so far: timeouts, errors (removals), warnings",
                m.problems.clone(),
            );
            r.register("workers", "Workers that reported in the last two minutes", m.workers.clone());
            let info: Family<BuildLabels, Gauge> = Family::default();
            info.get_or_create(&BuildLabels {
                version: crate::VERSION.into(),
                revision: crate::REVISION.into(),
            })
            .set(1);
            r.register(
                "build_info",
                "The version and git revision of this process's binary (always 1)",
                info,
            );
            r.register(
                "build_cache_bytes",
                "Bytes of built versions this process keeps in its build cache",
                m.build_cache_bytes.clone(),
            );
            if private {
                r.register(
                    "worker_heartbeat_age_seconds",
                    "Seconds since each worker last reported",
                    m.heartbeat.clone(),
                );
            }
        }
        m
    })
}

/// Times every routed request (a `route_layer`, so the route is known).
pub async fn track(req: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = req.method().to_string();
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_string(), |p| p.as_str().to_string());
    let resp = next.run(req).await;
    let labels = RouteLabels {
        method,
        route,
        status: resp.status().as_u16(),
    };
    global()
        .http
        .get_or_create(&labels)
        .observe(started.elapsed().as_secs_f64());
    resp
}

/// Reads the ladder's state into the gauges.
async fn refresh(m: &Metrics, db: &sqlx::PgPool) -> sqlx::Result<()> {
    let q = sqlx::query!(
        r#"select count(*) filter (where status = 'queued') as "queued!",
                  count(*) filter (where status = 'running') as "running!",
                  count(*) filter (where status = 'finished') as "finished!",
                  count(*) filter (where status = 'void') as "void!"
           from matches"#
    )
    .fetch_one(db)
    .await?;
    let kind = |k: &str| KindLabels {
        kind: k.to_string(),
    };
    m.queue.get_or_create(&kind("queued")).set(q.queued);
    m.queue.get_or_create(&kind("running")).set(q.running);
    m.matches.get_or_create(&kind("finished")).set(q.finished);
    m.matches.get_or_create(&kind("void")).set(q.void);
    let p = sqlx::query!(
        r#"select coalesce(sum(timeouts), 0)::bigint as "timeouts!",
                  count(error)::bigint as "errors!",
                  coalesce(sum(warnings), 0)::bigint as "warnings!"
           from match_players"#
    )
    .fetch_one(db)
    .await?;
    m.problems.get_or_create(&kind("timeout")).set(p.timeouts);
    m.problems.get_or_create(&kind("error")).set(p.errors);
    m.problems.get_or_create(&kind("warning")).set(p.warnings);
    let workers = sqlx::query!(
        r#"select name, extract(epoch from now() - heartbeat_at)::float8 as "age!" from workers"#
    )
    .fetch_all(db)
    .await?;
    m.heartbeat.clear();
    let mut alive = 0;
    for w in workers {
        alive += i64::from(w.age < 120.0);
        m.heartbeat
            .get_or_create(&WorkerLabels { worker: w.name })
            .set(w.age);
    }
    m.workers.set(alive);
    Ok(())
}

/// When a site last read the ladder's state for its metrics.
pub type Refreshed = tokio::sync::Mutex<Option<Instant>>;

/// Reads the ladder's state unless it was read less than [`REFRESH`] ago; concurrent
/// scrapes wait for the one read under way.
async fn refresh_now_and_then(m: &Metrics, db: &sqlx::PgPool, refreshed: &Refreshed) {
    let mut last = refreshed.lock().await;
    if last.is_some_and(|t| t.elapsed() < REFRESH) {
        return;
    }
    if let Err(e) = refresh(m, db).await {
        tracing::warn!("metrics: the database did not answer: {e}");
    }
    *last = Some(Instant::now());
}

/// The metrics in the Prometheus text format (OpenMetrics), the ladder's state read
/// again if it is older than [`REFRESH`]. `private` adds what only the organizer's
/// scraper may see: each worker by name.
pub async fn text(
    db: &sqlx::PgPool,
    refreshed: &Refreshed,
    private: bool,
) -> Result<String, std::fmt::Error> {
    let m = global();
    refresh_now_and_then(m, db, refreshed).await;
    let mut out = String::new();
    let registry = if private { &m.registry } else { &m.public };
    let registry = registry.lock().unwrap_or_else(|e| e.into_inner());
    encode(&mut out, &registry)?;
    Ok(out)
}

/// The content type of [`text`].
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";
