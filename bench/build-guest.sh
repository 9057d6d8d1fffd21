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
for src in "$REPO"/bench/src/*.c "$REPO"/bench/overhead/*.c; do
	bin=$dest/$(basename "$src" .c)
	if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ] || [ "$REPO/bench/overhead/calib.h" -nt "$bin" ]; then
		msg "guest tool $(basename "$bin")"
		# shellcheck disable=SC2086
		$CC $CFLAGS -o "$bin.tmp" "$src" || die "cannot build $src"
		strip "$bin.tmp" && mv "$bin.tmp" "$bin"
	fi
done
