/*
 * exec_bench.c - executions per second of ctestgen's executor on one
 * binary, independent of the command line: runs exec_run in a loop for a
 * number of seconds on inputs that change every run (8 bytes, xorshift),
 * then prints one line "execs N secs S execs_per_sec X".  Used by
 * bench/throughput.
 *
 *   exec_bench BINARY N_EDGES N_CMP SECONDS [dist]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/fsutil.h"
#include "exec/exec.h"

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: exec_bench BINARY N_EDGES N_CMP SECONDS [dist]\n");
        return 2;
    }
    exec_config c = {argv[1], (uint32_t)atoi(argv[2]), (uint32_t)atoi(argv[3]), 1000, 0, NULL, NULL, 0, NULL, 0};
    double secs = atof(argv[4]);
    uint32_t flags = argc > 5 && strcmp(argv[5], "dist") == 0 ? CTG_FL_DIST : 0;
    ctg_err e = {{0}};
    exec_t *x = exec_new(&c, &e);
    if (!x) {
        fprintf(stderr, "exec_bench: %s\n", e.msg);
        return 1;
    }
    uint64_t s = 0x9e3779b97f4a7c15ull, n = 0;
    uint8_t in[8];
    double t0 = fs_now(), t = t0;
    while (t - t0 < secs) {
        for (int k = 0; k < 64; k++, n++) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            memcpy(in, &s, sizeof in);
            exec_result r;
            if (!exec_run(x, in, sizeof in, flags, n, &r, &e)) {
                fprintf(stderr, "exec_bench: %s\n", e.msg);
                exec_free(x);
                return 1;
            }
        }
        t = fs_now();
    }
    printf("execs %llu secs %.2f execs_per_sec %.0f\n", (unsigned long long)n, t - t0,
           (double)n / (t - t0));
    exec_free(x);
    return 0;
}
