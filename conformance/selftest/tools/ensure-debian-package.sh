#!/bin/sh
# Makes a program of a Debian package available to the self-test: prints its path if it is already there,
# else installs the package with apt-get (as root, or through sudo without a password) and prints the path.
# Exits 1, saying why on stderr, where it cannot be had (no apt-get, not root, no network): the test that
# needs it then skips with that reason. Never downloads anything but the Debian package.
#   ensure-debian-package.sh PROGRAM PACKAGE       e.g. xmllint libxml2-utils, chromium chromium
set -eu
program=$1
package=$2
if found=$(command -v "$program" 2>/dev/null); then echo "$found"; exit 0; fi
command -v apt-get >/dev/null 2>&1 || { echo "$program: not installed, and no apt-get to install $package" >&2; exit 1; }
if [ "$(id -u)" = 0 ]; then sudo=''; elif sudo -n true 2>/dev/null; then sudo='sudo -n'; else
  echo "$program: not installed, and installing $package needs root" >&2; exit 1; fi
log=$(mktemp)
# The package lists may be missing or stale: update them once, then install without questions.
if ! { $sudo apt-get install -y --no-install-recommends "$package" >"$log" 2>&1 ||
  { $sudo apt-get update >>"$log" 2>&1 && $sudo apt-get install -y --no-install-recommends "$package" >>"$log" 2>&1; }; }; then
  echo "$program: apt-get install $package failed: $(tail -n 3 "$log" | tr '\n' ' ')" >&2
  rm -f "$log"; exit 1
fi
rm -f "$log"
command -v "$program" || { echo "$program: $package installed, yet $program is not on PATH" >&2; exit 1; }
