#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check-tool-cycles: the programs' files call each other in one
# direction only, as the module's and the core's (scripts/check-cycles.py,
# Documentation/architecture.md). Each program's files are compiled one
# object a file into BUILD/tool-cycles/<program>, then checked.
set -u
cd "$(dirname "$0")/.." || exit 2
build=${1:-build}/tool-cycles
nl=$(pkg-config --cflags libnl-genl-3.0) || exit 2
rc=0
for prog in hcubectl hcube-mpi hcube-spank libhcube; do
	out=$build/$prog
	rm -rf "$out" && mkdir -p "$out"
	cc=cc
	[ "$prog" = hcube-mpi ] && cc=mpicc
	srcs=(tools/"$prog"/*.c)
	[ "$prog" = hcubectl ] && srcs+=(tools/common/*.c)
	for f in "${srcs[@]}"; do
		if ! "$cc" -std=gnu11 -O2 -c -D_GNU_SOURCE -Iuapi -Itools/common -Itools/include \
			-Imodule/core -Itools/"$prog" -Itools/libhcube $nl \
			-o "$out/$(basename "${f%.c}").o" "$f"; then
			echo "not ok $prog: $f does not compile alone"
			rc=1
		fi
	done
	echo "# $prog"
	scripts/check-cycles.py "$out"/*.o || rc=1
done
exit $rc
