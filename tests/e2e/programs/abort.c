/* A failing assert for small positive inputs. */
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int main(void)
{
    int x = __VERIFIER_nondet_int();
    assert(x <= 0 || x > 4);
    return 0;
}
