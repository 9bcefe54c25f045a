/*
 * rt_json.c - JSON strings and UTF-8 sequences (rt_json.h); compiled into
 * the runtime and into lmdlc.
 */
#include "rt_json.h"

#include <stdlib.h>
#include <string.h>

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

/* ---- reading ------------------------------------------------------------------ */

/* Appends code point c to b as UTF-8. */
static char *put_utf8(char *b, unsigned c)
{
    if (c < 0x80) {
        *b++ = (char)c;
    } else if (c < 0x800) {
        *b++ = (char)(0xC0 | c >> 6);
        *b++ = (char)(0x80 | (c & 0x3F));
    } else {
        *b++ = (char)(0xE0 | c >> 12);
        *b++ = (char)(0x80 | ((c >> 6) & 0x3F));
        *b++ = (char)(0x80 | (c & 0x3F));
    }
    return b;
}

char *rt_json_decode(const char **p)
{
    const char *q = *p;
    char *out = calloc(strlen(q) * 3 + 1, 1), *b = out;
    if (!out)
        abort();
    for (; *q && *q != '"'; q++) {
        if (*q != '\\') {
            *b++ = *q;
            continue;
        }
        q++;
        static const char named[] = "\"\\/bfnrt", meant[] = "\"\\/\b\f\n\r\t";
        const char *esc = *q ? strchr(named, *q) : NULL;
        if (esc) {
            *b++ = meant[esc - named];
        } else if (*q == 'u' && strspn(q + 1, "0123456789abcdefABCDEF") >= 4) {
            char hex[5] = {q[1], q[2], q[3], q[4], 0};
            b = put_utf8(b, (unsigned)strtoul(hex, NULL, 16));
            q += 4;
        } else {
            free(out);
            return NULL;
        }
    }
    if (*q != '"') {
        free(out);
        return NULL;
    }
    *b = 0;
    *p = q + 1;
    return out;
}

int rt_json_skip_array(const char **p)
{
    int depth = 0;
    for (const char *q = *p; *q; q++) {
        if (*q == '"') {
            q++;
            char *str = rt_json_decode(&q);
            if (!str)
                return -1;
            free(str);
            q--;
        } else if (*q == '[' || *q == '{') {
            depth++;
        } else if ((*q == ']' || *q == '}') && --depth == 0) {
            *p = q + 1;
            return 0;
        }
    }
    return -1;
}
