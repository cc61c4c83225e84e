/*
 * korat_helper.c - the fixed part of the Korat repOk helper that
 * kharness_korat writes (src/search/bounded/kharness.c, see kharness.h):
 * it reads candidate vectors on fd 0, runs repOk on each in a child with
 * its loads traced, and answers the result and the slots repOk read on
 * fd 1.  Not compiled on its own: the generated harness defines before it
 *   CTG_K_SLOTS        slots of a candidate vector (at least 1),
 *   CTG_K_ALARM_S      seconds a repOk call may take,
 *   CTG_K_TOUCH_ROOTS  statements marking the root slots as read,
 *   CTG_K_REPOK        the repOk call on the roots,
 * and ctg_k_alloc / ctg_k_build, and ctg_io (helper_io.c); it defines
 * ctg_k_load after it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define CTG_K_NOTRACE __attribute__((no_sanitize("coverage")))
static volatile int ctg_k_tracing;
static uint32_t *ctg_k_shm;
static unsigned char ctg_k_seen[CTG_K_SLOTS];

CTG_K_NOTRACE static void ctg_k_touch(unsigned s)
{
    if (!ctg_k_seen[s]) {
        ctg_k_seen[s] = 1;
        ctg_k_shm[2 + ctg_k_shm[1]++] = s;
    }
}

/* Records the slot a traced load reads, if it reads one (generated). */
CTG_K_NOTRACE static void ctg_k_load(const void *p);

CTG_K_NOTRACE void __sanitizer_cov_load1(uint8_t *p) { ctg_k_load(p); }
CTG_K_NOTRACE void __sanitizer_cov_load2(uint16_t *p) { ctg_k_load(p); }
CTG_K_NOTRACE void __sanitizer_cov_load4(uint32_t *p) { ctg_k_load(p); }
CTG_K_NOTRACE void __sanitizer_cov_load8(uint64_t *p) { ctg_k_load(p); }
CTG_K_NOTRACE void __sanitizer_cov_load16(void *p) { ctg_k_load(p); }
CTG_K_NOTRACE void __sanitizer_cov_8bit_counters_init(char *a, char *b) { (void)a; (void)b; }

int main(void)
{
    int in = dup(0), out = dup(1), null = open("/dev/null", O_RDWR);
    dup2(null, 0), dup2(null, 1);
    ctg_k_shm = (uint32_t *)mmap(0, sizeof(uint32_t) * (CTG_K_SLOTS + 2), PROT_READ | PROT_WRITE,
                                 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (ctg_k_shm == MAP_FAILED)
        return 3;
    ctg_k_alloc();
    unsigned v[CTG_K_SLOTS];
    while (ctg_io(in, v, sizeof v, 0)) {
        ctg_k_shm[0] = 2, ctg_k_shm[1] = 0;
        pid_t pid = fork();
        if (pid < 0)
            return 4;
        if (pid == 0) {
            alarm(CTG_K_ALARM_S);
            ctg_k_build(v);
            CTG_K_TOUCH_ROOTS
            ctg_k_tracing = 1;
            int ok = CTG_K_REPOK != 0;
            ctg_k_tracing = 0;
            ctg_k_shm[0] = (uint32_t)ok;
            _exit(0);
        }
        int st;
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
            ;
        if (!ctg_io(out, ctg_k_shm, sizeof(uint32_t) * (2 + ctg_k_shm[1]), 1))
            return 0;
    }
    return 0;
}
