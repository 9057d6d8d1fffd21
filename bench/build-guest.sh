#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the benchmark's guest tools (static, no dependencies) into
# $CACHE/build/guest-bin/, which harness/build.sh initramfs copies into the
# guest's /bin.  Rebuilds only what changed.
#
# usage: bench/build-guest.sh
. "$(dirname "$0")/../harness/lib.sh"

dest=$CACHE/build/guest-bin
mkdir -p "$dest"
CC=${CC:-gcc}
CFLAGS=${CFLAGS:--static -O2 -Wall -Wextra -Wno-unused-parameter}
# Headers they include: a change rebuilds them all (ipcc-qmp takes its QMP
# client from the selftests).
headers="$REPO/bench/overhead/calib.h $REPO/tools/testing/selftests/sched/ipcc_qmp.h"
for src in "$REPO"/bench/src/*.c "$REPO"/bench/overhead/*.c; do
	bin=$dest/$(basename "$src" .c)
	stale=
	for h in $headers; do
		[ "$h" -nt "$bin" ] && stale=1
	done
	if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ] || [ -n "$stale" ]; then
		msg "guest tool $(basename "$bin")"
		# shellcheck disable=SC2086
		$CC $CFLAGS -o "$bin.tmp" "$src" || die "cannot build $src"
		strip "$bin.tmp" && mv "$bin.tmp" "$bin"
	fi
done
