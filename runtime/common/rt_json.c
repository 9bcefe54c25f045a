/*
 * rt_json.c - JSON strings and UTF-8 sequences (rt_json.h); compiled into
 * the runtime and into lmdlc.
 */
#include "rt_json.h"

size_t rt_utf8_length(const unsigned char *s, size_t n)
{
    size_t len = s[0] >= 0xC2 && s[0] <= 0xDF ? 2
                 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3
                 : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : 0;
    if (len == 0 || len > n)
        return 0;
    for (size_t k = 1; k < len; k++)
        if ((s[k] & 0xC0) != 0x80)
            return 0;
    if ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] > 0x9F)
        || (s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] > 0x8F))
        return 0;
    return len;
}

void rt_json_string(FILE *fp, const char *s, size_t n)
{
    const unsigned char *c = (const unsigned char *)s;
    fputc('"', fp);
    for (size_t i = 0; i < n;) {
        size_t len = c[i] >= 0x80 ? rt_utf8_length(c + i, n - i) : 1;
        if (len == 0)
            fputs("\\ufffd", fp);
        else if (c[i] == '"' || c[i] == '\\')
            fprintf(fp, "\\%c", c[i]);
        else if (c[i] == '\n')
            fputs("\\n", fp);
        else if (c[i] == '\t')
            fputs("\\t", fp);
        else if (c[i] < 0x20 || c[i] == 0x7f)
            fprintf(fp, "\\u%04x", c[i]);
        else
            fwrite(c + i, 1, len, fp);
        i += len ? len : 1;
    }
    fputc('"', fp);
}
