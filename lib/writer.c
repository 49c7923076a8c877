/* writer.c: SIGPROC output with temporary name and rename (writer.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "codec.h"
#include "pipewide.h"
#include "unfinished.h"
#include "writer.h"

static void
release(struct sps_writer *w)
{
	free(w->packbuf);
	free(w->path);
	free(w->tmppath);
	w->packbuf = NULL;
	w->path = w->tmppath = NULL;
	w->f = NULL;
}

void
sps_writer_release_stdout(void)
{
	int fd;

	if (fflush(stdout) != 0 || (fd = open("/dev/null", O_WRONLY)) < 0)
		return;
	if (fd != STDOUT_FILENO) {
		(void)dup2(fd, STDOUT_FILENO);
		close(fd);
	}
}

enum sps_err
sps_writer_open(struct sps_writer *w, const char *path)
{
	struct stat st;

	memset(w, 0, sizeof(*w));
	if (path == NULL || strcmp(path, "-") == 0) {
		w->f = stdout;
		sps_pipe_widen(STDOUT_FILENO);
		return SPS_OK;
	}
	/* a device or FIFO (/dev/null, a named pipe) is written directly:
	 * renaming over it would replace it */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if ((w->f = fopen(path, "wb")) == NULL)
			return sps_fail(SPS_EIO, "%s: %s", path,
			    strerror(errno));
		if ((w->path = strdup(path)) == NULL)
			return sps_fail(SPS_ENOMEM, "out of memory");
		return SPS_OK;
	}
	if ((w->path = strdup(path)) == NULL ||
	    asprintf(&w->tmppath, "%s.tmp.%ld", path, (long)getpid()) < 0) {
		free(w->path);
		w->path = NULL;
		w->tmppath = NULL;
		return sps_fail(SPS_ENOMEM, "out of memory");
	}
	if (sps_unfinished_add(w->tmppath) != SPS_OK) {
		release(w);
		return SPS_ENOMEM;
	}
	if ((w->f = fopen(w->tmppath, "wb")) == NULL) {
		enum sps_err e = sps_fail(SPS_EIO, "%s: %s", path,
		    strerror(errno));

		sps_unfinished_forget(w->tmppath);
		release(w);
		return e;
	}
	return SPS_OK;
}

static enum sps_err
write_failed(struct sps_writer *w)
{
	return sps_fail(SPS_EIO, "%s: write error: %s",
	    w->path != NULL ? w->path : "stdout", strerror(errno));
}

enum sps_err
sps_writer_failed(const struct sps_writer *w, enum sps_err code)
{
	return sps_fail(code, "%s: %s", w->path != NULL ? w->path : "stdout",
	    sps_errmsg());
}

enum sps_err
sps_writer_header(struct sps_writer *w, const struct sps_header *h)
{
	w->nbits = h->nbits;
	w->is_signed = h->nbits == 8 && h->sign < 0;
	w->nvalues = sps_spectrum_values(h);
	if (sps_header_write(w->f, h) != SPS_OK)
		return write_failed(w);
	return SPS_OK;
}

enum sps_err
sps_writer_raw(struct sps_writer *w, const void *buf, size_t len)
{
	if (len > 0 && fwrite(buf, 1, len, w->f) != len)
		return write_failed(w);
	return SPS_OK;
}

static enum sps_err
pack_and_write(struct sps_writer *w, const float *values, size_t n)
{
	size_t len = sps_packed_bytes(n, w->nbits);

	if (len > w->packlen) {
		unsigned char *grown = realloc(w->packbuf, len);

		if (grown == NULL)
			return sps_fail(SPS_ENOMEM, "out of memory");
		w->packbuf = grown;
		w->packlen = len;
	}
	w->nclipped += sps_pack(values, w->packbuf, n, w->nbits, w->is_signed);
	return sps_writer_raw(w, w->packbuf, len);
}

/* Sub-byte values that do not fill a whole byte wait in w->pending. */
enum sps_err
sps_writer_spectra(struct sps_writer *w, const float *buf, size_t n)
{
	size_t nvalues = n * w->nvalues, per_byte, head, whole;
	enum sps_err e;

	if (w->nbits >= 8)
		return pack_and_write(w, buf, nvalues);
	per_byte = 8 / (size_t)w->nbits;
	head = 0;
	if (w->npending > 0) {
		head = per_byte - (size_t)w->npending;
		if (head > nvalues)
			head = nvalues;
		memcpy(w->pending + w->npending, buf, head * sizeof(float));
		w->npending += (int)head;
		if ((size_t)w->npending < per_byte)
			return SPS_OK;
		if ((e = pack_and_write(w, w->pending, per_byte)) != SPS_OK)
			return e;
		w->npending = 0;
	}
	whole = (nvalues - head) / per_byte * per_byte;
	if ((e = pack_and_write(w, buf + head, whole)) != SPS_OK)
		return e;
	w->npending = (int)(nvalues - head - whole);
	memcpy(w->pending, buf + head + whole, w->npending * sizeof(float));
	return SPS_OK;
}

enum sps_err
sps_writer_close(struct sps_writer *w)
{
	enum sps_err e = SPS_OK;

	if (w->npending > 0) {
		e = pack_and_write(w, w->pending, (size_t)w->npending);
		w->npending = 0;
	}
	if (e == SPS_OK && (fflush(w->f) != 0 || ferror(w->f)))
		e = write_failed(w);
	if (w->f != stdout) {
		if (fclose(w->f) != 0 && e == SPS_OK)
			e = write_failed(w);
		w->f = NULL;
		if (w->tmppath == NULL) {
			release(w);
			return e;
		}
		if (e == SPS_OK && rename(w->tmppath, w->path) != 0)
			e = sps_fail(SPS_EIO, "%s: %s", w->path,
			    strerror(errno));
		if (e != SPS_OK)
			unlink(w->tmppath);
		sps_unfinished_forget(w->tmppath);
	}
	release(w);
	return e;
}

void
sps_writer_abort(struct sps_writer *w)
{
	if (w->f != NULL && w->f != stdout) {
		fclose(w->f);
		if (w->tmppath != NULL) {
			unlink(w->tmppath);
			sps_unfinished_forget(w->tmppath);
		}
	}
	if (w->f == stdout)
		fflush(stdout);
	release(w);
}
