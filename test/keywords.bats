#!/usr/bin/env bats
# The keywords of every SIGPROC-style header the tools write, listed by
# aux-keywords (which walks the header itself), against SIGPROC's own set
# (sigproc.md, "Keywords the reader accepts"): other readers (PRESTO,
# AstroAccelerate, Heimdall) stop or lose their place at any other.  A
# keyword outside the set is allowed only where the data need it:
#   signed          only for signed 8-bit data (value -1)
#   sps_order, sps_block
#                   sps-cornerturn's channel-major and DM-major orders
#   sps_dmtime, sps_block, sps_maxdelay, sps_nchans_in, DM_TABLE
#                   a DM-time stream (sps-dedisperse) or an S/N plane
#                   (sps-boxcar --plane): the trials and blocks
#   sps_scale, sps_offset
#                   an 8- or 16-bit DM-time stream: value = raw * scale
#                   + offset
# These are sps's own streams, which SIGPROC readers should refuse.
# Also uses: sps-fake, sps-filterbank, sps-clean, sps-cornerturn,
# sps-tscrunch, sps-dedisperse, sps-boxcar, sps-header, aux-mkheader.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

bats_require_minimum_version 1.5.0

DATA="$BATS_TEST_DIRNAME/../../shared/data"
CLASSIC="HEADER_START HEADER_END rawdatafile source_name machine_id
    telescope_id data_type nchans nbits nifs nbeams ibeam barycentric
    pulsarcentric nbins nsamples tstart tsamp fch1 foff refdm period
    az_start za_start src_raj src_dej FREQUENCY_START FREQUENCY_END fchannel
    npuls signed"
STREAM="sps_dmtime sps_block sps_maxdelay sps_nchans_in DM_TABLE"

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	sps-fake -q --nchans 16 --nsamples 256 >f8.fil
}

# only FILE [EXTRA ...]: every keyword of FILE is classic or an EXTRA.
only() {
	local file=$1 k
	shift
	run -0 aux-keywords "$file"
	[ "${#lines[@]}" -ge 4 ] || fail "$file: ${lines[*]}"
	for k in "${lines[@]}"; do
		[[ " $(echo $CLASSIC "$@") " == *" $k "* ]] ||
		    fail "$file: keyword $k (all: ${lines[*]})"
	done
}

# has FILE KEY: FILE's header has KEY; lacks FILE KEY: it has not.
has() {
	aux-keywords "$1" | grep -qx "$2" || fail "$1: no $2"
}
lacks() {
	! aux-keywords "$1" | grep -qx "$2" || fail "$1: has $2"
}

@test "keywords: sps-fake writes classic keywords, no signed, at every nbits" {
	local b
	for b in 1 2 4 8 16 32; do
		sps-fake -q --nchans 16 --nsamples 64 --nbits "$b" >"b$b.fil"
		only "b$b.fil"
		lacks "b$b.fil" signed
	done
	sps-fake -q --nchans 1 --nsamples 64 --dm 10 --period 10 >s.tim
	only s.tim
	has s.tim refdm
}

@test "keywords: a classic file keeps its keywords through sps-header --set" {
	sps-header -q --set source_name=B0531+21 --set telescope_id=parkes \
	    f8.fil >e.fil
	only e.fil
	has e.fil source_name
	run -2 sps-header --set signed=1 f8.fil
	assert_output --partial "signed: only a negative value"
	run -2 sps-header --set bandwidth=4 f8.fil
	assert_output --partial "bandwidth: a sigpyproc keyword"
}

@test "keywords: signed is written for signed 8-bit data, and kept" {
	sps-header -q --set signed=-1 f8.fil >s8.fil
	has s8.fil signed
	[ "$(sps-header --signed s8.fil)" = -1 ]
	sps-clean -q s8.fil -o c.fil
	sps-tscrunch -q -t 2 --mean -n 8 s8.fil -o t.fil
	sps-filterbank -q s8.fil -o fb.fil
	for f in c.fil t.fil fb.fil; do
		only "$f"
		has "$f" signed
	done
	sps-tscrunch -q -t 2 s8.fil -o t32.fil
	[ "$(sps-header --nbits t32.fil)" = 32 ]
	lacks t32.fil signed
}

@test "keywords: an unsigned signed keyword read is not written again" {
	aux-mkheader HEADER_START source_name:s:x telescope_id:i:4 nchans:i:4 \
	    nbits:i:8 signed:c:1 tsamp:d:1e-3 nifs:i:1 fch1:d:1400 foff:d:-1 \
	    HEADER_END @data:64 >u.fil
	has u.fil signed
	sps-clean -q --noiqrm u.fil -o c.fil
	sps-filterbank -q u.fil -o fb.fil
	sps-tscrunch -q -t 2 u.fil -o t.fil
	sps-header -q --set source_name=y u.fil >h.fil
	sps-cornerturn -q u.fil -o ch.fil
	sps-cornerturn -q ch.fil -o back.fil
	for f in c.fil fb.fil t.fil h.fil back.fil; do
		only "$f"
		lacks "$f" signed
	done
}

@test "keywords: sigpyproc keywords read are not written" {
	aux-mkheader HEADER_START source_name:s:x telescope_id:i:4 nchans:i:4 \
	    nbits:i:8 tsamp:d:1e-3 nifs:i:1 fch1:d:1400 foff:d:-1 \
	    bandwidth:d:-4 fbottom:d:1396.5 ftop:d:1400.5 hdrlen:i:200 \
	    filename:s:x.fil obs_date:s:2020-01-01 HEADER_END @data:64 >p.fil
	has p.fil hdrlen
	sps-filterbank -q p.fil -o fb.fil
	sps-tscrunch -q -t 2 p.fil -o t.fil
	sps-header -q --set source_name=y p.fil >h.fil
	sps-cornerturn -q p.fil -o ch.fil
	only ch.fil sps_order sps_block
	lacks ch.fil hdrlen
	for f in fb.fil t.fil h.fil; do
		only "$f"
		lacks "$f" hdrlen
	done
}

@test "keywords: sps-filterbank from PSRFITS and SIGPROC, sps-clean" {
	sps-filterbank -q "$DATA/parkes_4bit.sf" -o ps.fil
	only ps.fil
	lacks ps.fil signed
	sps-filterbank -q -b 8 "$DATA/parkes_2bit.fil" -o p8.fil
	only p8.fil
	sps-clean -q "$DATA/parkes_8bit_1.fil" -o c.fil
	only c.fil
	lacks c.fil signed
	only "$BATS_TEST_DIRNAME/../data/sample.fil"
	lacks "$BATS_TEST_DIRNAME/../data/sample.fil" signed
}

@test "keywords: sps-cornerturn adds sps_order only to channel-major data" {
	sps-cornerturn -q f8.fil -o ch.fil
	only ch.fil sps_order sps_block
	has ch.fil sps_order
	sps-cornerturn -q ch.fil -o back.fil
	only back.fil
	lacks back.fil sps_order
	sps-tscrunch -q -t 4 f8.fil -o t.fil
	only t.fil
}

@test "keywords: sps-dedisperse series are classic, DM-time streams say so" {
	sps-dedisperse -q f8.fil -d 10 >one.tim
	only one.tim
	lacks one.tim signed
	mkdir pr
	sps-dedisperse -q f8.fil --dm 0 6 -o pr/x --presto
	for f in pr/*.tim; do only "$f"; done
	sps-dedisperse -q f8.fil --dm 0 10 >s32.dmt
	only s32.dmt $STREAM
	has s32.dmt DM_TABLE
	lacks s32.dmt sps_scale
	sps-dedisperse -q f8.fil --dm 0 10 -b 8 >s8.dmt
	only s8.dmt $STREAM sps_scale sps_offset
	has s8.dmt sps_scale
	sps-boxcar -q --plane s32.dmt >plane.dmt
	only plane.dmt $STREAM
	sps-cornerturn -q --to dm s32.dmt -o dm.dmt
	only dm.dmt $STREAM sps_order
}
