#!/usr/bin/env bats
# sps-header: printing, single values, JSON, editing, bad input, devices.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

bats_require_minimum_version 1.5.0

DATA="$BATS_TEST_DIRNAME/../../shared/data"

# A small valid 8-bit filterbank header's keywords (4 channels).
GOOD=(HEADER_START source_name:s:test telescope_id:i:4 machine_id:i:10
    data_type:i:1 fch1:d:1400 foff:d:-1 nchans:i:4 nbits:i:8 nifs:i:1
    tstart:d:60000.25 tsamp:d:64e-6)

# check_file FILE NCHANS NBITS TSAMP_US NSAMPLES
check_file() {
	run -0 sps-header --nchans --nbits --tsamp --nsamples "$DATA/$1"
	assert_equal "${lines[*]}" "$2 $3 $4 $5"
}

# bad_input REGEX FILE: exit 1, nothing on stdout, one line on stderr,
# both from the file and through a pipe.
bad_input() {
	run -1 --separate-stderr sps-header "$2"
	assert_equal "$output" ""
	assert_equal "${#stderr_lines[@]}" 1
	[[ "$stderr" =~ ^sps-header:\ .*$1 ]] || fail "file: $stderr"
	run -1 --separate-stderr sh -c 'cat "$1" | sps-header' sh "$2"
	assert_equal "$output" ""
	assert_equal "${#stderr_lines[@]}" 1
	[[ "$stderr" =~ ^sps-header:\ stdin:\ .*$1 ]] || fail "pipe: $stderr"
}

# bad_header REGEX TOKEN...: GOOD's keywords, then TOKENs.
bad_header() {
	local regex=$1

	shift
	aux-mkheader "${GOOD[@]}" "$@" >"$BATS_TEST_TMPDIR/bad.fil"
	bad_input "$regex" "$BATS_TEST_TMPDIR/bad.fil"
}

json_valid() {
	if command -v jq >/dev/null; then
		jq . "$1" >/dev/null
	elif command -v python3 >/dev/null; then
		python3 -m json.tool "$1" >/dev/null
	else
		skip "neither python3 nor jq to check the JSON"
	fi
}

@test "sps-header: parkes_1bit.fil has 832 channels, 1 bit, 512 us, 4096 samples" {
	check_file parkes_1bit.fil 832 1 512 4096
}

@test "sps-header: parkes_2bit.fil has 832 channels, 2 bits, 512 us, 4096 samples" {
	check_file parkes_2bit.fil 832 2 512 4096
}

@test "sps-header: parkes_4bit.fil has 832 channels, 4 bits, 512 us, 4096 samples" {
	check_file parkes_4bit.fil 832 4 512 4096
}

@test "sps-header: parkes_8bit_1.fil has 832 channels, 8 bits, 512 us, 4096 samples" {
	check_file parkes_8bit_1.fil 832 8 512 4096
}

@test "sps-header: parkes_8bit_2.fil has 832 channels, 8 bits, 512 us, 4096 samples" {
	check_file parkes_8bit_2.fil 832 8 512 4096
}

@test "sps-header: src1_small.fil has 336 channels, 8 bits, 1.26646875 ms, 10 samples" {
	check_file src1_small.fil 336 8 1266.46875 10
}

@test "sps-header: tutorial.fil has 64 channels, 2 bits, 320 us, 60 s" {
	check_file tutorial.fil 64 2 320 187520
	run -0 sps-header --tobs "$DATA/tutorial.fil"
	assert_output "60.0064"
}

@test "sps-header: parkes header size, frequencies and names as the README lists" {
	run -0 sps-header --headersize --fch1 --foff --telescope --source_name \
	    --flow --fhigh --bandwidth "$DATA/parkes_4bit.fil"
	assert_equal "${lines[*]}" "351 4030 -4 Parkes J0534+2200 706 4030 3328"
}

@test "sps-header: single values come one per line in the order asked" {
	run -0 sps-header --nbits --nchans --nbits --date --utstart --mjd \
	    --frame --datatype "$DATA/parkes_8bit_1.fil"
	assert_equal "${#lines[@]}" 8
	assert_equal "${lines[*]}" "8 832 8 2019/03/01 07:55:45 58543 topocentric filterbank"
}

@test "sps-header: the table has SIGPROC's aligned labels and names" {
	run -0 sps-header "$DATA/parkes_8bit_1.fil"
	assert_line "Telescope                        : Parkes"
	assert_line "Data type                        : filterbank (topocentric)"
	assert_line "Source RA (J2000)                : 05:34:31.9"
	assert_line "Source DEC (J2000)               : +22:00:52.0"
	assert_line "Number of samples                : 4096"
	assert_line "Sample time (us)                 : 512"
	for l in "${lines[@]}"; do
		[[ "$l" =~ ^.{33}:\  ]] || fail "not aligned: $l"
	done
}

@test "sps-header: a file, a pipe, a redirect and - print the same" {
	for f in "$DATA"/*.fil; do
		sps-header "$f" >"$BATS_TEST_TMPDIR/file.txt"
		cat "$f" | sps-header >"$BATS_TEST_TMPDIR/pipe.txt"
		sps-header <"$f" >"$BATS_TEST_TMPDIR/redirect.txt"
		cat "$f" | sps-header - >"$BATS_TEST_TMPDIR/dash.txt"
		cmp "$BATS_TEST_TMPDIR/file.txt" "$BATS_TEST_TMPDIR/pipe.txt"
		cmp "$BATS_TEST_TMPDIR/file.txt" "$BATS_TEST_TMPDIR/redirect.txt"
		cmp "$BATS_TEST_TMPDIR/file.txt" "$BATS_TEST_TMPDIR/dash.txt"
	done
	grep -q "Number of samples                : 4096" \
	    "$BATS_TEST_TMPDIR/pipe.txt" ||
	    grep -q "Number of samples                : 187520" \
	    "$BATS_TEST_TMPDIR/pipe.txt"
}

@test "sps-header: sps-fake | sps-header - prints what the file gives" {
	sps-fake -q >"$BATS_TEST_TMPDIR/fake.fil"
	sps-header "$BATS_TEST_TMPDIR/fake.fil" >"$BATS_TEST_TMPDIR/file.txt"
	sps-fake -q | sps-header - >"$BATS_TEST_TMPDIR/pipe.txt"
	run -0 cat "$BATS_TEST_TMPDIR/pipe.txt"
	assert_line --regexp "^Number of samples +: [1-9][0-9]*$"
	cmp "$BATS_TEST_TMPDIR/file.txt" "$BATS_TEST_TMPDIR/pipe.txt"
}

@test "sps-header: --json parses and holds the header and derived values" {
	sps-header --json "$DATA/parkes_1bit.fil" >"$BATS_TEST_TMPDIR/h.json"
	run -0 cat "$BATS_TEST_TMPDIR/h.json"
	assert_line '    "nchans": 832,'
	assert_line '    "tsamp": 0.000512,'
	assert_line '    "source_name": "J0534+2200",'
	assert_line '  "nsamples": 4096,'
	assert_line '  "tobs": 2.097152,'
	assert_line '  "freq_low": 706,'
	assert_line '  "freq_high": 4030,'
	assert_line '  "bandwidth": 3328,'
	assert_line '  "telescope_name": "Parkes",'
	json_valid "$BATS_TEST_TMPDIR/h.json"
}

@test "sps-header: --json escapes quotes, backslashes and control bytes" {
	aux-mkheader "${GOOD[@]}" "source_name:s:a\"b\\c$(printf '\t')d" \
	    HEADER_END @data:8 | sps-header --json >"$BATS_TEST_TMPDIR/h.json"
	run -0 grep source_name "$BATS_TEST_TMPDIR/h.json"
	assert_output '    "source_name": "a\"b\\c\u0009d",'
	json_valid "$BATS_TEST_TMPDIR/h.json"
}

@test "sps-header: a time series shows its reference DM and frequency" {
	aux-mkheader HEADER_START data_type:i:2 nchans:i:1 nbits:i:32 \
	    nifs:i:1 tsamp:d:1e-3 fch1:d:1500 refdm:d:56.77 HEADER_END \
	    @data:4000 >"$BATS_TEST_TMPDIR/x.tim"
	run -0 sps-header "$BATS_TEST_TMPDIR/x.tim"
	assert_line "Data type                        : time series (topocentric)"
	assert_line "Reference DM (pc/cc)             : 56.77"
	assert_line "Reference frequency    (MHz)     : 1500"
	assert_line "Number of samples                : 1000"
	run -0 sps-header --refdm --nsamples --tobs <"$BATS_TEST_TMPDIR/x.tim"
	assert_equal "${lines[*]}" "56.77 1000 1"
}

@test "sps-header: a frequency table gives the channel frequencies" {
	aux-mkheader HEADER_START data_type:i:1 nchans:i:3 nbits:i:8 \
	    nifs:i:1 tsamp:d:1e-3 FREQUENCY_START fchannel:d:1500 \
	    fchannel:d:1490.5 fchannel:d:1470 FREQUENCY_END HEADER_END \
	    @data:30 >"$BATS_TEST_TMPDIR/t.fil"
	run -0 sps-header --frequencies --flow --fhigh "$BATS_TEST_TMPDIR/t.fil"
	assert_equal "${lines[*]}" "1500 1490.5 1470 1470 1500"
	run -0 sps-header "$BATS_TEST_TMPDIR/t.fil"
	assert_line "Highest frequency channel (MHz)  : 1500"
	assert_line "Lowest frequency channel  (MHz)  : 1470"
}

@test "sps-header: keywords of other writers are shown under their names" {
	aux-mkheader "${GOOD[@]}" nsamples:i:77 hdrlen:i:300 \
	    obs_date:s:2020-01-01 HEADER_END @data:8 >"$BATS_TEST_TMPDIR/o.fil"
	run -0 sps-header "$BATS_TEST_TMPDIR/o.fil"
	assert_line "nsamples                         : 77"
	assert_line "hdrlen                           : 300"
	assert_line "obs_date                         : 2020-01-01"
	assert_line "Number of samples                : 2"
}

@test "sps-header: --set fch1 and source_name round trip, data untouched" {
	f="$DATA/parkes_2bit.fil"
	run -0 sps-header -q --set fch1=4031.5 --set "source_name=Crab test" \
	    -o "$BATS_TEST_TMPDIR/e.fil" "$f"
	assert_output ""
	run -0 sps-header --fch1 --source_name --foff --nsamples \
	    "$BATS_TEST_TMPDIR/e.fil"
	assert_equal "${lines[*]}" "4031.5 Crab test -4 4096"
	size=$(sps-header --datasize "$f")
	cmp <(tail -c "$size" "$f") <(tail -c "$size" "$BATS_TEST_TMPDIR/e.fil")
	run -0 sps-header --headersize "$BATS_TEST_TMPDIR/e.fil"
	assert_output "$(($(sps-header --headersize "$f") - 10 + 9))"
}

@test "sps-header: --set from a pipe to a pipe copies the data" {
	f="$DATA/parkes_8bit_1.fil"
	cat "$f" | sps-header -q --set telescope_id=GBT --unset rawdatafile |
	    cat >"$BATS_TEST_TMPDIR/e.fil"
	run -0 sps-header --telescope --rawdatafile --nsamples \
	    "$BATS_TEST_TMPDIR/e.fil"
	assert_output "$(printf 'GBT\n\n4096')"
	cmp <(tail -c 3407872 "$f") <(tail -c 3407872 "$BATS_TEST_TMPDIR/e.fil")
}

@test "sps-header: --set may rewrite the input file itself" {
	cp "$DATA/src1_small.fil" "$BATS_TEST_TMPDIR/s.fil"
	run -0 sps-header -q --set refdm=12.5 -o "$BATS_TEST_TMPDIR/s.fil" \
	    "$BATS_TEST_TMPDIR/s.fil"
	run -0 sps-header --refdm --nsamples "$BATS_TEST_TMPDIR/s.fil"
	assert_equal "${lines[*]}" "12.5 10"
	cmp <(tail -c 3360 "$DATA/src1_small.fil") \
	    <(tail -c 3360 "$BATS_TEST_TMPDIR/s.fil")
	run ls "$BATS_TEST_TMPDIR"
	assert_output "s.fil"
}

@test "sps-header: --set nchans that leaves part of a spectrum fails, no file left" {
	run -1 --separate-stderr sps-header --set nchans=833 \
	    -o "$BATS_TEST_TMPDIR/e.fil" "$DATA/parkes_2bit.fil"
	assert_regex "$stderr" "^sps-header: edited header: .*not a whole number"
	run -1 --separate-stderr sh -c 'cat "$1" | sps-header --set nchans=833 \
	    -o "$2"' sh "$DATA/parkes_2bit.fil" "$BATS_TEST_TMPDIR/e.fil"
	assert_regex "$stderr" "^sps-header: edited header: .*not a whole number"
	run ! compgen -G "$BATS_TEST_TMPDIR/e.fil*"
}

@test "sps-header: --set nchans that divides the data is accepted" {
	sps-header -q --set nchans=416 "$DATA/parkes_2bit.fil" |
	    sps-header --nchans --nsamples >"$BATS_TEST_TMPDIR/v.txt"
	run -0 cat "$BATS_TEST_TMPDIR/v.txt"
	assert_equal "${lines[*]}" "416 8192"
}

@test "sps-header: an edit that breaks the header is refused" {
	run -1 --separate-stderr sps-header --set nbits=3 "$DATA/tutorial.fil"
	assert_equal "$output" ""
	assert_regex "$stderr" "^sps-header: edited header: nbits 3"
}

@test "sps-header: --set with an unknown key or a bad value is a usage error" {
	run -2 sps-header --set bogus=1 "$DATA/tutorial.fil"
	assert_line --index 0 "sps-header: unknown header keyword 'bogus'"
	run -2 sps-header --set nchans=abc "$DATA/tutorial.fil"
	assert_line --index 0 --regexp "^sps-header: nchans: 'abc' is not"
	run -2 sps-header --set nchans "$DATA/tutorial.fil"
	assert_line --index 0 --regexp "^sps-header: --set nchans: expected"
}

@test "sps-header: spectra that are not whole bytes are counted and copied" {
	aux-mkheader HEADER_START data_type:i:1 nchans:i:3 nbits:i:1 \
	    nifs:i:1 tsamp:d:1e-3 fch1:d:1400 foff:d:-1 HEADER_END @data:3 \
	    >"$BATS_TEST_TMPDIR/odd.fil"
	run -0 sps-header --nsamples "$BATS_TEST_TMPDIR/odd.fil"
	assert_output 8
	run -0 sh -c 'cat "$1" | sps-header --nsamples' sh \
	    "$BATS_TEST_TMPDIR/odd.fil"
	assert_output 8
	cat "$BATS_TEST_TMPDIR/odd.fil" | sps-header -q --set fch1=1500 \
	    >"$BATS_TEST_TMPDIR/e.fil"
	cmp <(tail -c 3 "$BATS_TEST_TMPDIR/odd.fil") \
	    <(tail -c 3 "$BATS_TEST_TMPDIR/e.fil")
}

@test "sps-header: random bytes are not a SIGPROC file" {
	aux-mkheader @data:4096 >"$BATS_TEST_TMPDIR/r.fil"
	bad_input "not a SIGPROC file" "$BATS_TEST_TMPDIR/r.fil"
}

@test "sps-header: a header without HEADER_START is refused" {
	aux-mkheader nchans:i:4 nbits:i:8 HEADER_END >"$BATS_TEST_TMPDIR/b.fil"
	bad_input "not a SIGPROC file \(no HEADER_START at byte 0\)" \
	    "$BATS_TEST_TMPDIR/b.fil"
}

@test "sps-header: a truncated header is refused" {
	aux-mkheader "${GOOD[@]}" HEADER_END | head -c 100 \
	    >"$BATS_TEST_TMPDIR/b.fil"
	bad_input "truncated header.*byte [0-9]+" "$BATS_TEST_TMPDIR/b.fil"
}

@test "sps-header: an unknown keyword is named with its byte offset" {
	bad_header "unknown header keyword 'bogus' at byte 200" bogus:i:1 \
	    HEADER_END
}

@test "sps-header: a token of length 0 is refused" {
	bad_header "length 0 \(not in 1\.\.80\)" @len:0: HEADER_END
}

@test "sps-header: a token longer than 80 bytes is refused" {
	bad_header "at byte 200 has length 81 \(not in 1\.\.80\)" \
	    "@len:81:$(printf 'x%.0s' {1..81})" HEADER_END
}

@test "sps-header: a header over 64 KiB is refused" {
	bad_header "header longer than 65536 bytes" @repeat:5000 nbeams:i:1 \
	    HEADER_END
}

@test "sps-header: a header that ends without HEADER_END is refused" {
	bad_header "truncated header.*byte [0-9]+"
}

@test "sps-header: data right after the keywords (no HEADER_END) are refused" {
	bad_header "byte [0-9]+" @data:4000
}

@test "sps-header: nchans 0 is refused" {
	bad_header "nchans 0" nchans:i:0 HEADER_END @data:8
}

@test "sps-header: nbits 3 is refused" {
	bad_header "nbits 3" nbits:i:3 HEADER_END @data:8
}

@test "sps-header: tsamp 0 is refused" {
	bad_header "tsamp 0" tsamp:d:0 HEADER_END @data:8
}

@test "sps-header: a negative tsamp is refused" {
	bad_header "tsamp -6.4e-05" tsamp:d:-64e-6 HEADER_END @data:8
}

@test "sps-header: tsamp NaN is refused" {
	bad_header "tsamp -?nan" tsamp:d:nan HEADER_END @data:8
}

@test "sps-header: nifs 0 is refused" {
	bad_header "nifs 0" nifs:i:0 HEADER_END @data:8
}

@test "sps-header: foff 0 in filterbank data is refused" {
	bad_header "foff 0" foff:d:0 HEADER_END @data:8
}

@test "sps-header: data ending inside a spectrum: the whole spectra, the bytes after them, one warning" {
	local f="$BATS_TEST_TMPDIR/cut.fil" want

	# 4-byte spectra: 2 whole ones and 2 bytes
	aux-mkheader "${GOOD[@]}" HEADER_END @data:10 >"$f"
	want="sps-header: $f: 2 bytes after the last whole spectrum ignored (a cut recording?)"
	run -0 --separate-stderr sps-header "$f"
	assert_line "Data size (bytes)                : 8"
	assert_line "Bytes after the last spectrum    : 2 (ignored: a cut recording?)"
	assert_line "Number of samples                : 2"
	assert_equal "$stderr" "$want"
	echo "$output" >"$BATS_TEST_TMPDIR/file.txt"
	run -0 --separate-stderr sh -c 'cat "$1" | sps-header' sh "$f"
	assert_equal "$output" "$(cat "$BATS_TEST_TMPDIR/file.txt")"
	assert_equal "$stderr" "sps-header: stdin: 2 bytes after the last whole spectrum ignored (a cut recording?)"
	run -0 --separate-stderr sps-header --nsamples --datasize "$f"
	assert_equal "${lines[*]}" "2 8"
	assert_equal "$stderr" "$want"
	sps-header --json "$f" >"$BATS_TEST_TMPDIR/h.json" 2>/dev/null
	json_valid "$BATS_TEST_TMPDIR/h.json"
	run -0 grep -e '"cut_bytes"' -e '"nsamples"' "$BATS_TEST_TMPDIR/h.json"
	assert_equal "${lines[*]}" '  "cut_bytes": 2,   "nsamples": 2,'
}

@test "sps-header: a whole file has no line for bytes after the last spectrum, and cut_bytes 0" {
	run -0 --separate-stderr sps-header "$DATA/parkes_8bit_1.fil"
	refute_line --partial "Bytes after"
	assert_equal "$stderr" ""
	run -0 sps-header --json "$DATA/parkes_8bit_1.fil"
	assert_line '  "cut_bytes": 0,'
}

@test "sps-header: a recording cut 100 bytes short counts its whole spectra" {
	local f="$BATS_TEST_TMPDIR/cut.fil"

	head -c "$(($(stat -c %s "$DATA/parkes_8bit_1.fil") - 100))" \
	    "$DATA/parkes_8bit_1.fil" >"$f"
	run -0 --separate-stderr sps-header "$f"
	assert_line "Number of samples                : 4095"
	assert_line "Bytes after the last spectrum    : 732 (ignored: a cut recording?)"
	assert_equal "$stderr" "sps-header: $f: 732 bytes after the last whole spectrum ignored (a cut recording?)"
	# --set copies the whole spectra
	run -0 --separate-stderr sps-header -q --set source_name=cut \
	    -o "$BATS_TEST_TMPDIR/ed.fil" "$f"
	assert_equal "$stderr" "sps-header: $f: 732 bytes after the last whole spectrum ignored (a cut recording?)"
	run -0 --separate-stderr sps-header --nsamples "$BATS_TEST_TMPDIR/ed.fil"
	assert_output 4095
	assert_equal "$stderr" ""
}

@test "sps-header: data shorter than one spectrum are refused" {
	bad_header "truncated data: 3 bytes, not one whole spectrum of 4" \
	    HEADER_END @data:3
}

@test "sps-header: empty standard input is refused" {
	: >"$BATS_TEST_TMPDIR/empty.fil"
	run -1 --separate-stderr sps-header <"$BATS_TEST_TMPDIR/empty.fil"
	assert_equal "$output" ""
	assert_equal "$stderr" "sps-header: stdin: empty input (no header)"
	run -1 --separate-stderr sps-header "$BATS_TEST_TMPDIR/empty.fil"
	assert_equal "$stderr" "sps-header: $BATS_TEST_TMPDIR/empty.fil: empty input (no header)"
	# an empty pipe: the stage before has failed and said why (sps(7))
	run -1 --separate-stderr sh -c 'cat "$1" | sps-header' sh \
	    "$BATS_TEST_TMPDIR/empty.fil"
	assert_equal "$stderr" ""
}

@test "sps-header: a missing file is named" {
	run -1 --separate-stderr sps-header "$BATS_TEST_TMPDIR/none.fil"
	assert_equal "$output" ""
	assert_regex "$stderr" "^sps-header: .*none.fil: No such file"
}

@test "sps-header: a failed write to stdout is an error" {
	[ -w /dev/full ] || skip "no /dev/full"
	run -1 --separate-stderr sh -c 'sps-header "$1" >/dev/full' sh \
	    "$DATA/tutorial.fil"
	assert_regex "$stderr" "^sps-header: .*No space left on device"
	run -1 --separate-stderr sh -c \
	    'sps-header -q --set fch1=1 "$1" >/dev/full' sh "$DATA/tutorial.fil"
	assert_regex "$stderr" "^sps-header: .*No space left on device"
}

@test "sps-header: --devices lists devices or says why there are none" {
	run --separate-stderr sps-header --devices
	if [ "$status" -eq 0 ]; then
		assert_regex "${lines[0]}" "^0: .*compute capability [0-9]+\.[0-9]+"
	else
		assert_equal "$status" 1
		assert_equal "$output" ""
		assert_regex "$stderr" "^sps-header: (built without CUDA|no NVIDIA driver|no NVIDIA GPU|no CUDA device)"
	fi
}

@test "sps-header: -h prints the usage on stdout" {
	run -0 sps-header -h
	assert_line --index 0 --regexp "^usage: sps-header "
	assert_output --partial "tsamp"
}

@test "sps-header: wrong usage exits 2" {
	run -2 sps-header --bogus "$DATA/tutorial.fil"
	run -2 sps-header "$DATA/tutorial.fil" "$DATA/tutorial.fil"
	assert_line --index 0 --regexp "^sps-header: one input file"
	run -2 sps-header --json --tsamp "$DATA/tutorial.fil"
	run -2 sps-header -o x.fil "$DATA/tutorial.fil"
	run -2 sps-header --devices "$DATA/tutorial.fil"
}

@test "sps-header: every tool run by its path names itself, not the path, in getopt's messages" {
	local t path
	for t in sps-header sps-fake sps-filterbank sps-cornerturn \
	    sps-tscrunch sps-plan sps-dedisperse sps-boxcar sps-peaks; do
		path=$(command -v "$t")
		[[ "$path" == */* ]] || fail "$t is not on PATH"
		run -2 --separate-stderr "$path" --no-such-option
		[[ "${stderr%%$'\n'*}" == "$t: unrecognized option '--no-such-option'" ]] ||
		    fail "$t: first line '${stderr%%$'\n'*}'"
	done
}

# A PRESTO .dat is shown as the header made of its .inf: the same values
# as the .tim written with it (sps-formats(5), PRESTO TIME SERIES)
@test "sps-header: a PRESTO .dat shows the header of its .inf" {
	local t=$BATS_TEST_TMPDIR k

	sps-fake -q --nchans 16 --tobs 1 -o "$t/f.fil"
	sps-dedisperse -q -d 30 -o "$t/s" --presto "$t/f.fil"
	for k in --nsamples --tsamp --tstart --refdm --fch1 --source_name \
	    --nchans --nbits --data_type; do
		run -0 sps-header "$k" "$t/s_DM30.00.tim"
		want=$output
		run -0 sps-header "$k" "$t/s_DM30.00.dat"
		assert_equal "$output" "$want"
	done
	run -1 --separate-stderr sps-header "$t/nothere.dat"
	cp "$t/s_DM30.00.dat" "$t/lone.dat"
	run -1 --separate-stderr sps-header "$t/lone.dat"
	assert_equal "$stderr" "sps-header: $t/lone.dat: no $t/lone.inf beside it (No such file or directory): a PRESTO .dat is described by its .inf"
}

@test "sps-header: a PSRFITS file's own telescope and backend are shown; sps-filterbank writes their SIGPROC codes" {
	# src1_small.fits: TELESCOP 'VLA', BACKEND 'YUPPI'
	run -0 sps-header "$DATA/src1_small.fits"
	assert_line "Telescope                        : VLA"
	assert_line "Datataking Machine               : YUPPI"
	run -0 sps-header --telescope --machine "$DATA/parkes_4bit.sf"
	assert_equal "${lines[*]}" "Parkes Medusa"
	# VLA is PRESTO's telescope 12; YUPPI is in neither list: no code
	sps-filterbank -q "$DATA/src1_small.fits" -o "$BATS_TEST_TMPDIR/v.fil"
	run -0 sps-header --json "$BATS_TEST_TMPDIR/v.fil"
	assert_line --partial '"telescope_id": 12,'
	refute_line --partial '"machine_id"'
	run -0 sps-header --telescope --machine "$BATS_TEST_TMPDIR/v.fil"
	assert_equal "${lines[*]}" "VLA unknown"
}
