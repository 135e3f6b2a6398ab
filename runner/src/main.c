/* io500-runner: the IO500 benchmark phases in one MPI program, with the official output format. */
#include <errno.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "hash.h"
#include "ioerror.h"
#include "pack.h"
#include "report.h"
#include "runner.h"
#include "supported.h"
#include "facts.h"
#include "topology.h"
#include "util.h"

run_t run;

typedef struct {
  const char *name;
  double (*fn)(void);
  score_group_t group;
  bool dummy;            /* no score line in result.txt (timestamp) */
  bool verify_stonewall; /* write phases: the runtime must reach the stonewall and minwrite */
  double score;
} phase_t;

/* The standard-mode phases of IO500 main (src/phase-definitions.h), in execution order. */
static phase_t phases[] = {
    {"ior-easy-write", phase_ior_easy_write, GROUP_BW, false, true, 0},
    {"mdtest-easy-write", phase_mdtest_easy_write, GROUP_MD, false, true, 0},
    {"timestamp", phase_timestamp, GROUP_NONE, true, false, 0},
    {"ior-hard-write", phase_ior_hard_write, GROUP_BW, false, true, 0},
    {"mdtest-hard-write", phase_mdtest_hard_write, GROUP_MD, false, true, 0},
    {"find", phase_find, GROUP_MD, false, false, 0},
    {"ior-easy-read", phase_ior_easy_read, GROUP_BW, false, false, 0},
    {"mdtest-easy-stat", phase_mdtest_easy_stat, GROUP_MD, false, false, 0},
    {"ior-hard-read", phase_ior_hard_read, GROUP_BW, false, false, 0},
    {"mdtest-hard-stat", phase_mdtest_hard_stat, GROUP_MD, false, false, 0},
    {"mdtest-easy-delete", phase_mdtest_easy_delete, GROUP_MD, false, false, 0},
    {"mdtest-hard-read", phase_mdtest_hard_read, GROUP_MD, false, false, 0},
    {"mdtest-hard-delete", phase_mdtest_hard_delete, GROUP_MD, false, false, 0},
    {"ior-rnd4K-easy-read", phase_ior_rnd4k_easy_read, GROUP_NONE, false, false, 0},
};
#define PHASE_COUNT (sizeof(phases) / sizeof(phases[0]))

typedef struct {
  const char *ini;
  const char *timestamp;
  bool dry_run;
  bool config_hash_only;
  bool check_only;
  int verbosity_override; /* -1: from the ini */
} cli_t;

static void usage(FILE *out) {
  fprintf(out,
          "Usage:\n"
          "  mpirun -np N io500-runner CONFIG.ini [--dry-run] [--timestamp=YYYY.MM.DD-HH.MM.SS] [-v] "
          "[--verbose=N]\n"
          "  io500-runner CONFIG.ini --config-hash\n"
          "  io500-runner CONFIG.ini --check-config\n"
          "  io500-runner --pack RESULTDIR [--system system.json] [--output DIR]\n"
          "  io500-runner --version\n");
}

static cli_t parse_cli(int argc, char **argv) {
  cli_t cli = {.verbosity_override = -1};
  if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
    usage(stdout);
    exit(argc < 2 ? 2 : 0);
  }
  cli.ini = argv[1];
  for (int i = 2; i < argc; i++) {
    if (strcmp(argv[i], "--dry-run") == 0) {
      cli.dry_run = true;
    } else if (strncmp(argv[i], "--timestamp=", 12) == 0) {
      cli.timestamp = argv[i] + 12;
    } else if (strcmp(argv[i], "--timestamp") == 0 && i + 1 < argc) {
      cli.timestamp = argv[++i];
    } else if (strcmp(argv[i], "--config-hash") == 0) {
      cli.config_hash_only = true;
    } else if (strcmp(argv[i], "--check-config") == 0) {
      cli.check_only = true;
    } else if (strcmp(argv[i], "-v") == 0) {
      cli.verbosity_override = cli.verbosity_override < 0 ? 1 : cli.verbosity_override + 1;
    } else if (strncmp(argv[i], "--verbose=", 10) == 0) {
      cli.verbosity_override = atoi(argv[i] + 10);
    } else if (strcmp(argv[i], "--mode=standard") == 0) {
      /* the only mode this runner has */
    } else if (strcmp(argv[i], "--mode=extended") == 0) {
      fprintf(stderr, "io500-runner: --mode=extended is not supported; the runner measures the standard phases.\n");
      exit(2);
    } else {
      fprintf(stderr, "io500-runner: unknown option \"%s\".\n", argv[i]);
      usage(stderr);
      exit(2);
    }
  }
  if (cli.timestamp && (strlen(cli.timestamp) == 0 || strlen(cli.timestamp) >= sizeof(run.timestamp) ||
                        strchr(cli.timestamp, '/'))) {
    fprintf(stderr, "io500-runner: --timestamp must be a short name without '/', e.g. 2026.01.01-00.00.00.\n");
    exit(2);
  }
  return cli;
}

/* Rank 0 reads the file and every rank parses the same bytes, like the official app. */
static char *load_config(const cli_t *cli) {
  long long len = 0;
  char *text = NULL;
  int read_errno = 0;
  if (run.rank == 0) {
    size_t n = 0;
    text = read_text_file(cli->ini, &n);
    read_errno = errno; /* the broadcast below may change errno */
    len = text ? (long long)n : -1;
    if (text && strlen(text) != n) {
      len = -2;
    }
  }
  MPI_Bcast(&len, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  if (len == -1) {
    die_all("cannot read the configuration file %s: %s", cli->ini, strerror(read_errno));
  }
  if (len == -2) {
    die_all("the configuration file %s contains NUL bytes; it must be a text file", cli->ini);
  }
  if (run.rank != 0) {
    text = xmalloc((size_t)len + 1);
  }
  MPI_Bcast(text, (int)len, MPI_CHAR, 0, MPI_COMM_WORLD);
  text[len] = '\0';
  char err[4096];
  if (!config_parse(text, cli->ini, err, sizeof(err))) {
    die_all("%s", err);
  }
  return text;
}

static void setup_run(const cli_t *cli) {
  run.stonewall = (int)cfg_int("debug", "stonewall-time", 300);
  run.minwrite = cfg_bool("global", "scc", false) ? 30 : 300;
  run.verbosity = cli->verbosity_override >= 0 ? cli->verbosity_override : (int)cfg_int("global", "verbosity", 1);
  run.dry_run = cli->dry_run;
  run.drop_caches = cfg_bool("global", "drop-caches", false);
  run.drop_caches_cmd = cfg_str("global", "drop-caches-cmd");
  run.api = "POSIX";
  run.valid_run = true;
  if (cli->timestamp) {
    snprintf(run.timestamp, sizeof(run.timestamp), "%s", cli->timestamp);
  } else {
    if (run.rank == 0) {
      format_local_time(run.timestamp, sizeof(run.timestamp), "%Y.%m.%d-%H.%M.%S");
    }
    MPI_Bcast(run.timestamp, sizeof(run.timestamp), MPI_CHAR, 0, MPI_COMM_WORLD);
  }
  const char *resdir = cfg_str("global", "resultdir");
  const char *datadir = cfg_str("global", "datadir");
  if (cfg_bool("global", "timestamp-resultdir", true)) {
    path_join(run.resdir, "%s/%s", resdir, run.timestamp);
  } else {
    path_join(run.resdir, "%s", resdir);
  }
  if (cfg_bool("global", "timestamp-datadir", true)) {
    path_join(run.datadir, "%s/%s", datadir, run.timestamp);
  } else {
    path_join(run.datadir, "%s", datadir);
  }
  int ok = 1;
  if (run.rank == 0 && mkdir_recursive(run.resdir, 0700) != 0) {
    fprintf(stderr, "io500-runner: cannot create the result directory %s: %s\n", run.resdir, strerror(errno));
    ok = 0;
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!ok) {
    die_all("stopping: the result directory is needed for every output file");
  }
}

static void open_result_files(const char *ini_text) {
  if (run.rank != 0) {
    return;
  }
  run.summary = open_result_file("result_summary.txt");
  run.result = open_result_file("result.txt");
  FILE *orig = open_result_file("config-orig.ini");
  fwrite(ini_text, 1, strlen(ini_text), orig);
  fclose(orig);
  fprintf(run.result, "[run]\n");
  report_pair("procs", "%d", run.size);
  report_pair("version", "%s", RUNNER_VERSION);
  report_pair("config-hash", "%X", config_hash());
  report_pair("result-dir", "%s", run.resdir);
  report_pair("mode", "standard");
  FILE *cfg = open_result_file("config.ini");
  config_write(cfg);
  fclose(cfg);
}

/* The validate() functions that leave messages: they only comment result.txt, like the app does. */
static void validate_options(void) {
  if (run.rank != 0) {
    return;
  }
  if (run.stonewall != run.minwrite) {
    report_invalid_phase("stonewall-time %us != %us", (unsigned)run.stonewall, (unsigned)run.minwrite);
  }
  const char *mpi_args = cfg_str("find", "external-mpi-args");
  const char *extra_args = cfg_str("find", "external-extra-args");
  if ((mpi_args && *mpi_args) || (extra_args && *extra_args)) {
    report_warning("Using internal pfind, will ignore any arguments to the external script");
  }
}

static void drop_caches(void) {
  int ret = system(run.drop_caches_cmd);
  if (ret != 0) {
    fprintf(stderr, "io500-runner: rank %d: the drop-caches command returned %d\n", run.rank, ret);
  }
}

/* An I/O error ended the phase on every rank: the run stops like the official application, with the cause
   in result.txt, result_summary.txt and on stdout, no score, the data directory removed, exit status 3. */
static void __attribute__((noreturn)) stop_on_io_error(const char *message) {
  if (run.rank == 0) {
    fprintf(run.result, "; ERROR %s\n", message);
    fprintf(run.result, "; STOPPED: no score, the run stopped on this I/O error\n");
    fclose(run.result);
    report_summary("ERROR %s\n", message);
    report_summary("The run stopped on this I/O error: no score. The result files are in %s\n", run.resdir);
    fclose(run.summary);
    run.result = run.summary = NULL;
  }
  remove_data_after_error();
  MPI_Finalize();
  exit(3);
}

static void run_phase(phase_t *p, uint32_t *score_hash) {
  if (run.drop_caches && !p->dummy) {
    drop_caches();
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const char *pause_dir = cfg_str("debug", "pause-dir");
  if (run.rank == 0) {
    fprintf(run.result, "\n[%s]\n", p->name);
    if (pause_dir) {
      /* [debug] pause-dir: wait while <pause-dir>/<phase> exists (the run is invalid, see main()). */
      if (run.verbosity > 0) {
        report_time_pair("t_pause");
      }
      char path[PATH_MAX];
      path_join(path, "%s/%s", pause_dir, p->name);
      fprintf(run.result, "; Checking for pause file %s\n", path);
      fflush(run.result);
      struct stat sb;
      while (stat(path, &sb) == 0) {
        sleep(1);
      }
    }
    if (run.verbosity > 0) {
      report_time_pair("t_start");
    }
  }
  if (pause_dir) {
    MPI_Barrier(MPI_COMM_WORLD);
  }
  double start = now();
  run.valid_phase = true;
  run.phase = p->name;
  double score = p->fn();
  double runtime = now() - start;
  char io_message[1200];
  if (io_error_agreed(io_message, sizeof(io_message))) {
    stop_on_io_error(io_message);
  }
  if (run.rank == 0) {
    if (!run.dry_run) {
      if (p->verify_stonewall && runtime < run.stonewall) {
        report_invalid_phase("Runtime of phase (%f) is below stonewall time. This shouldn't happen!", runtime);
      } else if (score == 0.0 && !p->dummy) {
        report_invalid_phase("Resulting score shouldn't be 0.0");
      }
    }
    if (runtime < run.minwrite && p->verify_stonewall) {
      report_invalid_phase("Runtime is smaller than expected minimum runtime");
    }
    if (!run.valid_phase) {
      run.valid_run = false;
    }
    if (!p->dummy) {
      report_pair("score", "%f", score);
    }
    char score_text[64];
    snprintf(score_text, sizeof(score_text), "%f", score);
    report_summary("%s %20s %15s %s : time %.3f seconds%s\n", p->group != GROUP_NONE ? "[RESULT]" : "[      ]",
                   p->name, score_text, p->name[0] == 'i' ? "GiB/s" : "kIOPS", runtime,
                   run.valid_phase ? "" : " [INVALID]");
    if (p->group != GROUP_NONE) {
      hash_key_double(score_hash, p->name, score);
    }
    if (run.verbosity > 0) {
      report_pair("t_delta", "%.4f", runtime);
      report_time_pair("t_end");
    }
  }
  p->score = score;
}

/* calc_score: geometric means of the positive scores of each group; MD first, as the app prints. */
static double group_mean(score_group_t g) {
  double product = 1;
  int n = 0;
  for (size_t i = 0; i < PHASE_COUNT; i++) {
    if (phases[i].group == g && phases[i].score > 0) {
      product *= phases[i].score;
      n++;
    }
  }
  return n ? pow(product, 1.0 / n) : 0;
}

static void write_score(uint32_t *score_hash) {
  if (run.rank != 0) {
    return;
  }
  const char *invalid = run.valid_run ? "" : " [INVALID]";
  fprintf(run.result, "\n[SCORE]\n");
  double md = group_mean(GROUP_MD);
  report_pair("MD", "%f", md);
  hash_key_double(score_hash, "MD", md);
  double bw = group_mean(GROUP_BW);
  report_pair("BW", "%f", bw);
  hash_key_double(score_hash, "BW", bw);
  double total = sqrt(md * bw);
  report_pair("SCORE", "%f%s", total, invalid);
  hash_key_double(score_hash, "SCORE", total);
  if (!run.valid_run) {
    hash_key_value(score_hash, "valid", "NO");
  }
  report_pair("hash", "%X", *score_hash);
  report_summary("[SCORE ] Bandwidth %f GiB/s : IOPS %f kiops : TOTAL %f%s\n", bw, md, total, invalid);
  printf("\nThe result files are stored in the directory: %s\n", run.resdir);
}

/* Peak RSS of every rank, measured with getrusage at the end (timelines included). */
static void report_memory(void) {
  long mine = peak_rss_kib();
  long max_rss = 0;
  MPI_Reduce(&mine, &max_rss, 1, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
  if (run.rank == 0) {
    uint64_t transfer = 0;
    parse_size(cfg_str("ior-easy", "transferSize"), &transfer);
    printf("Peak RSS per rank: %.1f MiB (largest of %d ranks; ior-easy transfer buffer %.1f MiB)\n",
           max_rss / 1024.0, run.size, transfer / MEBIBYTE);
  }
}

/* --check-config: parse and check without MPI, for sites and tests ("does the runner take my file?"). */
static int check_config_main(const cli_t *cli) {
  size_t n = 0;
  char *text = read_text_file(cli->ini, &n);
  if (!text) {
    fprintf(stderr, "io500-runner: cannot read the configuration file %s: %s\n", cli->ini, strerror(errno));
    return 2;
  }
  char err[4096];
  if (strlen(text) != n) {
    fprintf(stderr, "io500-runner: the configuration file %s contains NUL bytes; it must be a text file\n", cli->ini);
    return 2;
  }
  if (!config_parse(text, cli->ini, err, sizeof(err)) || !check_supported_options(err, sizeof(err))) {
    fprintf(stderr, "io500-runner: %s\n", err);
    free(text);
    return 2;
  }
  char not_run[2048], script_keys[1024];
  config_sections_not_run(not_run, sizeof(not_run));
  config_script_keys_given(script_keys, sizeof(script_keys));
  printf("accepted       = %s\n", cli->ini);
  printf("release        = %s\n", config_release()->tags);
  printf("config-hash    = %X\n", config_hash());
  printf("not run        = %s\n", not_run[0] ? not_run : "-");
  printf("not used       = %s\n", script_keys[0] ? script_keys : "-");
  free(text);
  return 0;
}

/* Once, before the phases: which release's layout config.ini has, and what the file asks for that the
   runner reads but does not run (stdout and a comment in result.txt). */
static void report_release_and_not_run(void) {
  if (run.rank != 0) {
    return;
  }
  char not_run[2048], script_keys[1024];
  config_sections_not_run(not_run, sizeof(not_run));
  config_script_keys_given(script_keys, sizeof(script_keys));
  printf("Configuration of %s: config.ini and the config hash are written as these releases write them.\n",
         config_release()->tags);
  if (not_run[0]) {
    printf("Not run: %s (phases of the extended mode or of older releases, which io500-runner does not run; "
           "their options are recorded in config.ini).\n", not_run);
    fprintf(run.result, "; NOTE not run: %s\n", not_run);
  }
  if (script_keys[0]) {
    printf("Not used: %s (read by the release's io500.sh for an external find script, which io500-runner "
           "does not run; kept in config-orig.ini).\n", script_keys);
    fprintf(run.result, "; NOTE not used: %s\n", script_keys);
  }
  fflush(stdout);
}

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "--pack") == 0) {
    return pack_main(argc, argv);
  }
  if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
    printf("%s\n", RUNNER_VERSION);
    return 0;
  }
  cli_t cli = parse_cli(argc, argv);
  if (cli.check_only) {
    return check_config_main(&cli);
  }
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &run.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &run.size);

  char *ini_text = load_config(&cli);
  if (cli.config_hash_only) {
    if (run.rank == 0) {
      printf("config-hash     = %X\n", config_hash());
    }
    MPI_Finalize();
    return 0;
  }
  char err[4096];
  if (!check_supported_options(err, sizeof(err))) {
    die_all("%s", err);
  }
  setup_run(&cli);
  detect_topology();
  open_result_files(ini_text);
  report_release_and_not_run();
  if (run.dry_run) {
    report_invalid_run("DRY RUN MODE ACTIVATED");
  }
  if (cfg_str("debug", "pause-dir")) {
    report_invalid_run("PAUSING BETWEEN RUNS ACTIVATED");
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (run.rank == 0 && run.verbosity > 0) {
    char stamp[32];
    format_local_time(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S");
    fprintf(run.result, "; START %s\n", stamp);
  }
  uint32_t score_hash = 0;
  hash_key_value(&score_hash, "version", RUNNER_VERSION);
  report_summary("IO500 version %s (standard)\n", RUNNER_VERSION);
  validate_options();
  prepare_data_directories();
  write_client_facts();
  if (run.rank == 0) {
    fprintf(run.result, "\n");
  }
  for (size_t i = 0; i < PHASE_COUNT; i++) {
    run_phase(&phases[i], &score_hash);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  write_score(&score_hash);
  if (!run.dry_run) {
    cleanup_data_directories();
  }
  report_memory();
  if (run.rank == 0) {
    if (run.verbosity > 0) {
      char stamp[32];
      format_local_time(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S");
      fprintf(run.result, "; END %s\n", stamp);
    }
    fclose(run.result);
    fclose(run.summary);
  }
  free(ini_text);
  MPI_Finalize();
  /* Like the official app: validity is recorded in the result files, not in the exit status (an I/O
     error stops the run with status 3, see stop_on_io_error). */
  return 0;
}
