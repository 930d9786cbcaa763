#!/usr/bin/env bash
# What the tests need from Debian: chromium for the browser tests (playwright-core never downloads a browser),
# poppler-utils' pdftotext to read the invoice PDFs back, and pgbouncer for the cluster test through a transaction-mode
# pooler. Installs whatever is missing with apt; needs root (CI and the development machines run as root).
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
[ -x /usr/sbin/pgbouncer ] || missing+=(pgbouncer)
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
/usr/sbin/pgbouncer --version | head -1
