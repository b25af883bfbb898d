/* threads.c - the pool of persistent search workers (see threads.h).
 *
 * Each worker sleeps on its own condition variable (and mutex), so a wake-up
 * never makes the workers queue on one lock: threads_start wakes worker 0
 * alone, and worker 0 wakes the helpers (threads_wake_helpers) when it is
 * ready for them, one signal each.  A worker that returns from the work
 * counts itself out with an atomic decrement; the last one takes the pool's
 * lock to wake threads_wait.  Helpers never woken in a generation are
 * counted out by worker 0 when it returns.
 */
#include "threads.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

/* Nanoseconds per millisecond and per second, for the timed wait. */
#define NS_PER_MS 1000000L
#define NS_PER_S 1000000000L
#define MS_PER_S 1000

typedef struct Worker {
    pthread_t handle;
    SearchThread *state;
    pthread_mutex_t lock; /* guards go and quit */
    pthread_cond_t wake;
    bool go;   /* run the pool's current work once */
    bool quit; /* return */
} Worker;

/* The pool: the documented global of this module.  work, arg and active are
 * written by threads_start before any worker of that generation is woken
 * (the worker's lock publishes them); count and the workers' states change
 * only in threads_resize (while no work runs). */
static struct {
    pthread_mutex_t lock; /* guards the wait on done */
    pthread_cond_t done;  /* running dropped to 0 */
    pthread_once_t once;  /* done's clock is set up */
    atomic_int running;   /* workers of this generation not yet counted out */
    atomic_bool helpers_woken;
    ThreadWork work;
    void *arg;
    int active; /* workers 0..active-1 belong to this generation */
    int count;  /* workers alive */
    Worker workers[THREADS_MAX];
} pool = {.lock = PTHREAD_MUTEX_INITIALIZER, .once = PTHREAD_ONCE_INIT};

/* done waits against the monotonic clock where it can (a change of the wall
 * clock must not stretch a search). */
static clockid_t done_clock = CLOCK_REALTIME;
static void init_done(void)
{
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    if (pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) == 0)
        done_clock = CLOCK_MONOTONIC;
    pthread_cond_init(&pool.done, &attr);
    pthread_condattr_destroy(&attr);
}

/* Count n workers out of this generation; the last wakes threads_wait. */
static void count_out(int n)
{
    if (n > 0 && atomic_fetch_sub(&pool.running, n) == n) {
        pthread_mutex_lock(&pool.lock);
        pthread_cond_broadcast(&pool.done);
        pthread_mutex_unlock(&pool.lock);
    }
}

static void *worker_main(void *arg)
{
    Worker *w = arg;
    pthread_mutex_lock(&w->lock);
    for (;;) {
        while (!w->go && !w->quit)
            pthread_cond_wait(&w->wake, &w->lock);
        if (w->quit)
            break;
        w->go = false;
        pthread_mutex_unlock(&w->lock);
        pool.work(w->state, pool.arg);
        int out = 1;
        /* Helpers worker 0 never woke: this generation is over for them. */
        if (w->state->id == 0 && !atomic_exchange(&pool.helpers_woken, true))
            out += pool.active - 1;
        count_out(out);
        pthread_mutex_lock(&w->lock);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

static void wake(Worker *w)
{
    pthread_mutex_lock(&w->lock);
    w->go = true;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
}

/* End every worker and free its state. */
static void stop_all(void)
{
    for (int i = 0; i < pool.count; i++) {
        Worker *w = &pool.workers[i];
        pthread_mutex_lock(&w->lock);
        w->quit = true;
        pthread_cond_signal(&w->wake);
        pthread_mutex_unlock(&w->lock);
    }
    for (int i = 0; i < pool.count; i++) {
        Worker *w = &pool.workers[i];
        pthread_join(w->handle, NULL);
        pthread_cond_destroy(&w->wake);
        pthread_mutex_destroy(&w->lock);
        free(w->state);
        w->state = NULL;
    }
    pool.count = 0;
}

/* The processors threads_usable counts: 0 = those online. */
static atomic_int processors_set;

void threads_set_processors(int n) { atomic_store(&processors_set, n > 0 ? n : 0); }

int threads_usable(int count)
{
    long online = atomic_load(&processors_set);
    if (online == 0)
        online = sysconf(_SC_NPROCESSORS_ONLN);
    if (count > THREADS_MAX)
        count = THREADS_MAX;
    if (online >= 1 && count > online)
        count = (int)online;
    return count < 1 ? 1 : count;
}

int threads_resize(int count)
{
    pthread_once(&pool.once, init_done);
    count = threads_usable(count);
    if (count == pool.count)
        return count;
    stop_all();
    for (int i = 0; i < count; i++) {
        Worker *w = &pool.workers[i];
        w->state = util_xcalloc(1, sizeof *w->state);
        w->state->id = i;
        w->go = false;
        w->quit = false;
        pthread_mutex_init(&w->lock, NULL);
        pthread_cond_init(&w->wake, NULL);
        if (pthread_create(&w->handle, NULL, worker_main, w) != 0) {
            pthread_cond_destroy(&w->wake);
            pthread_mutex_destroy(&w->lock);
            free(w->state);
            w->state = NULL;
            break;
        }
        pool.count = i + 1;
    }
    return pool.count;
}

void threads_start(int count, ThreadWork work, void *arg)
{
#ifdef SIGIL_FUZZ
    /* The fuzz build (tests/fuzz) searches on one thread: run it right here,
     * without the two thread switches a fuzz input cannot afford. */
    if (count == 1 && pool.count >= 1) {
        pool.active = 1;
        atomic_store(&pool.helpers_woken, true);
        work(pool.workers[0].state, arg);
        return;
    }
#endif
    pool.work = work;
    pool.arg = arg;
    pool.active = count < pool.count ? count : pool.count;
    if (pool.active < 1)
        return;
    atomic_store(&pool.running, pool.active);
    atomic_store(&pool.helpers_woken, pool.active == 1);
    wake(&pool.workers[0]);
}

void threads_wake_helpers(void)
{
    if (atomic_exchange(&pool.helpers_woken, true))
        return;
    for (int i = 1; i < pool.active; i++)
        wake(&pool.workers[i]);
}

bool threads_wait_for(int ms)
{
    pthread_once(&pool.once, init_done);
    struct timespec until;
    clock_gettime(done_clock, &until);
    until.tv_sec += ms / MS_PER_S;
    until.tv_nsec += (long)(ms % MS_PER_S) * NS_PER_MS;
    if (until.tv_nsec >= NS_PER_S) {
        until.tv_sec++;
        until.tv_nsec -= NS_PER_S;
    }
    pthread_mutex_lock(&pool.lock);
    int rc = 0;
    while (atomic_load(&pool.running) > 0 && rc != ETIMEDOUT)
        rc = pthread_cond_timedwait(&pool.done, &pool.lock, &until);
    bool done = atomic_load(&pool.running) <= 0;
    pthread_mutex_unlock(&pool.lock);
    return done;
}

void threads_wait(void)
{
    pthread_once(&pool.once, init_done);
    pthread_mutex_lock(&pool.lock);
    while (atomic_load(&pool.running) > 0)
        pthread_cond_wait(&pool.done, &pool.lock);
    pthread_mutex_unlock(&pool.lock);
}

SearchThread *threads_get(int i) { return i >= 0 && i < pool.count ? pool.workers[i].state : NULL; }
