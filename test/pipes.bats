#!/usr/bin/env bats
# Every program whose standard output is a pipe that its reader closes,
# before it starts or while it writes, stops at once (no hang) with
# status 1 and one line naming the broken pipe, and leaves none of its
# other outputs behind.
# Also requires: sps-fake, sps-dedisperse, sps-boxcar (for inputs)

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

bats_require_minimum_version 1.5.0

data=$BATS_TEST_DIRNAME/../../shared/data
broken="stdout: write error: Broken pipe"

setup() {
	cd "$BATS_TEST_TMPDIR" || exit 1
	mkdir out
	cp "$data/parkes_8bit_1.fil" p8.fil
}

# long.fil: 12.8 MB of 8-bit data, 256 channels, 50000 spectra
long() {
	sps-fake -q --nchans 256 --tsamp 100 --tobs 5 -o long.fil
}

# closed TOOL ARG...: run TOOL with its standard output a pipe whose
# reader has gone before it starts (a FIFO opened both ways, then its
# read end closed), within 60 s; sets status and the lines of err
closed() {
	rm -f fifo
	mkfifo fifo
	exec 8<>fifo 9>fifo 8<&-
	status=0
	timeout 60 "$@" >&9 2>err || status=$?
	exec 9>&-
}

# cut_off TOOL ARG...: run TOOL into a reader that takes 1000 bytes and
# exits, within 60 s; sets status (TOOL's) and err.  The tools widen a
# pipe to 1 MB: TOOL must write well over that, or it may finish first.
cut_off() {
	rm -f st
	{ timeout 60 "$@" 2>err && echo 0 >st || echo $? >st; } |
	    head -c 1000 >/dev/null
	status=$(cat st)
}

# stopped TOOL: the status and message of a tool stopped by the pipe,
# and nothing left in out/
stopped() {
	[ "$status" -eq 1 ] || fail "status $status: $(cat err)"
	assert_equal "$(cat err)" "$1: $broken"
	[ -z "$(ls -A out)" ] || fail "left $(ls -A out)"
}

@test "pipes: sps-header, the table and an edit" {
	closed sps-header p8.fil
	stopped sps-header
	closed sps-header --set refdm=3 -q p8.fil
	stopped sps-header
	long
	cut_off sps-header --set refdm=3 -q long.fil
	stopped sps-header
}

@test "pipes: sps-fake, made and injected" {
	closed sps-fake -q --nchans 64 --tobs 4
	stopped sps-fake
	cut_off sps-fake -q --nchans 64 --tobs 4
	stopped sps-fake
	long
	cut_off sps-fake -q --inject long.fil --pulse dm=50,t=1
	stopped sps-fake
}

@test "pipes: sps-filterbank" {
	closed sps-filterbank -q p8.fil
	stopped sps-filterbank
	long
	cut_off sps-filterbank -q long.fil
	stopped sps-filterbank
}

@test "pipes: sps-clean, with its report unwritten" {
	closed sps-clean -q --report out/r.txt p8.fil
	stopped sps-clean
	long
	cut_off sps-clean -q --report out/r.txt long.fil
	stopped sps-clean
}

@test "pipes: sps-cornerturn and sps-tscrunch" {
	closed sps-cornerturn -q p8.fil
	stopped sps-cornerturn
	long
	cut_off sps-cornerturn -q long.fil
	stopped sps-cornerturn
	closed sps-tscrunch -q -t 2 p8.fil
	stopped sps-tscrunch
	cut_off sps-tscrunch -q -t 2 long.fil
	stopped sps-tscrunch
}

@test "pipes: sps-plan" {
	closed sps-plan -q --dm 0 30 p8.fil
	stopped sps-plan
}

@test "pipes: sps-dedisperse, a stream and one trial's series" {
	closed sps-dedisperse -q --dm 0 30 p8.fil
	stopped sps-dedisperse
	long
	cut_off sps-dedisperse -q --dm 0 100 long.fil
	stopped sps-dedisperse
	# 8- and 16-bit streams, written by a thread of their own
	closed sps-dedisperse -q -b 8 --dm 0 30 p8.fil
	stopped sps-dedisperse
	cut_off sps-dedisperse -q -b 8 --dm 0 100 long.fil
	stopped sps-dedisperse
	cut_off sps-dedisperse -q -b 16 --dm 0 100 long.fil
	stopped sps-dedisperse
	# one trial: 2.5 MB
	sps-fake -q --nchans 4 --tsamp 64 --tobs 40 -o thin.fil
	cut_off sps-dedisperse -q -d 10 thin.fil
	stopped sps-dedisperse
}

@test "pipes: sps-boxcar, events and the S/N plane" {
	long
	sps-dedisperse -q --dm 0 20 long.fil >dmt
	closed sps-boxcar -q -s 3 dmt
	stopped sps-boxcar
	# the plane: 8 bytes a trial and sample (events would need a long
	# search to pass 1 MB)
	cut_off sps-boxcar -q --plane dmt
	stopped sps-boxcar
}

@test "pipes: sps-peaks" {
	sps-fake -q --nchans 64 --tobs 4 --pulse dm=50,t=1,snr=20 >f.fil
	sps-dedisperse -q --dm 0 100 f.fil | sps-boxcar -q -s 5 >ev
	[ "$(grep -vc '^#' ev)" -gt 10 ]
	closed sps-peaks -q -s 5 ev
	stopped sps-peaks
}

@test "pipes: sps-search, its candidate files unwritten, in one process and through the pipe" {
	closed sps-search -q --no-clean -s 5 --dm 0 200 -o out p8.fil
	stopped sps-search
	rmdir out && mkdir out
	closed sps-search -q --pipe --no-clean -s 5 --dm 0 200 -o out p8.fil
	[ "$status" -eq 1 ] || fail "status $status: $(cat err)"
	# the stage that met the closed pipe, and which stage it was
	assert_equal "$(cat err)" "sps-peaks: $broken
sps-search: stage failed: sps-peaks exited 1"
	[ -z "$(ls -A out)" ] || fail "left $(ls -A out)"
}
