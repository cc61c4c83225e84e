/* maze.c - the classic symbolic-execution maze: a sequence of moves
 * (w/a/s/d) must walk from the start to '#' without touching a wall. */
extern char __VERIFIER_nondet_char(void);
extern void abort(void);
void reach_error(void) { abort(); }

#define H 7
#define W 11
static const char maze[H][W + 1] = {
    "+-+---+---+",
    "| |     |#|",
    "| | --+ | |",
    "| |   | | |",
    "| +-- | | |",
    "|     |   |",
    "+-----+---+",
};

int main(void)
{
    int x = 1, y = 1;
    for (int i = 0; i < 28; i++) {
        char c = __VERIFIER_nondet_char();
        int ox = x, oy = y;
        switch (c) {
        case 'w': y--; break;
        case 's': y++; break;
        case 'a': x--; break;
        case 'd': x++; break;
        default: return 1; /* not a move */
        }
        if (maze[y][x] == '#')
            reach_error();
        if (maze[y][x] != ' ') {
            x = ox;
            y = oy;
            return 2; /* a wall */
        }
    }
    return 0;
}
