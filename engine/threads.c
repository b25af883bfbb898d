/* threads.c - the pool of persistent search workers (see threads.h).
 *
 * One mutex guards the pool.  threads_start publishes the work and bumps a
 * generation counter under it and wakes every worker; a worker that sees a
 * new generation runs the work once if its index is below the active count,
 * then goes back to sleep.  The last worker to finish wakes threads_wait.
 */
#include "threads.h"

#include <pthread.h>
#include <stdlib.h>

#include "util.h"

typedef struct Worker {
    pthread_t handle;
    SearchThread *state;
    unsigned long seen; /* the last generation this worker looked at */
} Worker;

/* The pool: the documented global of this module.  Its fields change only
 * under lock, except count and the workers' states, which change only in
 * threads_resize (while no work runs). */
static struct {
    pthread_mutex_t lock;
    pthread_cond_t wake; /* a new generation of work, or quit */
    pthread_cond_t done; /* running dropped to 0 */
    unsigned long generation;
    bool quit;
    int active;  /* workers 0..active-1 run this generation's work */
    int running; /* of those, how many have not returned yet */
    ThreadWork work;
    void *arg;
    int count; /* workers alive */
    Worker workers[THREADS_MAX];
} pool = {.lock = PTHREAD_MUTEX_INITIALIZER,
          .wake = PTHREAD_COND_INITIALIZER,
          .done = PTHREAD_COND_INITIALIZER};

static void *worker_main(void *arg)
{
    Worker *w = arg;
    pthread_mutex_lock(&pool.lock);
    for (;;) {
        while (pool.generation == w->seen && !pool.quit)
            pthread_cond_wait(&pool.wake, &pool.lock);
        if (pool.quit)
            break;
        w->seen = pool.generation;
        if (w->state->id >= pool.active)
            continue;
        ThreadWork work = pool.work;
        void *work_arg = pool.arg;
        pthread_mutex_unlock(&pool.lock);
        work(w->state, work_arg);
        pthread_mutex_lock(&pool.lock);
        if (--pool.running == 0)
            pthread_cond_broadcast(&pool.done);
    }
    pthread_mutex_unlock(&pool.lock);
    return NULL;
}

/* End every worker and free its state. */
static void stop_all(void)
{
    pthread_mutex_lock(&pool.lock);
    pool.quit = true;
    pthread_cond_broadcast(&pool.wake);
    pthread_mutex_unlock(&pool.lock);
    for (int i = 0; i < pool.count; i++) {
        pthread_join(pool.workers[i].handle, NULL);
        free(pool.workers[i].state);
        pool.workers[i].state = NULL;
    }
    pool.count = 0;
    pthread_mutex_lock(&pool.lock);
    pool.quit = false;
    pthread_mutex_unlock(&pool.lock);
}

int threads_resize(int count)
{
    if (count < 1)
        count = 1;
    if (count > THREADS_MAX)
        count = THREADS_MAX;
    if (count == pool.count)
        return count;
    stop_all();
    for (int i = 0; i < count; i++) {
        Worker *w = &pool.workers[i];
        w->state = util_xcalloc(1, sizeof *w->state);
        w->state->id = i;
        pthread_mutex_lock(&pool.lock);
        w->seen = pool.generation;
        pthread_mutex_unlock(&pool.lock);
        if (pthread_create(&w->handle, NULL, worker_main, w) != 0) {
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
        work(pool.workers[0].state, arg);
        return;
    }
#endif
    pthread_mutex_lock(&pool.lock);
    pool.work = work;
    pool.arg = arg;
    pool.active = count < pool.count ? count : pool.count;
    pool.running = pool.active;
    pool.generation++;
    pthread_cond_broadcast(&pool.wake);
    pthread_mutex_unlock(&pool.lock);
}

void threads_wait(void)
{
    pthread_mutex_lock(&pool.lock);
    while (pool.running > 0)
        pthread_cond_wait(&pool.done, &pool.lock);
    pthread_mutex_unlock(&pool.lock);
}

SearchThread *threads_get(int i) { return i >= 0 && i < pool.count ? pool.workers[i].state : NULL; }
