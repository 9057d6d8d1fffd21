#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build layer: the test kernel, the statically linked selftests and the
# initramfs.
#
# usage: build.sh kernel|qemu|debug|selftests|initramfs|all
#        build.sh qemu          the emulator (harness/qemu-build.sh)
#        build.sh debug         the stress kernel: the test kernel's options
#                               plus config/debug.config, in $BUILD_DEBUG
#        build.sh kunit-args    print the kunit.py arguments shared by
#                               "kunit.py build" here and "kunit.py run"
#                               in test.sh, so both use one build
. "$(dirname "$0")/lib.sh"


kunit_args() {
	local a=(--arch=x86_64 --build_dir="$BUILD" --jobs="$JOBS"
		--make_options "CC=ccache gcc" --make_options "HOSTCC=ccache gcc")
	# The series' own suites first, then the base's, then the boot options.
	[ -f "$SRC/kernel/sched/.kunitconfig" ] && a+=(--kunitconfig "$SRC/kernel/sched/.kunitconfig")
	a+=(--kunitconfig "$HARNESS/config/kunit-base.config")
	a+=(--kunitconfig "$HARNESS/config/boot.config")
	a+=(--kunitconfig "$HARNESS/config/base-$BASE.config")
	local f
	for f in ${KCONFIG_EXTRA:-}; do
		a+=(--kunitconfig "$f")
	done
	printf '%s\0' "${a[@]}"
}

# One kernel build at a time on this machine: builds wait for each other.
build_kernel() {
	local args=() log=$OUT/${1:-kernel}-build.log
	mapfile -d '' args < <(kunit_args)
	mkdir -p "$BUILD" "$OUT"
	msg "building the kernel in $BUILD (log: $log)"
	if ! (cd "$SRC" && flock "$CACHE/build.lock" \
		python3 tools/testing/kunit/kunit.py build "${args[@]}") >"$log" 2>&1; then
		grep -E 'error|Error|ERROR|not in .config|missing' "$log" | head -n 40 >&2
		die "kernel build failed; see $log"
	fi
}

build_selftests() {
	mkdir -p "$SELFTEST_OUT/sched" "$OUT"
	# UAPI headers of this very tree, for the selftests.
	kmake headers >"$OUT/headers.log" 2>&1 || die "make headers failed; see $OUT/headers.log"
	msg "building selftests (static)"
	# lib.mk knows no header dependencies: a changed header rebuilds all.
	local h
	for h in "$SRC"/tools/testing/selftests/sched/*.h; do
		find "$SELFTEST_OUT/sched" -maxdepth 1 -type f ! -newer "$h" -delete
	done
	if ! make -C "$SRC/tools/testing/selftests/sched" OUTPUT="$SELFTEST_OUT/sched" \
		KHDR_INCLUDES="-isystem $BUILD/usr/include" \
		CC="ccache gcc" LDFLAGS=-static \
		>"$OUT/selftests-build.log" 2>&1; then
		tail -n 40 "$OUT/selftests-build.log" >&2
		die "selftest build failed; see $OUT/selftests-build.log"
	fi
}

# The tests of a selftest directory, as "dir:binary" lines.
selftest_list() {
	make -s -C "$SRC/tools/testing/selftests/sched" OUTPUT="$SELFTEST_OUT/sched" \
		COLLECTION=sched emit_tests 2>/dev/null | sed -n 's/^sched:\(.*\)$/sched:\1/p' | sort -u
}

build_initramfs() {
	local stage=$KCACHE/initramfs
	rm -rf "$stage"
	mkdir -p "$stage"/{bin,etc/ipcc,selftests/sched,run/ipcc,root}
	cp /bin/busybox "$stage/bin/busybox"
	cp "$HARNESS/guest/init" "$stage/init"
	cp "$HARNESS"/guest/*.sh "$stage/etc/ipcc/" 2>/dev/null || true
	selftest_list >"$stage/etc/ipcc/tests"
	[ -s "$stage/etc/ipcc/tests" ] || die "no selftests found to run"
	local t
	while read -r t; do
		cp "$SELFTEST_OUT/${t%%:*}/${t#*:}" "$stage/selftests/${t%%:*}/" ||
			die "selftest binary ${t#*:} missing"
	done <"$stage/etc/ipcc/tests"
	# Extra static guest tools (benchmarks) built by other recipes.
	[ -d "$CACHE/build/guest-bin" ] && cp -a "$CACHE/build/guest-bin/." "$stage/bin/"
	(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$INITRAMFS.tmp" &&
		mv "$INITRAMFS.tmp" "$INITRAMFS"
}

case ${1:-all} in
kernel) "$HARNESS/deps.sh" && "$HARNESS/assemble.sh" && build_kernel ;;
selftests) build_selftests ;;
initramfs) build_initramfs ;;
qemu) "$HARNESS/deps.sh" && "$HARNESS/qemu-build.sh" all ;;
debug)
	"$HARNESS/deps.sh" && "$HARNESS/assemble.sh" || exit 1
	"$HARNESS/qemu-build.sh" all || exit 1
	BUILD=$BUILD_DEBUG KCONFIG_EXTRA="$HARNESS/config/debug.config ${KCONFIG_EXTRA:-}" \
		build_kernel kernel-debug
	;;
kunit-args) kunit_args ;;
all)
	"$HARNESS/deps.sh" || exit 1
	"$HARNESS/assemble.sh" || exit 1
	"$HARNESS/qemu-build.sh" all || exit 1
	build_kernel
	build_selftests
	build_initramfs
	;;
*) die "usage: build.sh kernel|qemu|debug|selftests|initramfs|all" ;;
esac
