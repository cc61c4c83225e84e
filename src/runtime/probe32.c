/*
 * probe32.c - built with -m32 next to the 32-bit runtime (rt/probe32): the
 * probe host_exec32 runs to learn whether this kernel executes 32-bit
 * programs, without compiling one on every --arch 32 build.
 */
int main(void) { return sizeof(void *) == 4 ? 0 : 1; }
