/*
 * crcpkt.c - a checksum-guarded container format as a libFuzzer target
 * (bench/fuzz).
 *
 * Header (8 bytes): magic "PKG" + version 1 or 2, payload length (u16,
 * little endian, at most 200 and within the input), flags (u8), CRC-8
 * (polynomial 0x07) of the payload.  Version 2 adds a 16-bit Adler-like sum
 * of the payload after it.  The payload is a list of records
 * [type u8][len u8][len bytes]:
 *   1 name    printable ASCII, 1..16 bytes
 *   2 counter u32 little endian, must grow from record to record
 *   3 unlock  the key "open" unlocks the container
 *   7 value   u16; 0xBEEF in an unlocked container with flag 0x80 set and
 *             at least two counters seen is the error
 *   other     skipped; more than 4 unknown records end the parse
 * Random inputs almost never pass the CRC, so the record logic is reached
 * only by inputs built with the checksum right.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void reach_error(void) { abort(); }

#define HDR 8
#define MAX_PAYLOAD 200

static uint8_t crc8(const uint8_t *p, size_t n)
{
    uint8_t c = 0;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (uint8_t)(c & 0x80 ? (c << 1) ^ 0x07 : c << 1);
    }
    return c;
}

static uint16_t sum16(const uint8_t *p, size_t n)
{
    uint32_t a = 1, b = 0;
    for (size_t i = 0; i < n; i++) {
        a = (a + p[i]) % 251;
        b = (b + a) % 251;
    }
    return (uint16_t)(b << 8 | a);
}

typedef struct pkt_state {
    uint8_t flags;
    int unlocked;
    int n_counters;
    uint32_t last_counter;
    int unknown;
} pkt_state;

/* One record; 0 ends the parse (malformed). */
static int record(pkt_state *st, uint8_t type, const uint8_t *v, uint8_t len)
{
    switch (type) {
    case 1:
        if (len < 1 || len > 16)
            return 0;
        for (int i = 0; i < len; i++)
            if (v[i] < 0x20 || v[i] > 0x7e)
                return 0;
        return 1;
    case 2: {
        if (len != 4)
            return 0;
        uint32_t c = (uint32_t)v[0] | (uint32_t)v[1] << 8 | (uint32_t)v[2] << 16 | (uint32_t)v[3] << 24;
        if (st->n_counters > 0 && c <= st->last_counter)
            return 0;
        st->last_counter = c;
        st->n_counters++;
        return 1;
    }
    case 3:
        if (len == 4 && memcmp(v, "open", 4) == 0)
            st->unlocked = 1;
        return 1;
    case 7: {
        if (len != 2)
            return 0;
        uint16_t x = (uint16_t)(v[0] | v[1] << 8);
        if (x == 0xBEEF && st->unlocked && (st->flags & 0x80) && st->n_counters >= 2)
            reach_error();
        return 1;
    }
    default:
        return ++st->unknown <= 4;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < HDR || memcmp(data, "PKG", 3) != 0)
        return 0;
    uint8_t version = data[3];
    if (version != 1 && version != 2)
        return 0;
    size_t len = (size_t)data[4] | (size_t)data[5] << 8;
    size_t trailer = version == 2 ? 2 : 0;
    if (len > MAX_PAYLOAD || len + trailer > size - HDR)
        return 0;
    const uint8_t *payload = data + HDR;
    if (crc8(payload, len) != data[7])
        return 0;
    if (version == 2) {
        uint16_t want = (uint16_t)(payload[len] | payload[len + 1] << 8);
        if (sum16(payload, len) != want)
            return 0;
    }
    pkt_state st;
    memset(&st, 0, sizeof st);
    st.flags = data[6];
    size_t i = 0;
    while (i + 2 <= len) {
        uint8_t type = payload[i], rl = payload[i + 1];
        if (rl > len - i - 2)
            return 0;
        if (!record(&st, type, payload + i + 2, rl))
            return 0;
        i += 2 + (size_t)rl;
    }
    return i == len ? 1 + st.unlocked : 0;
}
