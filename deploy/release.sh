#!/bin/bash
# Installs a build of the shop as a release of its own and moves the instances onto it one at a
# time, so that a new build never takes a file from under a running instance or a kept page
# (docs/deploy.md; tests/e2e/release.test.ts runs this script).
#
#   deploy/release.sh install DIST   DIST (what `npm run build` made: dist/) becomes a release
#   deploy/release.sh rollback       back to the release before the current one
#
# Under BERRIES_HOME (default /srv/berries-shop):
#   releases/<id>/  one build each, never changed once there. An instance runs
#                   `node $BERRIES_HOME/current/host/main.js`: Node resolves the link when it
#                   starts, so the instance reads its own release's files for as long as it runs.
#   current         a link to the release instances start from, switched by a rename (atomic).
#   assets/         the /assets files (hashed names) of every release kept: nginx's root for
#                   /assets/, so a page nginx keeps, or a tab open since, still gets its scripts.
#
# The environment:
#   BERRIES_HOME       /srv/berries-shop
#   BERRIES_INSTANCES  "3001 3002": the instances' ports, restarted in this order
#   BERRIES_RESTART    "systemctl restart berries-shop@{}": restarts one instance ({} is its port);
#                      the script then waits for its /healthz
#   BERRIES_KEEP       3: releases kept besides any installed in the last two days (nginx keeps an
#                      unrenewed page up to a day); older ones and their assets are removed
#
# The instances renew the pages nginx keeps themselves when they start (KEPT_PAGES_FILE):
# minutes after the last restart every kept page is the new build's.
set -euo pipefail

home=${BERRIES_HOME:-/srv/berries-shop}
instances=${BERRIES_INSTANCES-3001 3002}
restart=${BERRIES_RESTART:-systemctl restart berries-shop@\{\}}
keep=${BERRIES_KEEP:-3}

say() { echo "release: $*"; }
fail() {
  echo "release: $*" >&2
  exit 1
}

# Points `current` at releases/$1: a new link renamed over the old one.
switch_to() {
  ln -sfn "releases/$1" "$home/.current.new"
  mv -T "$home/.current.new" "$home/current"
  say "current -> releases/$1"
}

# Restarts each instance in turn, and waits for it to answer before the next: the other one
# serves meanwhile (nginx sends it whatever the stopping one refuses).
restart_all() {
  local port
  for port in $instances; do
    say "restarting the instance on $port"
    sh -c "${restart//\{\}/$port}"
    local tries=0
    until curl -fsS -o /dev/null --max-time 2 "http://127.0.0.1:$port/healthz"; do
      tries=$((tries + 1))
      [ "$tries" -lt 120 ] || fail "the instance on $port does not answer /healthz: stopped here"
      sleep 0.5
    done
  done
}

# Removes releases beyond the newest $keep that were installed over two days ago, then the
# assets no release left names.
prune() {
  local current_id release
  current_id=$(basename "$(readlink "$home/current")")
  mapfile -t newest < <(ls -1 "$home/releases" | sort -r | head -n "$keep")
  for release in $(ls -1 "$home/releases"); do
    [ "$release" = "$current_id" ] && continue
    [[ " ${newest[*]} " == *" $release "* ]] && continue
    [ -n "$(find "$home/releases/$release" -maxdepth 0 -mmin +2880)" ] || continue
    say "removing releases/$release"
    rm -rf "${home:?}/releases/$release"
  done
  local file name
  for file in "$home"/assets/*; do
    [ -e "$file" ] || continue
    name=$(basename "$file")
    if ! compgen -G "$home/releases/*/client/assets/$name" >/dev/null; then rm -f "$file"; fi
  done
}

install_release() {
  local dist=$1
  [ -f "$dist/host/main.js" ] && [ -d "$dist/client/assets" ] && [ -d "$dist/node_modules" ] ||
    fail "$dist is not a build of the shop (npm run build makes dist/)"
  mkdir -p "$home/releases" "$home/assets"
  local id
  id=$(date -u +%Y%m%dT%H%M%SZ)
  while [ -e "$home/releases/$id" ]; do id="$id-1"; done
  # Copied aside, then renamed in: a release folder is whole or absent.
  cp -R "$dist" "$home/releases/.$id"
  mv "$home/releases/.$id" "$home/releases/$id"
  say "installed releases/$id"
  # Before any instance runs the build: its pages name these.
  cp -R -n "$home/releases/$id/client/assets/." "$home/assets/"
  switch_to "$id"
  restart_all
  prune
}

rollback() {
  local current_id previous
  current_id=$(basename "$(readlink "$home/current")")
  previous=$(ls -1 "$home/releases" | sort | grep -B1 -x "$current_id" | head -n 1)
  [ -n "$previous" ] && [ "$previous" != "$current_id" ] || fail "no release before $current_id"
  switch_to "$previous"
  restart_all
}

case "${1:-}" in
  install)
    [ $# -eq 2 ] || fail "usage: $0 install DIST"
    install_release "$(cd "$2" && pwd)"
    ;;
  rollback) rollback ;;
  *) fail "usage: $0 install DIST | rollback" ;;
esac
