/* Unit tests of the SVG writer of the sweep tools (bench/lib/svg.h): the
 * document is well-formed XML (checked here by a small reader of XML's
 * elements, attributes and entities), with one line per series in each
 * panel, the axes' labels and the legend, names escaped, and the y axis's
 * ticks at round numbers; a point without a place on the axes refuses the
 * plot, and no finite range makes more than a bounded number of ticks. A
 * style's linear x axis starts at 0 with round ticks, and its dashed series
 * are dashed, in the legend too, without dots. A long name widens the
 * legend. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "bench/lib/svg.h"
#include "tests/check.h"

/* Whether text is well-formed XML as svg_plot writes it: an optional
 * <?xml ...?> declaration, then one element, every tag closed in order,
 * attributes quoted, and & only in the five predefined entities. */
static int well_formed(const char *text)
{
    const char *stack[64];
    size_t lens[64];
    int depth = 0, roots = 0;
    const char *p = text;
    if (strncmp(p, "<?xml ", 6) == 0) {
        p = strstr(p, "?>");
        if (!p)
            return 0;
        p += 2;
    }
    while (*p) {
        if (*p == '&') {
            const char *ents[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&apos;" };
            size_t i = 0;
            while (i < 5 && strncmp(p, ents[i], strlen(ents[i])) != 0)
                i++;
            if (i == 5)
                return 0;
            p += strlen(ents[i]);
            continue;
        }
        if (*p == '>')
            return 0;
        if (*p != '<') {
            if (depth == 0 && *p != '\n' && *p != ' ')
                return 0;             /* text outside the root element */
            p++;
            continue;
        }
        int closing = p[1] == '/';
        p += 1 + closing;
        const char *name = p;
        while (*p && strchr(" />\n", *p) == NULL)
            p++;
        size_t len = (size_t)(p - name);
        if (len == 0)
            return 0;
        if (closing) {
            if (depth == 0 || lens[depth - 1] != len || strncmp(stack[depth - 1], name, len))
                return 0;
            depth--;
            if (*p++ != '>')
                return 0;
            continue;
        }
        for (;;) {                    /* attributes: name="value" */
            while (*p == ' ' || *p == '\n')
                p++;
            if (*p == '>' || (p[0] == '/' && p[1] == '>'))
                break;
            while (*p && strchr(" =/>\"<", *p) == NULL)
                p++;
            if (p[0] != '=' || p[1] != '"')
                return 0;
            p += 2;
            while (*p && *p != '"' && *p != '<')
                p++;
            if (*p++ != '"')
                return 0;
        }
        if (*p == '/') {
            p += 2;
            roots += depth == 0;
            continue;
        }
        p++;
        if (depth == 0)
            roots++;
        if (depth == 64)
            return 0;
        stack[depth] = name;
        lens[depth++] = len;
    }
    return depth == 0 && roots == 1;
}

static int count(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = strstr(text, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

static void checker_finds_mistakes(void)
{
    CHECK(well_formed("<svg a=\"1\"><g><path d=\"M0 0\"/></g><text>a &amp; b</text></svg>\n"));
    CHECK(!well_formed("<svg><g></svg></g>"));
    CHECK(!well_formed("<svg><text>a & b</text></svg>"));
    CHECK(!well_formed("<svg a=1></svg>"));
    CHECK(!well_formed("<svg><text>a < b</text></svg>"));
    CHECK(!well_formed("<svg></svg><svg></svg>"));
    CHECK(!well_formed("<svg>"));
}

/* The plot's document, drawn in a style (NULL: svg_plot), as a string to
 * be freed. */
static char *plot_text_styled(const SvgPlot *plot, const SvgStyle *style)
{
    FILE *f = tmpfile();
    if (!f)
        return calloc(1, 1);
    if (style)
        svg_plot_styled(f, plot, style);
    else
        svg_plot(f, plot);
    long size = ftell(f);
    char *text = calloc((size_t)size + 1, 1);
    rewind(f);
    if (text && fread(text, 1, (size_t)size, f) != (size_t)size)
        text[0] = '\0';
    fclose(f);
    return text;
}

static char *plot_text(const SvgPlot *plot) { return plot_text_styled(plot, NULL); }

static void two_panels(void)
{
    static const double x[] = { 16, 64, 256, 1024 };
    static const double y1[] = { 0, 10, 30, 120 }, lo1[] = { 0, 8, 20, 100 },
                        hi1[] = { 0, 12, 40, 150 };
    static const double y2[] = { 5, 5, 5, 5 };
    SvgSeries half[] = { { "benes", 4, x, y1, lo1, hi1, NULL }, { "dmodk", 4, x, y2, NULL, NULL, NULL },
                         { "a<b & \"c\"", 4, x, y2, NULL, NULL, NULL } };
    SvgSeries full[] = { { "dmodk", 3, x, y2, NULL, NULL, NULL }, { "benes", 4, x, y1, lo1, hi1, NULL },
                         { "a<b & \"c\"", 4, x, y2, NULL, NULL, NULL } };
    SvgPanel panels[] = { { "half duplex", 3, half }, { "full duplex", 3, full } };
    SvgPlot plot = { "Collisions & N", "processors (N)", "collisions", 2, panels, false };
    char *svg = plot_text(&plot);
    CHECK(well_formed(svg));
    CHECK_EQ(count(svg, "<path class=\"line\""), 6);
    CHECK_EQ(count(svg, "<g class=\"panel\">"), 2);
    CHECK_CONTAINS(svg, "<title>benes</title>");
    CHECK_CONTAINS(svg, "<title>a&lt;b &amp; &quot;c&quot;</title>");
    CHECK_CONTAINS(svg, ">Collisions &amp; N</text>");
    CHECK_CONTAINS(svg, "class=\"xlabel\"");
    CHECK_CONTAINS(svg, ">processors (N)</text>");
    CHECK_CONTAINS(svg, ">collisions</text>");
    CHECK_CONTAINS(svg, ">half duplex</text>");
    CHECK_CONTAINS(svg, ">full duplex</text>");
    CHECK_CONTAINS(svg, ">1024</text>");
    CHECK_CONTAINS(svg, ">150</text>");       /* the y axis's top tick */
    /* a name gets one colour however the panels order it: three legend lines */
    CHECK_EQ(count(svg, "h24\"/>"), 3);
    CHECK_EQ(count(svg, "<path class=\"error\""), 2);   /* benes's, in each panel */
    free(svg);
}

/* A name too long for the legend's 170 pixels widens the plot, so that it
 * is not cut off at the edge; names of up to 19 characters do not. */
static void long_names_widen_the_legend(void)
{
    static const double x[] = { 16, 64 }, y[] = { 1, 2 };
    SvgSeries one[] = { { "store-forward, B=64", 2, x, y, NULL, NULL, NULL } };
    SvgSeries two[] = { { "dmodk switching=store-forward", 2, x, y, NULL, NULL, NULL } };
    SvgPanel short_panel[] = { { "", 1, one } }, long_panel[] = { { "", 1, two } };
    SvgPlot short_plot = { "t", "x", "y", 1, short_panel, false };
    SvgPlot long_plot = { "t", "x", "y", 1, long_panel, false };
    char *svg = plot_text(&short_plot);
    CHECK_CONTAINS(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"610\" ");
    free(svg);
    svg = plot_text(&long_plot);
    /* 80 + 360 + 16 + 30 + 29 characters at 6.5 pixels */
    CHECK_CONTAINS(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"675\" ");
    CHECK(well_formed(svg));
    free(svg);
}

static void empty_and_flat(void)
{
    static const double x[] = { 8 }, y[] = { 0 };
    SvgSeries one[] = { { "benes", 1, x, y, y, y, NULL } };     /* bars of no length */
    SvgPanel panels[] = { { NULL, 1, one } };
    SvgPlot plot = { NULL, NULL, NULL, 1, panels, false };
    char *svg = plot_text(&plot);
    CHECK(well_formed(svg));
    CHECK_EQ(count(svg, "<path class=\"line\""), 1);
    CHECK(strstr(svg, "nan") == NULL && strstr(svg, "inf") == NULL);
    CHECK(strstr(svg, "class=\"error\"") == NULL && strstr(svg, "d=\"\"") == NULL);
    free(svg);
    SvgPlot none = { "nothing", "x", "y", 0, NULL, false };
    svg = plot_text(&none);
    CHECK(well_formed(svg));
    free(svg);
}

/* A point with a run that did not end normally is ringed, once, and the
 * legend names the ring; a plot without one has neither. */
static void unfinished_points_ringed(void)
{
    static const double x[] = { 8, 16, 32 }, y[] = { 10, 20, 5 };
    static const bool ends[] = { false, false, true }, none[] = { false, false, false };
    SvgSeries se[] = { { "greedy", 3, x, y, NULL, NULL, ends } };
    SvgPanel panels[] = { { NULL, 1, se } };
    SvgPlot plot = { "t", "x", "y", 1, panels, false };
    char *svg = plot_text(&plot);
    CHECK(well_formed(svg));
    CHECK_EQ(count(svg, "<g class=\"unfinished\""), 1);
    CHECK_EQ(count(svg, "r=\"8\""), 2);                 /* the ring and the legend's */
    CHECK_CONTAINS(svg, ">a run did not end</text>");
    free(svg);
    se[0].unfinished = none;
    svg = plot_text(&plot);
    CHECK(strstr(svg, "unfinished") == NULL && strstr(svg, "did not end") == NULL);
    free(svg);
}

/* svg_plot's status for a one-panel plot of series (x, y, lo, hi), and
 * whether it wrote nothing. */
static int status_of(const double *x, const double *y, const double *lo, const double *hi,
                     bool *empty)
{
    SvgSeries se[] = { { "s", 2, x, y, lo, hi, NULL } };
    SvgPanel panels[] = { { NULL, 1, se } };
    SvgPlot plot = { "t", "x", "y", 1, panels, false };
    FILE *f = tmpfile();
    if (!f)
        return 0;
    int status = svg_plot(f, &plot);
    *empty = ftell(f) == 0;
    fclose(f);
    return status;
}

/* An x not finite and positive, or a y or a bar not finite, has no place
 * on the axes (N = 0 once drew the x axis from log2 0 = -inf without
 * end); nor has a y whose axis's top is beyond a double. */
static void refuses_points_without_a_place(void)
{
    static const double x[] = { 8, 16 }, y[] = { 1, 2 };
    static const double bad_x[][2] = { { 0, 16 }, { -8, 16 }, { NAN, 16 }, { 8, INFINITY } };
    static const double bad_y[][2] = { { NAN, 2 }, { 1, INFINITY }, { -INFINITY, 1 },
                                       { 1, 1.7e308 } };
    static const double bad_bar[] = { NAN, 2 };
    bool empty = false;
    for (size_t i = 0; i < sizeof bad_x / sizeof *bad_x; i++) {
        CHECK_EQ(status_of(bad_x[i], y, NULL, NULL, &empty), -1);
        CHECK(empty);
    }
    for (size_t i = 0; i < sizeof bad_y / sizeof *bad_y; i++) {
        CHECK_EQ(status_of(x, bad_y[i], NULL, NULL, &empty), -1);
        CHECK(empty);
    }
    CHECK_EQ(status_of(x, y, bad_bar, y, &empty), -1);
    CHECK_EQ(status_of(x, y, y, bad_bar, &empty), -1);
    CHECK_EQ(status_of(x, y, y, y, &empty), 0);
    CHECK(!empty);
}

/* A linear x axis from 0 (offered loads) and a formula drawn dashed beside
 * measured points; the same figures unstyled are the plain plot. */
static void styled(void)
{
    static const double x[] = { 0, 0.3, 0.9 }, y[] = { 10, 20, 90 }, f[] = { 10, 21, 88 };
    SvgSeries se[] = { { "measured", 3, x, y, NULL, NULL, NULL }, { "formula", 3, x, f, NULL, NULL, NULL } };
    SvgPanel panels[] = { { NULL, 2, se } };
    SvgPlot plot = { "t", "offered load", "latency", 1, panels, false };
    static const char *const dash[] = { "formula" };
    SvgStyle style = { true, 1, dash };
    char *svg = plot_text_styled(&plot, &style);
    CHECK(svg != NULL && well_formed(svg));
    CHECK_CONTAINS(svg, ">0.2</text>");      /* x ticks at 0, 0.2, ..., 1 */
    CHECK_CONTAINS(svg, ">1</text>");
    CHECK_EQ(count(svg, "text-anchor=\"middle\">0</text>"), 1);
    CHECK_EQ(count(svg, "stroke-dasharray"), 2);   /* the line and its legend */
    CHECK_EQ(count(svg, "<circle"), 4);    /* the measured points and their legend's */
    /* the first point sits on the y axis: x = 0 at the panel's left edge */
    CHECK_CONTAINS(svg, "d=\"M80.0 ");
    free(svg);
    /* on the plain log2 axis, x = 0 has no place */
    bool empty = false;
    CHECK_EQ(status_of(x, y, NULL, NULL, &empty), -1);
    /* no style is the plain plot, byte for byte */
    SvgStyle plain = { false, 0, NULL };
    static const double x2[] = { 8, 16 };
    SvgSeries se2[] = { { "s", 2, x2, y, NULL, NULL, NULL } };
    SvgPanel panels2[] = { { NULL, 1, se2 } };
    SvgPlot plot2 = { "t", "x", "y", 1, panels2, false };
    char *a = plot_text(&plot2), *b = plot_text_styled(&plot2, &plain);
    CHECK(a && b && strcmp(a, b) == 0);
    free(a);
    free(b);
}

/* The widest x range a double allows (2^-1074 to 2^1023) and the least
 * and greatest y give a small plot with a bounded number of ticks. */
static void ticks_are_bounded(void)
{
    static const double x[] = { 0x1p-1074, 0x1p1023 };
    static const double ys[][2] = { { 0, 1e300 }, { 0, 0x1p-1074 }, { 0, 1e-300 } };
    for (size_t i = 0; i < sizeof ys / sizeof *ys; i++) {
        SvgSeries se[] = { { "s", 2, x, ys[i], NULL, NULL, NULL } };
        SvgPanel panels[] = { { NULL, 1, se } };
        SvgPlot plot = { "t", "x", "y", 1, panels, false };
        char *svg = plot_text(&plot);
        CHECK(well_formed(svg));
        CHECK(strlen(svg) < 16384);
        CHECK(count(svg, "<path stroke=\"#888888\" d=") <= 33);  /* x marks */
        CHECK(count(svg, "text-anchor=\"end\"") <= 11);           /* y labels */
        CHECK(strstr(svg, "nan") == NULL && strstr(svg, "inf") == NULL);
        free(svg);
    }
}

/* A linear x axis: any finite x, 0 and below included, with marks at
 * steps of svg_tick_step of its range; a bounded number of them however
 * wide the range. */
static void linear_x_axis(void)
{
    static const double x[] = { -4, 0, 4 }, y[] = { 1, 2, 3 };
    SvgSeries se[] = { { "s", 3, x, y, NULL, NULL, NULL } };
    SvgPanel panels[] = { { NULL, 1, se } };
    SvgPlot plot = { "t", "laps", "y", 1, panels, true };
    char *svg = plot_text(&plot);
    CHECK(well_formed(svg));
    CHECK_CONTAINS(svg, "text-anchor=\"middle\">-4</text>");
    CHECK_CONTAINS(svg, "text-anchor=\"middle\">0</text>");
    CHECK_CONTAINS(svg, "text-anchor=\"middle\">4</text>");
    CHECK(strstr(svg, ">-0</text>") == NULL);
    free(svg);
    static const double wide[] = { -1.7e308, 0, 1.7e308 };
    se[0].x = wide;
    svg = plot_text(&plot);
    CHECK(strstr(svg, "<svg") == NULL);   /* a range beyond a double: refused */
    free(svg);
    static const double far[] = { -1e300, 0, 1e300 };
    se[0].x = far;
    svg = plot_text(&plot);
    CHECK(well_formed(svg));
    CHECK(count(svg, "<path stroke=\"#888888\" d=") <= 11);
    CHECK(strstr(svg, "nan") == NULL && strstr(svg, "inf") == NULL);
    free(svg);
    static const double bad[] = { 1, NAN, 3 };
    se[0].x = bad;
    svg = plot_text(&plot);
    CHECK(strstr(svg, "<svg") == NULL);
    free(svg);
}

/* Every series has its own colour, dash pattern and marker, in the plot
 * and in the legend; a series with the points of an earlier one in every
 * panel is "same as" the first such in the legend, and one that differs
 * in one panel is not. */
static void styles_and_same_as(void)
{
    static const double x[] = { 16, 64 }, y1[] = { 1, 2 }, y2[] = { 3, 4 };
    SvgSeries half[] = { { "a", 2, x, y1, NULL, NULL, NULL }, { "b", 2, x, y2, NULL, NULL, NULL },
                         { "c", 2, x, y1, NULL, NULL, NULL }, { "d", 2, x, y1, NULL, NULL, NULL } };
    SvgSeries full[] = { { "a", 2, x, y2, NULL, NULL, NULL }, { "b", 2, x, y2, NULL, NULL, NULL },
                         { "c", 2, x, y2, NULL, NULL, NULL }, { "d", 2, x, y1, NULL, NULL, NULL } };
    SvgPanel panels[] = { { "half", 4, half }, { "full", 4, full } };
    SvgPlot plot = { "t", "x", "y", 2, panels, false };
    char *svg = plot_text(&plot);
    CHECK(well_formed(svg));
    CHECK_EQ(count(svg, ">same as a</text>"), 1);        /* c; not d, whose full differs */
    CHECK_EQ(count(svg, ">same as"), 1);
    CHECK(strstr(svg, ">c</text>\n<text class=\"same\"") != NULL);
    CHECK_EQ(count(svg, "stroke-dasharray=\"7 4\""), 3);   /* b's two lines, its legend */
    CHECK_EQ(count(svg, "stroke-dasharray=\"2 3\""), 3);   /* c's */
    CHECK_EQ(count(svg, "<circle"), 2 * 2 + 1);              /* a's markers */
    CHECK_EQ(count(svg, "h8v8h-8z"), 2 * 2 + 1);             /* b's squares */
    CHECK_EQ(count(svg, "l5 9h-10z"), 2 * 2 + 1);            /* c's triangles */
    CHECK_EQ(count(svg, "l5 5l-5 5l-5 -5z"), 2 * 2 + 1);     /* d's diamonds */
    free(svg);
}

static void tick_steps(void)
{
    CHECK(svg_tick_step(0) == 1);
    CHECK(svg_tick_step(150) == 50);
    CHECK(svg_tick_step(120) == 50);
    CHECK(svg_tick_step(100) == 20);
    CHECK(svg_tick_step(99) == 20);
    CHECK(svg_tick_step(5) == 1);
    CHECK(svg_tick_step(73589653) == 20000000);
    /* no step of 0 or beyond a double, which would make ticks without end */
    CHECK(svg_tick_step(NAN) == 1);
    CHECK(svg_tick_step(INFINITY) == 1);
    CHECK(svg_tick_step(0x1p-1074) == 1);
    CHECK(svg_tick_step(1.7e308) > 0 && isfinite(svg_tick_step(1.7e308)));
}

int main(void)
{
    RUN(checker_finds_mistakes);
    RUN(two_panels);
    RUN(long_names_widen_the_legend);
    RUN(empty_and_flat);
    RUN(refuses_points_without_a_place);
    RUN(unfinished_points_ringed);
    RUN(ticks_are_bounded);
    RUN(linear_x_axis);
    RUN(styles_and_same_as);
    RUN(tick_steps);
    RUN(styled);
    return CHECK_EXIT();
}
