#include "ior_engine.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ioerror.h"
#include "pattern.h"
#include "report.h"
#include "runner.h"
#include "stonewall.h"
#include "timeline.h"
#include "topology.h"
#include "util.h"

typedef struct {
  double open_start, open_stop, rw_start, rw_stop, close_start, close_stop;
  uint64_t pairs;
  uint64_t bytes;
  uint64_t bytes_at_stonewall;
  double stonewall_time;
  int errors;
} ior_rank_state_t;

void ior_file_name(const ior_job_t *job, int file_rank, char *out) {
  if (!job->file_per_proc) {
    path_join(out, "%s", job->path);
    return;
  }
  if (job->unique_dir) {
    /* IOR -u puts every rank's file into <dir>/<rank>/ next to the base name. */
    char copy_dir[PATH_MAX];
    char copy_base[PATH_MAX];
    path_join(copy_dir, "%s", job->path);
    path_join(copy_base, "%s", job->path);
    path_join(out, "%s/%d/%s.%08d", dirname(copy_dir), file_rank, basename(copy_base), file_rank);
    return;
  }
  path_join(out, "%s.%08d", job->path, file_rank);
}

static uint64_t transfers_per_block(const ior_job_t *job) { return job->block / job->transfer; }

/* Offset of the k-th transfer of the rank whose data is addressed, as IOR's sequential loop computes it. */
static uint64_t transfer_offset(const ior_job_t *job, uint64_t k, int data_rank) {
  uint64_t per_block = transfers_per_block(job);
  uint64_t segment = (k / per_block) % job->segments;
  uint64_t j = k % per_block;
  uint64_t offset = j * job->transfer;
  if (job->file_per_proc) {
    return offset + segment * job->block;
  }
  return offset + segment * (uint64_t)run.size * job->block + (uint64_t)data_rank * job->block;
}

/* xorshift64*: the random offsets only need to be spread and reproducible per rank. */
static uint64_t next_random(uint64_t *state) {
  uint64_t x = *state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *state = x;
  return x * 2685821657736338717ULL;
}

/* IOR's WriteOrReadSingle: a write first updates the buffer for this offset (update_write_memory_pattern:
   nothing for the timestamp packet), a checked read first flips the buffer's first byte
   (invalidate_buffer_pattern); then lseek + read/write through the POSIX backend, then a checked read
   compares every word (CompareData). */
static int transfer_once(int fd, const ior_job_t *job, const char *file, char *buf, uint64_t offset, int data_rank,
                         ior_rank_state_t *st) {
  bool is_write = job->access == IOR_WRITE;
  if (is_write) {
    pattern_update(buf, job->transfer, job->packet, job->seed, data_rank, offset);
  } else if (job->verify) {
    buf[0] = (char)~buf[0];
  }
  size_t done = 0;
  int rc = posix_xfer(fd, buf, job->transfer, (long long)offset, is_write, job->posix.range_locks, &done);
  if (rc != 0) {
    /* IOR stops the application here ("cannot write to file" / "cannot read from file"). */
    char op[128];
    describe_xfer_error(op, sizeof(op), is_write, rc, done, job->transfer);
    io_error(op, file, (long long)offset, rc > 0 ? rc : 0);
    return -1;
  }
  if (job->verify) {
    st->errors += pattern_verify(buf, job->transfer, job->packet, job->seed, data_rank, offset);
  }
  return 0;
}

static void print_table_value(FILE *f, double number, const char *append) {
  if (number < 0) {
    fprintf(f, "   -      %s", append);
    return;
  }
  int precision = number < 1 ? 6 : (number < 3600 ? 2 : 0);
  fprintf(f, "%-10.*f%s", precision, number, append);
}

static void human_size(char *out, size_t len, double bytes) {
  const char *units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int u = 0;
  while (bytes >= 1024.0 && u < 5) {
    bytes /= 1024.0;
    u++;
  }
  if (u == 0) {
    snprintf(out, len, "%.0f bytes", bytes);
  } else {
    snprintf(out, len, "%.2f %s", bytes, units[u]);
  }
}

static void write_log(const ior_job_t *job, const ior_result_t *res, const char *began, const char *file,
                      double open_max, double rw_max, double close_max, double latency_min,
                      uint64_t pairs_min, uint64_t bytes_min_at_stonewall, double stonewall_mean_bytes) {
  char name[256];
  snprintf(name, sizeof(name), "%s.txt", job->phase);
  FILE *f = open_result_file(name);
  char xfer[64], block[64], aggregate[64], finished[64];
  human_size(xfer, sizeof(xfer), (double)job->transfer);
  human_size(block, sizeof(block), (double)job->block);
  human_size(aggregate, sizeof(aggregate), (double)job->block * (double)job->segments * run.size);
  if (job->unbounded) {
    snprintf(aggregate, sizeof(aggregate), "-"); /* no geometry: -s=-1 */
  }
  format_local_time(finished, sizeof(finished), "%a %b %e %H:%M:%S %Y");
  fprintf(f, "%s: IOR-compatible phase %s (MPI, POSIX)\n", RUNNER_VERSION, job->phase);
  fprintf(f, "Began               : %s\n", began);
  fprintf(f, "Command line        : %s\n", job->exe);
  fprintf(f, "Machine             : Linux %s\n", run.hostname);
  fprintf(f, "Path                : %s\n", file);
  fprintf(f, "\nOptions: \n");
  fprintf(f, "api                 : POSIX\n");
  fprintf(f, "test filename       : %s\n", job->path);
  fprintf(f, "access              : %s\n", job->file_per_proc ? "file-per-process" : "single-shared-file");
  fprintf(f, "type                : independent\n");
  if (job->unbounded) {
    fprintf(f, "segments            : -1\n"); /* echoes the command's -s=-1 */
  } else {
    fprintf(f, "segments            : %llu\n", (unsigned long long)job->segments);
  }
  fprintf(f, "ordering in a file  : %s\n", job->random ? "random" : "sequential");
  /* IOR echoes -C -Q as given (the registry compares the echo with the command): every ior-easy
     and ior-hard command carries -C -Q 1, ior-rnd4K-easy-read -C -Q 2 with a file per process and
     no -C without one. */
  int task_offset = job->node_shift > 0 ? job->node_shift : (job->random ? 0 : 1);
  if (task_offset > 0) {
    fprintf(f, "ordering inter file : constant task offset\n");
    fprintf(f, "task offset         : %d\n", task_offset);
  } else {
    fprintf(f, "ordering inter file : no tasks offsets\n");
  }
  fprintf(f, "nodes               : %d\n", run.nodes);
  fprintf(f, "tasks               : %d\n", run.size);
  fprintf(f, "clients per node    : %d\n", run.tasks_on_node0);
  fprintf(f, "repetitions         : 1\n");
  fprintf(f, "xfersize            : %s\n", xfer);
  fprintf(f, "blocksize           : %s\n", block);
  fprintf(f, "aggregate filesize  : %s\n", aggregate);
  if (job->deadline > 0) {
    fprintf(f, "stonewallingTime    : %d\n", job->deadline);
    fprintf(f, "stoneWallingWearOut : %d\n", job->wearout ? 1 : 0);
  }
  fprintf(f, "\nResults: \n\n");
  fprintf(f, "access    bw(MiB/s)  IOPS       Latency(s)  block(KiB) xfer(KiB)  open(s)    wr/rd(s)   close(s)   total(s)   iter\n");
  fprintf(f, "------    ---------  ----       ----------  ---------- ---------  --------   --------   --------   --------   ----\n");
  if (job->wearout && job->deadline > 0) {
    fprintf(f,
            "stonewalling pairs accessed min: %llu max: %llu -- min data: %.1f GiB mean data: %.1f GiB time: %.1fs\n",
            (unsigned long long)pairs_min, (unsigned long long)res->pairs_max,
            (double)bytes_min_at_stonewall / GIBIBYTE, stonewall_mean_bytes / GIBIBYTE, res->stonewall_time);
  }
  if (res->errors > 0) {
    fprintf(f, "WARNING: Incorrect data on %s (%d errors found).\n",
            job->access == IOR_WRITE ? "write" : "read", res->errors);
    fprintf(f, "Used Time Stamp %u (0x%x) for Data Signature\n", (unsigned)job->seed, (unsigned)job->seed);
  }
  double bw = res->time > 0 ? (double)res->bytes / res->time : 0;
  double iops = rw_max > 0 ? ((double)res->bytes / (double)job->transfer) / rw_max : 0;
  fprintf(f, "%-10s", job->access == IOR_WRITE ? "write" : "read");
  print_table_value(f, bw / MEBIBYTE, " ");
  print_table_value(f, iops, " ");
  print_table_value(f, latency_min, "  ");
  print_table_value(f, (double)job->block / 1024.0, " ");
  print_table_value(f, (double)job->transfer / 1024.0, " ");
  print_table_value(f, open_max, " ");
  print_table_value(f, rw_max, " ");
  print_table_value(f, close_max, " ");
  print_table_value(f, res->time, " ");
  fprintf(f, "%-4d\n", 0);
  fprintf(f, "Finished            : %s\n", finished);
  fclose(f);
}

static void write_rank_csv(const ior_job_t *job, const ior_rank_state_t *st, const ior_result_t *res) {
  double times[2] = {st->close_stop - st->open_start, st->rw_stop - st->rw_start};
  double *all = run.rank == 0 ? xmalloc(sizeof(double) * 2 * (size_t)run.size) : NULL;
  MPI_Gather(times, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (run.rank != 0) {
    return;
  }
  char name[256];
  snprintf(name, sizeof(name), "%s.csv", job->phase);
  FILE *f = open_result_file(name);
  fprintf(f, "access,rank,runtime-with-openclose,runtime,throughput-withopenclose,throughput\n");
  double file_size = (double)res->bytes / run.size;
  const char *access = job->access == IOR_WRITE ? "write" : "read";
  for (int r = 0; r < run.size; r++) {
    fprintf(f, "%s,%d,%.10e,%.10e,%.10e,%.10e\n", access, r, all[2 * r], all[2 * r + 1],
            file_size / all[2 * r], file_size / all[2 * r + 1]);
  }
  fclose(f);
  free(all);
}

/* POSIX_Create / POSIX_Open of IOR, with O_DIRECT for --posix.odirect. */
static int open_for_job(const ior_job_t *job, const char *file) {
  int direct = job->posix.odirect ? O_DIRECT : 0;
  if (job->access == IOR_WRITE) {
    return open(file, O_CREAT | O_RDWR | direct, 0664);
  }
  return open(file, O_RDONLY | direct);
}

ior_result_t ior_run_job(const ior_job_t *job) {
  ior_result_t res = {0};
  ior_rank_state_t st = {0};
  char began[64];
  format_local_time(began, sizeof(began), "%a %b %e %H:%M:%S %Y");

  uint64_t max_pairs = job->unbounded ? UINT64_MAX : job->segments * transfers_per_block(job);
  uint64_t wearout_target = 0; /* reads: the count of the write phase */
  if (job->access == IOR_READ && job->stonewall_file) {
    int64_t stored = stonewall_load(job->stonewall_file);
    if (stored < 0) {
      if (run.rank == 0) {
        report_invalid_phase("The stonewall status file %s/%s is missing, so the write phase did not complete; "
                             "%s cannot know how much data to read.", run.resdir, job->stonewall_file, job->phase);
      }
      res.failed = true;
      return res;
    }
    wearout_target = (uint64_t)stored;
    if (wearout_target > max_pairs) {
      wearout_target = max_pairs;
    }
  }

  int data_rank = run.rank;
  if (job->access == IOR_READ && job->node_shift > 0) {
    data_rank = (run.rank + ior_rank_offset(job->node_shift)) % run.size;
  }
  char file[PATH_MAX];
  ior_file_name(job, job->file_per_proc ? data_rank : 0, file);

  char *buf = aligned_alloc(4096, ((job->transfer + 4095) / 4096) * 4096);
  if (!buf) {
    die("cannot allocate the %llu-byte transfer buffer", (unsigned long long)job->transfer);
  }
  /* Filled once, like IOR's generate_memory_pattern; writes update it per transfer (pattern_update). */
  pattern_fill(buf, job->transfer, job->packet, job->seed, data_rank);

  if (job->access == IOR_WRITE) {
    if (job->unique_dir && job->file_per_proc) {
      char dir[PATH_MAX];
      path_join(dir, "%s", file);
      mkdir_recursive(dirname(dir), 0775);
    }
    if (job->file_per_proc || run.rank == 0) {
      unlink(file); /* untimed, before the barrier: no pre-created output files */
    }
  }

  MPI_Barrier(MPI_COMM_WORLD);
  st.open_start = now();
  int fd = open_for_job(job, file);
  st.open_stop = now();
  if (fd < 0) {
    io_error(job->access == IOR_WRITE ? "cannot create" : "cannot open", file, -1, errno);
  }
  int opened_ok = fd >= 0, all_opened = 0;
  MPI_Allreduce(&opened_ok, &all_opened, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD); /* doubles as IOR's -g barrier */
  if (!all_opened) {
    if (fd >= 0) {
      close(fd);
    }
    free(buf);
    res.failed = true;
    return res;
  }

  timeline_t tl;
  st.rw_start = now();
  timeline_start(&tl, st.rw_start, job->deadline);
  double stonewall_start = st.rw_start;
  uint64_t rnd_state = ((uint64_t)(uint32_t)job->seed << 20) ^ (uint64_t)(run.rank + 1) * 0x9E3779B97F4A7C15ULL;
  uint64_t file_blocks = 0;
  if (job->random) {
    struct stat sb;
    file_blocks = fstat(fd, &sb) == 0 ? (uint64_t)sb.st_size / job->transfer : 0;
    if (file_blocks == 0) {
      file_blocks = 1;
    }
  }
  /* Reads process exactly the count of the write phase; writes stop at the stonewall or the block end. */
  uint64_t limit = job->access == IOR_READ && job->stonewall_file ? wearout_target : max_pairs;
  bool hit = false;
  while (st.pairs < limit && !hit) {
    uint64_t offset = job->random ? (next_random(&rnd_state) % file_blocks) * job->transfer
                                  : transfer_offset(job, st.pairs, data_rank);
    if (transfer_once(fd, job, file, buf, offset, data_rank, &st) != 0) {
      break; /* the phase stops on every rank after the collective steps below */
    }
    st.bytes += job->transfer;
    st.pairs++;
    double t = now();
    timeline_add(&tl, t, job->transfer);
    hit = job->deadline > 0 && (t - stonewall_start) > job->deadline;
  }

  uint64_t pairs_min = st.pairs;
  uint64_t bytes_min = 0;
  uint64_t bytes_sum = 0;
  if (job->wearout && job->deadline > 0) {
    /* Stonewall with wear-out: agree on the largest count, then the laggards catch up to it. */
    unsigned long long mine = st.pairs, most = 0, least = 0;
    MPI_Allreduce(&mine, &most, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    st.stonewall_time = now() - stonewall_start;
    MPI_Reduce(&mine, &least, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, 0, MPI_COMM_WORLD);
    unsigned long long moved = st.bytes, moved_min = 0, moved_sum = 0;
    MPI_Reduce(&moved, &moved_min, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, 0, MPI_COMM_WORLD);
    MPI_Reduce(&moved, &moved_sum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    pairs_min = least;
    bytes_min = moved_min;
    bytes_sum = moved_sum;
    res.pairs_max = most;
    while (st.pairs < most && !io_error_pending()) {
      uint64_t offset = job->random ? (next_random(&rnd_state) % file_blocks) * job->transfer
                                    : transfer_offset(job, st.pairs, data_rank);
      if (transfer_once(fd, job, file, buf, offset, data_rank, &st) != 0) {
        break;
      }
      st.bytes += job->transfer;
      st.pairs++;
      timeline_add(&tl, now(), job->transfer);
    }
  } else {
    unsigned long long mine = st.pairs, most = 0;
    MPI_Allreduce(&mine, &most, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    res.pairs_max = most;
  }
  if (job->access == IOR_WRITE && !io_error_pending() && fsync(fd) != 0) {
    /* -e: the data must be on stable storage inside the timed region. */
    io_error("fsync of", file, -1, errno);
  }
  st.rw_stop = now();
  timeline_end(&tl, st.rw_stop);
  MPI_Barrier(MPI_COMM_WORLD);
  st.close_start = now();
  if (close(fd) != 0) {
    io_error("close of", file, -1, errno);
  }
  st.close_stop = now();
  if (job->access == IOR_WRITE) {
    MPI_Barrier(MPI_COMM_WORLD);
  }

  if (io_error_any()) {
    /* No score, log or status file from a phase that stopped on an I/O error. */
    timeline_free(&tl);
    free(buf);
    res.failed = true;
    return res;
  }
  if (job->access == IOR_WRITE && job->stonewall_file) {
    stonewall_store(job->stonewall_file, res.pairs_max);
  }

  /* Per-rank durations from the common barrier: IOR's max(close_stop) - min(open_start) without
     trusting that the clocks of different nodes agree. */
  double total = st.close_stop - st.open_start;
  double phases[3] = {st.open_stop - st.open_start, st.rw_stop - st.rw_start, st.close_stop - st.close_start};
  double phases_max[3] = {0};
  double latency = st.pairs ? (st.rw_stop - st.rw_start) / (double)st.pairs : 0;
  double latency_min = 0;
  MPI_Reduce(&total, &res.time, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(phases, phases_max, 3, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&latency, &latency_min, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
  unsigned long long bytes = st.bytes, bytes_all = 0;
  MPI_Allreduce(&bytes, &bytes_all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  res.bytes = bytes_all;
  MPI_Allreduce(&st.errors, &res.errors, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Bcast(&res.time, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (run.rank == 0) {
    res.stonewall_time = st.stonewall_time;
    res.stonewall_bytes_sum = bytes_sum;
    write_log(job, &res, began, file, phases_max[0], phases_max[1], phases_max[2], latency_min, pairs_min,
              bytes_min, (double)bytes_sum / run.size);
  }
  write_rank_csv(job, &st, &res);
  timeline_write(&tl, job->phase);
  timeline_free(&tl);
  free(buf);
  return res;
}
