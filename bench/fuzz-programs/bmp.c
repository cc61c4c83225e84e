/*
 * bmp.c - a BMP image header parser as a Test-Comp harness (bench/fuzz).
 *
 * Inputs: the 54 bytes of a BITMAPFILEHEADER + BITMAPINFOHEADER
 * (__VERIFIER_nondet_char each, little endian fields), then for
 * BI_BITFIELDS three colour masks (__VERIFIER_nondet_uint).  Checks: "BM",
 * header size 40, 108 or 124, data offset past the headers and palette,
 * planes 1, bits per pixel 1/4/8/16/24/32, compression 0 (RGB), 1 (RLE8,
 * 8 bpp only), 2 (RLE4, 4 bpp only) or 3 (BITFIELDS, 16/32 bpp), width
 * 1..2^24, height non-zero (negative: top-down, not with RLE), palette
 * size at most 2^bpp, masks non-zero, contiguous and disjoint.
 * The error models a real bug class: for an uncompressed image the pixel
 * array size is computed in 32 bits; when stride * |height| overflows and
 * the declared image size is small and non-zero, the error is reached.
 */
#include <stdint.h>
extern char __VERIFIER_nondet_char(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern void abort(void);
void reach_error(void) { abort(); }

static uint16_t u16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Non-zero and one run of set bits. */
static int contiguous(uint32_t m)
{
    if (m == 0)
        return 0;
    while (!(m & 1))
        m >>= 1;
    return (m & (m + 1)) == 0;
}

static int check_masks(int bpp)
{
    uint32_t r = __VERIFIER_nondet_uint(), g = __VERIFIER_nondet_uint(),
             b = __VERIFIER_nondet_uint();
    uint32_t limit = bpp == 16 ? 0xffffu : 0xffffffffu;
    if (!contiguous(r) || !contiguous(g) || !contiguous(b))
        return 0;
    if ((r | g | b) > limit || (r & g) || (r & b) || (g & b))
        return 0;
    if (bpp == 16 && r == 0xf800 && g == 0x07e0 && b == 0x001f)
        return 2; /* RGB565 */
    return 1;
}

int main(void)
{
    unsigned char h[54];
    for (int i = 0; i < 54; i++)
        h[i] = (unsigned char)__VERIFIER_nondet_char();
    if (h[0] != 'B' || h[1] != 'M')
        return 1;
    uint32_t offset = u32(h + 10), hsize = u32(h + 14);
    int32_t width = (int32_t)u32(h + 18), height = (int32_t)u32(h + 22);
    uint16_t planes = u16(h + 26), bpp = u16(h + 28);
    uint32_t comp = u32(h + 30), img_size = u32(h + 34), colors = u32(h + 46);
    if (hsize != 40 && hsize != 108 && hsize != 124)
        return 2;
    if (planes != 1)
        return 3;
    if (bpp != 1 && bpp != 4 && bpp != 8 && bpp != 16 && bpp != 24 && bpp != 32)
        return 4;
    if (width <= 0 || width > (1 << 24) || height == 0 || height < -(1 << 24) || height > (1 << 24))
        return 5;
    if (bpp <= 8 && colors > (1u << bpp))
        return 6;
    uint32_t palette = (bpp <= 8 ? (colors ? colors : 1u << bpp) : 0) * 4;
    if (offset < 14 + hsize + palette)
        return 7;
    int rgb565 = 0;
    switch (comp) {
    case 0:
        break;
    case 1:
    case 2:
        if ((comp == 1 && bpp != 8) || (comp == 2 && bpp != 4) || height < 0)
            return 8;
        return img_size ? 10 : 9; /* RLE: the size is the stream's */
    case 3:
        if (bpp != 16 && bpp != 32)
            return 11;
        rgb565 = check_masks(bpp);
        if (!rgb565)
            return 12;
        rgb565 = rgb565 == 2;
        break;
    default:
        return 13;
    }
    uint32_t stride = (((uint32_t)width * bpp + 31) / 32) * 4;
    uint32_t rows = (uint32_t)(height < 0 ? -height : height);
    uint32_t need = stride * rows; /* the bug: 32-bit arithmetic */
    uint64_t real = (uint64_t)stride * rows;
    if (img_size != 0 && img_size < need)
        return 14;
    if (real != need && img_size != 0 && img_size <= 4096 && comp == 3 && rgb565)
        reach_error();
    return height < 0 ? 15 : 16;
}
