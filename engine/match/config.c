/* config.c - the run's configuration: defaults, time controls, release
 * (see match.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "util.h"

void match_config_defaults(MatchConfig *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->game_config.move_limit = DEFAULT_MOVE_LIMIT;
    cfg->games = 2;
    cfg->rounds = 1;
    cfg->seeds = 1;
    cfg->concurrency = 1;
    cfg->repeat = 2;
    cfg->swap = true;
    openings_init(&cfg->openings);
    snprintf(cfg->out.event, sizeof cfg->out.event, "sigil-match");
    snprintf(cfg->out.site, sizeof cfg->out.site, "?");
    cfg->out.pgn_append = true;
    cfg->out.epd_append = true;
    cfg->limits.timemargin_ms = 50;
    cfg->limits.hang_timeout_ms = 60000;
    cfg->limits.start_timeout_ms = 10000;
    cfg->limits.newgame_timeout_ms = 10000;
    cfg->limits.kill_grace_ms = 300;
    cfg->sprt.alpha = 0.05;
    cfg->sprt.beta = 0.05;
    cfg->sprt.elo1 = 5;
    cfg->sprt.model = STATS_SPRT_NORMALIZED;
    cfg->report.score_interval = 1;
    cfg->report.report_penta = true;
}

void match_config_free(MatchConfig *cfg)
{
    for (int e = 0; e < cfg->nengines; e++) {
        for (int k = 0; k < cfg->engines[e].nargs; k++)
            free(cfg->engines[e].args[k]);
        for (int k = 0; k < cfg->engines[e].ninitstr; k++)
            free(cfg->engines[e].initstr[k]);
    }
    free(cfg->engines);
    cfg->engines = NULL;
    cfg->nengines = 0;
    openings_free(&cfg->openings);
}

int64_t match_timemargin(const MatchConfig *cfg, const EngineSpec *spec)
{
    return spec->timemargin_ms >= 0 ? spec->timemargin_ms : cfg->limits.timemargin_ms;
}

/* Seconds as "10", "0.1" or "1:30" into milliseconds. */
static bool parse_seconds(const char *s, int64_t *ms)
{
    char *end;
    double minutes = 0, seconds;
    const char *colon = strchr(s, ':');
    if (colon) {
        minutes = strtod(s, &end);
        if (end != colon || !(minutes >= 0) || !isfinite(minutes) || minutes > 1e6)
            return false;
        s = colon + 1;
    }
    seconds = strtod(s, &end);
    if (end == s || *end || !(seconds >= 0) || !isfinite(seconds) || seconds > 1e9)
        return false;
    *ms = (int64_t)llround((minutes * 60.0 + seconds) * 1000.0);
    return true;
}

bool match_parse_tc(const char *text, TimeControl *tc)
{
    memset(tc, 0, sizeof *tc);
    if (!strcmp(text, "inf") || !strcmp(text, "infinite"))
        return true; /* no clock */
    char buf[128];
    if (strlen(text) >= sizeof buf)
        return false;
    snprintf(buf, sizeof buf, "%s", text);
    char *p = buf;
    char *slash = strchr(p, '/');
    if (slash) {
        *slash = '\0';
        long long moves;
        if (!util_parse_number(p, 1, 100000, &moves))
            return false;
        tc->moves = (int)moves;
        p = slash + 1;
    }
    char *plus = strchr(p, '+');
    if (plus) {
        *plus = '\0';
        if (!parse_seconds(plus + 1, &tc->inc_ms))
            return false;
    }
    if (!parse_seconds(p, &tc->base_ms) || (tc->base_ms <= 0 && tc->inc_ms <= 0))
        return false;
    tc->set = true;
    return true;
}
