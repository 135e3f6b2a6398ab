/* mdtest-easy write/stat/delete and mdtest-hard write/stat/read/delete with the official arguments. */
#include <stdio.h>
#include <unistd.h>

#include "argv.h"
#include "config.h"
#include "hash.h"
#include "mdtest_engine.h"
#include "pattern.h"
#include "report.h"
#include "runner.h"
#include "supported.h"
#include "util.h"

#define MDTEST_HARD_BYTES 3901

/* mdtest_easy_add_params of the official app. */
static void easy_params(cmdline_t *cmd, md_job_t *job) {
  int32_t seed = phase_seed("mdtest-easy", run.timestamp);
  cmd_init(cmd, "./mdtest");
  cmd_add(cmd, "--dataPacketType=%s", cfg_str("global", "dataPacketType"));
  cmd_add(cmd, "-n %s -u -L -F -P -G %d -N 1 -d %s/mdtest-easy -x %s/mdtest-easy.stonewall",
          cfg_str("mdtest-easy", "n"), seed, run.datadir, run.resdir);
  job->seed = seed;
  job->packet = packet_of_run();
  job->n = (uint64_t)cfg_int("mdtest-easy", "n", 1000000);
  job->unique_dir = true;
  job->stonewall_file = "mdtest-easy.stonewall";
  path_join(job->dir, "%s/mdtest-easy", run.datadir);
}

/* mdtest_hard_add_params of the official app. */
static void hard_params(cmdline_t *cmd, md_job_t *job) {
  int32_t seed = phase_seed("mdtest-hard", run.timestamp);
  cmd_init(cmd, "./mdtest");
  cmd_add(cmd, "--dataPacketType=%s", cfg_str("global", "dataPacketType"));
  cmd_add(cmd, "-n %s -t -w %d -e %d -P -G=%d -N 1 -F -d %s/mdtest-hard -x %s/mdtest-hard.stonewall",
          cfg_str("mdtest-hard", "n"), MDTEST_HARD_BYTES, MDTEST_HARD_BYTES, seed, run.datadir, run.resdir);
  job->seed = seed;
  job->packet = packet_of_run();
  job->n = (uint64_t)cfg_int("mdtest-hard", "n", 1000000);
  job->unique_dir = false;
  job->file_bytes = MDTEST_HARD_BYTES;
  job->stonewall_file = "mdtest-hard.stonewall";
  path_join(job->dir, "%s/mdtest-hard", run.datadir);
}

static double run_md(md_job_t *job, const cmdline_t *cmd, const char *section, const char *phase_section,
                     bool is_write) {
  report_pair("exe", "%s", cmd->text);
  if (run.dry_run || !phase_enabled(section, phase_section)) {
    return 0;
  }
  job->phase = phase_section;
  job->posix = phase_posix_options(section, phase_section);
  job->exe = cmd->text;
  md_result_t res = md_run_job(job);
  if (res.failed || run.rank != 0) {
    return 0;
  }
  if (run.verbosity > 1) {
    report_pair("time", "%f", res.rate > 0 ? (double)res.items_per_rank * run.size / res.rate : 0.0);
  }
  if (is_write) {
    report_pair("rate-stonewall", "%f", res.rate_stonewall);
  }
  if (res.errors && run.rank == 0) {
    /* mdtest counts files whose data differ and io500 does not check it; say it clearly. */
    report_warning("%d files of %s read wrong data; see %s.txt", res.errors, job->phase, job->phase);
  }
  return res.rate / 1000.0;
}

double phase_mdtest_easy_write(void) {
  cmdline_t cmd;
  md_job_t job = {0};
  easy_params(&cmd, &job);
  cmd_add(&cmd, "-C -Y -W %d --saveRankPerformanceDetails=%s/mdtest-easy-write.csv", run.stonewall, run.resdir);
  cmd_add_api(&cmd, "mdtest-easy", "mdtest-easy-write");
  job.op = MD_CREATE;
  job.sync = true;
  job.deadline = run.stonewall;
  return run_md(&job, &cmd, "mdtest-easy", "mdtest-easy-write", true);
}

double phase_mdtest_easy_stat(void) {
  cmdline_t cmd;
  md_job_t job = {0};
  easy_params(&cmd, &job);
  cmd_add(&cmd, "-T --saveRankPerformanceDetails=%s/mdtest-easy-stat.csv", run.resdir);
  cmd_add_api(&cmd, "mdtest-easy", "mdtest-easy-stat");
  job.op = MD_STAT;
  return run_md(&job, &cmd, "mdtest-easy", "mdtest-easy-stat", false);
}

double phase_mdtest_easy_delete(void) {
  cmdline_t cmd;
  md_job_t job = {0};
  easy_params(&cmd, &job);
  cmd_add(&cmd, "-r --saveRankPerformanceDetails=%s/mdtest-easy-delete.csv", run.resdir);
  cmd_add_api(&cmd, "mdtest-easy", "mdtest-easy-delete");
  job.op = MD_REMOVE;
  return run_md(&job, &cmd, "mdtest-easy", "mdtest-easy-delete", false);
}

double phase_mdtest_hard_write(void) {
  cmdline_t cmd;
  md_job_t job = {0};
  hard_params(&cmd, &job);
  cmd_add(&cmd, "-C -Y -W %d --saveRankPerformanceDetails=%s/mdtest-hard-write.csv", run.stonewall, run.resdir);
  cmd_add_api(&cmd, "mdtest-hard", "mdtest-hard-write");
  job.op = MD_CREATE;
  job.sync = true;
  job.deadline = run.stonewall;
  return run_md(&job, &cmd, "mdtest-hard", "mdtest-hard-write", true);
}

double phase_mdtest_hard_stat(void) {
  cmdline_t cmd;
  md_job_t job = {0};
  hard_params(&cmd, &job);
  cmd_add(&cmd, "-T --saveRankPerformanceDetails=%s/mdtest-hard-stat.csv", run.resdir);
  cmd_add_api(&cmd, "mdtest-hard", "mdtest-hard-stat");
  job.op = MD_STAT;
  return run_md(&job, &cmd, "mdtest-hard", "mdtest-hard-stat", false);
}

double phase_mdtest_hard_read(void) {
  cmdline_t cmd;
  md_job_t job = {0};
  hard_params(&cmd, &job);
  cmd_add(&cmd, "-E -X --saveRankPerformanceDetails=%s/mdtest-hard-read.csv", run.resdir);
  cmd_add_api(&cmd, "mdtest-hard", "mdtest-hard-read");
  job.op = MD_READ;
  job.verify = true;
  return run_md(&job, &cmd, "mdtest-hard", "mdtest-hard-read", false);
}

double phase_mdtest_hard_delete(void) {
  cmdline_t cmd;
  md_job_t job = {0};
  hard_params(&cmd, &job);
  cmd_add(&cmd, "-r --saveRankPerformanceDetails=%s/mdtest-hard-delete.csv", run.resdir);
  cmd_add_api(&cmd, "mdtest-hard", "mdtest-hard-delete");
  job.op = MD_REMOVE;
  return run_md(&job, &cmd, "mdtest-hard", "mdtest-hard-delete", false);
}

void mdtest_cleanup(void) {
  if (run.rank != 0) {
    return;
  }
  char path[PATH_MAX];
  path_join(path, "%s/mdtest-easy.stonewall", run.resdir);
  unlink(path);
  path_join(path, "%s/mdtest-hard.stonewall", run.resdir);
  unlink(path);
}
