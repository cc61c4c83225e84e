__attribute__((unused)) static void ctg_hex(int param, const char *s)
{
    printf("out %d ", param);
    for (; *s; s++)
        printf("%02x", (unsigned char)*s);
    printf("\n");
}

