/* A model of bench/programs/baseline.x in plain C, for test_expected.c: what
 * processor 0 prints, phase by phase, worked out without the network. Each
 * phase of the program ends with finish_phase(op, v): the values v of the
 * 16 processors reduced by op and printed, and each v folded into that
 * processor's running checksum (mix), which the last phase reduces.
 * Included once, by test_expected.c, after its Out helpers. */
#ifndef TESTS_UNIT_BASELINE_MODEL_H
#define TESTS_UNIT_BASELINE_MODEL_H

enum { BL_N = 16 };

static u32 bl_seed;               /* the program's per-processor generator */
static u32 bl_grand[BL_N];        /* each processor's running checksum */

static u32 bl_mix(u32 h, u32 v) { return h * 31u + v; }

static int bl_random(void)        /* the C library's old rand() */
{
    bl_seed = bl_seed * 1103515245u + 12345u;
    return (int)((bl_seed >> 16) & 32767u);
}

/* finish_phase: op 0 adds, 1 xors, 2 takes the (signed) maximum, 3 the minimum. */
static void bl_finish(Out *o, int op, const u32 *v)
{
    u32 t = v[0];
    for (int i = 1; i < BL_N; i++) {
        int32_t a = (int32_t)t, b = (int32_t)v[i];
        t = op == 0 ? t + v[i] : op == 1 ? t ^ v[i] : op == 2 ? (u32)(a > b ? a : b)
                                                              : (u32)(a < b ? a : b);
    }
    out_line(o, 0, (int32_t)t);
    for (int i = 0; i < BL_N; i++)
        bl_grand[i] = bl_mix(bl_grand[i], v[i]);
}

/* ---- phase 1: arithmetic, each function computed the plain way ------------------ */

static int bl_gcd(int a, int b) { while (b) { int t = a % b; a = b; b = t; } return a; }
static int bl_isqrt(int x) { int r = 0; while ((long)(r + 1) * (r + 1) <= x) r++; return r; }
static int bl_bits(u32 x) { int c = 0; for (; x; x &= x - 1) c++; return c; }
static int bl_log2(u32 x) { int l = -1; for (; x; x >>= 1) l++; return l; }
static int bl_digit_sum(int x) { int s = 0; for (; x > 0; x /= 10) s += x % 10; return s; }

static int bl_power_mod(long b, long e, long m)
{
    long r = 1;
    for (long i = 0; i < e; i++)
        r = r * (b % m) % m;
    return (int)r;
}

static int bl_fib_mod(int k, int m)
{
    int a = 0, b = 1;
    for (int i = 0; i < k; i++) { int t = (a + b) % m; a = b; b = t; }
    return a;
}

static int bl_bit_reverse(u32 x, int bits)
{
    u32 r = 0;
    for (int i = 0; i < bits; i++)
        if (x & (1u << i))
            r |= 1u << (bits - 1 - i);
    return (int)r;
}

static int bl_reverse_digits(int x) { int r = 0; for (; x > 0; x /= 10) r = r * 10 + x % 10; return r; }

static int bl_is_prime(int x)
{
    if (x < 2) return 0;
    for (int d = 2; d * d <= x; d++)
        if (x % d == 0) return 0;
    return 1;
}

static int bl_sum_of_divisors(int x)
{
    int s = 0;
    for (int d = 1; d <= x; d++)
        if (x % d == 0) s += d;
    return s;
}

static long bl_binomial(int k, int j)
{
    long r = 1;
    for (int i = 1; i <= j; i++)
        r = r * (k - j + i) / i;
    return r;
}

static int bl_mod_inverse(int a, int m)
{
    for (int x = 1; x < m; x++)
        if ((long)a * x % m == 1) return x;
    return -1;
}

static u32 bl_moves, bl_hanoi_sum;
static void bl_hanoi(int k, int from, int to, int via)
{
    if (k == 0) return;
    bl_hanoi(k - 1, from, via, to);
    bl_moves++;
    bl_hanoi_sum = bl_mix(bl_hanoi_sum, (u32)(from * 3 + to));
    bl_hanoi(k - 1, via, to, from);
}

static u32 bl_arithmetic(int me)
{
    u32 h = (u32)me;
    for (int k = 1; k <= 8; k++) {
        int a = (me + 1) * 97 + k * 13, b = (me + 3) * 41 + k * k;
        int a2 = a % 50 + 1, b2 = b % 40 + 1, x = a * b + k, kk = a % 20 + 1;
        u32 v[] = {(u32)bl_gcd(a, b), (u32)(a2 / bl_gcd(a2, b2) * b2), (u32)bl_isqrt(x),
                   (u32)bl_power_mod(a, b, 40009), (u32)bl_fib_mod(a % 100, 10007),
                   (u32)bl_bits((u32)x), (u32)bl_bit_reverse((u32)a, 12), (u32)bl_log2((u32)x),
                   (u32)bl_digit_sum(x), (u32)bl_reverse_digits(a),
                   (u32)collatz_steps(a % 97 + 1), (u32)bl_is_prime(a),
                   (u32)bl_sum_of_divisors(b), (u32)bl_binomial(kk, b % (kk + 1)),
                   (u32)(b % 60 % 2 == 0), (u32)bl_mod_inverse(a % 1000 + 1, 10007)};
        for (size_t j = 0; j < sizeof v / sizeof v[0]; j++)
            h = bl_mix(h, v[j]);
    }
    h = bl_mix(h, (u32)(2 * (me % 5) + 3));           /* Ackermann A(2, k) = 2k + 3 */
    h = bl_mix(h, (u32)((1 << (me % 4 + 3)) - 3));    /* A(3, k) = 2^(k + 3) - 3 */
    bl_moves = 0;
    bl_hanoi_sum = 0;
    bl_hanoi(me % 6 + 3, 1, 3, 2);
    return bl_mix(bl_mix(h, bl_moves), bl_hanoi_sum);
}

/* sum over k of (first + k + 1) * a[k] */
static u32 bl_weighted(const int *a, int len, int first)
{
    u32 s = 0;
    for (int k = 0; k < len; k++)
        s += (u32)((first + k + 1) * a[k]);
    return s;
}

/* ---- phases 2 to 9 ----------------------------------------------------------- */

static void bl_sorts(Out *o, u32 *v)
{
    int all[64];
    for (int i = 0; i < BL_N; i++) {           /* 2: each sorts 48 values */
        int d[48];
        bl_seed = (u32)(i * 7919 + 1);
        for (int k = 0; k < 48; k++)
            d[k] = bl_random() % 1000 - 500;
        qsort(d, 48, sizeof d[0], cmp_int);
        v[i] = bl_mix(bl_weighted(d, 48, 0), 1);
    }
    bl_finish(o, 0, v);
    for (int i = 0; i < BL_N; i++) {           /* 3: 64 values sorted across all */
        bl_seed = (u32)(i * 31 + 7);
        for (int k = 0; k < 4; k++)
            all[4 * i + k] = bl_random() % 2000 - 1000;
    }
    qsort(all, 64, sizeof all[0], cmp_int);
    for (int i = 0; i < BL_N; i++)
        v[i] = bl_weighted(all + 4 * i, 4, 4 * i);
    bl_finish(o, 0, v);
    memset(v, 0, BL_N * sizeof v[0]);          /* no processor out of order */
    bl_finish(o, 0, v);
}

static void bl_messages(Out *o, u32 *v)
{
    int token = 1, sum = 0;
    memset(v, 0, BL_N * sizeof v[0]);          /* 4: the ring, twice */
    for (int lap = 0; lap < 2; lap++) {
        for (int i = 0; i < BL_N; i++) {
            token = (token * 31 + i + 1) % 65521;
            if (i > 0) v[i] ^= (u32)token;
        }
        v[0] ^= (u32)token;
        out_line(o, 0, token);
    }
    bl_finish(o, 1, v);
    for (int i = 0; i < BL_N; i++) {           /* 5: all-to-all in groups of 8 */
        int group = i / 8 * 8;
        v[i] = 0;
        for (int r = 1; r < 8; r++) {
            int from = group + ((i - group) ^ r);
            v[i] = bl_mix(v[i], (u32)((from * 37 + i * 11) * (r + 1)));
        }
    }
    bl_finish(o, 0, v);
    for (int i = 0; i < BL_N; i++) {           /* 6: broadcast 271828, then scan */
        sum += (271828 % 1009) * (i + 1) % 1009 + i;
        v[i] = (u32)sum;
    }
    bl_finish(o, 2, v);
    for (int i = 0; i < BL_N; i++)
        v[i] -= (u32)(i * 100);
    bl_finish(o, 3, v);
}

static void bl_diffusion_farm_pipeline(Out *o, u32 *v)
{
    int c[128], old[128];
    u32 h = 0;
    for (int g = 0; g < 128; g++)              /* 7: 20 steps on 128 cells */
        c[g] = g * 37 % 101 * 100;
    for (int s = 0; s < 20; s++) {
        memcpy(old, c, sizeof c);
        for (int g = 0; g < 128; g++)
            c[g] = ((g ? old[g - 1] : 0) + 2 * old[g] + (g < 127 ? old[g + 1] : 0)) / 4;
    }
    for (int i = 0; i < BL_N; i++)
        v[i] = bl_weighted(c + 8 * i, 8, 8 * i);
    bl_finish(o, 0, v);
    memset(v, 0, BL_N * sizeof v[0]);          /* 8: 48 tasks, workers 1 .. 8 */
    for (int t = 0; t < 48; t++) {
        u32 r = (u32)(bl_sum_of_divisors(7 * t + 3) + collatz_steps(7 * t + 3));
        h = bl_mix(h, r);
        v[1 + t % 8] += r;
    }
    out_line(o, 0, (int32_t)h);
    bl_finish(o, 0, v);
    memset(v, 0, BL_N * sizeof v[0]);          /* 9: 24 items through 10 stages */
    for (int k = 0; k < 24; k++) {
        long x = (long)(k * k + 1) * (k * k + 1) % 10007 + 17;
        x = bl_bit_reverse((u32)(x ^ 0x5A5A), 16);
        x = bl_digit_sum((int)x) + x / 7;
        x = x * 13 % 65521;
        x += bl_bits((u32)x);
        x += bl_gcd((int)x + 1, 360);
        x = ((x >> 3) + (x << 2)) % 9973;
        v[11] = bl_mix(v[11], (u32)x);
    }
    bl_finish(o, 0, v);
}

/* ---- phases 10 and 11 --------------------------------------------------------- */

static long bl_det(int n, long m[5][5])        /* expansion by the first row */
{
    long d = 0, sub[5][5];
    if (n == 1) return m[0][0];
    for (int c = 0; c < n; c++) {
        for (int i = 1; i < n; i++)
            for (int j = 0, cc = 0; j < n; j++)
                if (j != c) sub[i - 1][cc++] = m[i][j];
        d += (c % 2 ? -1 : 1) * m[0][c] * bl_det(n - 1, sub);
    }
    return d;
}

static u32 bl_matrices(int me)
{
    long a[5][5], b[5][5], c[5][5] = {{0}}, trace = 0;
    u32 h;
    bl_seed = (u32)(me * 104729 + 3);
    for (int r = 0; r < 25; r++) a[r / 5][r % 5] = bl_random() % 7 - 3;
    for (int r = 0; r < 25; r++) b[r / 5][r % 5] = bl_random() % 7 - 3;
    for (int r = 0; r < 25; r++)
        for (int k = 0; k < 5; k++)
            c[r / 5][r % 5] += a[r / 5][k] * b[k][r % 5];
    for (int k = 0; k < 5; k++) trace += c[k][k];
    h = bl_mix(bl_mix(bl_mix((u32)trace, (u32)bl_det(5, a)), (u32)bl_det(5, b)),
               (u32)bl_det(5, c));
    for (int r = 0; r < 5; r++) {              /* row r as a polynomial at me + 2 */
        long p = 0;
        for (int k = 0; k < 5; k++)
            p = ((p * (me + 2) + c[r][k]) % 10007 + 10007) % 10007;
        h = bl_mix(h, (u32)p);
    }
    return h;
}

static int bl_queens(int k, int col, int *rows, int *up, int *down)
{
    int count = 0;
    if (col == k) return 1;
    for (int r = 0; r < k; r++)
        if (!rows[r] && !up[r + col] && !down[r - col + k]) {
            rows[r] = up[r + col] = down[r - col + k] = 1;
            count += bl_queens(k, col + 1, rows, up, down);
            rows[r] = up[r + col] = down[r - col + k] = 0;
        }
    return count;
}

static u32 bl_search(int me)
{
    int rows[12] = {0}, up[24] = {0}, down[24] = {0}, x[20], y[20], w[12], value[12];
    int primes = 0, lcs[21][21], best = 0, hits = 0;
    u32 h;
    bl_seed = (u32)(me * 2654435 + 11);
    h = (u32)bl_queens(me % 3 + 4, 0, rows, up, down);
    for (int q = 2; q < 300 + me * 20; q++) primes += bl_is_prime(q);
    h = bl_mix(h, (u32)primes);
    for (int k = 0; k < 20; k++) { x[k] = bl_random() % 4; y[k] = bl_random() % 4; }
    for (int p = 0; p <= 20; p++)
        for (int q = 0; q <= 20; q++)
            lcs[p][q] = !p || !q ? 0 : x[p - 1] == y[q - 1] ? lcs[p - 1][q - 1] + 1
                      : lcs[p - 1][q] > lcs[p][q - 1] ? lcs[p - 1][q] : lcs[p][q - 1];
    h = bl_mix(h, (u32)lcs[20][20]);
    for (int k = 0; k < 12; k++) { w[k] = bl_random() % 20 + 1; value[k] = bl_random() % 50; }
    for (int set = 0; set < (1 << 12); set++) {    /* every subset of the 12 items */
        int weight = 0, total = 0;
        for (int k = 0; k < 12; k++)
            if (set & (1 << k)) { weight += w[k]; total += value[k]; }
        if (weight <= 60 + me && total > best) best = total;
    }
    h = bl_mix(h, (u32)best);
    for (int k = 0; k < 6; k++) {                  /* which of 0 .. 5 occur in x */
        int found = 0;
        for (int q = 0; q < 20; q++) found |= x[q] == k;
        hits += found;
    }
    return bl_mix(h, (u32)hits);
}

static void baseline(void)
{
    Out o = {0};
    u32 v[BL_N];
    memset(bl_grand, 0, sizeof bl_grand);
    out_line(&o, 0, BL_N);                         /* nprocs */
    for (int i = 0; i < BL_N; i++) v[i] = bl_arithmetic(i);
    bl_finish(&o, 0, v);
    bl_sorts(&o, v);
    bl_messages(&o, v);
    bl_diffusion_farm_pipeline(&o, v);
    for (int i = 0; i < BL_N; i++) v[i] = bl_matrices(i);
    bl_finish(&o, 1, v);
    for (int i = 0; i < BL_N; i++) v[i] = bl_search(i);
    bl_finish(&o, 0, v);
    memcpy(v, bl_grand, sizeof v);                 /* every running checksum */
    bl_finish(&o, 0, v);
    check_file("tests/programs/baseline.expected", &o);
}

#endif
