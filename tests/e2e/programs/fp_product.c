/* Floating-point conditions that Z3's IEEE arithmetic does not decide in
 * time: a product of three doubles within 1e-6 of 7.3 (t0504). */
extern double __VERIFIER_nondet_double(void);
extern void reach_error(void);
int main(void) {
  double x = __VERIFIER_nondet_double();
  double y = __VERIFIER_nondet_double();
  if (x > 0.5 && y > 1.25) {
    double s = x * x * y;
    if (s > 7.3 - 1e-6 && s < 7.3 + 1e-6) {
      if (x * y > 4.1) { reach_error(); return 1; }
      return 2;
    }
  }
  return 0;
}
