#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the benchmark's guest tools (static, no dependencies) into
# $CACHE/build/guest-bin/, which harness/build.sh initramfs copies into the
# guest's /bin.  Rebuilds only what changed: a tool is rebuilt when the
# checksum of its source and the shared headers differs from the one it
# was built from (kept in guest-bin.sums/, beside the directory the guest
# gets), not by timestamps, since clones of the
# repository share the cache and an older clone's build is newer than a
# later edit.
#
# usage: bench/build-guest.sh
. "$(dirname "$0")/../harness/lib.sh"

dest=$CACHE/build/guest-bin
sums=$CACHE/build/guest-bin.sums
mkdir -p "$dest" "$sums"
CC=${CC:-gcc}
CFLAGS=${CFLAGS:--static -O2 -Wall -Wextra -Wno-unused-parameter}
# Headers they include: a change rebuilds them all (ipcc-qmp takes its QMP
# client from the selftests).
headers="$REPO/bench/overhead/calib.h $REPO/tools/testing/selftests/sched/ipcc_qmp.h"
for src in "$REPO"/bench/src/*.c "$REPO"/bench/overhead/*.c; do
	bin=$dest/$(basename "$src" .c)
	# shellcheck disable=SC2086
	sum=$( { echo "$CC $CFLAGS"; cat "$src" $headers; } | sha256sum | cut -d' ' -f1)
	sumf=$sums/$(basename "$bin")
	if [ ! -x "$bin" ] || [ "$(cat "$sumf" 2>/dev/null)" != "$sum" ]; then
		msg "guest tool $(basename "$bin")"
		# shellcheck disable=SC2086
		$CC $CFLAGS -o "$bin.tmp" "$src" || die "cannot build $src"
		strip "$bin.tmp" && mv "$bin.tmp" "$bin" && echo "$sum" >"$sumf"
	fi
done
