#!/bin/sh
# The official redis image's entrypoint, in short: options alone mean redis-server, /data belongs to the
# redis user, and Redis runs as that user. The official binary is built with protected mode off (it answers
# every client when started without a config file); Debian's is not, so that is said on the command line.
set -e
case "$1" in
  -* | *.conf) set -- redis-server "$@" ;;
esac
if [ "$1" = redis-server ]; then
  shift
  case "${1:-}" in
    *.conf) conf=$1; shift; set -- redis-server "$conf" "$@" ;;
    *) set -- redis-server --protected-mode no "$@" ;;
  esac
  if [ "$(id -u)" = 0 ]; then
    find . \! -user redis -exec chown redis '{}' +
    exec setpriv --reuid=redis --regid=redis --init-groups "$@"
  fi
fi
exec "$@"
