#include "pfind.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runner.h"
#include "timeline.h"
#include "util.h"

enum { TAG_STEAL = 800, TAG_WORK = 820, TAG_NO_WORK = 821, TAG_TOKEN = 777, TAG_DONE = 778 };
/* pfind interrupts a readdir every 1000 entries and serves messages after every queued item it processes. */
enum { READDIR_BATCH = 1000, STAT_BATCH = 1 };

/* A work item: 'd' + directory path or 'f' + file path, both absolute. */
typedef struct {
  char **items;
  size_t count;
  size_t capacity;
} stack_t_;

typedef struct {
  const pfind_job_t *job;
  regex_t name_regex; /* pfind tests every name with regexec(), before any stat */
  /* The same test without regexec when the glob is literal text and '*' only (see name_matches). */
  bool literal_glob;
  char *pieces;      /* the literal pieces between the stars, each NUL-terminated, back to back */
  size_t piece_count;
  MPI_Comm comm;
  int rank, size;
  stack_t_ queue;  /* bounded by the queue length, like pfind */
  stack_t_ excess; /* directories that did not fit */
  DIR *dir;        /* the directory being read, in batches so that steal requests are served */
  char dir_path[PATH_MAX];
  long dir_end;    /* -H 1: read while telldir() < dir_end (LONG_MAX for a whole directory) */
  pfind_counters_t c;
  timeline_t *tl;
  /* Safra's termination detection */
  long long msg_balance; /* work messages sent - received */
  bool black;
  bool have_token;
  long long token_q;
  int token_black;
  bool token_out; /* rank 0: a round is under way */
  bool steal_pending;
  bool done;
  MPI_Request *sends;
  char **send_bufs;
  int sends_count, sends_cap;
  unsigned rng;
} finder_t;

static void push(stack_t_ *s, char *item) {
  if (s->count == s->capacity) {
    s->capacity = s->capacity ? s->capacity * 2 : 256;
    s->items = xrealloc(s->items, s->capacity * sizeof(char *));
  }
  s->items[s->count++] = item;
}

static char *make_item(char type, const char *dir, const char *name) {
  size_t dl = strlen(dir);
  size_t nl = name ? strlen(name) : 0;
  char *item = xmalloc(dl + nl + 3);
  item[0] = type;
  memcpy(item + 1, dir, dl);
  if (name) {
    item[1 + dl] = '/';
    memcpy(item + 2 + dl, name, nl + 1);
  } else {
    item[1 + dl] = '\0';
  }
  return item;
}

static void count_file(finder_t *f) {
  f->c.total++;
  timeline_add(f->tl, now(), 1);
}

static void check_stat(finder_t *f, const struct stat *sb) {
  if (f->job->ctime_min >= 0 && (int64_t)sb->st_ctime < f->job->ctime_min) {
    return;
  }
  if ((uint64_t)sb->st_size != f->job->size) {
    return;
  }
  f->c.found++;
}

static void stat_file(finder_t *f, const char *path) {
  struct stat sb;
  count_file(f);
  if (lstat(path, &sb) == 0) {
    check_stat(f, &sb);
  } else {
    f->c.errors++;
  }
}

/* pfind's enqueue_work: into the queue while it has room; when it is full a directory goes to the excess
   list and a file is stat'ed at once. Returns false when the queue was full: pfind then interrupts the
   readdir after this entry, so that the main loop serves messages again. */
static bool enqueue(finder_t *f, char type, const char *dir, const char *name) {
  if (f->queue.count < (size_t)f->job->queue_length) {
    push(&f->queue, make_item(type, dir, name));
    return true;
  }
  if (type == 'd') {
    push(&f->excess, make_item(type, dir, name));
  } else {
    char path[PATH_MAX];
    path_join(path, "%s/%s", dir, name);
    stat_file(f, path);
  }
  return false;
}

/* Characters that stand for themselves in the regex pfind builds ('.' becomes "[.]"). */
static bool literal_in_regex(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
         c == '.';
}

/* pfind's -name: '*' becomes ".*", '.' becomes "[.]", '"' is dropped, the rest is literal; compiled as a
   POSIX basic regex and matched unanchored with regexec(), exactly what pfind does per directory entry.
   When the glob holds only stars and characters that are literal in that regex (the IO500 pattern
   "*01*" does), the regex ".*A.*B.*" matches exactly the names that contain A, then B later: the pieces
   are kept for a substring test, which gives the same answer as regexec at a twentieth of its cost. */
static void compile_name_regex(finder_t *f) {
  const char *glob = f->job->name_glob;
  char *re = xmalloc(strlen(glob) * 4 + 1);
  f->pieces = xmalloc(strlen(glob) * 2 + 2);
  f->literal_glob = true;
  f->piece_count = 0;
  size_t n = 0, piece_bytes = 0;
  bool in_piece = false;
  for (const char *p = glob; *p; p++) {
    if (*p == '*') {
      re[n++] = '.';
      re[n++] = '*';
      if (in_piece) {
        f->pieces[piece_bytes++] = '\0';
        in_piece = false;
      }
      continue;
    }
    if (*p == '"') {
      continue;
    }
    if (*p == '.') {
      memcpy(re + n, "[.]", 3);
      n += 3;
    } else {
      re[n++] = *p;
    }
    f->literal_glob = f->literal_glob && literal_in_regex(*p);
    if (!in_piece) {
      f->piece_count++;
      in_piece = true;
    }
    f->pieces[piece_bytes++] = *p;
  }
  if (in_piece) {
    f->pieces[piece_bytes++] = '\0';
  }
  re[n] = '\0';
  if (regcomp(&f->name_regex, re, 0) != 0) {
    die("find: cannot compile the name pattern %s", glob);
  }
  free(re);
}

static bool name_matches(finder_t *f, const char *name) {
  if (!f->literal_glob) {
    return regexec(&f->name_regex, name, 0, NULL, 0) == 0;
  }
  /* Each piece at its leftmost place after the previous one leaves the most room for the rest. */
  const char *piece = f->pieces;
  for (size_t i = 0; i < f->piece_count; i++) {
    const char *at = strstr(name, piece);
    if (at == NULL) {
      return false;
    }
    size_t length = strlen(piece);
    name = at + length;
    piece += length + 1;
  }
  return true;
}

/* Reads up to READDIR_BATCH entries of the current directory; pfind's find_do_readdir. */
static void read_some(finder_t *f) {
  int fd = dirfd(f->dir);
  for (int processed = 0; processed < READDIR_BATCH; processed++) {
    if (f->job->hashing && telldir(f->dir) >= f->dir_end) {
      /* The rest of this directory's range was given to a thief. */
      closedir(f->dir);
      f->dir = NULL;
      return;
    }
    errno = 0;
    struct dirent *e = readdir(f->dir);
    if (!e) {
      if (errno) {
        f->c.errors++;
      }
      closedir(f->dir);
      f->dir = NULL;
      return;
    }
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) {
      continue;
    }
    f->c.checked++;
    unsigned char type = e->d_type;
    if (type == DT_UNKNOWN) {
      f->c.unknown++;
      struct stat sb;
      if (fstatat(fd, e->d_name, &sb, 0) != 0) {
        f->c.errors++;
        continue;
      }
      if (S_ISDIR(sb.st_mode)) {
        if (!enqueue(f, 'd', f->dir_path, e->d_name)) {
          return;
        }
        continue;
      }
      /* The stat is done already; pfind counts and checks the file right here. */
      count_file(f);
      if (name_matches(f, e->d_name)) {
        check_stat(f, &sb);
      }
      continue;
    }
    if (type == DT_DIR) {
      if (!enqueue(f, 'd', f->dir_path, e->d_name)) {
        return;
      }
      continue;
    }
    /* The name test comes before any stat: most entries never need one. */
    if (!name_matches(f, e->d_name)) {
      count_file(f);
      continue;
    }
    if (!enqueue(f, 'f', f->dir_path, e->d_name)) {
      return;
    }
  }
}

static void open_dir(finder_t *f, const char *path) {
  DIR *d = opendir(path);
  if (!d) {
    f->c.errors++;
    return;
  }
  f->dir = d;
  f->dir_end = LONG_MAX;
  snprintf(f->dir_path, sizeof(f->dir_path), "%s", path);
}

/* -H 1: a range item "h<start> <end> <path>" opens the directory at telldir() position start and reads
   while the position is below end, as pfind's find_do_readdir with dir_start and dir_end. */
static void open_dir_range(finder_t *f, const char *item) {
  long start = 0, end = 0;
  int used = 0;
  if (sscanf(item, "%ld %ld %n", &start, &end, &used) != 2) {
    die("internal error: bad directory range %s during find", item);
  }
  open_dir(f, item + used);
  if (f->dir) {
    if (start != 0) {
      seekdir(f->dir, start);
    }
    f->dir_end = end;
  }
}


static void track_send(finder_t *f, char *buf, MPI_Request req) {
  if (f->sends_count == f->sends_cap) {
    f->sends_cap = f->sends_cap ? f->sends_cap * 2 : 16;
    f->sends = xrealloc(f->sends, (size_t)f->sends_cap * sizeof(MPI_Request));
    f->send_bufs = xrealloc(f->send_bufs, (size_t)f->sends_cap * sizeof(char *));
  }
  f->sends[f->sends_count] = req;
  f->send_bufs[f->sends_count] = buf;
  f->sends_count++;
}

static void reap_sends(finder_t *f, bool wait) {
  int kept = 0;
  for (int i = 0; i < f->sends_count; i++) {
    int flag = 0;
    if (wait) {
      MPI_Wait(&f->sends[i], MPI_STATUS_IGNORE);
      flag = 1;
    } else {
      MPI_Test(&f->sends[i], &flag, MPI_STATUS_IGNORE);
    }
    if (flag) {
      free(f->send_bufs[i]);
    } else {
      f->sends[kept] = f->sends[i];
      f->send_bufs[kept] = f->send_bufs[i];
      kept++;
    }
  }
  f->sends_count = kept;
}

/* A thief asked: like pfind, give it the newer half of the queue (the top of the stack, pending / 2 items;
   nothing when fewer than two are pending), then refill the queue with as many excess directories. */
static void answer_steal(finder_t *f, int thief) {
  f->c.steal_inbound++;
  size_t give = f->queue.count / 2;
  if (give == 0 && f->job->hashing && f->queue.count == 0 && f->dir) {
    /* pfind -H 1: nothing queued but a directory open: keep the first half of the remaining telldir()
       range and give the second half to the thief. */
    long cur = telldir(f->dir);
    long mid = cur + (f->dir_end - cur) / 2;
    char range[PATH_MAX + 64];
    snprintf(range, sizeof(range), "h%ld %ld %s", mid, f->dir_end, f->dir_path);
    f->dir_end = mid;
    push(&f->queue, xstrdup(range));
    give = 1;
  }
  if (give == 0) {
    MPI_Send(NULL, 0, MPI_CHAR, thief, TAG_NO_WORK, f->comm);
    return;
  }
  size_t first = f->queue.count - give;
  size_t bytes = 0;
  for (size_t i = first; i < f->queue.count; i++) {
    bytes += strlen(f->queue.items[i]) + 1;
  }
  char *buf = xmalloc(bytes);
  char *p = buf;
  for (size_t i = first; i < f->queue.count; i++) {
    size_t len = strlen(f->queue.items[i]) + 1;
    memcpy(p, f->queue.items[i], len);
    p += len;
    free(f->queue.items[i]);
  }
  f->queue.count = first;
  MPI_Request req;
  MPI_Isend(buf, (int)bytes, MPI_CHAR, thief, TAG_WORK, f->comm, &req);
  track_send(f, buf, req);
  f->c.work_sent += give;
  f->msg_balance++;
  for (size_t moved = 0; moved < give && f->excess.count > 0; moved++) {
    push(&f->queue, f->excess.items[--f->excess.count]);
  }
}

static void receive_work(finder_t *f, MPI_Status *st) {
  int bytes = 0;
  MPI_Get_count(st, MPI_CHAR, &bytes);
  char *buf = xmalloc((size_t)bytes + 1);
  MPI_Recv(buf, bytes, MPI_CHAR, st->MPI_SOURCE, TAG_WORK, f->comm, MPI_STATUS_IGNORE);
  for (char *p = buf; p < buf + bytes; p += strlen(p) + 1) {
    push(p[0] == 'd' && f->queue.count >= (size_t)f->job->queue_length ? &f->excess : &f->queue, xstrdup(p));
    f->c.work_stolen++;
  }
  free(buf);
  f->msg_balance--;
  f->black = true;
  f->steal_pending = false;
}

static void send_token(finder_t *f, int to, long long q, int black) {
  long long msg[2] = {q, black};
  MPI_Send(msg, 2, MPI_LONG_LONG, to, TAG_TOKEN, f->comm);
  f->c.tokens_sent++;
}

static void handle_message(finder_t *f, MPI_Status *st) {
  switch (st->MPI_TAG) {
    case TAG_STEAL:
      MPI_Recv(NULL, 0, MPI_CHAR, st->MPI_SOURCE, TAG_STEAL, f->comm, MPI_STATUS_IGNORE);
      answer_steal(f, st->MPI_SOURCE);
      break;
    case TAG_WORK:
      receive_work(f, st);
      break;
    case TAG_NO_WORK:
      MPI_Recv(NULL, 0, MPI_CHAR, st->MPI_SOURCE, TAG_NO_WORK, f->comm, MPI_STATUS_IGNORE);
      f->steal_pending = false;
      break;
    case TAG_TOKEN: {
      long long msg[2];
      MPI_Recv(msg, 2, MPI_LONG_LONG, st->MPI_SOURCE, TAG_TOKEN, f->comm, MPI_STATUS_IGNORE);
      f->have_token = true;
      f->token_q = msg[0];
      f->token_black = (int)msg[1];
      break;
    }
    case TAG_DONE:
      MPI_Recv(NULL, 0, MPI_CHAR, st->MPI_SOURCE, TAG_DONE, f->comm, MPI_STATUS_IGNORE);
      f->done = true;
      break;
    default:
      die("internal error: unexpected message tag %d during find", st->MPI_TAG);
  }
}

static void poll_messages(finder_t *f) {
  for (;;) {
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, f->comm, &flag, &st);
    if (!flag) {
      return;
    }
    handle_message(f, &st);
  }
}

/* Passive with the token: pass it on (Safra). Rank 0 decides when it comes back clean. */
static void idle_token_duty(finder_t *f) {
  if (f->rank == 0) {
    if (f->have_token) {
      f->have_token = false;
      f->token_out = false;
      if (!f->token_black && !f->black && f->token_q + f->msg_balance == 0) {
        for (int r = 1; r < f->size; r++) {
          MPI_Send(NULL, 0, MPI_CHAR, r, TAG_DONE, f->comm);
        }
        f->done = true;
        return;
      }
    }
    if (!f->token_out) {
      f->black = false;
      f->token_out = true;
      send_token(f, 1 % f->size, 0, 0);
    }
    return;
  }
  if (f->have_token) {
    f->have_token = false;
    send_token(f, (f->rank + 1) % f->size, f->token_q + f->msg_balance, f->token_black || f->black);
    f->black = false;
  }
}

static void try_steal(finder_t *f) {
  if (f->steal_pending || f->size < 2) {
    return;
  }
  int victim;
  if (f->job->steal_next && (rand_r(&f->rng) & 1)) {
    victim = (f->rank + f->size - 1) % f->size;
  } else {
    victim = (int)(rand_r(&f->rng) % (unsigned)(f->size - 1));
    if (victim >= f->rank) {
      victim++;
    }
  }
  MPI_Send(NULL, 0, MPI_CHAR, victim, TAG_STEAL, f->comm);
  f->c.steal_tries++;
  f->steal_pending = true;
}

/* pfind waits for the answer to its steal request, answering other ranks' requests meanwhile. */
static void wait_for_steal_answer(finder_t *f) {
  double t0 = now();
  while (f->steal_pending) {
    MPI_Status st;
    MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, f->comm, &st);
    handle_message(f, &st);
  }
  f->c.steal_time += now() - t0; /* pfind's job_steal_mpitime_us: the thief's time from request to answer */
}

/* After the decision: answer late steal requests until every rank has its answer (non-blocking barrier). */
static void drain(finder_t *f) {
  while (f->steal_pending) {
    MPI_Status st;
    MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, f->comm, &st);
    handle_message(f, &st);
  }
  MPI_Request barrier;
  MPI_Ibarrier(f->comm, &barrier);
  for (;;) {
    int flag = 0;
    MPI_Test(&barrier, &flag, MPI_STATUS_IGNORE);
    if (flag) {
      break;
    }
    int msg = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, f->comm, &msg, &st);
    if (msg) {
      handle_message(f, &st);
    }
  }
  reap_sends(f, true);
}

pfind_counters_t pfind_run(const pfind_job_t *job, MPI_Comm comm, timeline_t *tl) {
  finder_t f;
  memset(&f, 0, sizeof(f));
  f.job = job;
  MPI_Comm_dup(comm, &f.comm);
  MPI_Comm_rank(f.comm, &f.rank);
  MPI_Comm_size(f.comm, &f.size);
  f.rng = 4711u + (unsigned)f.rank * 2654435761u;
  f.have_token = false;

  f.tl = tl;
  compile_name_regex(&f);
  double start = now();
  tl->t0 = start;
  if (f.rank == 0) {
    open_dir(&f, job->root);
  }
  while (!f.done) {
    poll_messages(&f);
    if (f.done) {
      break;
    }
    /* pfind's find_process_one_item: the open directory first, then the excess directories, then the
       top of the queue. */
    if (f.dir) {
      read_some(&f);
    } else if (f.excess.count) {
      char *item = f.excess.items[--f.excess.count];
      open_dir(&f, item + 1);
      free(item);
    } else if (f.queue.count) {
      for (int k = 0; k < STAT_BATCH && f.queue.count && !f.dir; k++) {
        char *item = f.queue.items[--f.queue.count];
        if (item[0] == 'd') {
          open_dir(&f, item + 1);
        } else if (item[0] == 'h') {
          open_dir_range(&f, item + 1);
        } else {
          stat_file(&f, item + 1);
        }
        free(item);
      }
    } else {
      if (f.size == 1) {
        break;
      }
      idle_token_duty(&f);
      if (f.done) {
        break;
      }
    }
    /* Like pfind, a rank whose queue is empty asks a random rank for work and waits for the answer, even
       while it still reads a directory. */
    if (f.size > 1 && f.queue.count == 0 && !f.done) {
      try_steal(&f);
      wait_for_steal_answer(&f);
    }
    reap_sends(&f, false);
  }
  double end = now();
  f.c.runtime = end - start;
  timeline_end(tl, end);
  if (f.size > 1) {
    drain(&f);
  }
  regfree(&f.name_regex);
  free(f.pieces);
  free(f.queue.items);
  free(f.excess.items);
  free(f.sends);
  free(f.send_bufs);
  MPI_Comm_free(&f.comm);
  return f.c;
}
