#!/usr/bin/env bats
# Every tool that writes files, stopped mid-run by SIGTERM, SIGINT or
# SIGHUP, or by a failure, leaves nothing behind: no temporary file, no
# output that looks finished; a signal ends it with status 128 + signal.
# The input comes through a FIFO held open, so each tool is stopped while
# it waits for more data, its outputs open.
# Also requires: sps-fake, sps-dedisperse, sps-boxcar (for inputs)

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

bats_require_minimum_version 1.5.0

data=$BATS_TEST_DIRNAME/../../shared/data

setup() {
	cd "$BATS_TEST_TMPDIR" || exit 1
	mkdir out
}

# stop SIGNAL INPUT TOOL ARG...: run TOOL ARG... reading the FIFO in,
# which gets INPUT's bytes and stays open (INPUT "none": a tool that
# reads nothing); once the tool has an output open (or after 1.5 s),
# send SIGNAL, then check the status and that out/ is empty
stop() {
	local sig=$1 input=$2 pid status=0 i num

	shift 2
	num=$(kill -l "$sig")
	mkfifo in
	set -m	# a job of its own: SIGINT is not ignored in the background
	"$@" 2>err &
	pid=$!
	if [ "$input" != none ]; then
		exec 7>in
		cat "$input" >&7
	else
		exec 7<>in
	fi
	for ((i = 0; i < 30; i++)); do
		[ -n "$(ls -A out)" ] && break
		sleep 0.05
	done
	kill -"$sig" "$pid"
	wait "$pid" || status=$?
	exec 7>&-
	set +m
	[ "$status" -eq $((128 + num)) ] ||
	    fail "$1 $sig: status $status, not $((128 + num)): $(cat err)"
	[ -z "$(ls -A out)" ] || fail "$1 $sig: left $(ls -A out)"
	rm -f in
}

# Whether this shell was started with signal $1 (a number) ignored, as
# under nohup: its children then ignore it too (a tool respects that, as
# nohup means), and a non-interactive shell cannot undo it.
ignored() {
	local mask

	mask=$(awk '/^SigIgn:/ { print $2 }' /proc/$$/status 2>/dev/null) ||
	    return 1
	[ -n "$mask" ] && (( (16#$mask >> ($1 - 1)) & 1 ))
}

# each_signal INPUT TOOL ARG...: stop with each signal (not with one the
# test runs under nohup-like ignoring)
each_signal() {
	local sig

	for sig in TERM INT HUP; do
		ignored "$(kill -l "$sig")" && continue
		stop "$sig" "$@"
	done
}

@test "abort: sps-filterbank -o" {
	each_signal "$data/parkes_8bit_1.fil" sps-filterbank -o out/x.fil in
}

@test "abort: sps-tscrunch -o" {
	each_signal "$data/parkes_8bit_1.fil" sps-tscrunch -t 2 -o out/x.fil in
}

@test "abort: sps-cornerturn -o" {
	each_signal "$data/parkes_8bit_1.fil" sps-cornerturn --to channel \
	    -o out/x.fil in
}

@test "abort: sps-fake --inject -o" {
	each_signal "$data/parkes_8bit_1.fil" sps-fake --inject in \
	    --pulse dm=50,t=1 -o out/x.fil
}

@test "abort: sps-fake --inject --rfi -o" {
	each_signal "$data/parkes_8bit_1.fil" sps-fake --inject in \
	    --rfi impulse,rate=2,snr=30 -o out/x.fil
}

@test "abort: sps-fake -o, making data" {
	each_signal none sps-fake -q --nchans 256 --tsamp 64 --tobs 60 -o out/x.fil
}

# sps-plan needs only the header: stopped while it waits for the rest
@test "abort: sps-plan -o" {
	head -c 100 "$data/parkes_8bit_1.fil" >part
	each_signal part sps-plan --dm 0 30 -o out/plan in
}

@test "abort: sps-clean -o and --report" {
	each_signal "$data/parkes_8bit_1.fil" sps-clean --report out/r.txt \
	    -o out/x.fil in
}

@test "abort: sps-header --set -o" {
	each_signal "$data/parkes_8bit_1.fil" sps-header --set refdm=3 \
	    -o out/x.fil in
}

@test "abort: sps-dedisperse -o PREFIX, every trial's file" {
	each_signal "$data/parkes_8bit_1.fil" sps-dedisperse --dm 0 30 \
	    -o out/x in
	each_signal "$data/parkes_8bit_1.fil" sps-dedisperse --dm 0 30 \
	    --presto -o out/x in
}

@test "abort: sps-boxcar -o, events and plane" {
	sps-dedisperse -q --dm 0 30 "$data/parkes_8bit_1.fil" >dmt
	each_signal dmt sps-boxcar -o out/ev in
	each_signal dmt sps-boxcar --plane -o out/plane in
}

@test "abort: sps-peaks -o and --per-dm" {
	sps-fake -q --nchans 64 --tobs 4 --pulse dm=50,t=1,snr=20 >f.fil
	sps-dedisperse -q --dm 0 100 f.fil | sps-boxcar -q -s 5 >ev
	each_signal ev sps-peaks -s 5 -o out/c in
	each_signal ev sps-peaks -s 5 --per-dm out/c in
}

# a failure (here the input cut short) takes the same way out
@test "abort: a failed run leaves no file either" {
	head -c 2000000 "$data/parkes_8bit_1.fil" >cut.fil
	printf 'HEADER_START' >bad.fil
	run -1 sps-dedisperse --dm 0 30 -o out/x bad.fil
	run -1 sps-filterbank -o out/x.fil bad.fil
	sps-dedisperse -q --dm 0 30 "$data/parkes_8bit_1.fil" >dmt
	head -c 400000 dmt >cut.dmt
	run -1 sps-boxcar -o out/ev cut.dmt
	[ -z "$(ls -A out)" ] || fail "left $(ls -A out)"
}

@test "abort: sps-search -o DIR, in one process and through the pipe" {
	each_signal "$data/parkes_8bit_1.fil" sps-search --dm 0 30 -o out in
	each_signal "$data/parkes_8bit_1.fil" sps-search --pipe --dm 0 30 \
	    -o out in
}
