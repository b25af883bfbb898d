/* check_play.c - the command line of engine/sigil (--help, --version,
 * argument mode) and the interactive mode `sigil play`, through a pipe and
 * through a pseudo-terminal. */
#define _XOPEN_SOURCE 600
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "game.h"
#include "protocol_test.h"
#include "variants.h"

static char out[1 << 22];

/* Start sigil with args, feed it input, read everything until it exits;
 * returns the exit status. */
static int run(const char *const *args, const char *input)
{
    pt_start_args(args, 0);
    if (input)
        pipe_engine_write(&pt_engine, input, strlen(input));
    pipe_engine_close_input(&pt_engine);
    out[0] = '\0';
    long long deadline = pt_now_ms() + T_LONG;
    const char *line;
    while (pt_now_ms() < deadline &&
           (line = pipe_engine_read(&pt_engine, (int)(deadline - pt_now_ms()))) != NULL) {
        size_t used = strlen(out);
        snprintf(out + used, sizeof out - used, "%s\n", line);
    }
    int status = pipe_engine_wait(&pt_engine, T_SHORT);
    pt_finish();
    return status;
}

/* Occurrences of needle in out. */
static int occurrences(const char *needle)
{
    int n = 0;
    for (const char *p = strstr(out, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

START_TEST(help_and_version_print_and_exit_zero)
{
    static const char *const help_flags[] = {"--help", "-h"};
    for (int i = 0; i < 2; i++) {
        const char *args[] = {help_flags[i], NULL};
        ck_assert_int_eq(run(args, NULL), 0);
        ck_assert_msg(strncmp(out, "usage: sigil", 12) == 0, "%s", out);
        ck_assert_ptr_nonnull(strstr(out, "sigil play"));
        for (int v = 0; v < variants_count(); v++)
            ck_assert_ptr_nonnull(strstr(out, variants_get(v)->name));
    }
    static const char *const version_flags[] = {"--version", "-v"};
    for (int i = 0; i < 2; i++) {
        const char *args[] = {version_flags[i], NULL};
        ck_assert_int_eq(run(args, NULL), 0);
        ck_assert_str_eq(out, "Sigil 0.1.0\n");
    }
    const char *bad[] = {"--frobnicate", NULL};
    ck_assert_int_eq(run(bad, NULL), 2);
}
END_TEST

START_TEST(argument_mode_never_leaves_an_endless_search)
{
    static const char *const gos[] = {"go infinite", "go", "go ponder"};
    for (int i = 0; i < 3; i++) {
        const char *args[] = {gos[i], NULL};
        ck_assert_int_eq(run(args, NULL), 0);
        ck_assert_msg(occurrences("info string error: ") == 1 && occurrences("bestmove ") == 1,
                      "%s:\n%s", gos[i], out);
    }
    /* A bounded search runs to its end there. */
    const char *args[] = {"variant salto", "go depth 4", "query fen", NULL};
    ck_assert_int_eq(run(args, NULL), 0);
    ck_assert_int_eq(occurrences("info string error"), 0);
    ck_assert_int_eq(occurrences("info depth 4 "), 1);
    ck_assert_int_eq(occurrences("bestmove "), 1);
    ck_assert_int_eq(occurrences("response "), 1);
}
END_TEST

START_TEST(play_through_a_pipe_moves_lists_refuses_undoes_and_leaves)
{
    const char *args[] = {"play", "solomon", "--time", "0.05", NULL};
    const char *input = "moves\n"
                        "zz9\n"
                        "14-9\n"
                        "undo\n"
                        "help\n"
                        "time x\n"
                        "side purple\n"
                        "fen\n"
                        "quit\n";
    ck_assert_int_eq(run(args, input), 0);
    /* The legal moves, exactly as the game lists them. */
    Game g;
    GameConfig cfg = {.move_limit = DEFAULT_MOVE_LIMIT};
    game_init(&g, variants_find("solomon"), &cfg);
    Move moves[MAX_MOVES];
    int n = g.variant->generate(&g.pos, moves);
    char want[1024];
    int len = snprintf(want, sizeof want, "Legal moves (%d):", n);
    for (int i = 0; i < n; i++) {
        char text[MOVE_STR_MAX];
        g.variant->move_str(&g.pos, moves[i], text);
        len += snprintf(want + len, sizeof want - (size_t)len, " %s", text);
    }
    ck_assert_msg(strstr(out, want), "no '%s' in:\n%s", want, out);
    /* A refused move gets the protocol's reason (refusal.c). */
    ck_assert_int_eq(occurrences("illegal move 'zz9' at ply 1: 'zz9' is not a move: write a step "
                                 "as two points joined by '-' (14-9), a jump as its points joined "
                                 "by 'x' (14x10), points 1 to 19.\n"),
                     1);
    ck_assert_int_eq(occurrences("White plays 14-9."), 1);
    /* Sigil answered with a legal move of the position after 14-9. */
    const char *reply = strstr(out, "Sigil (Black) plays ");
    ck_assert_ptr_nonnull(reply);
    char answer[64];
    ck_assert_int_eq(sscanf(reply, "Sigil (Black) plays %63[^.]", answer), 1);
    char err[128];
    ck_assert(game_play_text(&g, "14-9", err, sizeof err));
    ck_assert_msg(game_play_text(&g, answer, err, sizeof err), "%s: %s", answer, err);
    /* undo took both back: the board is at ply 1 again with White to move,
     * and the message follows the board it describes. */
    ck_assert_int_eq(occurrences("Ply 1: White to move (you).\nTaken back 2 plies: ply 1 is to "
                                 "play again.\n"),
                     1);
    ck_assert_int_eq(occurrences("Ply 1: White to move (you)."), 2);
    ck_assert_int_eq(occurrences("Ply 3: White to move (you)."), 1);
    ck_assert_ptr_nonnull(strstr(out, "  undo "));
    ck_assert_int_eq(occurrences("Say 'time <seconds>'"), 1);
    ck_assert_int_eq(occurrences("Say 'side white'"), 1);
    ck_assert_ptr_nonnull(strstr(out, "> W:W14,15,16,17,18,19:B1,2,3,4,5,6\n"));
    game_free(&g);
}
END_TEST

START_TEST(play_a_whole_game_of_every_variant_to_its_result)
{
    for (int vi = 0; vi < variants_count(); vi++) {
        const Variant *v = variants_get(vi);
        const char *name = v->name;
        const char *args[] = {"play", name, "--side", "none", "--time", "0.002", "--seed", "7",
                              NULL};
        int status = run(args, "quit\n");
        ck_assert_msg(status == 0, "%s: status %d, output ends:\n%s", name, status,
                      strlen(out) > 2000 ? out + strlen(out) - 2000 : out);
        ck_assert_msg(occurrences("Type 'new' for another game") == 1, "%s:\n%s", name,
                      strlen(out) > 2000 ? out + strlen(out) - 2000 : out);
        ck_assert_msg(occurrences("\nGame over: White wins (") + occurrences("\nGame over: Black wins (") +
                          occurrences("\nGame over: draw (") == 1,
                      "%s: no result line", name);
        if (v->is_chance) { /* a game with dice */
            ck_assert_int_gt(occurrences("White rolls the dice: "), 0);
            ck_assert_int_gt(occurrences("Black rolls the dice: "), 0);
        } else {
            ck_assert_int_eq(occurrences("rolls the dice"), 0);
        }
        ck_assert_int_gt(occurrences("Sigil (White) plays "), 0);
        ck_assert_int_gt(occurrences("Sigil (Black) plays "), 0);
    }
}
END_TEST

START_TEST(play_new_game_side_choice_and_the_end_of_a_game)
{
    /* Black against Sigil in Alexander: Sigil (White) rolls and moves first;
     * undo goes back to the person's turn; new restarts. */
    const char *args[] = {"play", "Alexander", "--time", "0.01", "--seed", "3", "--side",
                          "black", NULL};
    ck_assert_int_eq(run(args, "board\nnew\nside both\nquit\n"), 0);
    ck_assert_int_ge(occurrences("White rolls the dice: "), 2);
    ck_assert_int_ge(occurrences("Black rolls the dice: "), 2);
    ck_assert_int_eq(occurrences("Sigil (White) plays "), 2);
    ck_assert_int_eq(occurrences("New game of alexander."), 1);
    ck_assert_int_eq(occurrences("You play both sides."), 1);
    /* Four prompts; the last, answered by quit, ends no line, so it is not read. */
    ck_assert_int_eq(occurrences("Black> "), 3);
    /* After the end only new, undo and quit play on. */
    const char *end[] = {"play", "solomon", "--side", "none", "--time", "0.002", NULL};
    ck_assert_int_eq(run(end, "14-9\nundo\nquit\n"), 0);
    ck_assert_int_eq(occurrences("The game is over: type 'new', 'undo' or 'quit'."), 1);
    ck_assert_int_eq(occurrences("Taken back 1 ply: ply "), 1);
    const char *bad[] = {"play", "chess", NULL};
    ck_assert_int_eq(run(bad, NULL), 2);
    const char *bad_time[] = {"play", "--time", "-1", NULL};
    ck_assert_int_eq(run(bad_time, NULL), 2);
}
END_TEST

/* Run sigil with args (NULL-terminated, without the program) at a
 * pseudo-terminal, type input, read everything until it exits into out;
 * the exit status must be 0. */
static void run_pty(const char *const *args, const char *input)
{
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    ck_assert_int_ge(master, 0);
    ck_assert_int_eq(grantpt(master), 0);
    ck_assert_int_eq(unlockpt(master), 0);
    const char *slave_name = ptsname(master);
    ck_assert_ptr_nonnull(slave_name);
    char *argv[32];
    int argc = 0;
    argv[argc++] = (char *)pipe_engine_sigil();
    for (int i = 0; args[i] && argc < 31; i++)
        argv[argc++] = (char *)args[i];
    argv[argc] = NULL;
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        setsid();
        int slave = open(slave_name, O_RDWR);
        if (slave < 0)
            _exit(126);
        dup2(slave, 0);
        dup2(slave, 1);
        dup2(slave, 2);
        close(master);
        execv(pipe_engine_sigil(), argv);
        _exit(127);
    }
    ck_assert_int_eq(write(master, input, strlen(input)), (ssize_t)strlen(input));
    size_t used = 0;
    long long deadline = pt_now_ms() + T_LONG;
    while (pt_now_ms() < deadline && used + 1 < sizeof out) {
        struct pollfd pfd = {.fd = master, .events = POLLIN};
        if (poll(&pfd, 1, 200) <= 0) {
            if (waitpid(pid, NULL, WNOHANG) == pid) {
                pid = 0;
                break;
            }
            continue;
        }
        ssize_t n = read(master, out + used, sizeof out - used - 1);
        if (n <= 0)
            break; /* EIO once the program has exited */
        used += (size_t)n;
    }
    out[used] = '\0';
    int status = 0;
    if (pid > 0 && waitpid(pid, &status, 0) == pid)
        ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    close(master);
}

START_TEST(play_at_a_pseudo_terminal)
{
    const char *args[] = {"play", "salto", "--time", "0.01", NULL};
    run_pty(args, "moves\na3b4\nquit\n");
    ck_assert_msg(strstr(out, "Legal moves (9): a3b4"), "%s", out);
    ck_assert_ptr_nonnull(strstr(out, "White plays a3b4."));
    ck_assert_ptr_nonnull(strstr(out, "Sigil (Black) plays "));
}
END_TEST

START_TEST(play_at_a_pseudo_terminal_with_clocks_levels_hints_and_records)
{
    char dir[] = "/tmp/check_play_pty_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char pgn[256], input[1024];
    snprintf(pgn, sizeof pgn, "%s/game.pgn", dir);
    const char *args[] = {"play", "solomon", "--clock", "2+1", "--level", "0", "--seed", "5",
                          NULL};
    snprintf(input, sizeof input, "14-9\n5-8\nhint\nhistory\nsave %s\nquit\n", pgn);
    run_pty(args, input);
    /* A terminal echoes the input and ends lines with \r\n. */
    ck_assert_msg(strstr(out, "Clocks: White 2:00.0, Black 2:00.0."), "%s", out);
    ck_assert_ptr_nonnull(strstr(out, "Sigil (Black) thinks on its clock..."));
    ck_assert_ptr_nonnull(strstr(out, "Sigil (Black) plays 2x12."));
    ck_assert_ptr_nonnull(strstr(out, "illegal move '5-8' at ply 3: that is Black's piece; White "
                                      "is to move"));
    ck_assert_ptr_nonnull(strstr(out, "Sigil suggests 15x9; "));
    ck_assert_ptr_nonnull(strstr(out, "1. 14-9 2x12"));
    ck_assert_ptr_nonnull(strstr(out, "Saved the game (2 plies) to "));
    FILE *f = fopen(pgn, "r");
    ck_assert_ptr_nonnull(f);
    char text[4096];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    ck_assert_ptr_nonnull(strstr(text, "[TimeControl \"120+1\"]\n"));
    ck_assert_ptr_nonnull(strstr(text, "[Variant \"solomon\"]\n"));
    ck_assert_ptr_nonnull(strstr(text, "\n1. 14-9 2x12 {unfinished} *\n"));
    unlink(pgn);
    rmdir(dir);
}
END_TEST

START_TEST(help_names_every_play_option_and_match_takes_version)
{
    const char *args[] = {"--help", NULL};
    ck_assert_int_eq(run(args, NULL), 0);
    static const char *const opts[] = {"--side", "--time", "--seed", "--level", "--clock",
                                       "--fen"};
    for (size_t i = 0; i < sizeof opts / sizeof *opts; i++)
        ck_assert_msg(strstr(out, opts[i]), "--help lacks %s:\n%s", opts[i], out);
    /* sigil-match takes --version and -v like -version. */
    const char *match = getenv("SIGIL_MATCH_BIN");
    ck_assert_ptr_nonnull(match);
    static const char *const flags[] = {"-version", "--version", "-v"};
    for (int i = 0; i < 3; i++) {
        char cmd[1200], line[128] = "";
        snprintf(cmd, sizeof cmd, "'%s' %s", match, flags[i]);
        FILE *f = popen(cmd, "r");
        ck_assert_ptr_nonnull(f);
        ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
        ck_assert_int_eq(pclose(f), 0);
        ck_assert_str_eq(line, "sigil-match 0.1.0\n");
    }
}
END_TEST

START_TEST(play_hint_why_level_and_history)
{
    const char *args[] = {"play", "solomon", "--time", "0.05", "--seed", "4", "--level", "3",
                          NULL};
    ck_assert_int_eq(run(args, "level\nwhy 5-8\nwhy 14\nwhy 14-9\n14-9\nwhy 15-12\nhint\n"
                               "history\nlevel 21\nlevel 17\nquit\n"),
                     0);
    ck_assert_int_eq(occurrences("Sigil plays at level 3 (0 weakest, 20 full strength).\n"), 1);
    ck_assert_int_eq(occurrences("that is Black's piece; White is to move (White's pieces that "
                                 "can move stand on 14, 15, 16, 17 or 18)\n"),
                     1);
    ck_assert_int_eq(occurrences("> That piece can move.\n"), 1);
    ck_assert_int_eq(occurrences("> That is a legal move.\n"), 1);
    /* After 14-9 Black must take 2x12; then White must take back 15x9. */
    ck_assert_int_eq(occurrences("Sigil (Black) plays 2x12."), 1);
    ck_assert_int_eq(occurrences("> 12 is occupied: a step goes to an empty point\n"), 1);
    /* The hint: the only move, and the position in words with the score. */
    const char *h = strstr(out, "Sigil suggests 15x9; ");
    ck_assert_msg(h != NULL, "%s", out);
    char words[128];
    ck_assert_int_eq(sscanf(h, "Sigil suggests 15x9; %127[^\n]", words), 1);
    ck_assert_msg(strstr(words, "about equal (") || strstr(words, " better (") ||
                      strstr(words, " is winning (") || strstr(words, " wins by force"),
                  "%s", words);
    ck_assert_int_eq(occurrences("1. 14-9 2x12\n"), 1);
    ck_assert_int_eq(occurrences("Say 'level <0-20>'"), 1);
    ck_assert_int_eq(occurrences("Sigil plays at level 17.\n"), 1);
    const char *bad[] = {"play", "--level", "21", NULL};
    ck_assert_int_eq(run(bad, NULL), 2);
}
END_TEST

/* The text of a file. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

START_TEST(play_saves_and_loads_games_and_fens)
{
    char dir[] = "/tmp/check_play_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char pgn[256], fen[256], input[1024], bad[256];
    snprintf(pgn, sizeof pgn, "%s/game.pgn", dir);
    snprintf(fen, sizeof fen, "%s/pos.fen", dir);
    snprintf(bad, sizeof bad, "%s/nothing.txt", dir);
    /* A Lupta game of placements, saved as sigil-match writes records. */
    const char *args[] = {"play", "lupta", "--side", "both", NULL};
    snprintf(input, sizeof input, "c3\na1\nd3\nsave %s\nquit\n", pgn);
    ck_assert_int_eq(run(args, input), 0);
    ck_assert_int_eq(occurrences("Saved the game (3 plies) to "), 1);
    const char *rec = slurp(pgn);
    ck_assert_ptr_nonnull(strstr(rec, "[Variant \"lupta\"]\n"));
    ck_assert_ptr_nonnull(strstr(rec, "[SetUp \"1\"]\n"));
    ck_assert_ptr_nonnull(strstr(rec, "[FEN \"......"));
    ck_assert_ptr_nonnull(strstr(rec, "[Result \"*\"]\n"));
    ck_assert_ptr_nonnull(strstr(rec, "[PlyCount \"3\"]\n"));
    ck_assert_ptr_nonnull(strstr(rec, "\n1. c3 a1 2. d3 {unfinished} *\n"));
    /* Loaded again (from another game): the same moves, Black to place. */
    const char *salto[] = {"play", "salto", "--side", "both", NULL};
    snprintf(input, sizeof input, "load %s\nhistory\nwhy e3\nquit\n", pgn);
    ck_assert_int_eq(run(salto, input), 0);
    ck_assert_int_eq(occurrences("Loaded lupta from "), 1);
    ck_assert_int_eq(occurrences(": 3 plies played.\n"), 1);
    ck_assert_int_eq(occurrences("1. c3 a1\n2. d3\n"), 1);
    ck_assert_int_eq(occurrences("Ply 4: Black to move (you).\n"), 1);
    /* A file with a FEN line: the game that reads it. */
    FILE *f = fopen(fen, "w");
    ck_assert_ptr_nonnull(f);
    fputs("\nW:W14,19:B1,7,12\n", f);
    fclose(f);
    f = fopen(bad, "w");
    ck_assert_ptr_nonnull(f);
    fputs("hello\n", f);
    fclose(f);
    snprintf(input, sizeof input, "load %s\nmoves\nload %s\nload %s/none\nsave\nquit\n", fen,
             bad, dir);
    ck_assert_int_eq(run(salto, input), 0);
    ck_assert_int_eq(occurrences("Loaded solomon from "), 1);
    ck_assert_int_eq(occurrences("Legal moves (1): 14x10\n"), 1);
    ck_assert_int_eq(occurrences("its first line is no FEN of any game"), 1);
    ck_assert_int_eq(occurrences("Cannot open '"), 1);
    ck_assert_int_eq(occurrences("Say 'save <file>'"), 1);
    /* A record sigil-match wrote (the format of doc/sigil-match.md). */
    f = fopen(pgn, "w");
    ck_assert_ptr_nonnull(f);
    fputs("[Event \"m\"]\n[Site \"?\"]\n[Date \"2026.01.01\"]\n[Round \"1.1\"]\n[White \"a\"]\n"
          "[Black \"b\"]\n[Result \"*\"]\n[SetUp \"1\"]\n"
          "[FEN \"bbbbbb/bbbbbb/6/6/wwwwww/wwwwww w - 0 0\"]\n[Variant \"alexander\"]\n"
          "[Termination \"abandoned\"]\n\n1. c4 {book} a1c4 {+0.10/3 0.010s} e5 e5b2 {-0.20/2 "
          "0.012s} {abandoned} *\n\n",
          f);
    fclose(f);
    snprintf(input, sizeof input, "load %s\nhistory\nquit\n", pgn);
    const char *alex[] = {"play", "alexander", "--side", "both", NULL};
    ck_assert_int_eq(run(alex, input), 0);
    ck_assert_int_eq(occurrences("Loaded alexander from "), 1);
    ck_assert_int_eq(occurrences("1. c4 a1c4 e5 e5b2\n"), 1);
    /* --fen starts from a position; a bad one is a usage error. */
    const char *fen_args[] = {"play", "solomon-chain", "--fen", "W:W14,19:B1,7,12", "--side",
                              "both", NULL};
    ck_assert_int_eq(run(fen_args, "moves\nhistory\nquit\n"), 0);
    ck_assert_int_eq(occurrences("Legal moves (1): 14x10x2\n"), 1);
    ck_assert_int_eq(occurrences("From W:W14,19:B1,7,12:\nNo moves yet.\n"), 1);
    const char *bad_fen[] = {"play", "--fen", "W:W99", NULL};
    ck_assert_int_eq(run(bad_fen, NULL), 2);
    unlink(pgn);
    unlink(fen);
    unlink(bad);
    rmdir(dir);
}
END_TEST

START_TEST(play_with_clocks_and_a_flag_fall)
{
    /* Sigil plays both sides on a clock of 0.05 min + 1 s: running clocks
     * are shown, and the increment is added after each move. */
    const char *both[] = {"play", "pyramid", "--side", "none", "--clock", "0.05+1", "--level",
                          "0", NULL};
    ck_assert_int_eq(run(both, "quit\n"), 0);
    ck_assert_int_eq(occurrences("Clocks: White 0:03.0, Black 0:03.0.\n"), 1);
    ck_assert_int_gt(occurrences("Sigil (White) thinks on its clock..."), 0);
    ck_assert_int_gt(occurrences("Game over: "), 0);
    const char *bad[] = {"play", "--clock", "5+x", NULL};
    ck_assert_int_eq(run(bad, NULL), 2);
    /* A person who takes longer than the clock loses on time. */
    const char *args[] = {"play", "solomon", "--clock", "0.01+0", NULL}; /* 0.6 s */
    pt_start_args(args, 0);
    pipe_engine_read(&pt_engine, T_SHORT); /* the greeting */
    struct timespec pause = {1, 500000000};
    nanosleep(&pause, NULL);
    const char *input = "14-9\nundo\nquit\n";
    pipe_engine_write(&pt_engine, input, strlen(input));
    pipe_engine_close_input(&pt_engine);
    out[0] = '\0';
    const char *line;
    while ((line = pipe_engine_read(&pt_engine, T_SHORT)) != NULL) {
        size_t used = strlen(out);
        snprintf(out + used, sizeof out - used, "%s\n", line);
    }
    pipe_engine_wait(&pt_engine, T_SHORT);
    pt_finish();
    ck_assert_msg(occurrences("White's flag fell: White ran out of time.\n") == 1, "%s", out);
    ck_assert_int_eq(occurrences("Game over: Black wins (White's flag fell: White ran out of "
                                 "time).\n"),
                     1);
    ck_assert_int_eq(occurrences("White plays 14-9"), 0);
    ck_assert_int_eq(occurrences("The game ended on time"), 1);
}
END_TEST

static Suite *play_suite(void)
{
    Suite *s = suite_create("play");
    TCase *tc = tcase_create("command line");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, help_and_version_print_and_exit_zero);
    tcase_add_test(tc, argument_mode_never_leaves_an_endless_search);
    tcase_add_test(tc, play_through_a_pipe_moves_lists_refuses_undoes_and_leaves);
    tcase_add_test(tc, play_a_whole_game_of_every_variant_to_its_result);
    tcase_add_test(tc, play_new_game_side_choice_and_the_end_of_a_game);
    tcase_add_test(tc, play_at_a_pseudo_terminal);
    tcase_add_test(tc, play_at_a_pseudo_terminal_with_clocks_levels_hints_and_records);
    tcase_add_test(tc, help_names_every_play_option_and_match_takes_version);
    tcase_add_test(tc, play_hint_why_level_and_history);
    tcase_add_test(tc, play_saves_and_loads_games_and_fens);
    tcase_add_test(tc, play_with_clocks_and_a_flag_fall);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    variants_init();
    SRunner *sr = srunner_create(play_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
