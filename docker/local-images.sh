#!/bin/bash
# Local stand-ins for the three base images that Dockerfile and docker-compose.yml name,
# for a machine that reaches a Debian mirror but no container registry:
#
#   docker.io/library/debian:bookworm-slim  debootstrap --variant=minbase bookworm, slimmed
#                                           as the official image is (no man pages, docs
#                                           or locales; deb.debian.org as its sources)
#   docker.io/library/rust:1-bookworm       that, plus gcc, libc6-dev, pkg-config, git,
#                                           curl, ... from the mirror and this machine's
#                                           Rust toolchain (rustup's default, without its
#                                           documentation) in /usr/local/{rustup,cargo},
#                                           trusting this machine's local CAs too
#   docker.io/library/postgres:15           that, plus Debian's postgresql-15, with an
#                                           entrypoint that reads POSTGRES_USER,
#                                           POSTGRES_PASSWORD, POSTGRES_DB and PGDATA as
#                                           the official image does
#
# They carry the official names so that the real Dockerfile and compose file build and
# run unchanged, but they are NOT the official images: each has the label
# org.bottlebats.local-stand-in. With registry access, do not use this script:
# `docker compose up` pulls the real images.
#
#   docker/local-images.sh            make the images that are missing
#   docker/local-images.sh --force    make all three again
#   docker/local-images.sh --remove   remove the stand-ins (never an official image)
#
# Environment:
#   ENGINE          podman (default) or docker
#   DEBIAN_MIRROR   default http://deb.debian.org/debian
#   RUSTUP_HOME     where the Rust toolchain is taken from (default ~/.rustup); the
#                   toolchain is rustup's default there
#
# Needs root (debootstrap), debootstrap, tar, the engine, and about 3 GB of disk while
# it runs. Takes a few minutes, most of it apt inside the images.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
engine=${ENGINE:-podman}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
rustup_home=${RUSTUP_HOME:-$HOME/.rustup}
label=org.bottlebats.local-stand-in

debian=docker.io/library/debian:bookworm-slim
rust=docker.io/library/rust:1-bookworm
postgres=docker.io/library/postgres:15

say() { printf 'local-images: %s\n' "$*" >&2; }
die() {
  say "$*"
  exit 1
}

force=0
case ${1:-} in
  '') ;;
  --force) force=1 ;;
  --remove)
    for image in "$postgres" "$rust" "$debian"; do
      if [ -n "$("$engine" image inspect --format "{{index .Labels \"$label\"}}" "$image" 2>/dev/null)" ]; then
        "$engine" rmi "$image" >/dev/null && say "removed the stand-in $image"
      fi
    done
    exit 0
    ;;
  -h | --help)
    sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
    exit 0
    ;;
  *) die "unknown argument \`$1\` (--force, --remove or --help)" ;;
esac

[ "$(id -u)" = 0 ] || die "run as root (debootstrap needs it)"
command -v "$engine" >/dev/null || die "$engine is not installed"

cat >&2 <<EOF
local-images: making LOCAL STAND-INS for base images, because no registry is reachable:
local-images:   $debian  (debootstrap of bookworm from $mirror)
local-images:   $rust     (that + build tools + this machine's Rust toolchain)
local-images:   $postgres         (that + Debian's postgresql-15)
local-images: they are not the official images; with Docker Hub, pull those instead.
EOF

# True when IMAGE is present and should be kept.
keep() {
  if [ "$force" = 0 ] && "$engine" image exists "$1" 2>/dev/null; then
    if [ -n "$("$engine" image inspect --format "{{index .Labels \"$label\"}}" "$1")" ]; then
      say "$1: a stand-in is present (--force makes it again)"
    else
      say "$1: present and not a stand-in (the official image?): kept"
    fi
    return 0
  fi
  return 1
}

tmp=$(mktemp -d /var/tmp/bottlebats-local-images.XXXXXX)
cleanup() {
  # debootstrap may leave /proc and /sys mounted in the tree when it fails.
  local m
  for m in proc sys dev/pts dev; do
    mountpoint -q "$tmp/rootfs/$m" 2>/dev/null && umount -l "$tmp/rootfs/$m"
  done
  rm -rf --one-file-system "$tmp"
}
trap cleanup EXIT

# --- debian:bookworm-slim --------------------------------------------------------------

make_debian() {
  command -v debootstrap >/dev/null || die "debootstrap is not installed (apt-get install debootstrap)"
  local root=$tmp/rootfs
  say "$debian: debootstrap --variant=minbase bookworm (about a minute)"
  if ! debootstrap --variant=minbase bookworm "$root" "$mirror" >"$tmp/debootstrap.log" 2>&1; then
    tail -n 20 "$tmp/debootstrap.log" >&2
    die "debootstrap failed"
  fi
  # What the official slim image does: dpkg leaves out documentation, man pages and
  # translations (which is why the Dockerfile makes /usr/share/man/man1 for the JDK),
  # and apt keeps no package files.
  cat >"$root/etc/dpkg/dpkg.cfg.d/docker" <<'EOF'
# As in the official debian:bookworm-slim image.
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/lintian/overrides/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/man/*
EOF
  cat >"$root/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
  cat >"$root/etc/apt/apt.conf.d/docker-no-languages" <<'EOF'
Acquire::Languages "none";
EOF
  rm -f "$root/etc/apt/sources.list"
  cat >"$root/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $mirror
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${mirror%/debian}/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  find "$root/usr/share/doc" -mindepth 2 ! -name copyright ! -type d -delete
  find "$root/usr/share/doc" -mindepth 1 -type d -empty -delete
  rm -rf "$root"/usr/share/{man,info,groff,linda,locale}/* "$root"/usr/share/lintian/overrides/*
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb
  rm -f "$root"/var/log/*.log "$root"/var/log/apt/* "$root"/etc/hostname "$root"/etc/resolv.conf
  : >"$root/etc/machine-id"
  say "$debian: importing"
  tar --numeric-owner -C "$root" -c . |
    "$engine" import --quiet \
      --change 'CMD ["bash"]' \
      --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
      --change "LABEL $label=\"debootstrap --variant=minbase bookworm, by docker/local-images.sh\"" \
      - "$debian" >/dev/null
  rm -rf --one-file-system "$root"
}

# --- rust:1-bookworm -------------------------------------------------------------------

make_rust() {
  local ctx=$tmp/rust toolchain dir version
  [ -d "$rustup_home/toolchains" ] || die "no Rust toolchain in $rustup_home (set RUSTUP_HOME)"
  toolchain=$(sed -n 's/^default_toolchain = "\(.*\)"$/\1/p' "$rustup_home/settings.toml" 2>/dev/null)
  [ -n "$toolchain" ] || die "no default toolchain in $rustup_home/settings.toml"
  dir=$(readlink -f "$rustup_home/toolchains/$toolchain")
  [ -x "$dir/bin/cargo" ] || die "the toolchain $toolchain has no cargo ($dir)"
  version=$("$dir/bin/rustc" --version | cut -d' ' -f2)
  say "$rust: Rust $version ($toolchain from $rustup_home), without its documentation"
  mkdir -p "$ctx/rustup/toolchains" "$ctx/cargo/bin"
  tar -C "$dir" --exclude=./share/doc -c . | (mkdir "$ctx/rustup/toolchains/$toolchain" && tar -C "$ctx/rustup/toolchains/$toolchain" -x)
  printf 'version = "12"\ndefault_toolchain = "%s"\nprofile = "minimal"\nauto_self_update = "disable"\n\n[overrides]\n' \
    "$toolchain" >"$ctx/rustup/settings.toml"
  # rustup is the cargo and rustc of the official image too (proxies by argv[0]).
  local rustup_bin
  rustup_bin=$(command -v rustup || true)
  [ -n "$rustup_bin" ] || rustup_bin=${CARGO_HOME:-$HOME/.cargo}/bin/rustup
  [ -x "$rustup_bin" ] || die "rustup not found (it becomes the image's cargo and rustc)"
  cp "$(readlink -f "$rustup_bin")" "$ctx/cargo/bin/rustup"
  local proxy
  for proxy in cargo rustc rustdoc rustfmt cargo-fmt cargo-clippy clippy-driver rust-gdb rust-lldb; do
    ln -s rustup "$ctx/cargo/bin/$proxy"
  done
  # The machine's own CAs (Debian keeps them in /usr/local/share/ca-certificates), such
  # as a TLS-intercepting proxy's: cargo in the build then reaches crates.io as the
  # machine does.
  mkdir -p "$ctx/local-ca"
  local ca
  for ca in /usr/local/share/ca-certificates/*.crt; do
    [ -f "$ca" ] || continue
    cp "$ca" "$ctx/local-ca/"
    say "$rust: trusts this machine's CA ${ca##*/}"
  done
  # The official image is buildpack-deps:bookworm (compilers, headers, git, curl) with
  # rustup; these are the parts of it a Rust build uses.
  cat >"$ctx/Containerfile" <<EOF
FROM $debian
LABEL $label="debian:bookworm-slim stand-in + build tools + Rust $version, by docker/local-images.sh"
RUN apt-get update \\
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \\
        ca-certificates curl git gnupg netbase wget \\
        gcc g++ libc6-dev make pkg-config file patch xz-utils bzip2 unzip \\
        libssl-dev zlib1g-dev \\
    && rm -rf /var/lib/apt/lists/*
ENV RUSTUP_HOME=/usr/local/rustup \\
    CARGO_HOME=/usr/local/cargo \\
    PATH=/usr/local/cargo/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \\
    RUST_VERSION=$version
COPY local-ca /usr/local/share/ca-certificates
COPY rustup /usr/local/rustup
COPY cargo /usr/local/cargo
RUN update-ca-certificates >/dev/null \\
    && chmod -R a+w /usr/local/rustup /usr/local/cargo \\
    && rustup --version && cargo --version && rustc --version
EOF
  say "$rust: building (apt from the mirror)"
  nice "$engine" build --pull=never -t "$rust" -f "$ctx/Containerfile" "$ctx" >"$tmp/rust.log" 2>&1 ||
    {
      tail -n 30 "$tmp/rust.log" >&2
      die "building $rust failed"
    }
  rm -rf "$ctx"
}

# --- postgres:15 -----------------------------------------------------------------------

make_postgres() {
  local ctx=$tmp/postgres
  mkdir -p "$ctx"
  cp "$here/local-images/postgres-entrypoint.sh" "$ctx/docker-entrypoint.sh"
  cat >"$ctx/Containerfile" <<EOF
FROM $debian
LABEL $label="debian:bookworm-slim stand-in + Debian's postgresql-15, by docker/local-images.sh"
# No cluster from the package: the entrypoint makes one in PGDATA on first start.
RUN mkdir -p /etc/postgresql-common/createcluster.d \\
    && echo 'create_main_cluster = false' >/etc/postgresql-common/createcluster.d/no-main.conf \\
    && apt-get update \\
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-15 \\
    && rm -rf /var/lib/apt/lists/* \\
    && mkdir -p /var/run/postgresql /var/lib/postgresql/data \\
    && chown postgres:postgres /var/run/postgresql /var/lib/postgresql/data \\
    && chmod 3777 /var/run/postgresql && chmod 700 /var/lib/postgresql/data
ENV PG_MAJOR=15 \\
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/usr/lib/postgresql/15/bin \\
    PGDATA=/var/lib/postgresql/data \\
    LANG=C.UTF-8
COPY --chmod=0755 docker-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
VOLUME /var/lib/postgresql/data
ENTRYPOINT ["docker-entrypoint.sh"]
STOPSIGNAL SIGINT
EXPOSE 5432
CMD ["postgres"]
EOF
  say "$postgres: building (apt from the mirror)"
  nice "$engine" build --pull=never -t "$postgres" -f "$ctx/Containerfile" "$ctx" >"$tmp/postgres.log" 2>&1 ||
    {
      tail -n 30 "$tmp/postgres.log" >&2
      die "building $postgres failed"
    }
}

# The other two are made from this one: a new debian stand-in means new ones.
if ! keep "$debian"; then
  make_debian
  force=1
fi
keep "$rust" || make_rust
keep "$postgres" || make_postgres

say "done; these local stand-ins are now tagged:"
"$engine" images --format '  {{.Repository}}:{{.Tag}}  {{.Size}}' |
  grep -E "library/(debian:bookworm-slim|rust:1-bookworm|postgres:15)" >&2 || true
