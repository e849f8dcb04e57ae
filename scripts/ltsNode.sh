# Sourced by the scripts that run the tests: the Node the tests run on and the native addon built for it.
#
# The tests run on the Node of the relay's container image (the major version of relay/Dockerfile's NODE_IMAGE),
# a supported LTS, whatever Node the machine has (Node 20's support ended in April 2026). The npm registry ships
# each release as a package (`node-<platform>-<arch>`: bin/node and include/node for building addons); it is
# unpacked under .run/lts/ once and used from there by later runs, which ask the registry nothing.

# Prints the path of that Node's binary, fetching the newest release of its line when none is unpacked yet.
lts_node() {
  local major platform_package node_dir version tarball
  major=$(sed -n 's/^ARG NODE_IMAGE=node:\([0-9][0-9]*\).*/\1/p' relay/Dockerfile)
  if [ -z "$major" ]; then
    echo "relay/Dockerfile names no node:<major> image in ARG NODE_IMAGE" >&2
    return 1
  fi
  platform_package=$(node -p '`node-${process.platform}-${process.arch}`')
  node_dir=$(ls -d ".run/lts/$platform_package-$major".* 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -z "$node_dir" ] || [ ! -x "$node_dir/bin/node" ]; then
    version=$(npm view "$platform_package@$major" version --json |
      node -e 'const v = [].concat(JSON.parse(require("fs").readFileSync(0, "utf8"))); console.log(v.sort((a, b) => a.localeCompare(b, "en", { numeric: true })).pop())')
    node_dir=".run/lts/$platform_package-$version"
    echo "== fetching node $version ($platform_package) from the npm registry into $node_dir" >&2
    mkdir -p "$node_dir"
    tarball=$(npm pack "$platform_package@$version" --pack-destination "$node_dir" --silent)
    tar -xzf "$node_dir/$tarball" -C "$node_dir" --strip-components=1
    rm "$node_dir/$tarball"
  fi
  echo "$PWD/$node_dir/bin/node"
}

# Prints the path of a copy of better-sqlite3 built for the Node at $1, building it the first time. node_modules'
# own copy is built for the Node that installed it, and is never rebuilt in place: its files may be hard links
# shared with other checkouts.
lts_sqlite() {
  local node_bin=$1 node_dir abi copy
  node_dir=$(dirname "$(dirname "$node_bin")")
  abi=$("$node_bin" -p process.versions.modules)
  copy=".run/lts/node-$abi/node_modules/better-sqlite3"
  if [ ! -d "$copy" ] || ! sqlite_loads "$node_bin" "$copy"; then
    echo "== building better-sqlite3 for node $("$node_bin" --version) (ABI $abi) in $copy" >&2
    rm -rf "$copy"
    mkdir -p "$(dirname "$copy")"
    cp -R node_modules/better-sqlite3 "$copy"
    rm -rf "$copy/build"
    # A prebuilt binary when GitHub answers, else compiled against the release's own headers (an npm config
    # `nodedir`, as on machines whose Node came from a distribution, would point node-gyp at another Node's).
    (cd "$copy" && "$node_bin" ../../../../../node_modules/prebuild-install/bin.js) >&2 ||
      (cd "$copy" && npm_config_nodedir="$node_dir" "$node_bin" "${npm_config_node_gyp:?run the tests through npm (npm test)}" \
        rebuild --release --nodedir="$node_dir" -j max) >&2
    sqlite_loads "$node_bin" "$copy" || {
      echo "better-sqlite3 does not load on node $("$node_bin" --version)" >&2
      return 1
    }
  fi
  echo "$PWD/$copy"
}

sqlite_loads() {
  (cd "$2" && "$1" -e 'new (require("./"))(":memory:").close()') >/dev/null 2>&1
}
