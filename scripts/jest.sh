#!/usr/bin/env bash
# `npm test`, `npm run test:unit` and the other test scripts: jest on the relay image's Node (scripts/ltsNode.sh),
# with better-sqlite3 built for it (the relay's store; LTS_SQLITE=skip for the projects that never open one).
# A larger young generation: jest loads every module afresh for each test file, and with V8's default the
# scavenges that garbage costs take a tenth of the run.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ltsNode.sh

node_bin=$(lts_node)
if [ "${LTS_SQLITE:-}" != skip ]; then
  RELAY_SQLITE_PACKAGE=$(lts_sqlite "$node_bin")
  export RELAY_SQLITE_PACKAGE
fi
exec "$node_bin" --max-semi-space-size=64 node_modules/jest/bin/jest.js "$@"
