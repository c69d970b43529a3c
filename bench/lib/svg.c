/* The SVG writer of svg.h. Coordinates are worked out here, in pixels, and
 * written with one decimal, so that a plot is the same file on every
 * machine and a test can compare it byte for byte. Every loop over ticks
 * counts in integers up to a fixed bound, and a plot with a point that has
 * no place on the axes is refused before a byte is written, so that no
 * input makes an endless file. */
#include "bench/lib/svg.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

/* The layout, in pixels: panels side by side, the legend to their right. */
enum {
    LEFT = 80,           /* room for the y tick labels and the y label */
    TOP = 56,            /* the plot's title, then the panels' */
    PANEL_W = 360,
    PANEL_H = 260,
    GAP = 36,            /* between panels */
    BOTTOM = 56,         /* the x tick labels and the x label */
    LEGEND_W = 170,      /* at least: more for a long name (legend_width) */
    MAX_NAMES = 64,      /* distinct series names given distinct colours */
    MAX_YTICKS = 10,     /* svg_tick_step makes at most 5; the rest is a margin */
    MAX_XTICKS = 32      /* marks on the x axis: more powers of two are thinned */
};

static const char *const palette[] = {
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};

/* Beside its colour, each series has a dash pattern and a marker of its
 * own, so that lines that lie on one another stay apart: a dashed line
 * over another shows both colours, and a later series' hollow marker
 * frames an earlier one's. The counts of colours, dashes and markers are
 * prime to each other, so that any two of the first 21 series differ in
 * two of the three. */
static const char *const dashes[] = { "", "7 4", "2 3" };
enum { MARKERS = 7 };    /* filled circle; square, triangles, diamond, cross, plus */

/* The look of the series whose name is the i-th of the plot. */
typedef struct Style {
    const char *colour, *dash;
    int marker;
} Style;

static Style style_of(size_t i)
{
    return (Style){ palette[i % (sizeof palette / sizeof *palette)],
                    dashes[i % (sizeof dashes / sizeof *dashes)], (int)(i % MARKERS) };
}

/* ...and of the i-th name, `name`, under a plot's style: one it names
 * dashed is a line of its own dash and no markers (NO_MARKER). */
enum { NO_MARKER = -1 };

static Style styled(size_t i, const char *name, const SvgStyle *style)
{
    Style st = style_of(i);
    for (size_t k = 0; style && k < style->ndashed; k++)
        if (strcmp(style->dashed[k], name) == 0) {
            st.dash = "6 4";
            st.marker = NO_MARKER;
        }
    return st;
}

/* The marker at (x, y), as a path in its style's colour (the circle,
 * filled, as an element of its own). */
static void marker(FILE *out, const Style *st, double x, double y)
{
    switch (st->marker) {
    case 0:
        fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\"/>", x, y);
        return;
    case 1: fprintf(out, "<path d=\"M%.1f %.1fh8v8h-8z\"/>", x - 4, y - 4); return;
    case 2: fprintf(out, "<path d=\"M%.1f %.1fl5 9h-10z\"/>", x, y - 5.5); return;
    case 3: fprintf(out, "<path d=\"M%.1f %.1fl5 5l-5 5l-5 -5z\"/>", x, y - 5); return;
    case 4: fprintf(out, "<path d=\"M%.1f %.1fl8 8m0 -8l-8 8\"/>", x - 4, y - 4); return;
    case 5: fprintf(out, "<path d=\"M%.1f %.1fh10m-5 -5v10\"/>", x - 5, y); return;
    default: fprintf(out, "<path d=\"M%.1f %.1fl5 -9h-10z\"/>", x, y + 5.5); return;
    }
}

/* The attributes of a group of markers: the circle is filled, the other
 * shapes are hollow. */
static void marker_group(FILE *out, const Style *st, const char *class)
{
    if (st->marker == 0)
        fprintf(out, "<g class=\"%s\" fill=\"%s\">", class, st->colour);
    else
        fprintf(out, "<g class=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\">",
                class, st->colour);
}

/* stroke-dasharray, when the style has one. */
static void dash_attribute(FILE *out, const Style *st)
{
    if (st->dash[0])
        fprintf(out, " stroke-dasharray=\"%s\"", st->dash);
}

void svg_text(FILE *out, const char *text)
{
    for (; *text; text++) {
        switch (*text) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fputc(*text, out); break;
        }
    }
}

double svg_tick_step(double max)
{
    if (!(max > 0) || !isfinite(max))
        return 1;
    /* max / 5 lies in [step, 10 step), so max / step in [5, 50) */
    double step = pow(10, floor(log10(max / 5)));
    if (!(step > 0))
        return 1;                     /* max / 5 below the least double */
    static const double times[] = { 1, 2, 5, 10 };
    size_t i = 0;
    while (i < 3 && max / (step * times[i]) > 5)
        i++;
    return step * times[i];
}

/* A tick's label: 2500000 as 2.5M, 16384 as 16k, 0.25 as it is. */
static void number(char *buf, size_t size, double v)
{
    if (v >= 1e6)
        snprintf(buf, size, "%gM", v / 1e6);
    else if (v >= 1e4)
        snprintf(buf, size, "%gk", v / (v >= 16384 && fmod(v, 1024) == 0 ? 1024 : 1e3));
    else
        snprintf(buf, size, "%g", v);
}

/* The names of every panel's series, in their first order: their styles. */
typedef struct Names {
    const char *name[MAX_NAMES];
    size_t n;
} Names;

static size_t colour_of(Names *names, const char *name)
{
    for (size_t i = 0; i < names->n; i++)
        if (strcmp(names->name[i], name) == 0)
            return i;
    if (names->n < MAX_NAMES)
        names->name[names->n++] = name;
    return names->n - 1;
}

/* The ranges of both axes over every panel: x (in log2 on a log2 axis)
 * from xmin to xmax, y from 0 in yticks steps of ystep. */
typedef struct Scale {
    bool linear;         /* x as it is, not its log2 */
    double xmin, xmax;   /* the smallest and largest x, or their log2 */
    double xstep;        /* on an axis from 0, its ticks' step (else 0) */
    double ytop, ystep;
    int yticks;          /* ytop / ystep, from 1 to MAX_YTICKS */
} Scale;

/* Whether every point has a place on the axes: x finite, and positive on a
 * log2 axis (its log2 then lies in [-1074, 1024]), y and its bar finite. */
static bool drawable(const SvgPlot *plot, bool from_zero)
{
    for (size_t p = 0; p < plot->npanels; p++)
        for (size_t i = 0; i < plot->panels[p].nseries; i++) {
            const SvgSeries *se = &plot->panels[p].series[i];
            for (size_t j = 0; j < se->n; j++)
                if ((!plot->x_linear && !from_zero && !(se->x[j] > 0)) ||
                    (from_zero && !(se->x[j] >= 0)) || !isfinite(se->x[j]) ||
                    !isfinite(se->y[j]) || (se->lo && !isfinite(se->lo[j])) ||
                    (se->hi && !isfinite(se->hi[j])))
                    return false;
        }
    return true;
}

/* Where x lies along its axis: itself, or its log2. */
static double x_along(const Scale *s, double x)
{
    return s->linear ? x : log2(x);
}

/* The top of an axis from 0 that holds max, in ticks of svg_tick_step. */
static double axis_top(double max, double *step, int *ticks)
{
    *step = svg_tick_step(max);
    *ticks = (int)fmin(MAX_YTICKS, fmax(1, ceil(max / *step)));
    return *ticks * *step;
}

/* The scale of a drawable plot (its x axis linear from 0 if from_zero);
 * false when its top does not fit a double. */
static bool scale_of(const SvgPlot *plot, bool from_zero, Scale *s)
{
    *s = (Scale){ plot->x_linear || from_zero, INFINITY, -INFINITY, 0, 0, 1, 1 };
    double ymax = 0;
    for (size_t p = 0; p < plot->npanels; p++)
        for (size_t i = 0; i < plot->panels[p].nseries; i++) {
            const SvgSeries *se = &plot->panels[p].series[i];
            for (size_t j = 0; j < se->n; j++) {
                s->xmin = fmin(s->xmin, x_along(s, se->x[j]));
                s->xmax = fmax(s->xmax, x_along(s, se->x[j]));
                ymax = fmax(ymax, se->hi ? fmax(se->hi[j], se->y[j]) : se->y[j]);
            }
        }
    if (from_zero) {
        int xticks;
        s->xmin = 0;
        s->xmax = axis_top(fmax(s->xmax, 0), &s->xstep, &xticks);
    }
    if (!(s->xmin <= s->xmax))
        s->xmin = 0, s->xmax = 1;
    if (s->xmin == s->xmax)
        s->xmin -= 1, s->xmax += 1;
    s->ytop = axis_top(ymax, &s->ystep, &s->yticks);
    return isfinite(s->ytop) && isfinite(s->xmax - s->xmin);
}

static double px(const Scale *s, double left, double x)
{
    return left + (x_along(s, x) - s->xmin) / (s->xmax - s->xmin) * PANEL_W;
}

static double py(const Scale *s, double y)
{
    return TOP + PANEL_H - y / s->ytop * PANEL_H;
}

/* The y axis's grid lines and tick labels, at k ystep for k up to yticks. */
static void y_ticks(FILE *out, const Scale *s, double left)
{
    char label[32];
    fprintf(out, "<path class=\"grid\" stroke=\"#dddddd\" fill=\"none\" d=\"");
    for (int k = 1; k <= s->yticks; k++)
        fprintf(out, "M%.1f %.1fH%.1f", left, py(s, k * s->ystep), left + PANEL_W);
    fprintf(out, "\"/>\n<rect x=\"%.1f\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
            "stroke=\"#888888\"/>\n", left, TOP, PANEL_W, PANEL_H);
    for (int k = 0; k <= s->yticks; k++) {
        number(label, sizeof label, k * s->ystep);
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", left - 6,
                py(s, k * s->ystep) + 4, label);
    }
}

/* A mark on the x axis at x, with its label if it has one. */
static void x_tick(FILE *out, const Scale *s, double left, double x, bool labelled)
{
    char label[32];
    fprintf(out, "<path stroke=\"#888888\" d=\"M%.1f %dv5\"/>\n", px(s, left, x), TOP + PANEL_H);
    if (!labelled)
        return;
    number(label, sizeof label, x);
    fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
            px(s, left, x), TOP + PANEL_H + 18, label);
}

/* The x axis's marks: on a linear axis at the multiples of svg_tick_step
 * of its range; on a log2 axis one at each power of two in range (every
 * stride-th when there are more than MAX_XTICKS), labelled every other one
 * beyond 8. */
static void x_ticks(FILE *out, const Scale *s, double left)
{
    if (s->linear) {
        double step = s->xstep ? s->xstep : svg_tick_step(s->xmax - s->xmin);
        double first = ceil(s->xmin / step);
        for (int k = 0; k <= MAX_YTICKS && (first + k) * step <= s->xmax; k++)
            x_tick(out, s, left, (first + k) * step + 0.0, true);    /* (no -0) */
        return;
    }
    int first = (int)ceil(s->xmin), last = (int)floor(s->xmax);
    int count = last - first + 1;
    int stride = count > MAX_XTICKS ? (count + MAX_XTICKS - 1) / MAX_XTICKS : 1;
    int every = (count + stride - 1) / stride > 8 ? 2 : 1;
    for (int e = first; e <= last; e += stride)
        x_tick(out, s, left, pow(2, e), (e - first) / stride % every == 0);
}

/* The title, frame, grid and tick labels of the panel whose left edge is
 * at left. */
static void axes(FILE *out, const Scale *s, double left, const char *title)
{
    fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-weight=\"bold\">",
            left + PANEL_W / 2.0, TOP - 8);
    svg_text(out, title ? title : "");
    fprintf(out, "</text>\n");
    y_ticks(out, s, left);
    x_ticks(out, s, left);
}

/* How a point with a run that did not end normally is ringed: in black,
 * dashed, which no series is drawn in. */
#define UNFINISHED_RING "fill=\"none\" stroke=\"#000000\" stroke-width=\"1.2\" " \
                        "stroke-dasharray=\"3 2\""

/* The rings of a series' points whose runs did not all end normally. */
static void unfinished_rings(FILE *out, const Scale *s, double left, const SvgSeries *se)
{
    bool any = false;
    for (size_t j = 0; se->unfinished && j < se->n; j++) {
        if (!se->unfinished[j])
            continue;
        if (!any)
            fprintf(out, "<g class=\"unfinished\" " UNFINISHED_RING ">");
        any = true;
        fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"8\"/>", px(s, left, se->x[j]),
                py(s, se->y[j]));
    }
    if (any)
        fprintf(out, "</g>\n");
}

/* The second line of the legend's entry for the rings. */
#define UNFINISHED_NOTE "normally: the part that ran"

/* Whether any point of the plot is ringed (unfinished_rings). */
static bool any_unfinished(const SvgPlot *plot)
{
    for (size_t p = 0; p < plot->npanels; p++)
        for (size_t i = 0; i < plot->panels[p].nseries; i++) {
            const SvgSeries *se = &plot->panels[p].series[i];
            for (size_t j = 0; se->unfinished && j < se->n; j++)
                if (se->unfinished[j])
                    return true;
        }
    return false;
}

/* One series: its error bars (if any has a length), its line (one path, named by a title that
 * browsers show on hovering) and a marker at each point. */
static void series(FILE *out, const Scale *s, double left, const SvgSeries *se,
                   const Style *st)
{
    const char *colour = st->colour;
    size_t bars = 0;
    for (size_t j = 0; se->lo && se->hi && j < se->n; j++)
        bars += se->hi[j] > se->lo[j];
    if (bars) {
        fprintf(out, "<path class=\"error\" stroke=\"%s\" d=\"", colour);
        for (size_t j = 0; j < se->n; j++)
            if (se->hi[j] > se->lo[j])
                fprintf(out, "M%.1f %.1fV%.1fm-3 0h6M%.1f %.1fh6",
                        px(s, left, se->x[j]), py(s, se->lo[j]), py(s, se->hi[j]),
                        px(s, left, se->x[j]) - 3, py(s, se->lo[j]));
        fprintf(out, "\"/>\n");
    }
    fprintf(out, "<path class=\"line\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"",
            colour);
    dash_attribute(out, st);
    fprintf(out, " d=\"");
    for (size_t j = 0; j < se->n; j++)
        fprintf(out, "%c%.1f %.1f", j ? 'L' : 'M', px(s, left, se->x[j]), py(s, se->y[j]));
    fprintf(out, "\"><title>");
    svg_text(out, se->name);
    fprintf(out, "</title></path>\n");
    if (st->marker == NO_MARKER)
        return;
    marker_group(out, st, "points");
    for (size_t j = 0; j < se->n; j++)
        marker(out, st, px(s, left, se->x[j]), py(s, se->y[j]));
    fprintf(out, "</g>\n");
    unfinished_rings(out, s, left, se);
}

/* The series of a panel with that name, or NULL. */
static const SvgSeries *named(const SvgPanel *panel, const char *name)
{
    for (size_t i = 0; i < panel->nseries; i++)
        if (strcmp(panel->series[i].name, name) == 0)
            return &panel->series[i];
    return NULL;
}

static bool same_values(const double *a, const double *b, size_t n)
{
    if (!a || !b)
        return a == b;
    for (size_t j = 0; j < n; j++)
        if (a[j] != b[j])
            return false;
    return true;
}

/* Whether the series named a and b are drawn the same in every panel:
 * the same points, bars and all, or both absent. */
static bool identical(const SvgPlot *plot, const char *a, const char *b)
{
    for (size_t p = 0; p < plot->npanels; p++) {
        const SvgSeries *x = named(&plot->panels[p], a), *y = named(&plot->panels[p], b);
        if (!x || !y) {
            if (x != y)
                return false;
            continue;
        }
        if (x->n != y->n || !same_values(x->x, y->x, x->n) || !same_values(x->y, y->y, x->n) ||
            !same_values(x->lo, y->lo, x->n) || !same_values(x->hi, y->hi, x->n))
            return false;
    }
    return true;
}

/* The legend: each name with a sample of its line and marker, and under a
 * name whose line is another's, "same as" the first such, since its line
 * lies on that one. */
static void legend(FILE *out, const SvgPlot *plot, const SvgStyle *style, const Names *names,
                   double lx)
{
    double y = TOP + 10;
    fprintf(out, "<g class=\"legend\">\n");
    for (size_t i = 0; i < names->n; i++) {
        Style st = styled(i, names->name[i], style);
        fprintf(out, "<path stroke=\"%s\" stroke-width=\"2\"", st.colour);
        dash_attribute(out, &st);
        fprintf(out, " d=\"M%.1f %.1fh24\"/>", lx, y);
        if (st.marker != NO_MARKER) {
            marker_group(out, &st, "marker");
            marker(out, &st, lx + 12, y);
            fprintf(out, "</g>");
        }
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">", lx + 30, y + 4);
        svg_text(out, names->name[i]);
        fprintf(out, "</text>\n");
        size_t j = 0;
        while (j < i && !identical(plot, names->name[i], names->name[j]))
            j++;
        if (j < i) {
            y += 14;
            fprintf(out, "<text class=\"same\" x=\"%.1f\" y=\"%.1f\" font-size=\"11\" "
                    "fill=\"#555555\">same as ", lx + 30, y + 4);
            svg_text(out, names->name[j]);
            fprintf(out, "</text>\n");
        }
        y += 20;
    }
    if (any_unfinished(plot)) {
        fprintf(out, "<g class=\"unfinished-key\"><circle cx=\"%.1f\" cy=\"%.1f\" r=\"8\" "
                UNFINISHED_RING "/><text x=\"%.1f\" y=\"%.1f\">a run did not end</text>"
                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#555555\">%s</text></g>\n",
                lx + 12, y, lx + 30, y + 4, lx + 30, y + 18, UNFINISHED_NOTE);
    }
    fprintf(out, "</g>\n");
}

/* The legend's width: LEGEND_W, or room for the longest name at 6.5
 * pixels a character (about the mean of 12-pixel sans-serif), after the
 * 16 before the legend and the 30 of its sample line, so that a name that
 * names several options (dmodk switching=store-forward) is not cut off at
 * the plot's edge, nor the rings' entry. Names of up to 19 characters
 * keep LEGEND_W. */
static double legend_width(const SvgPlot *plot)
{
    size_t longest = 0;
    for (size_t p = 0; p < plot->npanels; p++)
        for (size_t i = 0; i < plot->panels[p].nseries; i++) {
            size_t len = strlen(plot->panels[p].series[i].name);
            longest = len > longest ? len : longest;
        }
    if (any_unfinished(plot) && strlen(UNFINISHED_NOTE) > longest)
        longest = strlen(UNFINISHED_NOTE);
    return fmax(LEGEND_W, ceil(16 + 30 + 6.5 * (double)longest));
}

int svg_plot(FILE *out, const SvgPlot *plot)
{
    return svg_plot_styled(out, plot, NULL);
}

int svg_plot_styled(FILE *out, const SvgPlot *plot, const SvgStyle *style)
{
    Scale s;
    bool from_zero = style && style->x_from_zero;
    if (!drawable(plot, from_zero) || !scale_of(plot, from_zero, &s))
        return -1;
    Names names = { { 0 }, 0 };
    size_t np = plot->npanels ? plot->npanels : 1;
    double legend_w = legend_width(plot);
    double width = LEFT + (double)np * PANEL_W + (double)(np - 1) * GAP + legend_w;
    double height = TOP + PANEL_H + BOTTOM;
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
            "<text class=\"title\" x=\"%.1f\" y=\"20\" text-anchor=\"middle\" "
            "font-size=\"15\">", width, height, width, height, (LEFT + width - legend_w) / 2);
    svg_text(out, plot->title ? plot->title : "");
    fprintf(out, "</text>\n");
    for (size_t p = 0; p < plot->npanels; p++) {
        const SvgPanel *panel = &plot->panels[p];
        double left = LEFT + (double)p * (PANEL_W + GAP);
        fprintf(out, "<g class=\"panel\">\n");
        axes(out, &s, left, panel->title);
        for (size_t i = 0; i < panel->nseries; i++) {
            const char *name = panel->series[i].name;
            Style st = styled(colour_of(&names, name), name, style);
            series(out, &s, left, &panel->series[i], &st);
        }
        fprintf(out, "</g>\n");
    }
    fprintf(out, "<text class=\"xlabel\" x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">",
            (LEFT + width - legend_w) / 2, height - 12);
    svg_text(out, plot->xlabel ? plot->xlabel : "");
    fprintf(out, "</text>\n<text class=\"ylabel\" transform=\"translate(18 %.1f) rotate(-90)\" "
            "text-anchor=\"middle\">", TOP + PANEL_H / 2.0);
    svg_text(out, plot->ylabel ? plot->ylabel : "");
    fprintf(out, "</text>\n");
    legend(out, plot, style, &names, width - legend_w + 16);
    fprintf(out, "</svg>\n");
    return 0;
}
