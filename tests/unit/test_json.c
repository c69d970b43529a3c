/* Unit tests of the JSON reader of the sweep tools (bench/lib/json.h):
 * the grammar's corners, looking up top-level members of every type, a
 * whole report as bin/emu --json writes it after a program's output, and
 * the valid values that bench/collect must still refuse. */
#include "bench/lib/json.h"
#include "tests/check.h"

static void valid_and_invalid(void)
{
    const char *good[] = { "{}", " [ ] ", "0", "-1.5e+3", "\"a\\\"b\\u0041\"", "true",
                           "null", "{\"a\": [1, {\"b\": false}], \"c\": \"\"}" };
    const char *bad[] = { "", "{", "{\"a\" 1}", "{\"a\": 1,}", "[1 2]", "01", "1.",
                          "\"open", "tru", "{} {}", "{\"a\": -}", "\"\\x\"", "[1,]" };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        CHECK(json_valid(good[i]));
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        CHECK(!json_valid(bad[i]));
}

/* Lists within lists are read to a depth of 64, and refused beyond it. */
static void nesting_is_bounded(void)
{
    char ok[41];
    memset(ok, '[', 20);
    memset(ok + 20, ']', 20);
    ok[40] = '\0';
    CHECK(json_valid(ok));
    char too_deep[201];
    memset(too_deep, '[', 100);
    memset(too_deep + 100, ']', 100);
    too_deep[200] = '\0';
    CHECK(!json_valid(too_deep));
}

static void members(void)
{
    const char *obj = "{\"end\": \"normal\", \"timesteps\": 35, \"link_collisions\": 7, "
                      "\"collisions\": 2, \"latency_mean\": 9.000, \"by\": {\"collisions\": 5}, "
                      "\"list\": [\"collisions\"], \"ok\": true, \"no\": false, \"x\": null, "
                      "\"s\": \"a\\\\b\\u0022\"}";
    char v[32];
    CHECK_EQ(json_member(obj, "end", v, sizeof v), JSON_STRING);
    CHECK_STR(v, "normal");
    CHECK_EQ(json_member(obj, "collisions", v, sizeof v), JSON_NUMBER);
    CHECK_STR(v, "2");
    CHECK_EQ(json_member(obj, "latency_mean", v, sizeof v), JSON_NUMBER);
    CHECK_STR(v, "9.000");
    CHECK_EQ(json_member(obj, "by", v, sizeof v), JSON_OBJECT);
    CHECK_STR(v, "");
    CHECK_EQ(json_member(obj, "list", v, sizeof v), JSON_ARRAY);
    CHECK_EQ(json_member(obj, "ok", v, sizeof v), JSON_TRUE);
    CHECK_STR(v, "true");
    CHECK_EQ(json_member(obj, "no", v, sizeof v), JSON_FALSE);
    CHECK_EQ(json_member(obj, "x", v, sizeof v), JSON_NULL);
    CHECK_STR(v, "null");
    CHECK_EQ(json_member(obj, "s", v, sizeof v), JSON_STRING);
    CHECK_STR(v, "a\\b\"");
    /* a prefix or an extension of a member's name is not that member */
    CHECK_EQ(json_member(obj, "timestep", v, sizeof v), JSON_NONE);
    CHECK_EQ(json_member(obj, "timestepss", v, sizeof v), JSON_NONE);
    CHECK_EQ(json_member(obj, "link", v, sizeof v), JSON_NONE);
    /* a value longer than the buffer is cut */
    char small[4];
    CHECK_EQ(json_member(obj, "end", small, sizeof small), JSON_STRING);
    CHECK_STR(small, "nor");
    /* not an object, or not JSON */
    CHECK_EQ(json_member("[1]", "a", v, sizeof v), JSON_NONE);
    CHECK_EQ(json_member("{\"a\": 1", "a", v, sizeof v), JSON_NONE);
    CHECK_STR(v, "");
}

static void report_after_output(void)
{
    const char *out = "p0: 12\np1: {not json\n"
                      "{\"end\": \"deadlock\", \"exit_status\": 3, \"processors\": 16, "
                      "\"latency_min\": null, \"halted\": {\"0\": 0}, \"faults\": [], "
                      "\"network_deadlock\": true}\n";
    const char *obj = json_last_object(out);
    CHECK(obj != NULL);
    char v[32];
    CHECK_EQ(json_member(obj, "exit_status", v, sizeof v), JSON_NUMBER);
    CHECK_STR(v, "3");
    CHECK_EQ(json_member(obj, "network_deadlock", v, sizeof v), JSON_TRUE);
    CHECK(json_last_object("p0: 1\n") == NULL);
}

/* JSON allows what no table cell can hold: a number beyond a double and
 * a string with a comma or a line break, escaped or not. The reader gives
 * them as they are, and bench/collect checks them (tests/cli/sweep.sh). */
static void values_collect_refuses(void)
{
    const char *obj = "{\"processors\": 1e999, \"end\": \"a,b\", \"e2\": \"a\\u002cb\", "
                      "\"e3\": \"a\\nb\", \"zero\": -0}";
    char v[32];
    CHECK_EQ(json_member(obj, "processors", v, sizeof v), JSON_NUMBER);
    CHECK_STR(v, "1e999");
    CHECK_EQ(json_member(obj, "end", v, sizeof v), JSON_STRING);
    CHECK_STR(v, "a,b");
    CHECK_EQ(json_member(obj, "e2", v, sizeof v), JSON_STRING);
    CHECK_STR(v, "a,b");
    CHECK_EQ(json_member(obj, "e3", v, sizeof v), JSON_STRING);
    CHECK_STR(v, "a\nb");
    CHECK_EQ(json_member(obj, "zero", v, sizeof v), JSON_NUMBER);
    CHECK_STR(v, "-0");
}

int main(void)
{
    RUN(valid_and_invalid);
    RUN(nesting_is_bounded);
    RUN(members);
    RUN(report_after_output);
    RUN(values_collect_refuses);
    return CHECK_EXIT();
}
