#!/usr/bin/env bash
# Build one pinned Go server and print the path of its binary on stdout.
#   bash scripts/testbed/build-go.sh ferretdb|pssim|toxiproxy|jaeger
# The binary is cached in $DBPROBE_CACHE_DIR/bin/<name>-<version>/, outside
# the repo, so only the first run on a machine pays the minutes of building.
#
# Why not `go install mod@version`: the module proxy reachable here refuses
# the version list (403). `go mod download -json MOD@VER` works; we copy the
# module's Dir somewhere writable and `go build` inside it, which also uses
# the module's own go.sum.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$HERE/lib.sh"

name=${1:?usage: build-go.sh ferretdb|pssim|toxiproxy|jaeger}
# tool=1: the module's go.mod has replace directives, so neither `go install` nor a build inside
# its own Dir works; it builds as a tool of a scratch module instead (`go get -tool`).
tool=0
case "$name" in
  ferretdb) mod=github.com/FerretDB/FerretDB ver=v1.24.0 pkg=./cmd/ferretdb out=ferretdb est='about 2 min' ;;
  pssim) mod=github.com/mattrobenolt/ps-http-sim ver=v0.0.12 pkg=. out=ps-http-sim est='about 1 min' ;;
  toxiproxy) mod=github.com/Shopify/toxiproxy/v2 ver=v2.12.0 pkg=./cmd/server out=toxiproxy-server est='about 30 s' ;;
  jaeger) mod=github.com/jaegertracing/jaeger ver=v1.76.0 pkg=github.com/jaegertracing/jaeger/cmd/jaeger out=jaeger tool=1 est='about 9 min' ;;
  *) die "build-go.sh: unknown server '$name'" ;;
esac
ldflags=""
# toxiproxy's GET /version answers "git" unless the release version is linked in.
[ "$name" = toxiproxy ] && ldflags="-X github.com/Shopify/toxiproxy/v2.Version=${ver#v}"

bin="$TB_CACHE/bin/$name-$ver/$out"
if [ -x "$bin" ]; then
  printf '%s\n' "$bin"
  exit 0
fi

if ! command -v go >/dev/null 2>&1; then
  [ -x /usr/local/go/bin/go ] && PATH="/usr/local/go/bin:$PATH"
fi
command -v go >/dev/null 2>&1 || die "Go is needed to build $name $ver (Debian's golang is too old); none on PATH"

# Everything Go writes (module cache, build cache) stays under the cache dir;
# -modcacherw so the cache can be deleted without chmod; GOTOOLCHAIN=local so
# a go directive never triggers a toolchain download.
export GOPATH="$TB_CACHE/go" GOCACHE="$TB_CACHE/go-build" GOMODCACHE="$TB_CACHE/go/pkg/mod"
export GOFLAGS="-modcacherw -buildvcs=false" GOTOOLCHAIN=local
mkdir -p "$TB_CACHE/bin" "$TB_CACHE/src"

# Two testbeds (different DBPROBE_TESTBED_DIR) may share one cache.
exec 8>>"$TB_CACHE/build.lock"
flock -w 1800 8 || die "could not lock $TB_CACHE/build.lock"
if [ -x "$bin" ]; then # built by someone else while we waited
  printf '%s\n' "$bin"
  exit 0
fi

buildlog="$TB_CACHE/build-$name-$ver.log"
log "building $name $ver from $mod (first run on this machine only, $est; log: $buildlog)"
start=$SECONDS

src="$TB_CACHE/src/$name-$ver"
rm -rf "$src"
if [ "$tool" = 1 ]; then
  mkdir -p "$src"
  (cd "$src" && go mod init "dbprobe-testbed/$name" && go get -tool "$pkg@$ver") </dev/null >>"$buildlog" 2>&1 ||
    die_with_log "$buildlog" "go get -tool $pkg@$ver failed"
else
  json=$(go mod download -json "$mod@$ver" 2>>"$buildlog") ||
    die_with_log "$buildlog" "go mod download $mod@$ver failed"
  dir=$(printf '%s\n' "$json" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')
  [ -n "$dir" ] && [ -d "$dir" ] || die "go mod download $mod@$ver gave no Dir: $json"
  cp -r "$dir" "$src"
  chmod -R u+w "$src"
fi

if [ "$name" = ferretdb ]; then
  # FerretDB embeds build/version/version.txt; the module zip has none and
  # the binary panics at start without it.
  mkdir -p "$src/build/version"
  printf '%s\n' "$ver" >"$src/build/version/version.txt"
fi

# A heartbeat on stderr so a CI log shows the build is alive. Short sleeps so
# that nothing outlives the build by more than a second.
(
  n=0
  while sleep 1; do
    n=$((n + 1))
    [ $((n % 20)) -eq 0 ] && log "  still building $name ($n s)"
  done
) >&2 </dev/null &
hb=$!
rc=0
(cd "$src" && go build -trimpath -ldflags="$ldflags" -o "$bin.tmp" "$pkg") </dev/null >>"$buildlog" 2>&1 || rc=$?
kill "$hb" 2>/dev/null || true
wait "$hb" 2>/dev/null || true
[ "$rc" -eq 0 ] || die_with_log "$buildlog" "go build of $name $ver failed (exit $rc)"

mv "$bin.tmp" "$bin"
rm -rf "$src"
log "built $name $ver in $((SECONDS - start)) s -> $bin"
printf '%s\n' "$bin"
