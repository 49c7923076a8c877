#!/usr/bin/env bats
# sps-fake --rfi: impulses, carriers, zeroed channels and drifts in made
# and injected data, every nbits' clipping, determinism, errors.  Also
# uses sps-header, aux-sum and aux-snr.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

bats_require_minimum_version 1.5.0

DATA="$BATS_TEST_DIRNAME/../../shared/data"
REAL="$DATA/parkes_8bit_1.fil"

setup() {
	cd "$BATS_TEST_TMPDIR" || exit 1
}

# spectra FILE NCHANS: the values of FILE, a spectrum a line.
spectra() {
	aux-sum "$1" | od -An -v -tf4 -w$((4 * $2))
}

# bad_rfi REGEX ARGS...: exit 2, one line "sps-fake: REGEX" on stderr,
# nothing on stdout and no output file.
bad_rfi() {
	local regex=$1

	shift
	run -2 --separate-stderr sps-fake "$@" -o out.fil
	assert_equal "${#stderr_lines[@]}" 1
	[[ "$stderr" =~ ^sps-fake:\ $regex$ ]] || fail "stderr: $stderr"
	assert_equal "$output" ""
	[ ! -e out.fil ]
}

@test "sps-fake --rfi: an impulse at t is a DM-0 spike of its S/N in the band sum at t" {
	local t=0.200032 layout=(--nbits 32 --nchans 64 --tsamp 64
	    --nsamples 8192)

	sps-fake -q "${layout[@]}" --rfi impulse,t=$t,width=5samp,snr=50 \
	    -o rfi.fil
	sps-fake -q "${layout[@]}" -o clean.fil
	run -0 aux-snr rfi.fil 0 $t 5
	awk -v s="$output" 'BEGIN { exit !(s > 44 && s < 56) }' ||
	    fail "S/N $output, not 50 +- 6"
	run -0 aux-snr clean.fil 0 $t 5
	awk -v s="$output" 'BEGIN { exit !(s > -6 && s < 6) }' ||
	    fail "S/N $output without the impulse"
	# the band sum's brightest sample is one of the impulse's five
	aux-sum -f 64 rfi.fil | od -An -v -tf4 -w4 >sum.txt
	run -0 awk '$1 > max { max = $1; at = NR - 1 } END { print at }' \
	    sum.txt
	[ "$output" -ge 3123 ] && [ "$output" -le 3127 ] ||
	    fail "brightest sample $output, not 3123 to 3127"
}

@test "sps-fake --rfi: zeroed channels are 0 at 8, 4 and 2 bits, counted from the lowest frequency" {
	local b

	for b in 8 4 2; do
		sps-fake -q --nbits $b --nchans 16 --nsamples 512 \
		    --rfi zero,chan=0:2 -o z.fil
		spectra z.fil 16 >z.txt
		run -0 awk '{ for (c = 1; c <= 16; c++) s[c] += $c }
		    END { for (c = 1; c <= 16; c++) printf "%d", (s[c] > 0) }' \
		    z.txt
		assert_equal "$output" 1111111111111000
	done
	sps-fake -q --foff 2 --fch1 1300 --nchans 16 --nsamples 512 \
	    --rfi zero,chan=0:2 -o z.fil
	spectra z.fil 16 >z.txt
	run -0 awk '{ for (c = 1; c <= 16; c++) s[c] += $c }
	    END { for (c = 1; c <= 16; c++) printf "%d", (s[c] > 0) }' z.txt
	assert_equal "$output" 0001111111111111
}

@test "sps-fake --rfi: a carrier switches on and off with its period" {
	sps-fake -q --no-noise --nchans 16 --tsamp 1000 --nsamples 200 \
	    --rfi carrier,chan=5:6,period=20samp,duty=0.25,amp=5 -o c.fil
	spectra c.fil 16 >c.txt
	# mean 64, rms 10: PRESTO channels 5 and 6 are columns 10 and 11
	run -0 awk '{
		on = (NR - 1) % 20 < 5
		for (c = 1; c <= 16; c++) {
			want = (c == 10 || c == 11) && on ? 114 : 64
			if ($c != want) bad++
		}
		ons += on && $10 == 114
	    } END { print bad + 0, ons }' c.txt
	assert_output "0 50"
}

@test "sps-fake --rfi: a drift multiplies the data by its slow sine" {
	sps-fake -q --nbits 32 --no-noise --mean 100 --nchans 4 --tsamp 1000 \
	    --nsamples 1000 --rfi drift,amp=0.2,period=0.5s -o d.fil
	spectra d.fil 4 >d.txt
	run -0 awk '{
		phase = 2 * 3.14159265358979 * (NR - 0.5) / 500
		want = 100 * (1 + 0.2 * sin(phase))
		for (c = 1; c <= 4; c++)
			if ($c - want > 1e-3 || want - $c > 1e-3) bad++
		if ($1 > max) max = $1
	    } END { print bad + 0, max }' d.txt
	assert_output --regexp '^0 119\.9'
}

@test "sps-fake --rfi: impulses at a rate are counted, repeatable and the same in a longer file" {
	local rfi=(--rfi impulse,rate=20,width=2ms,snr=30)
	local line='^sps-fake: RFI: ([0-9]+) impulses, 0 carriers, 0 channels '

	run -0 --separate-stderr sps-fake --seed 3 --tobs 10 "${rfi[@]}" \
	    -o a.fil
	assert_equal "${#stderr_lines[@]}" 2
	[[ "${stderr_lines[1]}" =~ ${line}zeroed,\ 0\ drifts$ ]] ||
	    fail "stderr: $stderr"
	[ "${BASH_REMATCH[1]}" -gt 140 ] && [ "${BASH_REMATCH[1]}" -lt 260 ] ||
	    fail "${BASH_REMATCH[1]} impulses in 10 s at 20 a second"
	run -0 --separate-stderr sps-fake -q --seed 3 --tobs 10 "${rfi[@]}" \
	    -o b.fil
	assert_equal "$stderr" ""
	cmp a.fil b.fil
	sps-fake -q --seed 3 --tobs 17 "${rfi[@]}" -o long.fil
	cmp -n "$(stat -c %s a.fil)" a.fil long.fil
	sps-fake -q --seed 4 --tobs 10 "${rfi[@]}" -o other.fil
	sps-fake -q --seed 4 --tobs 10 -o plain.fil
	run -1 cmp -s other.fil plain.fil
	run -1 cmp -s a.fil other.fil
}

@test "sps-fake --rfi: bright impulses clip at 2 and 4 bits and are counted" {
	local b top

	for b in 2 4; do
		top=$(((1 << b) - 1))
		run -0 --separate-stderr sps-fake --nbits $b --nchans 16 \
		    --tsamp 1000 --nsamples 200 \
		    --rfi impulse,t=100.5samp,width=1samp,amp=100 -o i.fil
		[[ "${stderr_lines[0]}" =~ \ ([0-9]+)\ values\ clipped ]] ||
		    fail "stderr: $stderr"
		[ "${BASH_REMATCH[1]}" -ge 16 ] || fail "stderr: $stderr"
		spectra i.fil 16 >i.txt
		run -0 awk -v top=$top 'NR == 101 {
			for (c = 1; c <= 16; c++) if ($c != top) bad++
		    } END { print bad + 0 }' i.txt
		assert_output 0
	done
}

@test "sps-fake --rfi: --inject adds interference to a recording and keeps its header" {
	sps-fake -q --inject "$REAL" --rfi zero,chan=300:310 \
	    --rfi impulse,t=1,width=2samp,amp=20 -o inj.fil
	run -0 sps-header "$REAL"
	expected=$output
	run -0 sps-header inj.fil
	assert_output "$expected"
	# 832 channels from 4030 MHz down: PRESTO 300:310 are columns 522-532
	spectra inj.fil 832 >inj.txt
	run -0 awk '{ for (c = 522; c <= 532; c++) s += $c; t += $521 + $533 }
	    END { print s, (t > 0) }' inj.txt
	assert_output "0 1"
	run -0 aux-snr inj.fil 0 1 2
	awk -v s="$output" 'BEGIN { exit !(s > 100) }' ||
	    fail "impulse S/N $output"
}

@test "sps-fake --rfi: the man page's example runs" {
	cp "$REAL" obs.fil
	sps-fake --inject obs.fil --rfi impulse,rate=20,width=1ms,snr=50 \
	    --rfi carrier,chan=100:110,period=0.5s,duty=0.5,amp=5 \
	    --rfi zero,chan=300:310 --rfi drift,amp=0.1,period=30s \
	    >rfi.fil 2>err.txt
	run -0 cat err.txt
	assert_line --index 1 --regexp \
	    '^sps-fake: RFI: [0-9]+ impulses, 1 carrier, 11 channels zeroed, 1 drift$'
	[ "$(stat -c %s rfi.fil)" -eq "$(stat -c %s obs.fil)" ]
}

@test "sps-fake --rfi: a bad spec is a usage error of one line" {
	bad_rfi "--rfi 'spike,t=1': 'spike' is not a kind of RFI \(impulse, \
carrier, zero or drift\)" --rfi spike,t=1
	bad_rfi "--rfi 'carrier,amp=3': carrier needs chan=" \
	    --rfi carrier,amp=3
	bad_rfi "--rfi 'zero,chan=128': chan: channel 128: the data have \
channels 0 to 127" --rfi zero,chan=128
	bad_rfi "--rfi 'impulse,t=1,colour=red': unknown key 'colour'" \
	    --rfi impulse,t=1,colour=red
	bad_rfi "--rfi 'zero,chan=832': chan: channel 832: the data have \
channels 0 to 831" --inject "$REAL" --rfi zero,chan=832
}
