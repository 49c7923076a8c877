#!/usr/bin/env bats
# sps-tscrunch: sums in time and frequency against the plain loops of
# aux-sum (test/aux-sum.c), the output header, and bad input.
# Also uses: aux-sum, sps-header, sps-fake, sps-cornerturn, cmp.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

bats_require_minimum_version 1.5.0

data="$BATS_TEST_DIRNAME/../../shared/data"

need() {
	command -v "$1" >/dev/null || skip "$1 is not built"
}

# Compare sps-tscrunch ARGS on FILE with aux-sum AUXARGS on FILE.
same_as_aux() {
	local file=$1 args=$2 auxargs=$3
	sps-tscrunch -q $args "$file" -o "$BATS_TEST_TMPDIR/out.fil"
	aux-sum $auxargs "$file" > "$BATS_TEST_TMPDIR/expect"
	aux-sum "$BATS_TEST_TMPDIR/out.fil" > "$BATS_TEST_TMPDIR/actual"
	[ -s "$BATS_TEST_TMPDIR/expect" ]
	cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/actual"
}

@test "sps-tscrunch: -t 1 is the identity (header values and data bytes)" {
	need sps-header
	local f hdr
	for f in "$data/parkes_1bit.fil" "$data/parkes_4bit.fil" "$data/src1_small.fil"; do
		sps-tscrunch -q -t 1 "$f" -o "$BATS_TEST_TMPDIR/out.fil"
		sps-header --json "$f" > "$BATS_TEST_TMPDIR/expect"
		sps-header --json "$BATS_TEST_TMPDIR/out.fil" > "$BATS_TEST_TMPDIR/actual"
		cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/actual"
		hdr=$(sps-header --headersize "$f")
		cmp <(tail -c +"$((hdr + 1))" "$f") \
		    <(tail -c +"$((hdr + 1))" "$BATS_TEST_TMPDIR/out.fil")
	done
}

@test "sps-tscrunch: -t 4 equals the explicit sum (8-bit in, 16-bit out)" {
	same_as_aux "$data/parkes_8bit_1.fil" "-t 4" "-t 4"
	[ "$(sps-header --nbits "$BATS_TEST_TMPDIR/out.fil")" = 16 ]
}

@test "sps-tscrunch: -t 3 of 2-bit data equals the explicit sum, tail dropped" {
	same_as_aux "$data/parkes_2bit.fil" "-t 3" "-t 3"
	[ "$(sps-header --nsamples "$BATS_TEST_TMPDIR/out.fil")" = 1365 ]
	[ "$(sps-header --nbits "$BATS_TEST_TMPDIR/out.fil")" = 4 ]
}

@test "sps-tscrunch: -f 4 equals the explicit channel sum" {
	same_as_aux "$data/parkes_1bit.fil" "-f 4" "-f 4"
	[ "$(sps-header --nbits "$BATS_TEST_TMPDIR/out.fil")" = 4 ]
}

@test "sps-tscrunch: -t 5 -f 8 together equal the explicit sum" {
	same_as_aux "$data/parkes_4bit.fil" "-t 5 -f 8" "-t 5 -f 8"
}

@test "sps-tscrunch: 32-bit data summed equals the explicit sum" {
	need sps-fake
	sps-fake -q --nbits 32 --nchans 48 --nsamples 999 --seed 7 \
	    -o "$BATS_TEST_TMPDIR/f32.fil"
	same_as_aux "$BATS_TEST_TMPDIR/f32.fil" "-t 7 -f 3" "-t 7 -f 3"
}

@test "sps-tscrunch: --mean keeps nbits, rounding to the nearest" {
	same_as_aux "$data/parkes_8bit_1.fil" "--mean -t 3 -f 2" "-m -r -t 3 -f 2"
	[ "$(sps-header --nbits "$BATS_TEST_TMPDIR/out.fil")" = 8 ]
}

@test "sps-tscrunch: --mean -n 32 gives the exact means" {
	same_as_aux "$data/parkes_8bit_1.fil" "--mean -n 32 -t 3 -f 2" "-m -t 3 -f 2"
}

@test "sps-tscrunch: header: tsamp, nchans, foff and fch1 at the merged channel's centre" {
	need sps-header
	sps-tscrunch -q -t 4 -f 4 "$data/parkes_8bit_1.fil" -o "$BATS_TEST_TMPDIR/out.fil"
	run sps-header --tsamp --nchans --foff --fch1 --tstart --nsamples \
	    "$BATS_TEST_TMPDIR/out.fil"
	assert_success
	# 512 us x 4; 832 / 4; -4 MHz x 4; 4030 + 1.5 x -4; tstart kept
	assert_line --index 0 '2048'
	assert_line --index 1 '208'
	assert_line --index 2 '-16'
	assert_line --index 3 '4024'
	assert_line --index 4 "$(sps-header --tstart "$data/parkes_8bit_1.fil")"
	assert_line --index 5 '1024'
}

@test "sps-tscrunch: the dropped tail is said on stderr, and -q silences it" {
	run sps-tscrunch -t 4 -o "$BATS_TEST_TMPDIR/out.fil" "$data/src1_small.fil"
	assert_success
	assert_output --partial 'sps-tscrunch: dropped the last 2 samples (fewer than -t 4)'
	run sps-tscrunch -t 3 -o "$BATS_TEST_TMPDIR/out.fil" "$data/src1_small.fil"
	assert_output --partial 'sps-tscrunch: dropped the last sample (fewer than -t 3)'
	run sps-tscrunch -q -t 3 -o "$BATS_TEST_TMPDIR/out.fil" "$data/src1_small.fil"
	assert_success
	assert_output ''
}

@test "sps-tscrunch: a forced output nbits counts and reports clipping" {
	run sps-tscrunch -q -t 4 -n 8 -o "$BATS_TEST_TMPDIR/out.fil" "$data/parkes_8bit_1.fil"
	assert_success
	assert_output --regexp '^sps-tscrunch: [0-9]+ values clipped to the range of 8-bit output$'
	run sps-tscrunch -q -t 4 -o "$BATS_TEST_TMPDIR/out.fil" "$data/parkes_8bit_1.fil"
	assert_output ''
}

@test "sps-tscrunch: scaled PSRFITS values are summed as floats, not clipped" {
	need sps-filterbank	# PSRFITS lands with it
	run sps-tscrunch -t 4 -f 2 -o "$BATS_TEST_TMPDIR/out.fil" "$data/parkes_4bit.sf"
	assert_success
	refute_output --partial 'clipped'
	same_as_aux "$data/parkes_4bit.sf" "-t 4 -f 2" "-t 4 -f 2"
	[ "$(sps-header --nbits "$BATS_TEST_TMPDIR/out.fil")" = 32 ]
}

@test "sps-tscrunch: a time series is scrunched in time" {
	need sps-fake
	sps-fake -q --nbits 32 --nchans 1 --nsamples 100 -o "$BATS_TEST_TMPDIR/ts.tim"
	same_as_aux "$BATS_TEST_TMPDIR/ts.tim" "-t 10" "-t 10"
	[ "$(sps-header --nsamples "$BATS_TEST_TMPDIR/out.fil")" = 10 ]
}

@test "sps-tscrunch: consecutive files are read as one" {
	sps-tscrunch -q -t 2 "$data/parkes_8bit_1.fil" "$data/parkes_8bit_2.fil" \
	    -o "$BATS_TEST_TMPDIR/out.fil"
	[ "$(sps-header --nsamples "$BATS_TEST_TMPDIR/out.fil")" = 4096 ]
}

@test "sps-tscrunch: pipe from sps-fake to sps-header (the man page's example)" {
	need sps-fake
	need sps-header
	run bash -c 'set -o pipefail; sps-fake --nchans 64 --tsamp 64 \
	    --nsamples 4000 2>/dev/null | sps-tscrunch -t 4 2>/dev/null |
	    sps-header -'
	assert_success
	assert_output --regexp 'Sample time \(us\) +: 256'
	assert_output --regexp 'Number of samples +: 1000'
	assert_output --regexp 'Number of channels +: 64'
}

@test "sps-tscrunch: -t 0 is refused" {
	run sps-tscrunch -t 0 "$data/src1_small.fil"
	assert_failure 2
	assert_output --partial "sps-tscrunch: -t: 0 is out of range [1, "
}

@test "sps-tscrunch: -f that does not divide nchans is refused" {
	run sps-tscrunch -f 5 -o "$BATS_TEST_TMPDIR/out.fil" "$data/tutorial.fil"
	assert_failure 1
	assert_output --partial 'sps-tscrunch: '
	assert_output --partial '-f 5 does not divide nchans 64'
	[ ! -e "$BATS_TEST_TMPDIR/out.fil" ]
}

@test "sps-tscrunch: an output nbits SIGPROC does not have is refused" {
	run sps-tscrunch -n 3 "$data/src1_small.fil"
	assert_failure 2
	assert_output --partial 'sps-tscrunch: -n 3: not 1, 2, 4, 8, 16 or 32'
}

@test "sps-tscrunch: channel-major input is refused" {
	need sps-cornerturn
	sps-cornerturn -q "$data/src1_small.fil" -o "$BATS_TEST_TMPDIR/cm.fil"
	run sps-tscrunch -t 2 "$BATS_TEST_TMPDIR/cm.fil"
	assert_failure 1
	assert_output --partial 'sps-tscrunch: '
	assert_output --partial 'channel-major'
	assert_output --partial 'sps-cornerturn --to time'
}

@test "sps-tscrunch: empty standard input" {
	run sps-tscrunch -t 2 < /dev/null
	assert_failure 1
	assert_output 'sps-tscrunch: stdin: empty input (no header)'
}

@test "sps-tscrunch: truncated header" {
	run bash -c 'head -c 100 "$1" | sps-tscrunch -t 2' _ "$data/src1_small.fil"
	assert_failure 1
	assert_output --partial 'sps-tscrunch: stdin: truncated header'
}

@test "sps-tscrunch: data cut inside a spectrum are their whole spectra, with one warning" {
	local f="$data/parkes_8bit_1.fil" T="$BATS_TEST_TMPDIR" size
	local warning="bytes after the last whole spectrum ignored (a cut recording?)"

	size=$(stat -c %s "$f")	# as parkes_8bit_2.fil's
	head -c $((size - 100)) "$f" >"$T/cut.fil"
	head -c $((size - 832)) "$f" >"$T/whole.fil"
	sps-tscrunch -q -t 4 -f 2 "$T/whole.fil" -o "$T/whole.out"
	run --separate-stderr sps-tscrunch -q -t 4 -f 2 "$T/cut.fil" \
	    -o "$T/cut.out"
	assert_success
	assert_equal "$stderr" "sps-tscrunch: $T/cut.fil: 732 $warning"
	cmp "$T/whole.out" "$T/cut.out"
	run --separate-stderr sh -c 'cat "$1" | sps-tscrunch -q -t 4 -f 2 \
	    >"$2"' _ "$T/cut.fil" "$T/pipe.out"
	assert_success
	assert_equal "$stderr" "sps-tscrunch: stdin: 732 $warning"
	cat "$T/whole.fil" | sps-tscrunch -q -t 4 -f 2 >"$T/whole-pipe.out"
	cmp "$T/whole-pipe.out" "$T/pipe.out"
	# joined files: the cut one is named
	head -c $((size - 100)) "$data/parkes_8bit_2.fil" >"$T/cut2.fil"
	head -c $((size - 832)) "$data/parkes_8bit_2.fil" >"$T/whole2.fil"
	sps-tscrunch -q -t 4 "$f" "$T/whole2.fil" -o "$T/whole2.out"
	run --separate-stderr sps-tscrunch -q -t 4 "$f" "$T/cut2.fil" \
	    -o "$T/cut2.out"
	assert_success
	assert_equal "$stderr" "sps-tscrunch: $T/cut2.fil: 732 $warning"
	cmp "$T/whole2.out" "$T/cut2.out"
	run --separate-stderr sps-tscrunch -q -t 4 "$T/cut.fil" \
	    "$data/parkes_8bit_2.fil" -o "$T/joined.out"
	assert_failure 1	# a gap of one sample after the cut one
	assert_equal "$stderr" "sps-tscrunch: $data/parkes_8bit_2.fil: gap of 1.0 samples after the previous file"
}

@test "sps-tscrunch: not one whole spectrum, and no output file left" {
	head -c 700 "$data/src1_small.fil" > "$BATS_TEST_TMPDIR/cut"
	run sps-tscrunch -t 2 -o "$BATS_TEST_TMPDIR/out.fil" "$BATS_TEST_TMPDIR/cut"
	assert_failure 1
	assert_output --partial 'sps-tscrunch: '
	assert_output --partial 'truncated data: 311 bytes, not one whole spectrum of 336'
	[ ! -e "$BATS_TEST_TMPDIR/out.fil" ]
	run bash -c 'head -c 700 "$1" | sps-tscrunch -t 2 > /dev/null' _ \
	    "$data/src1_small.fil"
	assert_failure 1
	assert_output 'sps-tscrunch: stdin: truncated data: 311 bytes, not one whole spectrum of 336'
}

@test "sps-tscrunch: -h and --version" {
	run sps-tscrunch -h
	assert_success
	assert_output --partial 'usage: sps-tscrunch'
	run sps-tscrunch --version
	assert_success
	assert_output --regexp '^sps-tscrunch [0-9]'
}

@test "sps-tscrunch: a PRESTO .dat is scrunched as the .tim written with it" {
	local t=$BATS_TEST_TMPDIR

	need sps-dedisperse
	sps-fake -q --nchans 16 --tobs 1 -o "$t/f.fil"
	sps-dedisperse -q -d 30 -o "$t/s" --presto "$t/f.fil"
	sps-tscrunch -q -t 4 "$t/s_DM30.00.tim" -o "$t/tim.tim"
	sps-tscrunch -q -t 4 "$t/s_DM30.00.dat" -o "$t/dat.tim"
	aux-sum "$t/tim.tim" >"$t/expect"
	aux-sum "$t/dat.tim" >"$t/actual"
	cmp "$t/expect" "$t/actual"
	run -0 sps-header --tsamp --nsamples --refdm "$t/dat.tim"
	assert_equal "${lines[*]}" "$(sps-header --tsamp --nsamples --refdm "$t/tim.tim" | tr '\n' ' ' | sed 's/ $//')"
}
