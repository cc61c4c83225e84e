/* Neither main nor LLVMFuzzerTestOneInput. */
int helper(int x) { return x + 1; }
