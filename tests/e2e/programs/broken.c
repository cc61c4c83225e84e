/* Does not compile. */
int main(void) { return undefined_variable + ; }
