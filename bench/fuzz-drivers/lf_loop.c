/*
 * lf_loop.c - runs a libFuzzer target on fixed inputs in a loop (bench/fuzz,
 * its per-run comparison on a common corpus).
 *
 *   lf_loop SECONDS FILE...
 *
 * Linked with the target compiled by clang-14 -O2
 * -fsanitize=fuzzer-no-link (libFuzzer's own instrumentation: inline 8-bit
 * counters, comparison tracing, PC table) and with libFuzzer's runtime
 * without its main (libclang_rt.fuzzer_no_main), which receives the
 * comparison callbacks.  It calls LLVMFuzzerTestOneInput on the files'
 * contents in turn for SECONDS and prints "execs N secs S execs_per_sec X",
 * as bench/exec_bench does.  libFuzzer's own work per input (mutating,
 * collecting features) is not done, so this is an upper bound of the rate
 * libFuzzer can reach on these inputs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: lf_loop SECONDS FILE...\n");
        return 2;
    }
    double secs = atof(argv[1]);
    int n = argc - 2;
    uint8_t **in = calloc((size_t)n, sizeof *in);
    size_t *len = calloc((size_t)n, sizeof *len);
    if (!in || !len)
        return 1;
    for (int i = 0; i < n; i++) {
        FILE *f = fopen(argv[i + 2], "rb");
        if (!f) {
            fprintf(stderr, "lf_loop: %s: cannot open\n", argv[i + 2]);
            return 1;
        }
        fseek(f, 0, SEEK_END);
        long sz = ftell(f);
        fseek(f, 0, SEEK_SET);
        in[i] = malloc(sz > 0 ? (size_t)sz : 1);
        len[i] = sz > 0 ? fread(in[i], 1, (size_t)sz, f) : 0;
        fclose(f);
    }
    uint64_t runs = 0;
    double t0 = now(), t = t0;
    while (t - t0 < secs) {
        for (int i = 0; i < n; i++) {
            /* a copy per run, as libFuzzer runs each input from a fresh buffer */
            uint8_t *copy = malloc(len[i] ? len[i] : 1);
            memcpy(copy, in[i], len[i]);
            LLVMFuzzerTestOneInput(copy, len[i]);
            free(copy);
        }
        runs += (uint64_t)n;
        t = now();
    }
    printf("execs %llu secs %.2f execs_per_sec %.0f\n", (unsigned long long)runs, t - t0,
           (double)runs / (t - t0));
    return 0;
}
