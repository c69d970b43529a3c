/* The parts of the web page of --html (html.h), kept as plain files in
 * emu/page/ and built into bin/emu by embed.sh: the start of the page up
 * to its <style>, its CSS, the body that the script fills in, and the
 * script that plays the recording. */
#ifndef EMU_PAGE_PAGE_H
#define EMU_PAGE_PAGE_H

extern const char html_page_head[], html_page_css[], html_page_body[], html_page_js[];

#endif
