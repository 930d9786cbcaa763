#!/usr/bin/env bash
# The browser tests drive Debian's chromium (playwright-core never downloads a browser). Installs it with apt when
# it is missing; needs root (CI and the development machines run as root).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" != "0" ]; then
  echo "ensure-chromium: /usr/bin/chromium is missing; install the Debian 'chromium' package (as root: apt-get install -y chromium)" >&2
  exit 1
fi
echo "ensure-chromium: installing Debian's chromium for the browser tests"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium >/dev/null
/usr/bin/chromium --version
