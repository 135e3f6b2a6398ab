/* The tarball is made by tar(1) (fork/exec, no shell): it is on every system that can run the
   benchmark, it writes correct ustar/gzip, and it keeps the runner free of libarchive and zlib. */
#include "pack.h"

#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

static int fail(const char *fmt, const char *a, const char *b) {
  fprintf(stderr, "io500-runner --pack: ");
  fprintf(stderr, fmt, a, b);
  fprintf(stderr, "\n");
  return 2;
}

/* The registry refuses links and special files inside archives; say so before making one. */
static int check_result_dir(const char *dir) {
  char path[PATH_MAX];
  const char *required[] = {"result.txt", "result_summary.txt", "config.ini"};
  for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
    path_join(path, "%s/%s", dir, required[i]);
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) {
      return fail("%s has no %s; give the result directory of a finished run (results/<timestamp>).", dir,
                  required[i]);
    }
  }
  DIR *d = opendir(dir);
  if (!d) {
    return fail("cannot read %s: %s", dir, strerror(errno));
  }
  struct dirent *e;
  int status = 0;
  while ((e = readdir(d)) != NULL && status == 0) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) {
      continue;
    }
    path_join(path, "%s/%s", dir, e->d_name);
    struct stat sb;
    if (lstat(path, &sb) != 0) {
      status = fail("cannot inspect %s: %s", path, strerror(errno));
    } else if (!S_ISREG(sb.st_mode)) {
      status = fail("%s is not a regular file%s; the registry accepts only regular files in a submission.", path,
                    S_ISLNK(sb.st_mode) ? " (it is a symbolic link)" : "");
    }
  }
  closedir(d);
  return status;
}

static int check_system_json(const char *file) {
  size_t len = 0;
  char *text = read_text_file(file, &len);
  if (!text) {
    return fail("cannot read the system description %s: %s", file, strerror(errno));
  }
  size_t start = 0;
  while (start < len && (text[start] == ' ' || text[start] == '\n' || text[start] == '\t' || text[start] == '\r')) {
    start++;
  }
  size_t end = len;
  while (end > start && (text[end - 1] == ' ' || text[end - 1] == '\n' || text[end - 1] == '\t' ||
                         text[end - 1] == '\r')) {
    end--;
  }
  int ok = end > start && text[start] == '{' && text[end - 1] == '}' && strlen(text) == len;
  free(text);
  if (!ok) {
    return fail("%s is not a JSON object (it must start with '{' and end with '}')%s.", file, "");
  }
  return 0;
}

static int copy_file(const char *from, const char *to) {
  size_t len = 0;
  char *text = read_text_file(from, &len);
  if (!text) {
    return -1;
  }
  FILE *f = fopen(to, "wb");
  if (!f) {
    free(text);
    return -1;
  }
  size_t written = fwrite(text, 1, len, f);
  free(text);
  return fclose(f) == 0 && written == len ? 0 : -1;
}

static int run_tar(char *const args[]) {
  pid_t pid = fork();
  if (pid < 0) {
    return fail("cannot start tar: %s%s", strerror(errno), "");
  }
  if (pid == 0) {
    execvp("tar", args);
    fprintf(stderr, "io500-runner --pack: cannot run tar: %s\n", strerror(errno));
    _exit(127);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return fail("tar failed while writing the archive (exit status %s)%s.",
                WIFEXITED(status) ? (WEXITSTATUS(status) == 127 ? "127: tar not found" : "non-zero") : "signal", "");
  }
  return 0;
}

int pack_main(int argc, char **argv) {
  const char *resdir = NULL, *system_json = NULL, *outdir = ".";
  for (int i = 2; i < argc; i++) {
    if (strcmp(argv[i], "--system") == 0 && i + 1 < argc) {
      system_json = argv[++i];
    } else if (strcmp(argv[i], "--output") == 0 && i + 1 < argc) {
      outdir = argv[++i];
    } else if (!resdir && argv[i][0] != '-') {
      resdir = argv[i];
    } else {
      return fail("unexpected argument \"%s\"; usage: io500-runner --pack RESULTDIR [--system system.json] "
                  "[--output DIR]%s",
                  argv[i], "");
    }
  }
  if (!resdir) {
    return fail("give the result directory to pack, e.g. --pack results/2026.01.01-00.00.00%s%s", "", "");
  }
  char real[PATH_MAX];
  if (!realpath(resdir, real)) {
    return fail("cannot find %s: %s", resdir, strerror(errno));
  }
  int status = check_result_dir(real);
  if (status == 0 && system_json) {
    status = check_system_json(system_json);
  }
  if (status != 0) {
    return status;
  }
  char parent[PATH_MAX], base[PATH_MAX];
  path_join(parent, "%s", real);
  path_join(base, "%s", real);
  char *parent_dir = dirname(parent);
  char *timestamp = basename(base);
  char host[256];
  if (gethostname(host, sizeof(host) - 1) != 0) {
    snprintf(host, sizeof(host), "unknown");
  }
  host[sizeof(host) - 1] = '\0';
  char archive[PATH_MAX];
  path_join(archive, "%s/io500-%s-%s.tgz", outdir, host, timestamp);

  char staging[] = "/tmp/io500-pack-XXXXXX";
  char staged_json[PATH_MAX];
  if (system_json) {
    if (!mkdtemp(staging)) {
      return fail("cannot create a temporary directory: %s%s", strerror(errno), "");
    }
    path_join(staged_json, "%s/system.json", staging);
    if (copy_file(system_json, staged_json) != 0) {
      rmdir(staging);
      return fail("cannot copy %s: %s", system_json, strerror(errno));
    }
  }
  char *args[16];
  int n = 0;
  args[n++] = "tar";
  args[n++] = "czf";
  args[n++] = archive;
  args[n++] = "-C";
  args[n++] = parent_dir;
  args[n++] = timestamp;
  if (system_json) {
    args[n++] = "-C";
    args[n++] = staging;
    args[n++] = "system.json";
  }
  args[n] = NULL;
  status = run_tar(args);
  if (system_json) {
    unlink(staged_json);
    rmdir(staging);
  }
  if (status == 0) {
    printf("%s\n", archive);
  }
  return status;
}
