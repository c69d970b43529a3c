/* The second half of a sweep (bench/sweep): gathers the JSON reports of its
 * runs into one table and draws it. A report is emu's JSON object alone (a
 * job keeps the program's lines apart), or emu's whole stdout, the
 * program's lines and then the object, which is read the same. The table,
 * DIR/results.csv, has one row per run: the program, the value of each
 * option the sweep varied, then each statistic of emu's report
 * (emu/report.c), in the order of `stats` below. The plots,
 * DIR/PROG.collisions.svg and DIR/PROG.timesteps.svg, show each statistic
 * against x, one line per routing (and per value of the other options
 * varied, named OPTION=VALUE: "dmodk buffer=2"), one panel per duplex mode
 * side by side. x is the machine's size N, or, in a sweep that set a
 * program's vals (columns D:NAME, bench/sweep --define) but not its
 * --procs, the first val set. The x axis is in powers of two when every x
 * is one, else linear. Runs that differ only in their seed are one point:
 * their mean, with a bar from the least to the greatest. DIR/tables.md
 * holds the same figures at each program's largest x as Markdown tables,
 * program by routing; a cell whose runs did not all end normally says
 * how they ended ("709 (fault)", "2,320.5 (1 of 2 limit)"), and in the
 * plots such a point is ringed.
 *
 *   collect DIR                 the reports listed in DIR/plan.csv
 *   collect --csv FILE DIR      the plots and tables of a table written before
 *
 * Both the table and the plots are the same bytes on every machine, so
 * that a test can hold a committed plot to the table it came from.
 *
 * Every field is checked as it is read, and a bad one named with its file,
 * its row (a line of a table) and its column; the status is then 1. A
 * report with a bad field is left out of the table, like a report that is
 * not JSON; a table with one draws nothing. Numbers must be finite, N (the
 * column processors) a whole number from 1 to 2^53, a val set an integer
 * and the statistics drawn from 0 to 2^53, so that every point has a place
 * on the axes and a table
 * cell. A table is read back by cutting its lines at commas, here as with
 * awk or cut, so a report's string that holds a comma, a quote or a control
 * character such as a line break is refused rather than quoted: quoting
 * would ask every reader of the table for a CSV parser, and emu writes no
 * such string. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/lib/json.h"
#include "bench/lib/svg.h"
#include "common/outfile.h"
#include "common/plural.h"

/* The statistics of a report that the table keeps, in its column order:
 * the scalars at the top level of emu's JSON. */
static const char *const stats[] = {
    "end", "exit_status", "processors", "programmed", "timesteps", "collisions",
    "link_collisions", "buffer_collisions", "instructions", "stalls_in", "stalls_out",
    "packets_sent", "packets_delivered", "packets_read", "latency_min", "latency_mean",
    "latency_max", "links_crossed", "port_waits", "max_buffer", "multicasts", "copies",
    "switching", "messages", "flits_sent", "flits_delivered", "vcs", "network_deadlock",
};
enum {
    NSTATS = sizeof stats / sizeof *stats,
    MAX_COLS = 64,       /* cells a line of a table */
    VALUE_MAX = 256      /* bytes of a report's value, with its '\0' */
};

/* The largest count kept: 2^53, below which a double holds every whole
 * number, so that N converts to an integer and a mean prints exactly. */
static const double max_count = 0x1p53;

/* A CSV table read into memory: every cell a string. */
typedef struct Table {
    char *text;              /* the file, cut into cells in place */
    size_t ncols;
    char *head[MAX_COLS];
    size_t nrows;
    char ***rows;            /* rows[r][c] */
} Table;

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t size = 0, cap = 4096;
    char *text = malloc(cap);
    for (size_t got; text && (got = fread(text + size, 1, cap - size - 1, f)) > 0; ) {
        size += got;
        if (size + 1 == cap) {
            char *more = realloc(text, cap *= 2);
            if (!more)
                free(text);
            text = more;
        }
    }
    fclose(f);
    if (text)
        text[size] = '\0';
    return text;
}

/* Splits a line at its commas (cells hold none: they are names, numbers
 * and paths that bench/sweep accepts) and keeps the first max cells: the
 * number of cells, which may be more than max. */
static size_t split(char *line, char **cells, size_t max)
{
    size_t n = 0;
    for (char *c = line;; c++) {
        if (n < max)
            cells[n] = c;
        n++;
        c = strchr(c, ',');
        if (!c)
            break;
        *c = '\0';
    }
    return n;
}

static void table_free(Table *t)
{
    for (size_t r = 0; r < t->nrows; r++)
        free(t->rows[r]);
    free(t->rows);
    free(t->text);
}

/* Reads a CSV written by bench/sweep or by this program; the text stays
 * allocated, the cells pointing into it. */
static int table_read(Table *t, const char *path)
{
    char *text = read_file(path);
    if (!text) {
        fprintf(stderr, "collect: %s: cannot read: %s\n", path, strerror(errno));
        return 1;
    }
    memset(t, 0, sizeof *t);
    t->text = text;
    size_t lines = 0;
    for (char *c = text; *c; c++)
        lines += *c == '\n';
    t->rows = calloc(lines + 1, sizeof *t->rows);
    char *line = text;
    for (size_t i = 0; t->rows && *line; i++) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        char *cells[MAX_COLS];
        size_t n = split(line, cells, MAX_COLS);
        if (n > MAX_COLS) {
            fprintf(stderr, "collect: %s:%zu: %zu cells, more than %d\n", path, i + 1, n,
                    MAX_COLS);
            table_free(t);
            return 1;
        }
        if (i == 0) {
            t->ncols = n;
            memcpy(t->head, cells, n * sizeof *cells);
        } else if (n != t->ncols) {
            fprintf(stderr, "collect: %s:%zu: %zu %s, the header has %zu\n", path, i + 1, n,
                    plural(n, "cell", "cells"), t->ncols);
            table_free(t);
            return 1;
        } else if ((t->rows[t->nrows] = malloc(n * sizeof *cells))) {
            memcpy(t->rows[t->nrows++], cells, n * sizeof *cells);
        }
        if (!nl)
            break;
        line = nl + 1;
    }
    return t->rows ? 0 : 1;
}

static int column(const Table *t, const char *name)
{
    for (size_t c = 0; c < t->ncols; c++)
        if (strcmp(t->head[c], name) == 0)
            return (int)c;
    return -1;
}

/* ---- checking the fields ---------------------------------------------------------- */

/* Whether text is a number as JSON writes one that fits a double (strtod
 * alone would also take spaces, hex, inf and nan); its value in *v. */
static bool number(const char *text, double *v)
{
    char *end;
    if (!text[0] || text[strspn(text, "0123456789+-.eE")])
        return false;
    *v = strtod(text, &end);
    return *end == '\0' && isfinite(*v);
}

/* Whether a column holds the values of a val set by -D: D:NAME. */
static bool is_define(const char *name)
{
    return strncmp(name, "D:", 2) == 0;
}

/* Why a cell of column `name` cannot be read as collect reads it, or NULL
 * if it can: N a whole number of processors, a val set an integer, the
 * statistics drawn counts or empty (a run that has none). Other columns
 * are names, read as they are. */
static const char *bad_cell(const char *name, const char *text)
{
    double v;
    if (strcmp(name, "processors") == 0)
        return number(text, &v) && v >= 1 && v <= max_count && v == floor(v)
                   ? NULL : "is not a whole number from 1 to 2^53";
    if (is_define(name))
        return number(text, &v) && fabs(v) <= max_count && v == floor(v)
                   ? NULL : "is not an integer";
    if (strcmp(name, "collisions") == 0 || strcmp(name, "timesteps") == 0)
        return !text[0] || (number(text, &v) && v >= 0 && v <= max_count)
                   ? NULL : "is not a number from 0 to 2^53";
    return NULL;
}

/* The JSON type of each statistic in emu's report: JSON_TRUE stands for
 * true or false. */
static JsonType stat_type(const char *name)
{
    if (strcmp(name, "end") == 0 || strcmp(name, "switching") == 0)
        return JSON_STRING;
    return strcmp(name, "network_deadlock") == 0 ? JSON_TRUE : JSON_NUMBER;
}

/* Why a report's statistic, of type `type` and text value, cannot be a
 * cell of the table, or NULL if it can (null or absent is an empty cell). */
static const char *bad_stat(const char *name, JsonType type, const char *value)
{
    JsonType want = stat_type(name);
    double v;
    if (type == JSON_NULL || type == JSON_NONE)
        return bad_cell(name, "");
    if (type != want && !(want == JSON_TRUE && type == JSON_FALSE))
        return want == JSON_STRING ? "is not a string"
               : want == JSON_NUMBER ? "is not a number" : "is not true or false";
    if (strlen(value) + 1 >= VALUE_MAX)
        return "is too long";
    for (const char *c = value; *c; c++)
        if (*c == ',' || *c == '"' || (unsigned char)*c < 0x20)
            return "holds a comma, a quote or a control character, which no cell of a "
                   "table can";
    if (type == JSON_NUMBER && !number(value, &v))
        return "is not a finite number";
    return bad_cell(name, value);
}

/* Names the field that `why` refuses: its file, its line if it has one
 * (a table's), its column and its value. Returns 1. */
static int refuse(const char *file, size_t line, const char *name, const char *value,
                  const char *why)
{
    char where[32] = "";
    if (line)
        snprintf(where, sizeof where, ":%zu", line);
    fprintf(stderr, "collect: %s%s: %s: '%s' %s\n", file, where, name, value, why);
    return 1;
}

/* ---- the table of results ------------------------------------------------------- */

/* The cells of plan row r's report, into cells[s] for each statistic s
 * kept: 0, or 1 when a field of the report or of the row is refused. */
static int read_report(const Table *plan, size_t r, const char *plan_path, const char *obj,
                       const bool *keep, char (*cells)[VALUE_MAX])
{
    int report = column(plan, "report");
    for (size_t c = 0; c < plan->ncols; c++) {
        const char *why = (int)c == report ? NULL : bad_cell(plan->head[c], plan->rows[r][c]);
        if (why)
            return refuse(plan_path, r + 2, plan->head[c], plan->rows[r][c], why);
    }
    for (size_t s = 0; s < NSTATS; s++) {
        if (!keep[s])
            continue;
        JsonType type = json_member(obj, stats[s], cells[s], VALUE_MAX);
        const char *why = bad_stat(stats[s], type, cells[s]);
        if (why)
            return refuse(plan->rows[r][report], 0, stats[s], cells[s], why);
        if (type == JSON_NULL || type == JSON_NONE)
            cells[s][0] = '\0';
    }
    return 0;
}

/* Whether the run of a report that does not exist could not run: its job
 * left REPORT.err (bench/sweep), emu's message and then a last line "exit
 * status N", and the message's first line, emu's reason, is named with
 * the report. A job not run yet leaves none, and one cut short by a signal
 * none either, or a file without that last line: neither could not run. */
static bool could_not_run(const char *report)
{
    char path[4096], reason[512] = "", line[512];
    snprintf(path, sizeof path, "%s.err", report);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    bool ended = false, line_start = true;
    while (fgets(line, sizeof line, f)) {
        if (!reason[0])
            snprintf(reason, sizeof reason, "%s", line);
        if (line_start)
            ended = strncmp(line, "exit status ", 12) == 0;
        line_start = strchr(line, '\n') != NULL;
    }
    fclose(f);
    if (!ended)
        return false;
    reason[strcspn(reason, "\n")] = '\0';
    fprintf(stderr, "collect: %s: could not run: %s\n", report, reason);
    return true;
}

/* Writes DIR/results.csv from DIR/plan.csv and the reports it names: 0,
 * or 1 when some runs have no report (not run yet, or could not run) or a
 * refused one (the table holds the others), or 2 when there is no table.
 * A statistic with the name of an option varied (switching, vcs) is the
 * option's column. */
static int write_results(const char *dir, const char *csv_path)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/plan.csv", dir);
    Table plan;
    if (table_read(&plan, path))
        return 2;
    int report = column(&plan, "report");
    if (report < 0 || column(&plan, "program") < 0) {
        fprintf(stderr, "collect: %s: no program or report column\n", path);
        table_free(&plan);
        return 2;
    }
    bool keep[NSTATS];
    size_t ncols = plan.ncols - 1;
    for (size_t s = 0; s < NSTATS; s++) {
        keep[s] = column(&plan, stats[s]) < 0;
        ncols += keep[s];
    }
    if (ncols > MAX_COLS) {           /* a table that collect could not read back */
        fprintf(stderr, "collect: %s: %zu columns of results, more than %d\n", path, ncols,
                MAX_COLS);
        table_free(&plan);
        return 2;
    }
    OutFile file;
    char err[1024];
    if (outfile_open(&file, csv_path, err, sizeof err) != 0) {
        fprintf(stderr, "collect: %s\n", err);
        table_free(&plan);
        return 2;
    }
    FILE *out = file.f;
    const char *sep = "";
    for (size_t c = 0; c < plan.ncols; c++, sep = ",")
        if ((int)c != report)
            fprintf(out, "%s%s", sep, plan.head[c]);
    for (size_t s = 0; s < NSTATS; s++)
        if (keep[s])
            fprintf(out, ",%s", stats[s]);
    fputc('\n', out);
    size_t missing = 0, bad = 0, not_run = 0;
    for (size_t r = 0; r < plan.nrows; r++) {
        char *text = read_file(plan.rows[r][report]);
        const char *obj = text ? json_last_object(text) : NULL;
        char cells[NSTATS][VALUE_MAX];
        if (!text && could_not_run(plan.rows[r][report])) {
            not_run++;
            continue;
        }
        if (!text || !obj || !json_valid(obj)) {
            missing += !text;
            if (text)
                fprintf(stderr, "collect: %s: no JSON report\n", plan.rows[r][report]), bad++;
            free(text);
            continue;
        }
        if (read_report(&plan, r, path, obj, keep, cells)) {
            bad++;
            free(text);
            continue;
        }
        sep = "";
        for (size_t c = 0; c < plan.ncols; c++, sep = ",")
            if ((int)c != report)
                fprintf(out, "%s%s", sep, plan.rows[r][c]);
        for (size_t s = 0; s < NSTATS; s++)
            if (keep[s])
                fprintf(out, ",%s", cells[s]);
        fputc('\n', out);
        free(text);
    }
    size_t runs = plan.nrows;
    table_free(&plan);
    if (outfile_commit(&file, err, sizeof err) != 0) {
        fprintf(stderr, "collect: %s\n", err);
        return 2;
    }
    if (not_run)
        fprintf(stderr, "collect: %zu of %zu runs could not run (above); the table holds the "
                "others\n", not_run, runs);
    if (missing)
        fprintf(stderr, "collect: %zu of %zu %s no report yet (run the sweep again)\n",
                missing, runs, plural(missing, "runs has", "runs have"));
    return missing || bad || not_run ? 1 : 0;
}

/* ---- the plots ----------------------------------------------------------------------- */

/* How the plots and tables read a table of results: the column of their x
 * axis, how it is named, and where the statistics start. */
typedef struct Layout {
    int xcol;
    const char *xname;       /* "N", or the val's NAME */
    size_t first_stat;       /* the column "end" */
} Layout;

/* x is N (processors), unless the sweep set vals and left --procs alone:
 * then it is the first val set, as a sweep of a program's size sets that
 * size (-D n=...), and a val that leaves N as it is would be a plot of
 * one point per line against N. */
static Layout layout_of(const Table *t)
{
    Layout l = { column(t, "processors"), "N", (size_t)column(t, "end") };
    if (column(t, "procs") >= 0)
        return l;
    for (size_t c = 0; c < l.first_stat; c++)
        if (is_define(t->head[c])) {
            l.xcol = (int)c;
            l.xname = t->head[c] + 2;
            break;
        }
    return l;
}

/* The columns that set a plot apart (program), a panel (duplex), the x axis
 * and the runs averaged (seed); every other option splits the lines. */
static bool names_a_line(const Table *t, const Layout *l, size_t c)
{
    const char *h = t->head[c];
    return c < l->first_stat && (int)c != l->xcol && strcmp(h, "program") &&
           strcmp(h, "duplex") && strcmp(h, "procs") && strcmp(h, "seed");
}

/* The name of row r's line: the values of the options that split lines,
 * each as OPTION=VALUE (buffer=1, a val's n=64), but a routing by its name
 * alone (benes), which needs none. */
static void line_name(const Table *t, const Layout *l, size_t r, char *buf, size_t size)
{
    buf[0] = '\0';
    for (size_t c = 0; c < l->first_stat; c++)
        if (names_a_line(t, l, c)) {
            size_t len = strlen(buf);
            const char *option = is_define(t->head[c]) ? t->head[c] + 2 : t->head[c];
            bool named = strcmp(option, "routing") != 0;
            snprintf(buf + len, size - len, "%s%s%s%s", len ? " " : "", named ? option : "",
                     named ? "=" : "", t->rows[r][c]);
        }
    if (!buf[0])
        snprintf(buf, size, "runs");
}

/* A list of distinct strings in their first order. */
typedef struct Keys {
    char **key;
    size_t n;
} Keys;

static size_t key_index(Keys *k, const char *s)
{
    for (size_t i = 0; i < k->n; i++)
        if (strcmp(k->key[i], s) == 0)
            return i;
    k->key[k->n] = strdup(s);
    return k->n++;
}

static void keys_free(Keys *k)
{
    for (size_t i = 0; i < k->n; i++)
        free(k->key[i]);
    free(k->key);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The runs of one point: their sum, least and greatest value, count, and
 * whether one of them did not end normally. */
typedef struct Point {
    double sum, lo, hi;
    size_t n;
    bool unfinished;
} Point;

/* Draws statistic `stat` of the rows of one program into path: panels
 * by duplex mode, lines by the other options, points by x. */
static int plot_one(const Table *t, const Layout *l, const char *program, const char *stat,
                    const char *path)
{
    int prog = column(t, "program"), duplex = column(t, "duplex");
    int xcol = l->xcol, ycol = column(t, stat), end = column(t, "end");
    size_t n = t->nrows;
    Keys panels = { calloc(n + 1, sizeof(char *)), 0 }, lines = { calloc(n + 1, sizeof(char *)), 0 };
    double *xs = calloc(n + 1, sizeof *xs);
    size_t nx = 0;
    char name[512];
    for (size_t r = 0; r < n; r++) {
        if (strcmp(t->rows[r][prog], program) != 0)
            continue;
        key_index(&panels, duplex < 0 ? "" : t->rows[r][duplex]);
        line_name(t, l, r, name, sizeof name);
        key_index(&lines, name);
        double x = atof(t->rows[r][xcol]);
        size_t i = 0;
        while (i < nx && xs[i] != x)
            i++;
        if (i == nx)
            xs[nx++] = x;
    }
    qsort(xs, nx, sizeof *xs, by_value);
    size_t np = panels.n, nl = lines.n;
    Point *grid = calloc(np * nl * nx + 1, sizeof *grid);   /* [panel][line][x] */
    for (size_t r = 0; r < n; r++) {
        if (strcmp(t->rows[r][prog], program) != 0 || !t->rows[r][ycol][0])
            continue;
        size_t p = key_index(&panels, duplex < 0 ? "" : t->rows[r][duplex]);
        line_name(t, l, r, name, sizeof name);
        size_t li = key_index(&lines, name);
        double x = atof(t->rows[r][xcol]), y = atof(t->rows[r][ycol]);
        size_t i = 0;
        while (i < nx && xs[i] != x)
            i++;
        if (i == nx)
            continue;                 /* never: table_check made every x a number */
        Point *pt = &grid[(p * nl + li) * nx + i];
        pt->lo = pt->n ? (y < pt->lo ? y : pt->lo) : y;
        pt->hi = pt->n ? (y > pt->hi ? y : pt->hi) : y;
        pt->sum += y;
        pt->n++;
        pt->unfinished |= end >= 0 && strcmp(t->rows[r][end], "normal") != 0;
    }
    /* The series: for each, its points with at least one run, in four
     * arrays of nx places. */
    SvgSeries *series = calloc(np * nl + 1, sizeof *series);
    double *values = calloc(4 * (np * nl * nx + 1), sizeof *values);
    bool *unfinished = calloc(np * nl * nx + 1, sizeof *unfinished);
    SvgPanel *svg_panels = calloc(np + 1, sizeof *svg_panels);
    char (*titles)[64] = calloc(np + 1, sizeof *titles);
    for (size_t p = 0; p < np; p++) {
        for (size_t li = 0; li < nl; li++) {
            SvgSeries *se = &series[p * nl + li];
            double *v = values + 4 * (p * nl + li) * nx;
            se->name = lines.key[li];
            se->x = v, se->y = v + nx, se->lo = v + 2 * nx, se->hi = v + 3 * nx;
            bool *u = unfinished + (p * nl + li) * nx;
            se->unfinished = u;
            for (size_t i = 0; i < nx; i++) {
                const Point *pt = &grid[(p * nl + li) * nx + i];
                if (!pt->n)
                    continue;
                v[se->n] = xs[i];
                v[nx + se->n] = pt->sum / (double)pt->n;
                v[2 * nx + se->n] = pt->lo;
                u[se->n] = pt->unfinished;
                v[3 * nx + se->n++] = pt->hi;
            }
        }
        if (panels.key[p][0])
            snprintf(titles[p], sizeof titles[p], "%s duplex", panels.key[p]);
        svg_panels[p] = (SvgPanel){ titles[p], nl, &series[p * nl] };
    }
    char title[600], xlabel[128], ylabel[128];
    const char *base = strrchr(program, '/') ? strrchr(program, '/') + 1 : program;
    bool by_n = l->xcol == column(t, "processors");
    snprintf(title, sizeof title, "%s: %s by %s", base, stat, by_n ? "machine size" : l->xname);
    snprintf(xlabel, sizeof xlabel, by_n ? "processors (N)" : "%s (-D %s)", l->xname, l->xname);
    snprintf(ylabel, sizeof ylabel, "%s (mean; bars: least to greatest)", stat);
    bool powers_of_two = true;        /* machine sizes, or a val set as one */
    for (size_t i = 0; i < nx; i++) {
        int e;
        powers_of_two &= xs[i] > 0 && frexp(xs[i], &e) == 0.5;
    }
    SvgPlot plot = { title, xlabel, ylabel, np, svg_panels, !powers_of_two };
    OutFile file;
    char err[1024];
    int status = 0;
    if (outfile_open(&file, path, err, sizeof err) != 0) {
        fprintf(stderr, "collect: %s\n", err), status = 1;
    } else if (svg_plot(file.f, &plot) != 0) {
        fprintf(stderr, "collect: %s: a value has no place on the axes\n", path), status = 1;
        outfile_abort(&file);
    } else if (outfile_commit(&file, err, sizeof err) != 0) {
        fprintf(stderr, "collect: %s\n", err), status = 1;
    }
    free(titles), free(svg_panels), free(values), free(unfinished), free(series), free(grid);
    free(xs);
    keys_free(&panels);
    keys_free(&lines);
    return status;
}

/* ---- the tables ------------------------------------------------------------------------ */

/* n with a comma between each group of three digits: 1,234,567. */
static void with_commas(char *buf, size_t size, unsigned long long n)
{
    char digits[32];
    int len = snprintf(digits, sizeof digits, "%llu", n);
    size_t o = 0;
    for (int i = 0; i < len && o + 2 < size; i++) {
        if (i && (len - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
}

/* One cell: the mean of the runs of a program, line and duplex mode at x,
 * as an integer when they agree and to one decimal when they do not, and
 * how many of them did not end normally, by their end: "(deadlock)" when
 * all did, "(1 of 3 fault)" when some did. A run that faulted or reached
 * --max-steps reports only the part that ran, as a deadlock does, and
 * would otherwise read as a complete run. */
static void cell(const Table *t, const Layout *l, const char *program, const char *line,
                 const char *duplex, double x, const char *stat, char *buf, size_t size)
{
    int prog = column(t, "program"), dcol = column(t, "duplex");
    int ycol = column(t, stat), end = column(t, "end");
    enum { KINDS = 8 };
    const char *kind[KINDS];          /* the ends other than normal, in their first order */
    size_t nkinds = 0, count[KINDS] = { 0 };
    size_t runs = 0;
    double sum = 0, lo = 0, hi = 0;
    char name[512];
    for (size_t r = 0; r < t->nrows; r++) {
        line_name(t, l, r, name, sizeof name);
        if (strcmp(t->rows[r][prog], program) || strcmp(name, line) ||
            (dcol >= 0 && strcmp(t->rows[r][dcol], duplex)) || atof(t->rows[r][l->xcol]) != x)
            continue;
        double y = atof(t->rows[r][ycol]);
        lo = runs && lo < y ? lo : y;
        hi = runs && hi > y ? hi : y;
        sum += y;
        runs++;
        const char *e = t->rows[r][end];
        if (strcmp(e, "normal") != 0) {
            size_t k = 0;
            while (k < nkinds && strcmp(kind[k], e) != 0)
                k++;
            if (k == nkinds && nkinds < KINDS)
                kind[nkinds++] = e;
            if (k < nkinds)
                count[k]++;
        }
    }
    if (!runs) {
        snprintf(buf, size, "-");
        return;
    }
    char mean[64];
    snprintf(mean, sizeof mean, "%.1f", lo == hi ? lo : sum / (double)runs);
    with_commas(buf, size, strtoull(mean, NULL, 10));
    size_t len = strlen(buf);
    if (lo != hi)
        snprintf(buf + len, size - len, "%s", strchr(mean, '.'));
    for (size_t k = 0; k < nkinds; k++) {
        len = strlen(buf);
        const char *open = k ? ", " : " (", *close = k + 1 < nkinds ? "" : ")";
        if (count[k] == runs)
            snprintf(buf + len, size - len, "%s%s%s", open, kind[k], close);
        else
            snprintf(buf + len, size - len, "%s%zu of %zu %s%s", open, count[k], runs, kind[k],
                     close);
    }
}

/* x as a table shows it: with commas (65,536), and its sign. */
static void x_text(double x, char *buf, size_t size)
{
    buf[0] = x < 0 ? '-' : '\0';
    with_commas(buf + (x < 0), size - 1, (unsigned long long)fabs(x));
}

/* The rows and columns of the tables: the programs, each at its own
 * largest x, and the lines of the plots. */
typedef struct TableKeys {
    Keys programs, lines;
    double *xmax;            /* [program] */
    bool one_x;              /* every program's largest x the same */
} TableKeys;

/* One table of DIR/tables.md: statistic `stat` in one duplex mode, a row
 * per program at its largest x, a column per line. The heading says the
 * x when the programs share it, and else a column gives each row's. */
static void write_table(FILE *out, const Table *t, const Layout *layout, const TableKeys *k,
                        const char *stat, const char *duplex)
{
    char buf[64];
    x_text(k->xmax[0], buf, sizeof buf);
    if (k->one_x)
        fprintf(out, "%s at %s = %s", stat, layout->xname, buf);
    else
        fprintf(out, "%s at each program's largest %s", stat, layout->xname);
    fprintf(out, "%s%s%s:\n\n| program |", duplex[0] ? ", " : "", duplex,
            duplex[0] ? " duplex" : "");
    if (!k->one_x)
        fprintf(out, " %s |", layout->xname);
    for (size_t l = 0; l < k->lines.n; l++)
        fprintf(out, " `%s` |", k->lines.key[l]);
    fprintf(out, "\n|---|%s", k->one_x ? "" : "---:|");
    for (size_t l = 0; l < k->lines.n; l++)
        fprintf(out, "---:|");
    fputc('\n', out);
    for (size_t p = 0; p < k->programs.n; p++) {
        const char *base = strrchr(k->programs.key[p], '/');
        base = base ? base + 1 : k->programs.key[p];
        fprintf(out, "| `%s` |", base);
        if (!k->one_x) {
            x_text(k->xmax[p], buf, sizeof buf);
            fprintf(out, " %s |", buf);
        }
        for (size_t l = 0; l < k->lines.n; l++) {
            char c[160];
            cell(t, layout, k->programs.key[p], k->lines.key[l], duplex, k->xmax[p], stat, c,
                 sizeof c);
            fprintf(out, " %s |", c);
        }
        fputc('\n', out);
    }
}

/* DIR/tables.md: for collisions and timesteps and each duplex mode, a
 * Markdown table of the programs (rows) by the lines of the plots
 * (columns, the routings), each program at the largest x of its runs: a
 * program of 16 processors in a sweep of --define n=16,64 beside one of
 * 64 shows its figures at 16, not a row of '-'. */
static int write_tables(const Table *t, const Layout *layout, const char *path)
{
    int prog = column(t, "program"), dcol = column(t, "duplex");
    TableKeys k = { { calloc(t->nrows + 1, sizeof(char *)), 0 },
                    { calloc(t->nrows + 1, sizeof(char *)), 0 },
                    calloc(t->nrows + 1, sizeof(double)), true };
    Keys duplexes = { calloc(t->nrows + 1, sizeof(char *)), 0 };
    char name[512];
    for (size_t r = 0; r < t->nrows; r++) {
        size_t known = k.programs.n, p = key_index(&k.programs, t->rows[r][prog]);
        double x = atof(t->rows[r][layout->xcol]);
        k.xmax[p] = p == known || x > k.xmax[p] ? x : k.xmax[p];
        line_name(t, layout, r, name, sizeof name);
        key_index(&k.lines, name);
        key_index(&duplexes, dcol < 0 ? "" : t->rows[r][dcol]);
    }
    for (size_t p = 1; p < k.programs.n; p++)
        k.one_x &= k.xmax[p] == k.xmax[0];
    OutFile file;
    char err[1024];
    int status = 0;
    if (outfile_open(&file, path, err, sizeof err) != 0) {
        fprintf(stderr, "collect: %s\n", err), status = 1;
    } else {
        static const char *const shown[] = { "collisions", "timesteps" };
        for (size_t s = 0; s < 2; s++)
            for (size_t d = 0; d < duplexes.n; d++) {
                fputs(s || d ? "\n" : "", file.f);
                write_table(file.f, t, layout, &k, shown[s], duplexes.key[d]);
            }
        if (outfile_commit(&file, err, sizeof err) != 0)
            fprintf(stderr, "collect: %s\n", err), status = 1;
    }
    keys_free(&k.programs), keys_free(&k.lines), keys_free(&duplexes);
    free(k.xmax);
    return status;
}

/* 0 if t is a table of results whose every cell that collect reads as a
 * number can be read, else 1 after naming the first that cannot. Checked
 * before a file is written, so that a bad table draws nothing. */
static int table_check(const Table *t, const char *path)
{
    static const char *const needed[] = { "program", "end", "processors", "collisions",
                                           "timesteps" };
    static const char *const numeric[] = { "processors", "collisions", "timesteps" };
    for (size_t i = 0; i < sizeof needed / sizeof *needed; i++)
        if (column(t, needed[i]) < 0) {
            fprintf(stderr, "collect: %s: not a table of results (no %s column)\n", path,
                    needed[i]);
            return 1;
        }
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t i = 0; i < sizeof numeric / sizeof *numeric; i++) {
            const char *cell_text = t->rows[r][column(t, numeric[i])];
            const char *why = bad_cell(numeric[i], cell_text);
            if (why)
                return refuse(path, r + 2, numeric[i], cell_text, why);
        }
        for (size_t c = 0; c < t->ncols; c++) {
            const char *why = is_define(t->head[c]) ? bad_cell(t->head[c], t->rows[r][c]) : NULL;
            if (why)
                return refuse(path, r + 2, t->head[c], t->rows[r][c], why);
        }
    }
    return 0;
}

/* Draws the collisions and timesteps of every program of the table into
 * DIR/PROG.collisions.svg and DIR/PROG.timesteps.svg, PROG the program's
 * file name without its extension, and writes DIR/tables.md. */
static int plot_all(const char *csv_path, const char *dir)
{
    Table t;
    if (table_read(&t, csv_path))
        return 1;
    if (table_check(&t, csv_path)) {
        table_free(&t);
        return 1;
    }
    Layout layout = layout_of(&t);
    Keys programs = { calloc(t.nrows + 1, sizeof(char *)), 0 };
    int prog = column(&t, "program"), status = 0;
    for (size_t r = 0; r < t.nrows; r++)
        key_index(&programs, t.rows[r][prog]);
    for (size_t i = 0; i < programs.n; i++) {
        const char *base = strrchr(programs.key[i], '/');
        base = base ? base + 1 : programs.key[i];
        size_t len = strcspn(base, ".");
        static const char *const drawn[] = { "collisions", "timesteps" };
        for (size_t s = 0; s < 2; s++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%.*s.%s.svg", dir, (int)len, base, drawn[s]);
            status |= plot_one(&t, &layout, programs.key[i], drawn[s], path);
        }
    }
    keys_free(&programs);
    char path[4096];
    snprintf(path, sizeof path, "%s/tables.md", dir);
    status |= write_tables(&t, &layout, path);
    table_free(&t);
    return status;
}

static int usage(void)
{
    fprintf(stderr, "usage: collect DIR            (DIR/plan.csv and its reports: "
            "DIR/results.csv, the plots and tables.md)\n"
            "       collect --csv FILE DIR   (the plots and tables.md of a results table, "
            "into DIR)\n");
    return 1;
}

int main(int argc, char **argv)
{
    if (argc == 2 && argv[1][0] != '-') {
        char csv[4096];
        snprintf(csv, sizeof csv, "%s/results.csv", argv[1]);
        int status = write_results(argv[1], csv);
        return status == 2 || plot_all(csv, argv[1]) || status;
    }
    if (argc == 4 && strcmp(argv[1], "--csv") == 0)
        return plot_all(argv[2], argv[3]);
    return usage();
}
