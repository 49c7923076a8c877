#!/usr/bin/env bats
# sps-cleancost: the table's shape, what the defaults and zero-DM cost a
# pulse at high and at low DM, interference, determinism, usage errors.
# Also uses (through the script): sps-fake, sps-clean, sps-dedisperse,
# sps-boxcar, sps-peaks.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

bats_require_minimum_version 1.5.0

# One small grid for the first three cases: DM 0, 2 and 300, widths 4
# and 64 samples, the defaults and zero-DM without clipping.
setup_file() {
	sps-cleancost -q --dms "0 2 300" --widths "4 64" --trials 1 \
	    --clean "" --clean "--noclip --zerodm" \
	    >"$BATS_FILE_TMPDIR/grid.txt" 2>"$BATS_FILE_TMPDIR/grid.err"
}

setup() {
	cd "$BATS_TEST_TMPDIR" || exit 1
}

@test "sps-cleancost: a line per cell, two columns per setting, the sweep in samples" {
	run -0 cat "$BATS_FILE_TMPDIR/grid.err"
	assert_output ""
	run -0 cat "$BATS_FILE_TMPDIR/grid.txt"
	assert_line --index 0 --regexp '^ +DM +sweep +width +raw +default +ratio +noclip,zerodm +ratio$'
	[ "${#lines[@]}" -eq 7 ] || fail "$output"
	# DM, width in grid order; sweep = 4.148808e3 DM (1245^-2 - 1500^-2)
	# / 64e-6 (256 channels of -1 MHz from 1500 MHz)
	run -0 awk 'NR > 1 { printf "%s %s %s %d\n", $1, $2, $3, NF }' \
	    "$BATS_FILE_TMPDIR/grid.txt"
	assert_output "$(printf '%s\n' '0 0 4 8' '0 0 64 8' '2 26 4 8' \
	    '2 26 64 8' '300 3903 4 8' '300 3903 64 8')"
}

@test "sps-cleancost: a DM-300 pulse keeps >= 90% of its S/N with the defaults and with zero-DM" {
	run -0 awk '$1 == 300 && $4 >= 15 && $6 >= 0.9 && $8 >= 0.9' \
	    "$BATS_FILE_TMPDIR/grid.txt"
	[ "${#lines[@]}" -eq 2 ] || fail "$(cat "$BATS_FILE_TMPDIR/grid.txt")"
}

# The sweep at DM 0 and 2 (26 samples) is shorter than a 64-sample
# pulse: zero-DM subtraction takes the pulse with the band average.
@test "sps-cleancost: zero-DM takes most of the S/N of a 64-sample pulse at DM 0 and 2" {
	run -0 awk '$1 <= 2 && $3 == 64 && $4 >= 15 && $8 < 0.5' \
	    "$BATS_FILE_TMPDIR/grid.txt"
	[ "${#lines[@]}" -eq 2 ] || fail "$(cat "$BATS_FILE_TMPDIR/grid.txt")"
}

# A carrier switching every 20 ms in ten channels adds noise to every
# DM; the defaults (IQRM) mask it and give the pulse its S/N back.
@test "sps-cleancost: --rfi: with a switching carrier, the defaults raise the S/N" {
	run -0 sps-cleancost -q --dms 300 --widths 16 --trials 1 --clean "" \
	    --rfi carrier,chan=100:109,period=20ms,amp=3
	run -0 awk 'NR == 2 && $6 > 1.2' <<<"$output"
	[ -n "$output" ] || fail "no gain"
}

@test "sps-cleancost: progress on stderr unless -q; the same seed gives the same table" {
	run -0 --separate-stderr sps-cleancost --dms 5 --widths 1 --trials 2 \
	    --clean "" --seed 4
	assert_equal "$stderr" "sps-cleancost: DM 5, width 1 (1 of 1)"
	local first=$output
	run -0 --separate-stderr sps-cleancost -q --dms 5 --widths 1 \
	    --trials 2 --clean "" --seed 4
	assert_equal "$stderr" ""
	assert_equal "$output" "$first"
}

# bad ARGS... MESSAGE: exit 2 at once, the one line MESSAGE, then the
# usage; nothing on stdout.
bad() {
	local msg=${*: -1}

	run -2 --separate-stderr sps-cleancost "${@:1:$#-1}"
	assert_equal "$output" ""
	assert_equal "${stderr_lines[0]}" "sps-cleancost: $msg"
	[[ "${stderr_lines[1]}" == "usage: sps-cleancost "* ]] || fail "$stderr"
}

@test "sps-cleancost: usage errors exit 2 before any work" {
	bad x.fil "no operand expected, not 'x.fil'"
	bad --dms "0 -1" "bad DM: '-1'"
	bad --widths "4 1.5" "bad width: '1.5'"
	bad --widths "" "no widths"
	bad --snr 0 "bad S/N: '0'"
	bad --trials 0 "bad number of trials: '0'"
	bad --foff 0 "bad channel width: '0'"
	bad --nchans 2000 --foff -1 "the band goes below 0 MHz"
	bad --dms "" "no DMs"
	bad --seed "" "bad seed: ''"
	bad --trials "--trials needs 1 value(s)"
	bad --clean "--clip 1" "--clean '--clip 1': --clip: 1 is out of range [2, 100]"
	bad --clean "--nosuch" "--clean '--nosuch': unrecognized option '--nosuch'"
	bad --rfi "hum,chan=3" "--rfi 'hum,chan=3': 'hum' is not a kind of RFI (impulse, carrier, zero or drift)"
	bad --rfi "carrier,chan=300" "--rfi 'carrier,chan=300': chan: channel 300: the data have channels 0 to 255"
}

@test "sps-cleancost: --help and --version" {
	run -0 sps-cleancost --help
	assert_line --partial '--clean OPTIONS     a column: sps-clean with OPTIONS'
	run -0 sps-cleancost --version
	[[ "$output" =~ ^sps-cleancost\ [0-9] ]] || fail "$output"
}
