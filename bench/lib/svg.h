/* A writer of line plots as SVG, for the sweep tools (bench/collect): one or
 * more panels side by side, sharing a y axis that starts at 0; in each, one
 * line per series through its points, with an error bar from lo to hi at
 * each point, and a legend. Each series has its own colour, dash pattern
 * and marker, and the legend names a series whose every point is another
 * one's as "same as" it, since one line hides the other. The x axis is
 * logarithmic in base 2, as machine sizes are powers of two, or linear.
 * The output is plain SVG 1.1 that browsers and GitHub show as it is: no
 * script, no external style sheet, no font file. */
#ifndef BENCH_SVG_H
#define BENCH_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct SvgSeries {
    const char *name;        /* in the legend */
    size_t n;                /* points */
    const double *x;         /* ascending; positive on a log2 axis */
    const double *y;
    const double *lo, *hi;   /* the error bar at each point; both NULL for none */
    const bool *unfinished;  /* the points with a run that did not end normally
                                (its figures are of the part that ran), ringed
                                and named in the legend; NULL for none */
} SvgSeries;

typedef struct SvgPanel {
    const char *title;       /* above the panel */
    size_t nseries;
    const SvgSeries *series; /* the same names in every panel get the same style */
} SvgPanel;

typedef struct SvgPlot {
    const char *title;
    const char *xlabel, *ylabel;
    size_t npanels;
    const SvgPanel *panels;
    bool x_linear;           /* a linear x axis, not one in powers of two */
} SvgPlot;

/* How a plot is drawn beyond its figures. */
typedef struct SvgStyle {
    bool x_from_zero;            /* a linear x axis from 0, ticked as the y axis is */
    size_t ndashed;
    const char *const *dashed;   /* the names of the series drawn dashed, without markers
                                    (a formula through measured points) */
} SvgStyle;

/* Writes the plot as a whole SVG document: 0. A plot with a point that has
 * no place on the axes (an x not finite, or not positive on a log2 axis,
 * or below 0 on one from 0; a y, lo or hi not finite) or whose axes would
 * not fit a double is refused, and nothing written: -1. svg_plot is
 * svg_plot_styled with every style field 0. */
int svg_plot(FILE *out, const SvgPlot *plot);
int svg_plot_styled(FILE *out, const SvgPlot *plot, const SvgStyle *style);

/* Writes text with &, <, > and " escaped for XML. */
void svg_text(FILE *out, const char *text);

/* The step between the y axis's ticks: the least of 1, 2 or 5 times a
 * power of ten that goes from 0 to max in at most five steps. */
double svg_tick_step(double max);

#endif
