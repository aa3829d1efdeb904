#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make deb: build hcube-dkms, hcube-tools and libhcube-mpi's two (debian/) with
# dpkg-buildpackage -b in a copy of the source tree, so that the build and
# debian/'s staging directories never touch the tree itself, then run
# lintian on the result. Fails if the build fails or lintian reports an
# error or a warning.
#
# Usage: mkdeb.sh OUT_DIR   (make deb passes build/deb)
# OUT_DIR ends up holding the .debs, the .changes and .buildinfo files,
# build.log (dpkg-buildpackage's output) and lintian.txt. The copy is
# OUT_DIR/src/hcube-VERSION.
set -eu -o pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: mkdeb.sh OUT_DIR}

for tool in dpkg-buildpackage dh dh_dkms lintian fakeroot; do
	command -v "$tool" >/dev/null ||
		{ echo "mkdeb: $tool not found: run 'make deps'" >&2; exit 1; }
done
ver=$(dpkg-parsechangelog -l debian/changelog -S Version)
[ -n "$ver" ] || { echo "mkdeb: no version in debian/changelog" >&2; exit 1; }

rm -rf "$out"
src=$out/src/hcube-$ver
mkdir -p "$src"
out=$(cd "$out" && pwd -P)
src=$out/src/hcube-$ver

# The files git knows (tracked, or new and not ignored) as they are in the
# work tree; without git, everything but build/.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
		tar --null -T - -cf - | tar -xf - -C "$src"
else
	tar --exclude=./build -cf - . | tar -xf - -C "$src"
fi

# The copy builds in a clean environment: make exports the variables of
# its command line (make deb BUILD=... would become the copy's BUILD, and
# its `make clean` would remove it), and CFLAGS, PREFIX or KVER of the
# caller have no business in the packages either.
declare -a keep=(PATH="$PATH" HOME="${HOME:-/root}")
for v in TMPDIR LANG LC_ALL DEB_BUILD_OPTIONS DEB_BUILD_PROFILES; do
	[ -n "${!v+set}" ] && keep+=("$v=${!v}")
done
echo "mkdeb: dpkg-buildpackage -us -uc -b in $src (log: $out/build.log)"
if ! (cd "$src" && env -i "${keep[@]}" dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1; then
	tail -40 "$out/build.log" >&2
	echo "mkdeb: dpkg-buildpackage failed (see $out/build.log)" >&2
	exit 1
fi
mv "$out"/src/*.deb "$out"/src/*.changes "$out"/src/*.buildinfo "$out"/
changes=$(ls "$out"/*.changes)

# lintian's errors and warnings fail the build; its informational tags
# (-I) are shown too. debian/*.lintian-overrides apply.
rc=0
lintian -I --fail-on error,warning "$changes" >"$out/lintian.txt" 2>&1 || rc=$?
cat "$out/lintian.txt"
if [ $rc -ne 0 ]; then
	echo "mkdeb: lintian failed (exit $rc)" >&2
	exit 1
fi
echo "mkdeb: lintian: no error or warning on $(basename "$changes")"
ls -1 "$out"/*.deb
