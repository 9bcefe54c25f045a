// dtoa_vs_fmt.cpp - the runtime's shortest round-trip formatter against
// the fastest one found in Debian: {fmt} (libfmt-dev), whose double
// formatting is Dragonbox (Jeon, 2020).
//
// Optional: bench/run.sh builds it only when a C++ compiler and the fmt
// headers are there, and says so in the results when not.  Nothing of the
// project depends on it.
//
// Usage: dtoa_vs_fmt CSV [ROUNDS]
//
// The values are every field of CSV after its header (a results file of
// the chain, every column).  Each round formats all of them with each of
// the four below, one after the other; the best round of each is kept, as
// ns per value:
//   rt_dtoa        the whole text, as the CSV writer makes it;
//   fmt            fmt::format_to with "{}" (compiled format): the whole
//                  text, shortest round trip, the same notation choice;
//   rt decimal     rt_dtoa's digits and exponent alone (rt_dtoa_decimal,
//                  compiled from rt_dtoa.c by dtoa_core.c), no text;
//   fmt decimal    Dragonbox's digits and exponent alone
//                  (fmt::detail::dragonbox::to_decimal), no text.
// The two texts are compared byte for byte: the figures are only printed
// when they agree.
#include <fmt/compile.h>
#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

extern "C" {
#include "rt_dtoa.h"
unsigned long long rt_dtoa_decimal(double v);
}

static double now()
{
    using clock = std::chrono::steady_clock;
    return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: dtoa_vs_fmt CSV [ROUNDS]\n");
        return 2;
    }
    FILE *f = std::fopen(argv[1], "r");
    if (!f) {
        std::perror(argv[1]);
        return 2;
    }
    int rounds = argc > 2 ? std::atoi(argv[2]) : 7;
    std::vector<double> v;
    std::vector<char> line(1 << 24);
    if (!std::fgets(line.data(), (int)line.size(), f))
        return 2;
    while (std::fgets(line.data(), (int)line.size(), f)) {
        for (char *p = line.data();;) {
            char *e;
            double d = std::strtod(p, &e);
            if (e == p)
                break;
            v.push_back(d);
            if (*e != ',')
                break;
            p = e + 1;
        }
    }
    std::fclose(f);
    // the decimals of nonzero finite magnitudes (Dragonbox takes those)
    std::vector<double> mag;
    for (double d : v)
        if (d != 0 && std::isfinite(d))
            mag.push_back(std::fabs(d));
    size_t n = v.size();
    if (n == 0 || mag.empty()) {
        std::fprintf(stderr, "dtoa_vs_fmt: no values in %s\n", argv[1]);
        return 2;
    }
    std::vector<char> a(n * RT_DTOA_SIZE + 64), b(n * RT_DTOA_SIZE + 64);
    double best[4] = {1e30, 1e30, 1e30, 1e30};
    size_t len_a = 0, len_b = 0;
    unsigned long long sink = 0;
    for (int r = 0; r < rounds; r++) {
        double t0 = now();
        char *p = a.data();
        for (size_t i = 0; i < n; i++) {
            p += rt_dtoa(v[i], p);
            *p++ = '\n';
        }
        double t1 = now();
        char *q = b.data();
        for (size_t i = 0; i < n; i++) {
            q = fmt::format_to(q, FMT_COMPILE("{}"), v[i]);
            *q++ = '\n';
        }
        double t2 = now();
        for (double d : mag)
            sink += rt_dtoa_decimal(d);
        double t3 = now();
        for (double d : mag) {
            auto dec = fmt::detail::dragonbox::to_decimal(d);
            sink += dec.significand + (unsigned long long)dec.exponent;
        }
        double t4 = now();
        double t[4] = {t1 - t0, t2 - t1, t3 - t2, t4 - t3};
        for (int k = 0; k < 4; k++)
            if (t[k] < best[k])
                best[k] = t[k];
        len_a = (size_t)(p - a.data());
        len_b = (size_t)(q - b.data());
    }
    if (len_a != len_b || std::memcmp(a.data(), b.data(), len_a) != 0) {
        std::fprintf(stderr, "dtoa_vs_fmt: the two texts differ\n");
        return 1;
    }
    std::printf("values %zu\nrt_dtoa_ns %.2f\nfmt_ns %.2f\nrt_decimal_ns %.2f\n"
                "fmt_decimal_ns %.2f\nrounds %d\nsink %llu\n",
                n, best[0] / (double)n * 1e9, best[1] / (double)n * 1e9,
                best[2] / (double)mag.size() * 1e9, best[3] / (double)mag.size() * 1e9,
                rounds, sink % 10);
    return 0;
}
