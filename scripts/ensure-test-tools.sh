#!/usr/bin/env bash
# What the tests need from Debian: chromium for the browser tests (playwright-core never downloads a browser),
# poppler-utils' pdftotext to read the invoice PDFs back, pgbouncer for the cluster test through a transaction-mode
# pooler, openssh-server, whose sshd the SFTP tests start themselves on loopback (test/sftp-server.ts), and
# prometheus for its promtool, which checks and unit-tests the alert rules in deploy/prometheus. Installs
# whatever is missing with apt; needs root (CI and the development machines run as root). No package's service is
# started: the system's sshd must not come up listening on every address.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
[ -x /usr/sbin/pgbouncer ] || missing+=(pgbouncer)
[ -x /usr/sbin/sshd ] || missing+=(openssh-server)
command -v promtool >/dev/null 2>&1 || missing+=(prometheus)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" != "0" ]; then
  echo "ensure-test-tools: missing ${missing[*]}; install the Debian packages (as root: apt-get install -y ${missing[*]})" >&2
  exit 1
fi
echo "ensure-test-tools: installing Debian's ${missing[*]} for the tests"
export DEBIAN_FRONTEND=noninteractive
# policy-rc.d answering 101 keeps maintainer scripts from starting services (Debian's container images ship one).
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d
  trap 'rm -f /usr/sbin/policy-rc.d' EXIT
fi
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
/usr/bin/chromium --version
pdftotext -v 2>&1 | head -1
/usr/sbin/pgbouncer --version | head -1
/usr/sbin/sshd -V 2>&1 | head -1 || true
promtool --version | head -1
