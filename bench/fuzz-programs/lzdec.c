/*
 * lzdec.c - an LZ77/RLE-style decompressor as a libFuzzer target
 * (bench/fuzz).
 *
 * Stream: magic "LZ", the expected output length (u16 little endian, at
 * most 512), then tokens until the output is complete:
 *   0x00-0x7f  literal run: the next (t + 1) bytes are copied
 *   0x80-0xbf  repeat: the next byte repeated (t & 0x3f) + 3 times
 *   0xc0-0xfe  back reference: length (t & 0x3f) + 3, distance 1 + the
 *              next byte (u8), from the output written so far; overlapping
 *              copies allowed
 *   0xff       end of stream
 * Every token is bounds-checked (input, output, distance).  The output
 * length must match exactly.  After decoding, the output is scanned for
 * "CMD:"; the error is a command "CMD:boom" at an output offset of at
 * least 100, which needs back references or runs to get that far.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void reach_error(void) { abort(); }

#define OUT_CAP 512

typedef struct lz {
    const uint8_t *in, *end;
    uint8_t out[OUT_CAP];
    size_t n, want;
} lz;

static int literal(lz *z, unsigned count)
{
    if ((size_t)(z->end - z->in) < count || z->n + count > z->want)
        return 0;
    memcpy(z->out + z->n, z->in, count);
    z->in += count;
    z->n += count;
    return 1;
}

static int repeat(lz *z, unsigned count)
{
    if (z->in >= z->end || z->n + count > z->want)
        return 0;
    memset(z->out + z->n, *z->in++, count);
    z->n += count;
    return 1;
}

static int backref(lz *z, unsigned count)
{
    if (z->in >= z->end)
        return 0;
    size_t dist = (size_t)*z->in++ + 1;
    if (dist > z->n || z->n + count > z->want)
        return 0;
    for (unsigned i = 0; i < count; i++, z->n++)
        z->out[z->n] = z->out[z->n - dist]; /* may overlap: byte by byte */
    return 1;
}

/* Decodes the token stream; 1 when the output has exactly want bytes. */
static int decode(lz *z)
{
    while (z->in < z->end) {
        uint8_t t = *z->in++;
        int ok;
        if (t == 0xff)
            break;
        if (t < 0x80)
            ok = literal(z, (unsigned)t + 1);
        else if (t < 0xc0)
            ok = repeat(z, (unsigned)(t & 0x3f) + 3);
        else
            ok = backref(z, (unsigned)(t & 0x3f) + 3);
        if (!ok)
            return 0;
    }
    return z->n == z->want;
}

/* Looks at the commands in the output. */
static int scan(const lz *z)
{
    int cmds = 0;
    for (size_t i = 0; i + 4 <= z->n; i++) {
        if (memcmp(z->out + i, "CMD:", 4) != 0)
            continue;
        cmds++;
        const uint8_t *arg = z->out + i + 4;
        size_t left = z->n - i - 4;
        if (left >= 4 && memcmp(arg, "boom", 4) == 0 && i >= 100)
            reach_error();
        if (left >= 4 && memcmp(arg, "ping", 4) == 0)
            cmds += 10;
    }
    return cmds;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static lz z;
    if (size < 4 || data[0] != 'L' || data[1] != 'Z')
        return 0;
    z.want = (size_t)data[2] | (size_t)data[3] << 8;
    if (z.want == 0 || z.want > OUT_CAP)
        return 0;
    z.in = data + 4;
    z.end = data + size;
    z.n = 0;
    if (!decode(&z))
        return 0;
    return scan(&z);
}
