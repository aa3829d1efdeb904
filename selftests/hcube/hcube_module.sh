# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The module for a shell test, as hcube_module.h has it for the C tests:
# source this file, call hcube_module_need before the test prints anything,
# and hcube_module_restore at exit.
#
# hcube_module_need: the module loaded already is used as it is; else it
# is loaded from HCUBE_KO; without HCUBE_KO the test is skipped (KTAP
# "1..0 # SKIP", exit 4). hcube_module_restore: the module loaded, or not,
# as it was at the start; status 1 when that failed. hcube_module_is KO:
# the loaded hcube is the file KO.

hcube_module_need() {
	hcube_module_was=0
	if [ -d /sys/module/hcube ]; then
		hcube_module_was=1
		return 0
	fi
	if [ -z "${HCUBE_KO-}" ]; then
		printf 'TAP version 13\n1..0 # SKIP hcube is not loaded and HCUBE_KO is not set\n'
		exit 4
	fi
	insmod "$HCUBE_KO" || { printf 'TAP version 13\nBail out! insmod %s failed\n' "$HCUBE_KO"; exit 1; }
}

hcube_module_restore() {
	local now=0

	[ -d /sys/module/hcube ] && now=1
	[ "$now" = "${hcube_module_was-$now}" ] && return 0
	if [ "$now" = 1 ]; then
		rmmod hcube && return 0
	else
		insmod "${HCUBE_KO-}" && return 0
	fi
	echo "# the module could not be put back as it was at the start"
	return 1
}

# hcube_module_is KO: status 0 when the loaded module is the file KO (the
# same GNU build id); the build id of the loaded module goes to
# $hcube_module_id (empty when none is loaded).
hcube_module_is() {
	local want

	want=$(readelf -n "$1" 2>/dev/null | awk '/Build ID:/ { print $3 }')
	hcube_module_id=$(od -An -tx1 -v /sys/module/hcube/notes/.note.gnu.build-id 2>/dev/null |
		tr -d ' \n' | cut -c33-)
	[ -n "$want" ] && [ "$want" = "$hcube_module_id" ]
}
