#!/usr/bin/env bash
# `npm run test:relay:lts [-- test files]`: the relay's tests on the Node of its container image (the major
# version of relay/Dockerfile's NODE_IMAGE), fetched from the npm registry. better-sqlite3
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
# The newest release of that line, as the npm registry ships it: the `node-<platform>-<arch>` package holds the
# whole release (bin/node, include/node for building addons). Unpacked under .run/lts/, kept for later runs.
platform_package=$(node -p '`node-${process.platform}-${process.arch}`')
version=$(npm view "$platform_package@$major" version --json |
  node -e 'const v = [].concat(JSON.parse(require("fs").readFileSync(0, "utf8"))); console.log(v.sort((a, b) => a.localeCompare(b, "en", { numeric: true })).pop())')
node_dir="$PWD/.run/lts/$platform_package-$version"
node_bin="$node_dir/bin/node"
if [ ! -x "$node_bin" ]; then
  mkdir -p "$node_dir"
  tarball=$(npm pack "$platform_package@$version" --pack-destination "$node_dir" --silent)
  tar -xzf "$node_dir/$tarball" -C "$node_dir" --strip-components=1
  rm "$node_dir/$tarball"
fi
abi=$("$node_bin" -p process.versions.modules)
echo "== relay tests on node $("$node_bin" --version) (ABI $abi), from relay/Dockerfile's node:$major"

copy=".run/lts/node-$abi/node_modules/better-sqlite3"
loads() { (cd "$copy" && "$node_bin" -e 'new (require("./"))(":memory:").close()') >/dev/null 2>&1; }
if [ ! -d "$copy" ] || ! loads; then
  rm -rf "$copy"
  mkdir -p "$(dirname "$copy")"
  cp -R node_modules/better-sqlite3 "$copy"
  rm -rf "$copy/build"
  # A prebuilt binary when GitHub answers, else compiled against the release's own headers (an npm config
  # `nodedir`, as on machines whose Node came from a distribution, would point node-gyp at another Node's).
  (cd "$copy" && "$node_bin" ../../../../../node_modules/prebuild-install/bin.js) ||
    (cd "$copy" && npm_config_nodedir="$node_dir" "$node_bin" "${npm_config_node_gyp:?run it as npm run test:relay:lts}" \
      rebuild --release --nodedir="$node_dir" -j max)
  loads || { echo "better-sqlite3 does not load on node $major" >&2; exit 1; }
fi

RELAY_SQLITE_PACKAGE="$PWD/$copy" "$node_bin" node_modules/jest/bin/jest.js "${@:-test/relay}"
