# syntax=docker/dockerfile:1
#
# Bottle Bats: the `bottlebats` binary and the toolchains bots are built and run with.
#
#   docker build -t bottlebats .
#   docker compose up -d            (see docker-compose.yml and docs/operator.md, "Deploying with Docker")
#
# The image has no PostgreSQL server: give it DATABASE_URL (compose runs postgres:15,
# the version of bookworm's client tools, which `bottlebats admin backup` uses).
# It needs extra privileges to sandbox bots; see docker-compose.yml for which and why.

ARG RUST_VERSION=1

# ---------------------------------------------------------------------------------------
# Builder: compiles the release binary. Only what the build reads is copied in: the
# workspace manifests and lock file, the crates, the checked SQL's metadata, and what the server embeds at
# compile time (migrations/ via sqlx::migrate!, templates/ via askama; static/, each
# game's content under games/ and its maps under maps/, and the platform's own source
# and documents for its source archive (server/build.rs); languages.toml via
# include_str!).
FROM rust:${RUST_VERSION}-bookworm AS builder
WORKDIR /src
COPY Cargo.toml Cargo.lock languages.toml README.md ARCHITECTURE.md ./
COPY games games
COPY maps maps
COPY engine engine
COPY server server
COPY migrations migrations
COPY templates templates
COPY static static
COPY docs docs
# The SQL is checked at build time against this metadata (.cargo/config.toml sets
# SQLX_OFFLINE): no database is needed to build.
COPY .cargo .cargo
COPY .sqlx .sqlx
# The revision `bottlebats --version`, /healthz and /metrics name (the build context
# has no .git): `docker build --build-arg GIT_REVISION=$(git rev-parse --short=12 HEAD)`.
ARG GIT_REVISION=unknown
ENV BOTTLEBATS_GIT_REVISION=${GIT_REVISION}
# The registry and target folders are BuildKit caches, so a source change does not
# recompile every dependency; the binary is copied out of the cache.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release -p server --locked \
    && install -D -m 0755 target/release/bottlebats /out/bottlebats

# ---------------------------------------------------------------------------------------
# Runtime: Debian bookworm (the builder's glibc) with what bots need and nothing more.
FROM debian:bookworm-slim

# bubblewrap       the sandbox (0.8.0 in bookworm: has --disable-userns)
# python3          Python bots and the house bots
# gcc g++ libc6-dev  C and C++ bots (`cc`, `c++`); libc6-dev is only a Recommends of gcc
# default-jdk-headless  Java bots (`javac`, `java`; OpenJDK 17)
# nodejs           JavaScript bots (`node`)
# rustc            single-file Rust bots (Debian's rustc 1.63, as the sandbox's PATH
#                  finds it; no cargo: uploads are compiled with rustc alone)
# tini             PID 1: forwards SIGTERM to bottlebats and reaps the zombies the
#                  sandbox leaves (bwrap's init, orphans of bots)
# mount            util-linux mount, to make the container's own cgroup tree writable
#                  (entrypoint); already in the base image, named here as it is needed
# Not installed: a PostgreSQL server (the database is another container), curl (the
# health check uses bash), ca-certificates (nothing here speaks TLS: bots have no
# network and the database connection is plain).
# postgresql-client pg_dump and pg_restore for `bottlebats admin backup` / `restore`
#                  (version 15: the compose file's database is postgres:15 to match)
# /usr/share/man/man1 must exist for the JDK's postinst in slim images.
RUN mkdir -p /usr/share/man/man1 \
    && apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        bubblewrap \
        python3 \
        gcc g++ libc6-dev \
        default-jdk-headless \
        nodejs \
        rustc \
        tini \
        mount \
        postgresql-client \
    && rm -rf /var/lib/apt/lists/*

COPY --from=builder /out/bottlebats /usr/local/bin/bottlebats
COPY --chmod=0755 docker/entrypoint.sh /usr/local/bin/bottlebats-entrypoint
COPY --chmod=0755 docker/healthcheck.sh /usr/local/bin/bottlebats-healthcheck

# The server runs as root inside the container, on purpose: only root can give each
# running bot its own unprivileged uid (61000..61063, the sandbox's slots), join it to
# its cgroup and stage its folder in a private mount namespace before dropping to that
# uid. Bots themselves never run as root: they run as their slot uid, under bubblewrap
# (no network, own PID/IPC/mount/user namespaces, read-only system folders) and in a
# cgroup limiting memory and processes. Root here is the host's uid 0 (unless
# the engine remaps user namespaces), with the container's capabilities: Docker's
# defaults plus SYS_ADMIN in docker-compose.yml. Treat the container like a server
# process running as root on the host. `bottlebats doctor`, printed at start, says
# which protections are active; with fewer privileges the sandbox falls back to what
# remains (see docker-compose.yml).
# NO_COLOR: plain log lines for `docker logs` (bots get none of this environment).
ENV BOTTLEBATS_LISTEN=0.0.0.0:8000 \
    BOTTLEBATS_DATA_DIR=/data \
    LANG=C.UTF-8 \
    NO_COLOR=1
WORKDIR /data
EXPOSE 8000

# GET /healthz (200 when the site and its database answer). Neither curl nor wget is in
# the slim image, and bash (always there) can speak enough HTTP through /dev/tcp, so
# the check costs no package. It finds what the container runs: a `worker` has no web
# server and counts as healthy while it runs.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["/usr/local/bin/bottlebats-healthcheck"]

ENTRYPOINT ["/usr/bin/tini", "--", "/usr/local/bin/bottlebats-entrypoint"]
CMD ["serve"]
