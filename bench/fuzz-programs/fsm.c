/*
 * fsm.c - a session protocol state machine as a Test-Comp harness
 * (bench/fuzz).
 *
 * Inputs: up to 40 commands, each an opcode (__VERIFIER_nondet_int) and an
 * argument (__VERIFIER_nondet_int); opcode 0 ends the session.
 *   1 HELO          IDLE -> GREETED
 *   2 USER uid      GREETED -> USER (uid 1..65535)
 *   3 PASS pin      USER -> AUTH when pin == (uid * 7 + 1711) % 10000;
 *                   three wrong pins lock the machine
 *   4 OPEN channel  AUTH -> OPEN (channel 1..8)
 *   5 SEND n        OPEN: n bytes (1..512) are added to the total
 *   6 CLOSE         OPEN -> AUTH
 *   7 RESET         any -> IDLE (not when locked)
 *   8 ADMIN key     OPEN: with key 0x5eed, channel 3, uid 1000, at least
 *                   three sends totalling exactly 1024 bytes: the error
 * Any other command in the wrong state is counted; ten of them end the
 * session.
 */
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }

enum state { IDLE, GREETED, USER, AUTH, OPEN, LOCKED };

typedef struct session {
    enum state st;
    int uid, bad_pins, channel, sends, total, errors;
} session;

static int expected_pin(int uid) { return (uid * 7 + 1711) % 10000; }

/* One command; 0 when it is not valid in the current state. */
static int step(session *s, int op, int arg)
{
    switch (op) {
    case 1:
        if (s->st != IDLE)
            return 0;
        s->st = GREETED;
        return 1;
    case 2:
        if (s->st != GREETED || arg < 1 || arg > 65535)
            return 0;
        s->uid = arg;
        s->st = USER;
        return 1;
    case 3:
        if (s->st != USER)
            return 0;
        if (arg != expected_pin(s->uid)) {
            if (++s->bad_pins >= 3)
                s->st = LOCKED;
            return 0;
        }
        s->st = AUTH;
        return 1;
    case 4:
        if (s->st != AUTH || arg < 1 || arg > 8)
            return 0;
        s->channel = arg;
        s->sends = s->total = 0;
        s->st = OPEN;
        return 1;
    case 5:
        if (s->st != OPEN || arg < 1 || arg > 512)
            return 0;
        s->sends++;
        s->total += arg;
        return 1;
    case 6:
        if (s->st != OPEN)
            return 0;
        s->st = AUTH;
        return 1;
    case 7:
        if (s->st == LOCKED)
            return 0;
        s->st = IDLE;
        s->uid = s->bad_pins = 0;
        return 1;
    case 8:
        if (s->st != OPEN || arg != 0x5eed)
            return 0;
        if (s->channel == 3 && s->uid == 1000) {
            if (s->sends >= 3 && s->total == 1024)
                reach_error();
            return 1;
        }
        return 0;
    default:
        return 0;
    }
}

int main(void)
{
    session s = {IDLE, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 40; i++) {
        int op = __VERIFIER_nondet_int();
        if (op == 0)
            break;
        int arg = __VERIFIER_nondet_int();
        if (!step(&s, op, arg) && ++s.errors >= 10)
            return 2;
        if (s.st == LOCKED)
            return 3;
    }
    return s.st == OPEN ? 1 : 0;
}
