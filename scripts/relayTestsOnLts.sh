#!/usr/bin/env bash
# `npm run test:relay:lts [-- test files]`: the relay's tests on the Node of its container image (the major
# version of relay/Dockerfile's NODE_IMAGE), fetched from the npm registry as the `node` package. better-sqlite3
# is a native addon built for the Node that installed node_modules, so a copy of it is built for this Node under
# .run/lts/ (once; later runs reuse it) and the relay project's tests load that copy. node_modules is never
# rebuilt in place: its files may be hard links shared with other checkouts.
set -euo pipefail
cd "$(dirname "$0")/.."

major=$(sed -n 's/^ARG NODE_IMAGE=node:\([0-9][0-9]*\).*/\1/p' relay/Dockerfile)
if [ -z "$major" ]; then
  echo "relay/Dockerfile names no node:<major> image in ARG NODE_IMAGE" >&2
  exit 1
fi
node_bin=$(npm exec --yes --package="node@$major" -- node -p process.execPath)
# The `node` package keeps the whole release (bin/, include/) in its platform package beside it.
node_dir=$("$node_bin" -p 'require("path").join(path.dirname(process.execPath), "..", "node_modules", `node-${process.platform}-${process.arch}`)')
abi=$("$node_bin" -p process.versions.modules)
echo "== relay tests on node $("$node_bin" --version) (ABI $abi), from relay/Dockerfile's node:$major"

copy=".run/lts/node-$abi/node_modules/better-sqlite3"
loads() { (cd "$copy" && "$node_bin" -e 'new (require("./"))(":memory:").close()') >/dev/null 2>&1; }
if [ ! -d "$copy" ] || ! loads; then
  rm -rf "$copy"
  mkdir -p "$(dirname "$copy")"
  cp -R node_modules/better-sqlite3 "$copy"
  rm -rf "$copy/build"
  # A prebuilt binary when GitHub answers, else compiled against the release's own headers.
  (cd "$copy" && "$node_bin" ../../../../../node_modules/prebuild-install/bin.js) ||
    (cd "$copy" && "$node_bin" "${npm_config_node_gyp:?run it as npm run test:relay:lts}" rebuild --release --nodedir="$node_dir" -j max)
  loads || { echo "better-sqlite3 does not load on node $major" >&2; exit 1; }
fi

RELAY_SQLITE_PACKAGE="$PWD/$copy" "$node_bin" node_modules/jest/bin/jest.js "$@" --selectProjects relay
