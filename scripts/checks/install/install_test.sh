#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make install / make uninstall into a temporary DESTDIR (make check-install):
# the persistent set-up too (the unit with the paths of PREFIX, the udev
# rule, the examples; hcube.conf only when absent, removed only unchanged);
# with PREFIX=/usr and with the default PREFIX, every file lands where it
# should, with its mode and content (libhcube-mpi's and the SPANK
# plugin's too); the installed header compiles on its own, the installed
# tools run, the man pages open with man -l, and the installed completion
# passes completion_test.sh; then uninstall leaves no file behind. Prints
# TAP.
# Usage: install_test.sh [BUILD_DIR]
set -u
cd "$(dirname "$0")/../../.." || exit 1
B=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fails=0

ok() { n=$((n + 1)); echo "ok $n $1"; }
not_ok() {
	n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n $1"
	[ -s "$tmp/log" ] && tail -20 "$tmp/log" | sed 's/^/#   /'
	return 0
}
step() {
	local name=$1
	shift
	if "$@" >"$tmp/log" 2>&1; then ok "$name"; else not_ok "$name"; fi
}

# want PATH MODE SOURCE: an installed file
want() {
	local f=$1 mode=$2 src=$3 got
	got=$(stat -c %a "$f" 2>/dev/null)
	if [ "$got" = "$mode" ] && cmp -s "$f" "$src"; then
		ok "installed ${f#"$dest"} (mode $mode)"
	else
		not_ok "installed ${f#"$dest"}: mode '${got:-missing}', want $mode, same as $src"
	fi
}

echo "TAP version 13"
for prefix in /usr ""; do
	dest=$tmp/root
	rm -rf "$dest"
	args=(DESTDIR="$dest" BUILD="$B")
	[ -n "$prefix" ] && args+=(PREFIX="$prefix")
	p=${prefix:-/usr/local}
	echo "# PREFIX=${prefix:-(default: /usr/local)}"
	step "make install DESTDIR=<tmp>${prefix:+ PREFIX=$prefix}" \
		make -s --no-print-directory install "${args[@]}"
	want "$dest$p/sbin/hcubectl" 755 "$B/hcubectl"
	want "$dest$p/bin/hcube-sim" 755 "$B/hcube-sim"
	want "$dest$p/share/man/man8/hcubectl.8" 644 Documentation/man/hcubectl.8
	want "$dest$p/share/man/man1/hcube-sim.1" 644 Documentation/man/hcube-sim.1
	want "$dest$p/share/bash-completion/completions/hcubectl" 644 \
		tools/hcubectl/hcubectl.bash-completion
	want "$dest$p/include/linux/hcube.h" 644 uapi/linux/hcube.h
	# the persistent set-up: /etc for PREFIX=/usr, else PREFIX/etc
	etc=$p/etc
	[ "$p" = /usr ] && etc=/etc
	printf '%s\n' "ExecStart=$p/sbin/hcubectl apply $etc/hcube/hcube.conf" \
		"ConditionPathExists=$etc/hcube/hcube.conf" >"$tmp/unit-lines"
	sed -e "s|@SBINDIR@|$p/sbin|g" -e "s|@SYSCONFDIR@|$etc|g" \
		tools/hcubectl/systemd/hcube.service.in >"$tmp/hcube.service"
	if grep -qxF -f "$tmp/unit-lines" "$tmp/hcube.service" &&
	   [ "$(grep -cxF -f "$tmp/unit-lines" "$tmp/hcube.service")" = 2 ] && ! grep -q @ "$tmp/hcube.service"; then
		ok "the unit runs $p/sbin/hcubectl apply $etc/hcube/hcube.conf"
	else
		cp "$tmp/hcube.service" "$tmp/log"
		not_ok "the unit's paths"
	fi
	want "$dest/lib/systemd/system/hcube.service" 644 "$tmp/hcube.service"
	sed -e "s|@SBINDIR@|$p/sbin|g" tools/hcubectl/systemd/hcube-metrics.service.in \
		>"$tmp/hcube-metrics.service"
	if grep -qx "ExecStart=$p/sbin/hcubectl metrics --textfile /var/lib/prometheus/node-exporter" \
		"$tmp/hcube-metrics.service" && ! grep -q @ "$tmp/hcube-metrics.service"; then
		ok "the metrics unit runs $p/sbin/hcubectl metrics into node_exporter's directory"
	else
		cp "$tmp/hcube-metrics.service" "$tmp/log"
		not_ok "the metrics unit's paths"
	fi
	want "$dest/lib/systemd/system/hcube-metrics.service" 644 "$tmp/hcube-metrics.service"
	want "$dest/lib/udev/rules.d/60-hcube.rules" 644 tools/hcubectl/systemd/60-hcube.rules
	want "$dest$p/share/doc/hcube/hcube.conf.example" 644 tools/hcubectl/hcube.conf.example
	want "$dest$p/share/doc/hcube/modules-load.d-hcube.conf" 644 tools/hcubectl/systemd/modules-load.conf
	want "$dest$p/share/doc/hcube/modprobe.d-hcube.conf" 644 tools/hcubectl/systemd/modprobe.conf
	want "$dest$etc/hcube/hcube.conf" 644 tools/hcubectl/hcube.conf.example
	# libhcube-mpi: the header, both libraries, the link, hcube-mpi.pc
	want "$dest$p/include/hcube_mpi.h" 644 tools/hcube-mpi/hcube_mpi.h
	want "$dest$p/lib/libhcube-mpi.a" 644 "$B/hcube-mpi/libhcube-mpi.a"
	want "$dest$p/lib/libhcube-mpi.so.1" 644 "$B/hcube-mpi/libhcube-mpi.so.1"
	if [ "$(readlink "$dest$p/lib/libhcube-mpi.so")" = libhcube-mpi.so.1 ]; then
		ok "installed $p/lib/libhcube-mpi.so -> libhcube-mpi.so.1"
	else
		not_ok "installed $p/lib/libhcube-mpi.so -> libhcube-mpi.so.1"
	fi
	if grep -qx "libdir=$p/lib" "$dest$p/lib/pkgconfig/hcube-mpi.pc" &&
	   grep -qx "includedir=$p/include" "$dest$p/lib/pkgconfig/hcube-mpi.pc"; then
		ok "installed $p/lib/pkgconfig/hcube-mpi.pc names $p/lib and $p/include"
	else
		not_ok "installed $p/lib/pkgconfig/hcube-mpi.pc names $p/lib and $p/include"
	fi
	# the SPANK plugin in Slurm's plugin directory under PREFIX, and its
	# plugstack.conf line, naming it there, as an example
	spankdir=$p/lib/$(cc -print-multiarch)/slurm-wlm
	want "$dest$spankdir/hcube.so" 644 "$B/hcube-spank/hcube.so"
	sed "s|@SPANKDIR@|$spankdir|" tools/hcube-spank/plugstack.conf.in >"$tmp/plugstack.conf"
	want "$dest$p/share/doc/hcube/plugstack.conf.d-hcube.conf" 644 "$tmp/plugstack.conf"
	want "$dest$p/lib/hcube/hcube-slurm-health" 755 tools/hcube-spank/hcube-slurm-health
	if grep -qx "optional $spankdir/hcube.so" "$tmp/plugstack.conf"; then
		ok "the plugstack.conf line names $spankdir/hcube.so"
	else
		not_ok "the plugstack.conf line names $spankdir/hcube.so"
	fi
	count=$(find "$dest" -type f | wc -l)
	if [ "$count" -eq 20 ]; then ok "20 files installed"; else not_ok "$count files installed, want 20"; fi

	if [ "$prefix" = /usr ]; then
		printf '#include <linux/hcube.h>\nint main(void) { return HCUBE_FAMILY_VERSION != 1 + 0 * HCUBE_CMD_MAX; }\n' >"$tmp/t.c"
		step "the installed header compiles alone" \
			cc -Wall -Werror -I"$dest$p/include" -o "$tmp/t" "$tmp/t.c"
		printf '#include <hcube_mpi.h>\nint main(void) { return hcube_mpi_strerror(HCUBE_MPI_OK) == 0; }\n' >"$tmp/m.c"
		# shellcheck disable=SC2046
		step "the installed hcube_mpi.h compiles alone (with Open MPI's flags)" \
			cc -Wall -Werror $(pkg-config --cflags ompi-c) -I"$dest$p/include" -c -o "$tmp/m.o" "$tmp/m.c"
		step "installed hcubectl --version" "$dest$p/sbin/hcubectl" --version
		step "installed hcube-sim --help" "$dest$p/bin/hcube-sim" --help
		for page in man8/hcubectl.8 man1/hcube-sim.1; do
			MANWIDTH=80 man --warnings -l "$dest$p/share/man/$page" >"$tmp/man" 2>"$tmp/log"
			if [ ! -s "$tmp/log" ] && grep -q NAME "$tmp/man"; then
				ok "man -l $page: no warning"
			else
				not_ok "man -l $page"
			fi
		done
		# the installed example applies: every line is commented out
		if grep -v '^#' "$dest$etc/hcube/hcube.conf" | grep -q '[^[:space:]]'; then
			not_ok "the installed hcube.conf sets nothing until edited"
		else
			ok "the installed hcube.conf sets nothing until edited"
		fi
		sed -n 's/^#\(mode cpu\|policy\|auto\|threshold\|cooldown\|fault cpu\)/\1/p' \
			"$dest$etc/hcube/hcube.conf" >"$tmp/uncommented.conf"
		if HCUBE_FAKE_STATE=$tmp/fstate HCUBE_FAKE_DIM=3 HCUBE_FAKE_FAULTY= \
		   LD_PRELOAD=$(readlink -f "$B/hcubectl-test/fakekernel.so") \
		   "$dest$p/sbin/hcubectl" apply --dry-run "$tmp/uncommented.conf" >"$tmp/log" 2>&1 &&
		   grep -q 'changes to make' "$tmp/log"; then
			ok "the example's lines, uncommented, are a valid configuration"
		elif [ ! -e "$B/hcubectl-test/fakekernel.so" ]; then
			echo "# no $B/hcubectl-test/fakekernel.so (make -C selftests/hcubectl all)" >"$tmp/log"
			not_ok "the example's lines, uncommented: no fake kernel to apply them to"
		else
			not_ok "the example's lines, uncommented, are a valid configuration"
		fi
		if scripts/checks/install/completion_test.sh \
			"$dest$p/share/bash-completion/completions/hcubectl" \
			"$dest$p/sbin/hcubectl" >"$tmp/log" 2>&1; then
			ok "installed completion: $(tail -1 "$tmp/log" | sed 's/^# //')"
		else
			grep -A1 '^not ok' "$tmp/log" >"$tmp/log2"; mv "$tmp/log2" "$tmp/log"
			not_ok "installed completion"
		fi
	fi

	# an edited configuration survives install and uninstall
	echo "fault cpu 5" >>"$dest$etc/hcube/hcube.conf"
	cp "$dest$etc/hcube/hcube.conf" "$tmp/edited"
	step "make install again" make -s --no-print-directory install "${args[@]}"
	if cmp -s "$tmp/edited" "$dest$etc/hcube/hcube.conf"; then
		ok "install keeps an edited $etc/hcube/hcube.conf"
	else
		not_ok "install keeps an edited $etc/hcube/hcube.conf"
	fi
	step "make uninstall" make -s --no-print-directory uninstall "${args[@]}"
	left=$(find "$dest" -type f -o -type l)
	if [ "$left" = "$dest$etc/hcube/hcube.conf" ] && cmp -s "$tmp/edited" "$left"; then
		ok "uninstall left only the edited $etc/hcube/hcube.conf"
	else
		printf '%s\n' "$left" >"$tmp/log"
		not_ok "uninstall left only the edited configuration"
	fi
	rm -f "$dest$etc/hcube/hcube.conf"
	step "make install, then uninstall with the configuration untouched" \
		make -s --no-print-directory install "${args[@]}"
	step "make uninstall" make -s --no-print-directory uninstall "${args[@]}"
	left=$(find "$dest" -type f -o -type l)
	if [ -z "$left" ]; then
		ok "uninstall left no file"
	else
		printf '%s\n' "$left" >"$tmp/log"
		not_ok "uninstall left files"
	fi
done
echo "1..$n"
echo "# install: $((n - fails)) passed, $fails failed"
[ $fails -eq 0 ]
