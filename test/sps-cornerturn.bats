#!/usr/bin/env bats
# sps-cornerturn: time-major <-> channel-major, byte-exact round trips.
# Also uses: sps-fake, sps-header, sps-filterbank (its case is skipped
# until it is built), od, awk, cmp.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

bats_require_minimum_version 1.5.0

data="$BATS_TEST_DIRNAME/../../shared/data"

need() {
	command -v "$1" >/dev/null || skip "$1 is not built"
}

@test "sps-cornerturn: round trip is the identity on every shared .fil file" {
	local f n=0
	for f in "$data"/*.fil; do
		sps-cornerturn -q "$f" -o "$BATS_TEST_TMPDIR/cm"
		sps-cornerturn -q "$BATS_TEST_TMPDIR/cm" -o "$BATS_TEST_TMPDIR/back"
		cmp "$f" "$BATS_TEST_TMPDIR/back"
		n=$((n + 1))
	done
	[ "$n" -ge 7 ]
}

@test "sps-cornerturn: round trip through pipes with a block that does not divide the length" {
	set -o pipefail
	sps-cornerturn -q --block 1000 < "$data/tutorial.fil" |
	    sps-cornerturn -q --to time | cmp - "$data/tutorial.fil"
	sps-cornerturn -q --block 3 < "$data/parkes_1bit.fil" |
	    sps-cornerturn -q | cmp - "$data/parkes_1bit.fil"
}

@test "sps-cornerturn: round trip of sps-fake data of every nbits" {
	need sps-fake
	local b
	for b in 1 2 4 8 16 32; do
		# 37 one-bit channels: spectra do not end on byte boundaries
		sps-fake -q --nbits "$b" --nchans 37 --nsamples 1000 --seed "$b" \
		    -o "$BATS_TEST_TMPDIR/f$b.fil"
		sps-cornerturn -q --block 24 "$BATS_TEST_TMPDIR/f$b.fil" \
		    -o "$BATS_TEST_TMPDIR/cm$b"
		sps-cornerturn -q "$BATS_TEST_TMPDIR/cm$b" \
		    -o "$BATS_TEST_TMPDIR/back$b"
		cmp "$BATS_TEST_TMPDIR/f$b.fil" "$BATS_TEST_TMPDIR/back$b"
	done
}

@test "sps-cornerturn: channel-major blocks hold each channel's run of samples" {
	need sps-header
	local f="$data/src1_small.fil" hdr
	hdr=$(sps-header --headersize "$f")
	tail -c +"$((hdr + 1))" "$f" | od -An -v -tu1 -w1 |
	    awk '{ print $1 }' > "$BATS_TEST_TMPDIR/tm"
	sps-cornerturn -q --block 4 "$f" -o "$BATS_TEST_TMPDIR/cm.fil"
	# the input header plus sps_order and sps_block (17 bytes each)
	tail -c +"$((hdr + 34 + 1))" "$BATS_TEST_TMPDIR/cm.fil" |
	    od -An -v -tu1 -w1 | awk '{ print $1 }' > "$BATS_TEST_TMPDIR/actual"
	# 336 channels, 10 samples, blocks of 4, 4 and 2 samples
	awk -v nc=336 -v ns=10 -v blk=4 '{ v[NR - 1] = $1 }
	    END {
		for (b0 = 0; b0 < ns; b0 += blk) {
			n = ns - b0 < blk ? ns - b0 : blk
			for (k = 0; k < nc; k++)
				for (t = 0; t < n; t++)
					print v[(b0 + t) * nc + k]
		}
	    }' "$BATS_TEST_TMPDIR/tm" > "$BATS_TEST_TMPDIR/expect"
	cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/actual"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/expect")" -eq 3360 ]
}

@test "sps-cornerturn: the channel-major header says sps_order 1 and the block length" {
	need sps-header
	sps-cornerturn -q --block 1000 "$data/parkes_8bit_1.fil" \
	    -o "$BATS_TEST_TMPDIR/cm.fil"
	run sps-header --json "$BATS_TEST_TMPDIR/cm.fil"
	assert_success
	assert_output --partial '"sps_order": 1'
	assert_output --partial '"sps_block": 1000'
	run sps-header --json "$data/parkes_8bit_1.fil"
	refute_output --partial 'sps_order'
}

@test "sps-cornerturn: output to the order the input already has copies it unchanged" {
	sps-cornerturn -q --to time "$data/parkes_2bit.fil" \
	    -o "$BATS_TEST_TMPDIR/same"
	cmp "$data/parkes_2bit.fil" "$BATS_TEST_TMPDIR/same"
	sps-cornerturn -q --block 512 "$data/parkes_2bit.fil" \
	    -o "$BATS_TEST_TMPDIR/cm"
	sps-cornerturn -q --to channel "$BATS_TEST_TMPDIR/cm" \
	    -o "$BATS_TEST_TMPDIR/cm2"
	cmp "$BATS_TEST_TMPDIR/cm" "$BATS_TEST_TMPDIR/cm2"
}

@test "sps-cornerturn: changing the block of channel-major data is refused" {
	sps-cornerturn -q --block 512 "$data/parkes_2bit.fil" \
	    -o "$BATS_TEST_TMPDIR/cm"
	run sps-cornerturn -q --to channel --block 256 "$BATS_TEST_TMPDIR/cm"
	assert_failure 2
	assert_output --partial 'sps-cornerturn: --block 256: the input has blocks of 512'
}

@test "sps-cornerturn: a block that does not end on a byte is refused" {
	need sps-fake
	sps-fake -q --nbits 1 --nchans 37 --nsamples 16 -o "$BATS_TEST_TMPDIR/f.fil"
	run sps-cornerturn --block 3 "$BATS_TEST_TMPDIR/f.fil"
	assert_failure 2
	assert_output --partial 'sps-cornerturn: --block 3: '
	assert_output --partial 'multiple of 8'
}

@test "sps-cornerturn: --block with time-major output is a usage error" {
	sps-cornerturn -q "$data/src1_small.fil" -o "$BATS_TEST_TMPDIR/cm"
	run sps-cornerturn --block 4 "$BATS_TEST_TMPDIR/cm"
	assert_failure 2
	assert_output --partial 'sps-cornerturn: --block: the output is time-major'
}

@test "sps-cornerturn: bad option values are refused" {
	run sps-cornerturn --to sideways "$data/src1_small.fil"
	assert_failure 2
	assert_output --partial "sps-cornerturn: --to sideways: expected channel, time or dm"
	run sps-cornerturn --block 0 "$data/src1_small.fil"
	assert_failure 2
	assert_output --partial "sps-cornerturn: --block: 0 is out of range"
	run sps-cornerturn "$data/src1_small.fil" "$data/tutorial.fil"
	assert_failure 2
	assert_output --partial 'sps-cornerturn: one input file at most'
}

@test "sps-cornerturn: empty standard input" {
	run sps-cornerturn < /dev/null
	assert_failure 1
	assert_output 'sps-cornerturn: stdin: empty input (no header)'
}

@test "sps-cornerturn: truncated header" {
	head -c 100 "$data/src1_small.fil" > "$BATS_TEST_TMPDIR/cut"
	run sps-cornerturn "$BATS_TEST_TMPDIR/cut"
	assert_failure 1
	assert_output --partial 'sps-cornerturn: '
	assert_output --partial 'truncated header'
}

@test "sps-cornerturn: time-major data cut inside a spectrum are their whole spectra, with one warning" {
	local f="$data/parkes_4bit.fil" T="$BATS_TEST_TMPDIR" size
	local warning="bytes after the last whole spectrum ignored (a cut recording?)"

	size=$(stat -c %s "$f")
	head -c $((size - 100)) "$f" >"$T/cut.fil"
	head -c $((size - 416)) "$f" >"$T/whole.fil"	# 416-byte spectra
	sps-cornerturn -q --block 100 "$T/whole.fil" -o "$T/whole.cm"
	run --separate-stderr sps-cornerturn -q --block 100 "$T/cut.fil" \
	    -o "$T/cut.cm"
	assert_success
	assert_equal "$stderr" "sps-cornerturn: $T/cut.fil: 316 $warning"
	cmp "$T/whole.cm" "$T/cut.cm"
	run --separate-stderr sh -c 'cat "$1" | sps-cornerturn -q --block 100 \
	    >"$2"' _ "$T/cut.fil" "$T/pipe.cm"
	assert_success
	assert_equal "$stderr" "sps-cornerturn: stdin: 316 $warning"
	cmp "$T/whole.cm" "$T/pipe.cm"
}

@test "sps-cornerturn: not one whole spectrum, and no output file left" {
	head -c 700 "$data/src1_small.fil" > "$BATS_TEST_TMPDIR/cut"
	run sps-cornerturn -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/cut"
	assert_failure 1
	assert_output --partial 'truncated data: 311 bytes, not one whole spectrum of 336'
	[ ! -e "$BATS_TEST_TMPDIR/out" ]
	[ -z "$(ls "$BATS_TEST_TMPDIR" | grep '^out')" ]
}

@test "sps-cornerturn: truncated channel-major data" {
	sps-cornerturn -q --block 4 "$data/src1_small.fil" \
	    -o "$BATS_TEST_TMPDIR/cm"
	# 17 bytes short: the last block is not a whole number of samples
	head -c "$(($(stat -c %s "$BATS_TEST_TMPDIR/cm") - 17))" \
	    "$BATS_TEST_TMPDIR/cm" > "$BATS_TEST_TMPDIR/cut"
	run sps-cornerturn "$BATS_TEST_TMPDIR/cut"
	assert_failure 1
	assert_output --partial 'sps-cornerturn: '
	assert_output --partial 'truncated data: the last channel-major block'
}

@test "sps-cornerturn: input that is not SIGPROC data" {
	echo "not a filterbank" > "$BATS_TEST_TMPDIR/text"
	run sps-cornerturn "$BATS_TEST_TMPDIR/text"
	assert_failure 1
	assert_output --partial 'not a SIGPROC file'
	run sps-cornerturn "$BATS_TEST_TMPDIR/missing"
	assert_failure 1
	assert_output --partial 'sps-cornerturn: '
	assert_output --partial 'No such file or directory'
}

@test "sps-cornerturn: a closed output pipe is an error, not a hang" {
	run bash -c 'sps-cornerturn -q "$1" | head -c 10 > /dev/null; echo "${PIPESTATUS[0]}"' \
	    _ "$data/tutorial.fil"
	assert_output --partial 'sps-cornerturn: stdout: write error'
	assert_line 1
}

@test "sps-cornerturn: PSRFITS through sps-filterbank turns there and back" {
	need sps-filterbank
	local sf="$data/parkes_4bit.sf"
	set -o pipefail
	sps-filterbank "$sf" > "$BATS_TEST_TMPDIR/direct"
	sps-filterbank "$sf" | sps-cornerturn -q | sps-cornerturn -q --to time |
	    cmp - "$BATS_TEST_TMPDIR/direct"
}

@test "sps-cornerturn: PSRFITS read directly turns back to what sps-filterbank writes" {
	need sps-filterbank
	local sf
	set -o pipefail
	for sf in "$data/parkes_4bit.sf" "$data/src1_small.fits"; do
		sps-filterbank -q "$sf" > "$BATS_TEST_TMPDIR/direct"
		sps-cornerturn -q "$sf" | sps-cornerturn -q |
		    cmp - "$BATS_TEST_TMPDIR/direct"
	done
}

@test "sps-cornerturn: -h and --version" {
	run sps-cornerturn -h
	assert_success
	assert_output --partial 'usage: sps-cornerturn'
	run sps-cornerturn --version
	assert_success
	assert_output --regexp '^sps-cornerturn [0-9]'
}

# A DM-time stream from a small fake, with time-scrunched trials and a
# block that does not divide the data.
dmtime() {
	sps-fake -q --nchans 64 --nbits 8 --tsamp 500 --tobs 3 --fch1 1400 \
	    --foff -2 --seed 5 --pulse dm=200,t=1,width=2ms,snr=20 \
	    -o "$BATS_TEST_TMPDIR/f.fil"
	sps-dedisperse -q "$BATS_TEST_TMPDIR/f.fil" --dm 0 400 --scrunch \
	    --block 1000 "$@" > "$BATS_TEST_TMPDIR/dt"
}

@test "sps-cornerturn: a DM-time stream turns DM-major and back, byte for byte" {
	dmtime
	sps-cornerturn -q "$BATS_TEST_TMPDIR/dt" -o "$BATS_TEST_TMPDIR/dm"
	run -0 sps-header --json "$BATS_TEST_TMPDIR/dm"
	assert_line --regexp '^ +"sps_order": 2,$'
	# DM-major: each trial's whole series in turn, as aux-dedisp decodes
	# the time-major blocks
	cmp <(tail -c +$(($(sps-header --headersize "$BATS_TEST_TMPDIR/dm") + 1)) \
	    "$BATS_TEST_TMPDIR/dm") <(aux-dedisp dump "$BATS_TEST_TMPDIR/dt")
	sps-cornerturn -q "$BATS_TEST_TMPDIR/dm" --to time \
	    -o "$BATS_TEST_TMPDIR/back"
	cmp "$BATS_TEST_TMPDIR/dt" "$BATS_TEST_TMPDIR/back"
	dmtime -b 8
	sps-cornerturn -q "$BATS_TEST_TMPDIR/dt" -o "$BATS_TEST_TMPDIR/dm"
	sps-cornerturn -q "$BATS_TEST_TMPDIR/dm" --to time \
	    -o "$BATS_TEST_TMPDIR/back"
	cmp "$BATS_TEST_TMPDIR/dt" "$BATS_TEST_TMPDIR/back"
}

@test "sps-cornerturn: DM-major holds each trial's whole series in turn" {
	dmtime
	sps-cornerturn -q "$BATS_TEST_TMPDIR/dt" -o "$BATS_TEST_TMPDIR/dm"
	# trial 0 (DM 0, unscrunched) is dedispersed alone to compare
	sps-dedisperse -q "$BATS_TEST_TMPDIR/f.fil" -d 0 > "$BATS_TEST_TMPDIR/t0"
	local hdm n0 ht
	hdm=$(sps-header --headersize "$BATS_TEST_TMPDIR/dm")
	ht=$(sps-header --headersize "$BATS_TEST_TMPDIR/t0")
	n0=$(( ($(stat -c %s "$BATS_TEST_TMPDIR/t0") - ht) ))
	# the DM-0 series of the plan spans the same samples only up to the
	# largest delay; compare the first 2000 samples
	cmp -n 8000 <(tail -c +$((hdm + 1)) "$BATS_TEST_TMPDIR/dm") \
	    <(tail -c +$((ht + 1)) "$BATS_TEST_TMPDIR/t0")
	[ "$n0" -gt 8000 ]
}

@test "sps-cornerturn: a piped DM-time stream is spooled and gives the same file" {
	dmtime
	sps-cornerturn -q "$BATS_TEST_TMPDIR/dt" -o "$BATS_TEST_TMPDIR/dm1"
	cat "$BATS_TEST_TMPDIR/dt" | sps-cornerturn -q -o "$BATS_TEST_TMPDIR/dm2"
	cmp "$BATS_TEST_TMPDIR/dm1" "$BATS_TEST_TMPDIR/dm2"
}

@test "sps-cornerturn: DM-major needs a file to write, and other tools refuse it" {
	dmtime
	run -2 --separate-stderr sps-cornerturn "$BATS_TEST_TMPDIR/dt"
	assert_output ""
	[[ "$stderr" == "sps-cornerturn: --to dm writes out of order: give -o FILE"* ]]
	sps-cornerturn -q "$BATS_TEST_TMPDIR/dt" -o "$BATS_TEST_TMPDIR/dm"
	run -1 --separate-stderr sps-filterbank "$BATS_TEST_TMPDIR/dm"
	[[ "$stderr" == *"DM-major data (sps_order 2)"* ]]
	run -2 sps-cornerturn --to dm "$data/src1_small.fil"
	head -c 3000 "$BATS_TEST_TMPDIR/dt" > "$BATS_TEST_TMPDIR/cut"
	run -1 --separate-stderr sps-cornerturn "$BATS_TEST_TMPDIR/cut" \
	    -o "$BATS_TEST_TMPDIR/x"
	[[ "$stderr" == *"cut short"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/x" ]
}
