#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch --strict over every hook patch and every new source file of the
# series, with the assembled tree's own checkpatch; another base's own
# patches (patches/6.12/) with that base's checkpatch.  One case per file:
# any error, warning or check fails it.
# usage: checkpatch.sh LOGDIR
. "$(dirname "$0")/lib.sh"

logdir=${1:-$OUT/checkpatch}
mkdir -p "$logdir"
R="python3 $HARNESS/results.py"
cp=$SRC/scripts/checkpatch.pl
[ -x "$cp" ] || die "no checkpatch in $SRC: assemble first"
rows=0
fails=0

check() {	# name, checkpatch args...
	local name=$1 log cpl=$cp
	shift
	log=$logdir/$(echo "$name" | tr '/' '_').log
	# Another base's own patches: that base's checkpatch (its rules).
	case $name in
	patches/*/*)
		local b=${name#patches/}
		b=${b%%/*}
		if [ "$b" != "$BASE" ]; then
			BASE=$b "$HARNESS/fetch-base.sh" >&2 || return 1
			cpl=$(. "$HARNESS/bases/$b.conf" &&
				echo "$CACHE/base/$BASE_VERSION/$BASE_PKG/scripts/checkpatch.pl")
		fi
		;;
	esac
	(cd "$SRC" && perl "$cpl" --strict --no-summary --color=never "$@") >"$log" 2>&1
	if grep -qE '^(ERROR|WARNING|CHECK):' "$log"; then
		$R case checkpatch "$name" fail >/dev/null
		sed 's/^/    /' "$log" | head -n 30 >&2
		fails=$((fails + 1))
	else
		$R case checkpatch "$name" pass >/dev/null
	fi
	rows=$((rows + 1))
}

# Every base's files: patches/NAME and the per-base patches/BASE/NAME.
for p in $(series_patches); do
	for pf in "$REPO"/patches/"$p" "$REPO"/patches/*/"$p"; do
		[ -f "$pf" ] && check "${pf#"$REPO"/}" "$pf"
	done
done
for pf in "$REPO"/patches/*/backport-*.patch; do
	[ -f "$pf" ] && check "${pf#"$REPO"/}" "$pf"
done
for f in $(series_new_files); do
	case $f in
	*.c | *.h | */Kconfig* | */Makefile) check "$f" -f "$f" ;;
	esac
done
msg "checkpatch: $rows files, $fails with findings"
[ $fails -eq 0 ]
