#!/bin/sh
# The suites that aim at unroutable or internal addresses run in a network namespace of their
# own with only loopback up (no route anywhere else), as an unprivileged user mapped to root
# there, so they can bind the service ports (43, 53, 80, 443, 853) their traps listen on.
set -e
cd "$(dirname "$0")/../.."
exec unshare -rn sh -c 'ip link set lo up && exec npx mocha --config test/netns/.mocharc.json "$@"' sh "$@"
