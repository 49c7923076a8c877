/* sps-cornerturn: turn filterbank data between time-major order
 * (SIGPROC's spectra) and channel-major order (per block, each channel's
 * run of samples), block by block, so that turning twice gives back the
 * input byte for byte.  Nothing seeks: it works through pipes. */
#include <err.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "codec.h"
#include "cornerturn.h"
#include "dmturn.h"
#include "help.h"
#include "psrfits.h"
#include "reader.h"
#include "writer.h"

static const char usage_text[] =
    "usage: sps-cornerturn [-q] [--to channel | time | dm] [--block N]\n"
    "           [-o OUTPUT] [FILE | -]\n";

enum { OPT_TO = 256, OPT_BLOCK, OPT_VERSION };

struct options {
	enum sps_order	 to;
	int		 to_given;
	size_t		 block;		/* 0: not given */
	int		 quiet;
	const char	*output;
	const char	*input;		/* "-": standard input */
};

/* Where blocks come from: a SIGPROC stream of either order (raw bytes,
 * header bytes kept), or any other format (PSRFITS) through the block
 * reader, its values packed in the nbits that holds them exactly (as
 * sps-filterbank writes them). */
struct source {
	struct sps_ct_input	 ci;
	struct sps_reader	 r;
	struct sps_header	 value_hdr;	/* the reader's, value nbits */
	int			 use_reader;
	FILE			*file;
	const struct sps_header	*hdr;
	const unsigned char	*hdr_bytes;	/* NULL: write hdr afresh */
	struct sps_stream_shape	 shape;
	uint64_t		 data_bytes;	/* 0: unknown (a pipe) */
	float			*values;	/* reader path: one block */
};

static void
parse_options(int argc, char **argv, struct options *opt)
{
	static const struct option longopts[] = {
		{ "to", required_argument, NULL, OPT_TO },
		{ "block", required_argument, NULL, OPT_BLOCK },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	memset(opt, 0, sizeof(*opt));
	cli_long_hint(argc, argv, longopts);
	while ((c = getopt_long(argc, argv, "ho:q", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			cli_help(usage_text, help_cornerturn);
		case 'o':
			opt->output = optarg;
			break;
		case 'q':
			opt->quiet = 1;
			break;
		case OPT_BLOCK:
			opt->block = (size_t)cli_long(optarg, "--block", 1,
			    INT32_MAX);
			break;
		case OPT_TO:
			if (strcmp(optarg, "channel") == 0)
				opt->to = SPS_ORDER_CHANNEL;
			else if (strcmp(optarg, "time") == 0)
				opt->to = SPS_ORDER_TIME;
			else if (strcmp(optarg, "dm") == 0)
				opt->to = SPS_ORDER_DM;
			else
				cli_usage_error(usage_text, "--to %s: expected "
				    "channel, time or dm", optarg);
			opt->to_given = 1;
			break;
		case OPT_VERSION:
			cli_version();
		default:
			cli_usage(usage_text, 2);	/* getopt said what is wrong */
		}
	}
	opt->input = cli_input(argc, argv, usage_text);
}

static void
open_source(struct source *src, const char *path)
{
	struct stat st;

	memset(src, 0, sizeof(*src));
	if (strcmp(path, "-") != 0 && sps_reader_is_fits(path)) {
		src->use_reader = 1;
		cli_check(sps_reader_open(&src->r, path), NULL);
		cli_check(sps_header_copy(&src->value_hdr, &src->r.hdr), NULL);
		src->value_hdr.nbits = sps_reader_value_nbits(&src->r);
		src->hdr = &src->value_hdr;
		cli_check(sps_stream_shape(src->hdr, &src->shape), path);
		if (src->r.nsamples != SPS_NSAMPLES_UNKNOWN)
			src->data_bytes = sps_cornerturn_block_bytes(
			    src->r.nsamples, src->shape.ncols,
			    src->shape.nbits);
		return;
	}
	if (strcmp(path, "-") == 0)
		src->file = stdin;
	else if ((src->file = fopen(path, "rb")) == NULL)
		err(1, "%s", path);
	cli_check(sps_ct_input_open(&src->ci, src->file, strcmp(path, "-") ==
	    0 ? "stdin" : path), NULL);
	src->hdr = &src->ci.hdr;
	src->hdr_bytes = src->ci.hdr_bytes;
	src->shape = src->ci.shape;
	if (fstat(fileno(src->file), &st) == 0 && S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_size > src->hdr->length)
		src->data_bytes = (uint64_t)st.st_size - src->hdr->length;
}

static enum sps_err
read_via_reader(struct source *src, unsigned char *buf, size_t n,
    size_t *got)
{
	size_t part, nvalues = src->shape.ncols;
	enum sps_err e = SPS_OK;

	*got = 0;
	while (*got < n) {
		e = sps_reader_read(&src->r, src->values + *got * nvalues,
		    n - *got, &part);
		*got += part;
		if (e != SPS_OK)
			break;
	}
	/* exact: the values are integers of this nbits, or it is 32 */
	sps_pack(src->values, buf, *got * nvalues, src->shape.nbits,
	    src->shape.nbits == 8 && src->hdr->sign < 0);
	return e == SPS_EEOF && *got > 0 ? SPS_OK : e;
}

static enum sps_err
read_block(struct source *src, unsigned char *buf, size_t n, size_t *got)
{
	if (src->use_reader)
		return read_via_reader(src, buf, n, got);
	return sps_ct_input_read(&src->ci, buf, n, got);
}

static void
close_source(struct source *src)
{
	if (src->use_reader) {
		cli_reader_close(&src->r);
		sps_header_free(&src->value_hdr);
	} else {
		cli_cut_warning(src->ci.name, src->ci.cut_bytes, 0);
		sps_ct_input_close(&src->ci);
		if (src->file != stdin)
			fclose(src->file);
	}
	free(src->values);
}

/* The output order and block length, from the options and the input. */
static void
choose_layout(const struct options *opt, const struct source *src,
    enum sps_order *to, size_t *block)
{
	const struct sps_stream_shape *in = &src->shape;
	enum sps_err e;

	if (opt->to_given && opt->to == SPS_ORDER_DM)
		cli_usage_error(usage_text, "--to dm: the input is filterbank "
		    "data, not a DM-time stream");
	*to = opt->to_given ? opt->to : in->order == SPS_ORDER_TIME ?
	    SPS_ORDER_CHANNEL : SPS_ORDER_TIME;
	if (opt->block != 0 && *to == SPS_ORDER_TIME)
		cli_usage_error(usage_text, "--block: the output is "
		    "time-major, which has no blocks");
	if (in->order == SPS_ORDER_CHANNEL) {
		if (opt->block != 0 && opt->block != in->block)
			cli_usage_error(usage_text, "--block %zu: the input "
			    "has blocks of %zu; to change that, pipe it "
			    "through sps-cornerturn --to time first",
			    opt->block, in->block);
		*block = in->block;
		return;
	}
	*block = opt->block != 0 ? opt->block : SPS_CT_BLOCK_DEFAULT;
	e = sps_cornerturn_check_block(*block, in->ncols, in->nbits);
	if (e != SPS_OK)
		cli_usage_error(usage_text, "--block %zu: %s", *block,
		    sps_errmsg());
}

static const char *
order_name(enum sps_order order)
{
	return order == SPS_ORDER_TIME ? "time-major" : "channel-major";
}

/* Read, turn (or copy, when the order stays), write. */
static enum sps_err
turn_blocks(struct source *src, struct sps_writer *w, enum sps_order to,
    size_t block, int quiet, uint64_t *done)
{
	const struct sps_stream_shape *s = &src->shape;
	size_t bytes = sps_cornerturn_block_bytes(block, s->ncols, s->nbits);
	struct sps_cornerturn *plan;
	unsigned char *in, *out;
	uint64_t bytes_done = 0;
	enum sps_err e;
	size_t got;

	*done = 0;
	if ((e = sps_cornerturn_create(&plan, block, s->ncols, s->nbits)) !=
	    SPS_OK)
		return e;
	in = malloc(bytes);
	out = malloc(bytes);
	if (src->use_reader)
		src->values = malloc(block * s->ncols * sizeof(float));
	if (in == NULL || out == NULL || (src->use_reader && src->values ==
	    NULL))
		e = sps_fail(SPS_ENOMEM, "out of memory for blocks of %zu "
		    "bytes", bytes);
	while (e == SPS_OK && (e = read_block(src, in, block, &got)) ==
	    SPS_OK) {
		bytes = sps_cornerturn_block_bytes(got, s->ncols, s->nbits);
		if (to != s->order)
			sps_cornerturn_execute(plan, s->order, in, out, got);
		e = sps_writer_raw(w, to != s->order ? out : in, bytes);
		*done += got;
		bytes_done += bytes;
		if (src->data_bytes > 0)
			cli_progress(quiet, (double)bytes_done /
			    (double)src->data_bytes, *done * src->hdr->tsamp);
	}
	cli_progress_done(quiet);
	sps_cornerturn_free(plan);
	free(in);
	free(out);
	return e == SPS_EEOF ? SPS_OK : e;
}

/* DM-time stream to a DM-major file (-o FILE: written out of order), or
 * a DM-major file back to the stream. */
static void
turn_dmtime(const struct options *opt, struct source *src)
{
	struct sps_writer w;
	enum sps_err e;
	uint64_t n = 0;
	struct stat st;

	if (src->shape.order == SPS_ORDER_DMTIME) {
		if (opt->to_given && opt->to != SPS_ORDER_DM)
			cli_usage_error(usage_text, "a DM-time stream turns "
			    "only --to dm");
		if (opt->output == NULL && (fstat(STDOUT_FILENO, &st) != 0 ||
		    !S_ISREG(st.st_mode)))
			cli_usage_error(usage_text, "--to dm writes out of "
			    "order: give -o FILE");
	} else if (opt->to_given && opt->to != SPS_ORDER_TIME) {
		cli_usage_error(usage_text, "a DM-major file turns only --to "
		    "time");
	}
	cli_check(sps_writer_open(&w, opt->output), NULL);
	if (src->shape.order == SPS_ORDER_DMTIME)
		e = sps_dmturn_to_dm(src->ci.f, src->ci.name, src->hdr, w.f,
		    &n);
	else
		e = sps_dmturn_to_time(src->file, src->ci.name, src->hdr, w.f);
	if (e != SPS_OK)
		cli_output_fail(&w);
	cli_check(sps_writer_close(&w), NULL);
	if (!opt->quiet)
		fprintf(stderr, "sps-cornerturn: %d trials, %s\n",
		    src->hdr->ndms, src->shape.order == SPS_ORDER_DMTIME ?
		    "DM-time stream to DM-major" : "DM-major to DM-time "
		    "stream");
	(void)n;
	close_source(src);
	exit(0);
}

int
main(int argc, char **argv)
{
	struct options opt;
	struct source src;
	struct sps_writer w;
	unsigned char *hdr;
	enum sps_order to;
	size_t hdrlen, block;
	uint64_t nsamples;

	cli_init("sps-cornerturn", argv);
	parse_options(argc, argv, &opt);
	cli_binary_output(opt.output);
	open_source(&src, opt.input);
	if (src.shape.order == SPS_ORDER_DMTIME ||
	    src.shape.order == SPS_ORDER_DM)
		turn_dmtime(&opt, &src);
	choose_layout(&opt, &src, &to, &block);
	cli_check(sps_cornerturn_header(src.hdr, src.hdr_bytes,
	    src.hdr->length, to, block, &hdr, &hdrlen), NULL);
	if (opt.output == NULL && isatty(STDOUT_FILENO))
		cli_fail("not writing binary data to a terminal (use -o FILE "
		    "or a pipe)");
	cli_check(sps_writer_open(&w, opt.output), NULL);
	if (sps_writer_raw(&w, hdr, hdrlen) != SPS_OK ||
	    turn_blocks(&src, &w, to, block, opt.quiet, &nsamples) != SPS_OK)
		cli_output_fail(&w);
	free(hdr);
	cli_check(sps_writer_close(&w), NULL);
	if (!opt.quiet && to == src.shape.order)
		fprintf(stderr, "sps-cornerturn: %llu samples, already %s: "
		    "copied unchanged\n", (unsigned long long)nsamples,
		    order_name(to));
	else if (!opt.quiet)
		fprintf(stderr, "sps-cornerturn: %llu samples, %s to %s, "
		    "blocks of %zu\n", (unsigned long long)nsamples,
		    order_name(src.shape.order), order_name(to), block);
	close_source(&src);
	return 0;
}
