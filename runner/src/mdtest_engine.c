#include "mdtest_engine.h"

#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ioerror.h"
#include "pattern.h"
#include "report.h"
#include "runner.h"
#include "stonewall.h"
#include "timeline.h"
#include "topology.h"
#include "util.h"

/* The mdtest operation numbers of the CSV layout (mdtest_test_num_t). */
enum { OP_DIR_CREATE, OP_DIR_STAT, OP_DIR_READ, OP_DIR_RENAME, OP_DIR_REMOVE, OP_FILE_CREATE, OP_FILE_STAT,
       OP_FILE_READ, OP_FILE_REMOVE, OP_TREE_CREATE, OP_TREE_REMOVE, OP_COUNT };

static const char *op_names[OP_COUNT] = {"Directory creation", "Directory stat", "Directory read",
                                         "Directory rename", "Directory removal", "File creation",
                                         "File stat", "File read", "File removal", "Tree creation",
                                         "Tree removal"};

typedef struct {
  double time[OP_COUNT];                /* t_end (after the barrier) - t_start */
  double time_before_barrier[OP_COUNT]; /* per-rank duration, for the CSV */
  double items[OP_COUNT];
} md_rank_t;

static int file_op_index(md_op_t op) {
  switch (op) {
    case MD_CREATE: return OP_FILE_CREATE;
    case MD_STAT: return OP_FILE_STAT;
    case MD_READ: return OP_FILE_READ;
    case MD_REMOVE: return OP_FILE_REMOVE;
  }
  return OP_FILE_CREATE;
}

/* Which rank's files this rank touches and in which tree, with mdtest's -N shift per phase. */
static void target_of(const md_job_t *job, int *name_rank, int *tree_rank) {
  int stride = mdtest_stride(1);
  int step = job->op == MD_CREATE ? 0 : job->op == MD_STAT ? 1 : job->op == MD_READ ? 2 : 3;
  *name_rank = (run.rank + step * stride) % run.size;
  *tree_rank = (run.rank + (step + 1) * stride) % run.size;
}

static void tree_path(const md_job_t *job, int tree_rank, char *out) {
  if (job->unique_dir) {
    path_join(out, "%s/test-dir.0-0/mdtest_tree.%d.0", job->dir, tree_rank);
  } else {
    path_join(out, "%s/test-dir.0-0/mdtest_tree.0", job->dir);
  }
}

/* One item as mdtest does it through its POSIX backend. The path is built per item as mdtest builds it:
   create and remove format "<dir>/file.mdtest.<r>.<i>" in one step; stat and read (mdtest_stat,
   mdtest_read) first clear two PATH_MAX buffers, format the name, then the full path, and copy it back.
   A failed operation is recorded with its errno (io_error) and ends the phase: IOR and mdtest stop the
   official application on a failed create or transfer, and a run that lost files measures nothing. */
static void item_path(const md_job_t *job, const char *dir, int name_rank, uint64_t i, char *path) {
  if (job->op == MD_STAT || job->op == MD_READ) {
    char name[PATH_MAX];
    memset(path, 0, PATH_MAX);
    memset(name, 0, sizeof(name));
    snprintf(name, sizeof(name), "file.mdtest.%d.%llu", name_rank, (unsigned long long)i);
    path_join(path, "%s/%s", dir, name);
  } else {
    path_join(path, "%s/file.mdtest.%d.%llu", dir, name_rank, (unsigned long long)i);
  }
}

/* create: open(O_CREAT | O_RDWR, 0664) (POSIX_Create ignores mdtest's IOR_WRONLY), lseek + write, close. */
static void create_item(const md_job_t *job, const char *dir, int name_rank, uint64_t i, char *buf) {
  char path[PATH_MAX];
  item_path(job, dir, name_rank, i, path);
  int fd = open(path, O_CREAT | O_RDWR | (job->posix.odirect ? O_DIRECT : 0), 0664);
  if (fd < 0) {
    io_error("cannot create", path, -1, errno);
    return;
  }
  if (job->file_bytes > 0) {
    /* update_write_memory_pattern(itemNum, ...) before the write: nothing for the timestamp packet. */
    pattern_update(buf, job->file_bytes, job->packet, job->seed, run.rank, i);
    size_t done = 0;
    int rc = posix_xfer(fd, buf, job->file_bytes, 0, true, job->posix.range_locks, &done);
    if (rc != 0) {
      char op[128];
      describe_xfer_error(op, sizeof(op), true, rc, done, job->file_bytes);
      io_error(op, path, 0, rc > 0 ? rc : 0);
    }
  }
  if (close(fd) != 0) {
    io_error("close of", path, -1, errno);
  }
}

/* stat: stat(). */
static void stat_item(const md_job_t *job, const char *dir, int name_rank, uint64_t i) {
  char path[PATH_MAX];
  item_path(job, dir, name_rank, i, path);
  struct stat sb;
  if (stat(path, &sb) != 0) {
    io_error("cannot stat", path, -1, errno);
  }
}

/* read: open(O_RDWR): mdtest passes O_RDONLY, which is 0, and POSIX_Open turns "neither IOR_RDONLY nor
   IOR_WRONLY" into O_RDWR; then invalidate the buffer, lseek + read, verify, close. Returns the number
   of verification errors (0 or 1). */
static int read_item(const md_job_t *job, const char *dir, int name_rank, uint64_t i, char *buf) {
  char path[PATH_MAX];
  item_path(job, dir, name_rank, i, path);
  int fd = open(path, O_RDWR | (job->posix.odirect ? O_DIRECT : 0));
  if (fd < 0) {
    io_error("cannot open", path, -1, errno);
    return 0;
  }
  int mismatch = 0;
  if (job->file_bytes > 0) {
    buf[0] = (char)~buf[0]; /* a stale buffer must never pass verification */
    size_t done = 0;
    int rc = posix_xfer(fd, buf, job->file_bytes, 0, false, job->posix.range_locks, &done);
    if (rc != 0) {
      char op[128];
      describe_xfer_error(op, sizeof(op), false, rc, done, job->file_bytes);
      io_error(op, path, 0, rc > 0 ? rc : 0);
    } else if (job->verify) {
      /* mdtest verifies against the writer (rank + 2 * stride), which is name_rank here. */
      mismatch = pattern_verify(buf, job->file_bytes, job->packet, job->seed, name_rank, i);
    }
  }
  if (close(fd) != 0) {
    io_error("close of", path, -1, errno);
  }
  return mismatch;
}

/* remove: unlink(). */
static void remove_item(const md_job_t *job, const char *dir, int name_rank, uint64_t i) {
  char path[PATH_MAX];
  item_path(job, dir, name_rank, i, path);
  if (unlink(path) != 0) {
    io_error("cannot remove", path, -1, errno);
  }
}

/* The item i of this phase; returns the verification errors it found (reads only). */
static int do_item(const md_job_t *job, const char *dir, int name_rank, uint64_t i, char *buf) {
  switch (job->op) {
    case MD_CREATE:
      create_item(job, dir, name_rank, i, buf);
      return 0;
    case MD_STAT:
      stat_item(job, dir, name_rank, i);
      return 0;
    case MD_READ:
      return read_item(job, dir, name_rank, i, buf);
    case MD_REMOVE:
      remove_item(job, dir, name_rank, i);
      return 0;
  }
  return 0;
}

static void prepare_trees(const md_job_t *job, md_rank_t *me) {
  char path[PATH_MAX];
  if (run.rank == 0) {
    path_join(path, "%s/test-dir.0-0", job->dir);
    if (mkdir_recursive(path, 0775) != 0) {
      io_error("cannot create the directory", path, -1, errno);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = now();
  if (job->unique_dir) {
    tree_path(job, run.rank, path);
    if (!io_error_pending() && mkdir(path, 0775) != 0 && errno != EEXIST) {
      io_error("cannot create the directory", path, -1, errno);
    }
  } else if (run.rank == 0) {
    tree_path(job, 0, path);
    if (!io_error_pending() && mkdir(path, 0775) != 0 && errno != EEXIST) {
      io_error("cannot create the directory", path, -1, errno);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  me->time[OP_TREE_CREATE] = me->time_before_barrier[OP_TREE_CREATE] = now() - t0;
  me->items[OP_TREE_CREATE] = 1;
}

void md_remove_trees(const md_job_t *job) {
  char path[PATH_MAX];
  MPI_Barrier(MPI_COMM_WORLD);
  if (job->unique_dir) {
    tree_path(job, run.rank, path);
    rmdir(path);
  } else if (run.rank == 0) {
    tree_path(job, 0, path);
    rmdir(path);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (run.rank == 0) {
    path_join(path, "%s/test-dir.0-0", job->dir);
    rmdir(path);
  }
}

static void write_csv(const md_job_t *job, const md_rank_t *me, const md_rank_t *agg, uint64_t items_rank0) {
  md_rank_t *all = run.rank == 0 ? xmalloc(sizeof(md_rank_t) * (size_t)run.size) : NULL;
  MPI_Gather(me, sizeof(md_rank_t), MPI_BYTE, all, sizeof(md_rank_t), MPI_BYTE, 0, MPI_COMM_WORLD);
  if (run.rank != 0) {
    return;
  }
  char name[256];
  snprintf(name, sizeof(name), "%s.csv", job->phase);
  FILE *f = open_result_file(name);
  fprintf(f, "rank,items");
  for (int e = 0; e < OP_COUNT; e++) {
    fprintf(f, ",rate-%s,time-%s", op_names[e], op_names[e]);
  }
  fprintf(f, "\nall,%llu", (unsigned long long)items_rank0);
  for (int e = 0; e < OP_COUNT; e++) {
    if (agg->items[e] == 0) {
      fprintf(f, ",,");
    } else {
      fprintf(f, ",%.10e,%.10e", agg->items[e] / agg->time[e], agg->time[e]);
    }
  }
  fprintf(f, "\n");
  /* mdtest writes the per-rank rows without the two tree columns and with an empty items field. */
  for (int r = 0; r < run.size; r++) {
    fprintf(f, "%d,", r);
    for (int e = 0; e < OP_TREE_CREATE; e++) {
      if (all[r].items[e] == 0) {
        fprintf(f, ",,");
      } else {
        fprintf(f, ",%.10e,%.10e", all[r].items[e] / all[r].time_before_barrier[e], all[r].time_before_barrier[e]);
      }
    }
    fprintf(f, "\n");
  }
  fclose(f);
  free(all);
}

static void write_log(const md_job_t *job, const md_rank_t *agg, const char *started, long long sw_min,
                      long long sw_max, double sw_avg, bool sw_hit, int errors) {
  char name[256];
  snprintf(name, sizeof(name), "%s.txt", job->phase);
  FILE *f = open_result_file(name);
  char finished[64];
  format_local_time(finished, sizeof(finished), "%m/%d/%Y %H:%M:%S");
  fprintf(f, "-- started at %s --\n\n", started);
  fprintf(f, "%s (mdtest-compatible) was launched with %d total task(s) on %d node(s)\n", RUNNER_VERSION, run.size,
          run.nodes);
  fprintf(f, "Command line used: %s\n", job->exe);
  fprintf(f, "Path                : %s\n", job->dir);
  fprintf(f, "Shifting ranks by %d for each phase.\n", mdtest_stride(1));
  fprintf(f, "%d tasks, %llu files\n", run.size, (unsigned long long)job->n * (unsigned long long)run.size);
  if (sw_hit) {
    fprintf(f, "Continue stonewall hit min: %lld max: %lld avg: %.1f \n", sw_min, sw_max, sw_avg);
  }
  if (errors) {
    fprintf(f, "\nERROR: %d files returned wrong data (see the registry verification)\n", errors);
  }
  for (int table = 0; table < 2; table++) {
    fprintf(f, table == 0 ? "\n\nSUMMARY rate (in ops/sec): (of 1 iterations)\n" : "\nSUMMARY time (in ms/op): (of 1 iterations)\n");
    fprintf(f, "   Operation                     Max            Min           Mean        Std Dev\n");
    fprintf(f, "   ---------                     ---            ---           ----        -------\n");
    for (int e = OP_FILE_CREATE; e < OP_COUNT; e++) {
      double v = 0;
      if (agg->items[e] > 0) {
        v = table == 0 ? agg->items[e] / agg->time[e] : agg->time[e];
      }
      if (e < OP_TREE_CREATE) {
        fprintf(f, "   %-18s     %14.3f %14.3f %14.3f %14.3f\n", op_names[e], v, v, v, 0.0);
      } else {
        fprintf(f, "   %-22s %14.3f %14.3f %14.3f %14.3f\n", op_names[e], v, v, v, 0.0);
      }
    }
  }
  fprintf(f, "-- finished at %s --\n\n", finished);
  fclose(f);
}

md_result_t md_run_job(const md_job_t *job) {
  /* mdtest_run sleeps one second before every test, outside the timed region: the official phases
     start after an idle second, so ours do too (measured on the test VM, leaving it out made the
     next phase up to 12 % faster than the official one). */
  sleep(1);
  md_result_t res = {0};
  md_rank_t me;
  memset(&me, 0, sizeof(me));
  char started[64];
  format_local_time(started, sizeof(started), "%m/%d/%Y %H:%M:%S");
  int op = file_op_index(job->op);

  uint64_t items = job->n;
  if (job->op != MD_CREATE) {
    int64_t stored = stonewall_load(job->stonewall_file);
    if (stored < 0) {
      if (run.rank == 0) {
        report_invalid_phase("The stonewall status file %s/%s is missing, so the create phase did not complete; "
                             "%s cannot know how many files to process.", run.resdir, job->stonewall_file,
                             job->phase);
      }
      res.failed = true;
      return res;
    }
    items = (uint64_t)stored;
  }
  if (job->op == MD_CREATE) {
    prepare_trees(job, &me);
  }

  int name_rank, tree_rank;
  target_of(job, &name_rank, &tree_rank);
  char dir[PATH_MAX];
  tree_path(job, tree_rank, dir);

  char *buf = NULL;
  if (job->file_bytes > 0) {
    buf = aligned_alloc(4096, (job->file_bytes + 4095) / 4096 * 4096); /* aligned_buffer_alloc */
    if (!buf) {
      die("cannot allocate the %zu-byte file buffer", job->file_bytes);
    }
    /* The create buffer carries this rank's pattern; the read buffer is overwritten by each read. */
    pattern_fill(buf, job->file_bytes, job->packet, job->seed, run.rank);
  }

  int errors = 0;
  timeline_t tl;
  MPI_Barrier(MPI_COMM_WORLD); /* file_test entry */
  MPI_Barrier(MPI_COMM_WORLD); /* phase_prepare */
  double t_start = now();
  double stonewall_start = t_start;
  if (job->unique_dir && job->op == MD_CREATE) {
    /* unique_dir_access(MK_UNI_DIR) has a barrier; without -t the clock restarts after it. */
    MPI_Barrier(MPI_COMM_WORLD);
    t_start = now();
  }
  timeline_start(&tl, t_start, job->deadline);

  uint64_t done = 0;
  bool hit_possible = job->op == MD_CREATE && job->deadline > 0;
  for (uint64_t i = 0; i < items && !io_error_pending(); i++) {
    errors += do_item(job, dir, name_rank, i, buf);
    double t = now();
    timeline_add(&tl, t, 1);
    done = i + 1;
    if (hit_possible && (t - stonewall_start) > job->deadline) {
      break;
    }
  }

  long long sw_min = 0, sw_max = 0, sw_sum = 0;
  bool sw_hit = false;
  if (hit_possible) {
    /* updateStoneWallIterations: agree on the maximum, the laggards continue to it. */
    long long mine = (long long)done;
    MPI_Allreduce(&mine, &sw_max, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    double stonewall_time = now() - t_start;
    MPI_Reduce(&mine, &sw_min, 1, MPI_LONG_LONG, MPI_MIN, 0, MPI_COMM_WORLD);
    MPI_Reduce(&mine, &sw_sum, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (run.rank == 0) {
      res.rate_stonewall = stonewall_time > 0 ? (double)sw_sum / stonewall_time / 1000.0 : 0;
      sw_hit = (long long)items != sw_sum / run.size;
    }
    for (uint64_t i = done; i < (uint64_t)sw_max && !io_error_pending(); i++) {
      errors += do_item(job, dir, name_rank, i, buf);
      timeline_add(&tl, now(), 1);
    }
    items = (uint64_t)sw_max;
  }
  if (job->op == MD_CREATE && !io_error_pending()) {
    stonewall_store(job->stonewall_file, items); /* mdtest writes it inside the timed region */
  }
  double t_before_barrier = now();
  timeline_end(&tl, t_before_barrier);
  if (job->sync && !io_error_pending()) {
    /* -Y: mdtest's POSIX_Sync runs the sync command (system("sync"): fork, shell, sync(1)) on every rank
       inside the timed region; mdtest aborts when it fails ("Error executing the sync command"). */
    int status = system("sync");
    if (status != 0) {
      char what[64];
      snprintf(what, sizeof(what), "the sync command (exit status %d) for", status);
      io_error(what, job->dir, -1, 0);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  double t_end = now();
  if (io_error_any()) {
    /* No score, log or status file from a phase that stopped on an I/O error. */
    timeline_free(&tl);
    free(buf);
    res.failed = true;
    return res;
  }
  me.time[op] = t_end - t_start;
  me.time_before_barrier[op] = t_before_barrier - t_start;
  me.items[op] = (double)items;

  md_rank_t agg;
  memset(&agg, 0, sizeof(agg));
  for (int e = 0; e < OP_COUNT; e++) {
    /* summarize_results: items are summed, the time is the slowest rank's. */
    MPI_Reduce(&me.items[e], &agg.items[e], 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&me.time[e], &agg.time[e], 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  }
  MPI_Allreduce(&errors, &res.errors, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  res.items_per_rank = items;
  if (run.rank == 0) {
    res.rate = agg.items[op] > 0 ? agg.items[op] / agg.time[op] : 0;
    write_log(job, &agg, started, sw_min, sw_max, (double)sw_sum / run.size, sw_hit, res.errors);
  }
  write_csv(job, &me, &agg, items);
  timeline_write(&tl, job->phase);
  timeline_free(&tl);
  free(buf);
  if (job->op == MD_REMOVE) {
    md_remove_trees(job);
  }
  return res;
}
