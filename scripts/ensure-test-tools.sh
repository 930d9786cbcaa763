#!/usr/bin/env bash
# What the tests need from Debian: chromium for the browser tests (playwright-core never downloads a browser) and
# poppler-utils' pdftotext to read the invoice PDFs back. Installs whatever is missing with apt; needs root (CI and
# the development machines run as root).
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" != "0" ]; then
  echo "ensure-test-tools: missing ${missing[*]}; install the Debian packages (as root: apt-get install -y ${missing[*]})" >&2
  exit 1
fi
echo "ensure-test-tools: installing Debian's ${missing[*]} for the tests"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
/usr/bin/chromium --version
pdftotext -v 2>&1 | head -1
