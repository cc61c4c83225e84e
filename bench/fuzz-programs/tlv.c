/*
 * tlv.c - a type-length-value packet decoder as a Test-Comp harness
 * (bench/fuzz).
 *
 * Inputs: a header word (__VERIFIER_nondet_uint): version in bits 28-31
 * (must be 2), record count in bits 0-7 (1..8), flags in bits 8-15 (bit 0:
 * strict checksums); then that many top-level records read byte by byte
 * (__VERIFIER_nondet_char): type, length (at least 1), value; 64 bytes at
 * most.  Records are [type][len][value]:
 *   1 sequence  u32 little endian, must equal the previous one + 1
 *   2 text      printable bytes
 *   3 container records nested inside the value (at most 3 levels)
 *   4 checksum  one byte: the sum of every earlier value byte, mod 256
 *   9 command   valid only inside a container at depth 2 after a good
 *               checksum: the value "\xde\xad" is the error
 */
extern unsigned int __VERIFIER_nondet_uint(void);
extern char __VERIFIER_nondet_char(void);
extern void abort(void);
void reach_error(void) { abort(); }

#define MAX_BYTES 64

typedef struct tlv_state {
    unsigned char buf[MAX_BYTES];
    int len;
    unsigned sum;          /* of the value bytes seen so far */
    int checksum_ok;
    int have_seq;
    unsigned seq;
    unsigned flags;
} tlv_state;

static int parse(tlv_state *st, int from, int to, int depth);

static int record(tlv_state *st, int type, const unsigned char *v, int len, int from, int depth)
{
    switch (type) {
    case 1: {
        if (len != 4)
            return 0;
        unsigned s = v[0] | v[1] << 8 | v[2] << 16 | (unsigned)v[3] << 24;
        if (st->have_seq && s != st->seq + 1)
            return 0;
        st->seq = s;
        st->have_seq = 1;
        break;
    }
    case 2:
        for (int i = 0; i < len; i++)
            if (v[i] < 32 || v[i] > 126)
                return 0;
        break;
    case 3:
        if (depth >= 3 || !parse(st, from, from + len, depth + 1))
            return 0;
        return 1; /* the nested values were summed already */
    case 4:
        if (len != 1)
            return 0;
        st->checksum_ok = v[0] == (st->sum & 0xff);
        if (!st->checksum_ok && (st->flags & 1))
            return 0; /* strict mode */
        break;
    case 9:
        if (depth != 2 || !st->checksum_ok)
            return 0;
        if (len == 2 && v[0] == 0xde && v[1] == 0xad)
            reach_error();
        break;
    default:
        return 0;
    }
    for (int i = 0; i < len; i++)
        st->sum += v[i];
    return 1;
}

/* The records of buf[from, to); 0 when malformed. */
static int parse(tlv_state *st, int from, int to, int depth)
{
    int i = from;
    while (i < to) {
        if (to - i < 2)
            return 0;
        int type = st->buf[i], len = st->buf[i + 1];
        if (len > to - i - 2)
            return 0;
        if (!record(st, type, st->buf + i + 2, len, i + 2, depth))
            return 0;
        i += 2 + len;
    }
    return 1;
}

int main(void)
{
    tlv_state st = {{0}, 0, 0, 0, 0, 0, 0};
    unsigned hdr = __VERIFIER_nondet_uint();
    if (hdr >> 28 != 2)
        return 1;
    int count = (int)(hdr & 0xff);
    if (count < 1 || count > 8)
        return 2;
    st.flags = (hdr >> 8) & 0xff;
    /* count records at the top level: [type][len][len bytes] each */
    for (int r = 0; r < count; r++) {
        if (st.len + 2 > MAX_BYTES)
            return 3;
        st.buf[st.len++] = (unsigned char)__VERIFIER_nondet_char();
        int len = (unsigned char)__VERIFIER_nondet_char();
        if (len == 0 || st.len + 1 + len > MAX_BYTES)
            return 4;
        st.buf[st.len++] = (unsigned char)len;
        for (int k = 0; k < len; k++)
            st.buf[st.len++] = (unsigned char)__VERIFIER_nondet_char();
    }
    if (!parse(&st, 0, st.len, 1))
        return 5;
    return st.checksum_ok ? 0 : 6;
}
