/* reactive20.c - an eca/rers style reactive program whose deepest state
 * needs 20 inputs in sequence: state k moves on to k+1 on its own value,
 * a 0 sends it back to state 0, other values leave it where it is, and
 * values outside 0..9 are ignored.  It never ends by itself. */
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }
int main(void)
{
    int state = 0;
    while (1) {
        int in = __VERIFIER_nondet_int();
        if (in < 0 || in > 9) continue;
        if (state == 0 && in == 3) state = 1;
        else if (state == 1 && in == 7) state = 2;
        else if (state == 2 && in == 1) state = 3;
        else if (state == 3 && in == 9) state = 4;
        else if (state == 4 && in == 4) state = 5;
        else if (state == 5 && in == 4) state = 6;
        else if (state == 6 && in == 2) state = 7;
        else if (state == 7 && in == 8) state = 8;
        else if (state == 8 && in == 6) state = 9;
        else if (state == 9 && in == 5) state = 10;
        else if (state == 10 && in == 1) state = 11;
        else if (state == 11 && in == 3) state = 12;
        else if (state == 12 && in == 9) state = 13;
        else if (state == 13 && in == 2) state = 14;
        else if (state == 14 && in == 7) state = 15;
        else if (state == 15 && in == 6) state = 16;
        else if (state == 16 && in == 8) state = 17;
        else if (state == 17 && in == 5) state = 18;
        else if (state == 18 && in == 2) state = 19;
        else if (state == 19 && in == 4) reach_error();
        else if (in == 0) state = 0;
    }
}
