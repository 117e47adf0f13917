#!/usr/bin/env bash
# Runs a command inside its own D-Bus session with an unlocked gnome-keyring, in a throwaway HOME,
# so tests use a real Secret Service without touching the user's own keychain.
# Where D-Bus or gnome-keyring is missing, runs the command as it is (keychain tests then say why
# they cannot run, and fail under CI).
set -eu
if ! command -v dbus-run-session >/dev/null 2>&1 || ! command -v gnome-keyring-daemon >/dev/null 2>&1; then
  echo "with-secret-service: no dbus-run-session or gnome-keyring-daemon here; running without a Secret Service." >&2
  exec "$@"
fi
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT INT TERM
mkdir -p "$home/data" "$home/run"
chmod 700 "$home/run"
export QUERYDESK_REAL_HOME="${HOME:-}"
export HOME="$home" XDG_DATA_HOME="$home/data" XDG_RUNTIME_DIR="$home/run" QUERYDESK_SECRET_SERVICE=1
# npm keeps its cache under HOME; point it back so a wrapped npm does not start from an empty one.
[ -n "$QUERYDESK_REAL_HOME" ] && export npm_config_cache="${npm_config_cache:-$QUERYDESK_REAL_HOME/.npm}"
dbus-run-session -- sh -c 'printf pass | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; exec "$@"' sh "$@" 2> >(grep -v "Failed to set fd limit" >&2) || exit $?
