#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build hcube.ko for another kernel (PREEMPT_RT, the debug kernel) from a
# copy of the sources: Kbuild writes its objects next to them, so the
# regular build in the repository stays untouched.
# Usage: build-module-for.sh KVER OUTDIR [VAR=VALUE...]
#   (prints the path of the module; VAR=VALUE go to Kbuild, e.g. make
#   bench's HCUBE_BENCH_PHASES=y)
set -euo pipefail
kver=$1
out=$2
shift 2
kdir=/lib/modules/$kver/build
[ -e "$kdir/Makefile" ] || { echo "build-module-for: no kernel tree at $kdir" >&2; exit 1; }
cd "$(dirname "$0")/.."
rm -rf "$out/src"
mkdir -p "$out/src"
tar cf - Kbuild $(find module uapi -name '*.[ch]' -o -name '*.mk') | tar xf - -C "$out/src"
make -s --no-print-directory -C "$kdir" M="$(realpath "$out/src")" "$@" modules >&2
cp "$out/src/hcube.ko" "$out/hcube.ko"
echo "$out/hcube.ko"
