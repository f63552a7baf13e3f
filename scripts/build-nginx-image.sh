#!/usr/bin/env bash
# Builds the docker image gwc-nginx:bookworm (Debian bookworm, minbase, plus Debian's nginx)
# without a registry: debootstrap makes a root filesystem, apt-get installs nginx into it,
# the tree is tarred and `docker import`ed. Used by the gateway-image tests (test/real/nginx/image.test.ts).
#
# Idempotent: when the image exists, nothing is done; when only the cached root filesystem
# tarball exists (.cache/images/, git-ignored), it is imported again without a download.
# Runs as root (debootstrap, chroot). Needs debootstrap and a running docker daemon.
#
#   scripts/build-nginx-image.sh            # builds or reuses gwc-nginx:bookworm
#   GWC_IMAGE_REBUILD=1 scripts/build-nginx-image.sh   # ignores the cache
#
# The Debian mirror is the one this machine's apt uses (first deb.debian.org-like URI of the
# main archive in /etc/apt/sources.list(.d)), or GWC_DEBIAN_MIRROR when set.
set -euo pipefail
cd "$(dirname "$0")/.."

IMAGE="${GWC_NGINX_IMAGE:-gwc-nginx:bookworm}"
SUITE=bookworm
CACHE_DIR=.cache/images
TARBALL="$CACHE_DIR/gwc-nginx-$SUITE.tar"

log() { printf 'build-nginx-image: %s\n' "$*" >&2; }

if [ "${GWC_IMAGE_REBUILD:-0}" != 1 ]; then
  if docker image inspect "$IMAGE" >/dev/null 2>&1; then
    log "$IMAGE exists"
    exit 0
  fi
  if [ -s "$TARBALL" ]; then
    log "importing cached $TARBALL"
    docker import --change 'CMD ["nginx", "-g", "daemon off;"]' "$TARBALL" "$IMAGE" >/dev/null
    exit 0
  fi
fi

mirror() {
  if [ -n "${GWC_DEBIAN_MIRROR:-}" ]; then echo "$GWC_DEBIAN_MIRROR"; return; fi
  local found
  # deb822 files (URIs: ...) and one-line files (deb URI suite ...), skipping security archives.
  found=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '/^URIs:/ { for (i = 2; i <= NF; i++) print $i }' | grep -v security | grep '/debian/\?$' | head -n 1 || true)
  if [ -z "$found" ]; then
    found=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) { print $i; break } }' | grep -v security | grep '/debian/\?$' | head -n 1 || true)
  fi
  echo "${found:-http://deb.debian.org/debian}"
}

command -v debootstrap >/dev/null || { log "debootstrap is not installed (apt-get install debootstrap)"; exit 1; }
docker info >/dev/null 2>&1 || { log "docker daemon is not running"; exit 1; }

MIRROR=$(mirror)
mkdir -p "$CACHE_DIR"
ROOTFS=$(mktemp -d "${TMPDIR:-/tmp}/gwc-rootfs.XXXXXX")
cleanup() {
  # Unmount anything left mounted inside the tree before removing it.
  for m in proc sys dev/pts; do mountpoint -q "$ROOTFS/$m" 2>/dev/null && umount -l "$ROOTFS/$m" || true; done
  rm -rf "$ROOTFS"
}
trap cleanup EXIT

log "debootstrap $SUITE from $MIRROR"
debootstrap --variant=minbase "$SUITE" "$ROOTFS" "$MIRROR" >"$CACHE_DIR/debootstrap.log" 2>&1 \
  || { tail -n 20 "$CACHE_DIR/debootstrap.log" >&2; exit 1; }

log "installing nginx in the root filesystem"
# No service may start inside the chroot while packages are configured.
printf '#!/bin/sh\nexit 101\n' >"$ROOTFS/usr/sbin/policy-rc.d"
chmod +x "$ROOTFS/usr/sbin/policy-rc.d"
cp /etc/resolv.conf "$ROOTFS/etc/resolv.conf"
mount -t proc proc "$ROOTFS/proc"
chroot "$ROOTFS" env DEBIAN_FRONTEND=noninteractive sh -c \
  'apt-get update -qq && apt-get install -y -qq --no-install-recommends nginx && apt-get clean' \
  >"$CACHE_DIR/apt.log" 2>&1 || { tail -n 20 "$CACHE_DIR/apt.log" >&2; exit 1; }
umount "$ROOTFS/proc"

# Smaller image, no state from this machine: package lists, caches, docs, the resolver file.
rm -rf "$ROOTFS"/var/lib/apt/lists/* "$ROOTFS"/var/cache/apt/* "$ROOTFS"/usr/share/doc/* \
  "$ROOTFS"/usr/share/man/* "$ROOTFS"/usr/share/locale/* "$ROOTFS/usr/sbin/policy-rc.d"
: >"$ROOTFS/etc/resolv.conf"

log "packing and importing as $IMAGE"
tar -C "$ROOTFS" --numeric-owner -cf "$TARBALL.part" .
mv "$TARBALL.part" "$TARBALL"
docker import --change 'CMD ["nginx", "-g", "daemon off;"]' "$TARBALL" "$IMAGE" >/dev/null
log "done: $IMAGE ($(du -h "$TARBALL" | cut -f1) root filesystem)"
