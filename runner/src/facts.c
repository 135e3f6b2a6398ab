/* Client facts in the client part of the IO500 community schema (VI4IO/cdcl-schema-tools
   cdcl_add_osinfo.py @487b471cd97e3bee466394c1a199a1a6c6cea88b writes the same Nodes fields:
   "kernel version", Processor "model"/"cores per socket"/"threads per core"; the field names and
   units are those of the registry's submissions/system/schema_io500.json, IO500/submission-system
   @9ea7ff4). Nothing that identifies a host or an address is written: no hostname, no MAC or IP
   address; interface names stay, as they name no machine. A value the node cannot tell is
   "unknown" or left out, never guessed. */
#include "facts.h"

#include <dirent.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "report.h"
#include "runner.h"
#include "util.h"

#define FACTS_BYTES 8192 /* one node's facts; a node with more NICs than fit is cut at a whole NIC */
#define SPEED_CHOICES_COUNT 11

/* The schema's Interconnect "speed" choices, in Mbit/s. */
static const int speed_choices[SPEED_CHOICES_COUNT] = {100,   1000,  4000,   10000,  25000, 32000,
                                                       50000, 100000, 200000, 400000, 800000};

typedef struct {
  char *buf;
  size_t len;
  size_t cap;
} text_t;

static void put(text_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text_t *t, const char *fmt, ...) {
  if (t->len >= t->cap) {
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
  va_end(ap);
  t->len = n < 0 ? t->cap : t->len + (size_t)n;
}

/* A JSON string of at most 255 characters: quotes, backslashes and control characters escaped. */
static void put_string(text_t *t, const char *s) {
  put(t, "\"");
  for (size_t i = 0; s[i] && i < 255; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') {
      put(t, "\\%c", c);
    } else if (c < 0x20) {
      put(t, "\\u%04x", c);
    } else {
      put(t, "%c", c);
    }
  }
  put(t, "\"");
}

static void trim(char *s) {
  size_t n = strlen(s);
  while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t')) {
    s[--n] = '\0';
  }
  size_t start = strspn(s, " \t");
  memmove(s, s + start, strlen(s + start) + 1);
}

/* The value of "key : value" lines in /proc/cpuinfo and /proc/meminfo. */
static bool line_value(const char *line, const char *key, char *out, size_t len) {
  size_t k = strlen(key);
  if (strncmp(line, key, k) != 0 || (line[k] != ' ' && line[k] != '\t' && line[k] != ':')) {
    return false;
  }
  const char *colon = strchr(line, ':');
  if (!colon) {
    return false;
  }
  snprintf(out, len, "%s", colon + 1);
  trim(out);
  return true;
}

static void put_processor(text_t *t) {
  FILE *f = fopen("/proc/cpuinfo", "r");
  char line[1024], value[512], model[512] = "";
  int cores = 0, siblings = 0, sockets = 0;
  int seen_ids[256];
  if (f) {
    while (fgets(line, sizeof(line), f)) {
      if (!model[0] && line_value(line, "model name", value, sizeof(value))) {
        snprintf(model, sizeof(model), "%s", value);
      } else if (!cores && line_value(line, "cpu cores", value, sizeof(value))) {
        cores = atoi(value);
      } else if (!siblings && line_value(line, "siblings", value, sizeof(value))) {
        siblings = atoi(value);
      } else if (line_value(line, "physical id", value, sizeof(value))) {
        int id = atoi(value);
        bool known = false;
        for (int i = 0; i < sockets; i++) {
          known = known || seen_ids[i] == id;
        }
        if (!known && sockets < 256) {
          seen_ids[sockets++] = id;
        }
      }
    }
    fclose(f);
  }
  put(t, "{\"type\": \"Processor\", \"att\": {\"model\": ");
  put_string(t, model[0] ? model : "unknown");
  if (sockets > 0) {
    put(t, ", \"sockets\": %d", sockets);
  }
  if (cores > 0) {
    put(t, ", \"cores per socket\": %d", cores);
    if (siblings >= cores) {
      put(t, ", \"threads per core\": %d", siblings / cores);
    }
  }
  put(t, "}, \"childs\": []}");
}

static long long mem_total_kib(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  char line[256], value[128];
  long long kib = -1;
  if (f) {
    while (fgets(line, sizeof(line), f)) {
      if (line_value(line, "MemTotal", value, sizeof(value))) {
        kib = atoll(value); /* "16384 kB": the kernel's kB are KiB */
        break;
      }
    }
    fclose(f);
  }
  return kib;
}

static int cpu_count(void) {
  FILE *f = fopen("/proc/cpuinfo", "r");
  char line[1024], value[64];
  int n = 0;
  if (f) {
    while (fgets(line, sizeof(line), f)) {
      n += line_value(line, "processor", value, sizeof(value));
    }
    fclose(f);
  }
  return n;
}

static bool read_small(const char *path, char *out, size_t len) {
  FILE *f = fopen(path, "r");
  if (!f) {
    return false;
  }
  bool ok = fgets(out, (int)len, f) != NULL;
  fclose(f);
  if (ok) {
    trim(out);
  }
  return ok && out[0];
}

static int by_name(const struct dirent **a, const struct dirent **b) {
  return strcmp((*a)->d_name, (*b)->d_name);
}

/* Every interface but lo: the schema's Interconnect with its speed where the kernel reports one
   (/sys/class/net/<if>/speed in Mbit/s; -1 or unreadable, as for a down link or a virtual NIC, is
   unknown). `names` gets the interface names and speeds for the runner's own part. */
static void put_interconnects(text_t *t, text_t *names) {
  struct dirent **list = NULL;
  int n = scandir("/sys/class/net", &list, NULL, by_name);
  bool first = true;
  for (int i = 0; i < n; i++) {
    const char *name = list[i]->d_name;
    /* Room is kept for the names and the data directory that follow the interfaces in the node's text. */
    if (name[0] == '.' || strcmp(name, "lo") == 0 || t->len + names->len + 4608 > t->cap ||
        names->len + 512 > names->cap) {
      free(list[i]);
      continue;
    }
    char path[PATH_MAX], text[64];
    path_join(path, "/sys/class/net/%s/speed", name);
    long speed = read_small(path, text, sizeof(text)) ? strtol(text, NULL, 10) : -1;
    path_join(path, "/sys/class/net/%s/type", name);
    long kind = read_small(path, text, sizeof(text)) ? strtol(text, NULL, 10) : -1;
    put(t, ", {\"type\": \"Interconnect\", \"att\": {");
    /* ARPHRD_ETHER 1, ARPHRD_INFINIBAND 32 (linux/if_arp.h); other kinds are left untyped. */
    const char *type = kind == 1 ? "Ethernet" : kind == 32 ? "Infiniband" : NULL;
    bool comma = false;
    if (type) {
      put(t, "\"type\": \"%s\"", type);
      comma = true;
    }
    if (speed > 0) {
      for (int c = 0; c < SPEED_CHOICES_COUNT; c++) {
        if (speed_choices[c] == speed) {
          put(t, "%s\"speed\": \"%ld %s\"", comma ? ", " : "", speed >= 1000 ? speed / 1000 : speed,
              speed >= 1000 ? "Gbit" : "Mbit");
          comma = true;
        }
      }
      /* Mbit/s to bytes/s: every speed, also one that is not among the schema's choices. */
      put(t, "%s\"peak throughput\": \"%ld KB/s\"", comma ? ", " : "", speed * 125);
    }
    put(t, "}, \"childs\": []}");
    put(names, "%s{\"name\": ", first ? "" : ", ");
    put_string(names, name);
    if (speed > 0) {
      put(names, ", \"speed\": \"%ld Mbit/s\"}", speed);
    } else {
      put(names, ", \"speed\": \"unknown\"}");
    }
    first = false;
    free(list[i]);
  }
  free(list);
}

/* /proc/self/mountinfo fields 5 (mount point), after " - ": type, source, super options; field 6 the
   mount options. Octal escapes (\040) in the mount point are decoded. */
static void unescape_mount(char *s) {
  char *out = s;
  for (char *in = s; *in; in++) {
    if (in[0] == '\\' && in[1] >= '0' && in[1] <= '3' && in[2] >= '0' && in[2] <= '7' && in[3] >= '0' &&
        in[3] <= '7') {
      *out++ = (char)((in[1] - '0') * 64 + (in[2] - '0') * 8 + (in[3] - '0'));
      in += 3;
    } else {
      *out++ = *in;
    }
  }
  *out = '\0';
}

static bool under(const char *path, const char *mount) {
  size_t n = strlen(mount);
  if (strcmp(mount, "/") == 0) {
    return path[0] == '/';
  }
  return strncmp(path, mount, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

static void put_data_directory(text_t *t) {
  char real[PATH_MAX];
  if (!realpath(run.datadir, real)) {
    snprintf(real, sizeof(real), "%s", run.datadir);
  }
  FILE *f = fopen("/proc/self/mountinfo", "r");
  char line[4096], best_point[PATH_MAX] = "", best_type[128] = "unknown", best_options[1024] = "unknown";
  size_t best_len = 0;
  bool found = false;
  if (f) {
    while (fgets(line, sizeof(line), f)) {
      char point[PATH_MAX], options[1024], type[128];
      /* id parent major:minor root mount-point options [optional fields...] - type source super */
      if (sscanf(line, "%*s %*s %*s %*s %4095s %1023s", point, options) != 2) {
        continue;
      }
      const char *dash = strstr(line, " - ");
      if (!dash || sscanf(dash + 3, "%127s", type) != 1) {
        continue;
      }
      unescape_mount(point);
      size_t len = strlen(point);
      /* The longest matching mount point; a later mount over the same point hides the earlier one. */
      if (under(real, point) && (!found || len >= best_len)) {
        found = true;
        best_len = len;
        snprintf(best_point, sizeof(best_point), "%s", point);
        snprintf(best_type, sizeof(best_type), "%s", type);
        snprintf(best_options, sizeof(best_options), "%s", options);
      }
    }
    fclose(f);
  }
  /* The client module's own version where the file system is a module that gives one (lustre, beegfs,
     ...); a file system built into the kernel has none here: its version is the kernel's. */
  char version[128] = "unknown", path[PATH_MAX];
  char module[128];
  snprintf(module, sizeof(module), "%s", best_type);
  char *dot = strchr(module, '.'); /* fuse.sshfs -> fuse */
  if (dot) {
    *dot = '\0';
  }
  if (found && strchr(module, '/') == NULL) {
    path_join(path, "/sys/module/%s/version", module);
    if (!read_small(path, version, sizeof(version))) {
      snprintf(version, sizeof(version), "unknown");
    }
  }
  put(t, "\"data directory\": {\"mount point\": ");
  put_string(t, found ? best_point : "unknown");
  put(t, ", \"file system\": ");
  put_string(t, best_type);
  put(t, ", \"mount options\": ");
  put_string(t, best_options);
  put(t, ", \"client version\": ");
  put_string(t, version);
  put(t, "}");
}

/* One node's facts: the schema's Nodes node (without its count) and, after a tab, the runner's part. */
static void node_facts(char *out, size_t cap) {
  char nics_buf[FACTS_BYTES / 2];
  text_t nics = {nics_buf, 0, sizeof(nics_buf)};
  nics_buf[0] = '\0';
  text_t t = {out, 0, cap - 1};
  struct utsname u;
  bool named = uname(&u) == 0;
  put(&t, "{\"type\": \"Nodes\", \"att\": {\"kernel version\": ");
  put_string(&t, named ? u.release : "unknown");
  put(&t, ", \"count\": @COUNT@}, \"childs\": [");
  put_processor(&t);
  long long kib = mem_total_kib();
  if (kib > 0) {
    put(&t, ", {\"type\": \"Memory\", \"att\": {\"net capacity\": \"%lld KiB\"}, \"childs\": []}", kib);
  }
  put_interconnects(&t, &nics);
  put(&t, "]}\t{\"count\": @COUNT@, \"logical CPUs\": %d, \"architecture\": ", cpu_count());
  put_string(&t, named ? u.machine : "unknown");
  put(&t, ", \"memory\": ");
  if (kib > 0) {
    put(&t, "\"%lld KiB\"", kib);
  } else {
    put(&t, "\"unknown\"");
  }
  put(&t, ", \"network interfaces\": [%s], ", nics_buf);
  put_data_directory(&t);
  put(&t, "}");
  if (t.len >= t.cap) {
    /* Cut short (a node with very many interfaces or very long mount names): a valid node that says so. */
    snprintf(out, cap, "{\"type\": \"Nodes\", \"att\": {\"count\": @COUNT@}, \"childs\": []}\t"
                       "{\"count\": @COUNT@, \"cut short\": true}");
  }
}

/* Writes `text` with every @COUNT@ replaced by `count`. */
static void write_counted(FILE *f, const char *text, int count) {
  const char *mark = "@COUNT@";
  const char *p = text;
  const char *hit;
  while ((hit = strstr(p, mark)) != NULL) {
    fwrite(p, 1, (size_t)(hit - p), f);
    fprintf(f, "%d", count);
    p = hit + strlen(mark);
  }
  fputs(p, f);
}

static void write_groups(char *all, int leaders) {
  int *count = xcalloc((size_t)leaders, sizeof(int));
  for (int i = 0; i < leaders; i++) {
    count[i] = 1;
    for (int j = 0; j < i; j++) {
      if (count[j] > 0 && strcmp(all + (size_t)i * FACTS_BYTES, all + (size_t)j * FACTS_BYTES) == 0) {
        count[j]++;
        count[i] = 0;
        break;
      }
    }
  }
  char path[PATH_MAX], stamp[32];
  path_join(path, "%s/%s", run.resdir, FACTS_FILE);
  FILE *f = fopen(path, "w");
  if (!f) {
    report_warning("cannot write the client facts %s", path);
    free(count);
    return;
  }
  time_t now_s = time(NULL);
  strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now_s));
  fprintf(f, "{\n \"DATA\": {\"type\": \"Site\", \"att\": {}, \"childs\": [{\"type\": \"Supercomputer\", "
             "\"att\": {}, \"childs\": [\n");
  bool first = true;
  for (int i = 0; i < leaders; i++) {
    if (count[i] == 0) {
      continue;
    }
    char *text = all + (size_t)i * FACTS_BYTES;
    char *tab = strchr(text, '\t');
    if (tab) {
      *tab = '\0';
    }
    fprintf(f, "%s  ", first ? "" : ",\n");
    write_counted(f, text, count[i]);
    if (tab) {
      *tab = '\t';
    }
    first = false;
  }
  fprintf(f, "\n ]}]},\n \"runner\": {\"version\": \"%s\", \"collected\": \"%s\", \"nodes\": %d,\n"
             "  \"schema\": \"IO500 community schema, client part (Site.Supercomputer.Nodes) as VI4IO/"
             "cdcl-schema-tools@487b471cd97e3bee466394c1a199a1a6c6cea88b writes it\",\n  \"groups\": [\n",
          RUNNER_VERSION, stamp, leaders);
  first = true;
  for (int i = 0; i < leaders; i++) {
    if (count[i] == 0) {
      continue;
    }
    char *tab = strchr(all + (size_t)i * FACTS_BYTES, '\t');
    fprintf(f, "%s   ", first ? "" : ",\n");
    write_counted(f, tab ? tab + 1 : "{}", count[i]);
    first = false;
  }
  fprintf(f, "\n  ]}\n}\n");
  if (fclose(f) != 0) {
    report_warning("cannot write the client facts %s", path);
  }
  free(count);
}

void write_client_facts(void) {
  MPI_Comm node_comm, leaders_comm;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, run.rank, MPI_INFO_NULL, &node_comm);
  int node_rank = 0;
  MPI_Comm_rank(node_comm, &node_rank);
  MPI_Comm_free(&node_comm);
  /* Only one rank per node takes part; rank 0 is its node's first rank (key = world rank). */
  MPI_Comm_split(MPI_COMM_WORLD, node_rank == 0 ? 0 : MPI_UNDEFINED, run.rank, &leaders_comm);
  if (leaders_comm == MPI_COMM_NULL) {
    return;
  }
  int leaders = 0, me = 0;
  MPI_Comm_size(leaders_comm, &leaders);
  MPI_Comm_rank(leaders_comm, &me);
  char *mine = xcalloc(1, FACTS_BYTES);
  node_facts(mine, FACTS_BYTES);
  char *all = me == 0 ? xcalloc((size_t)leaders, FACTS_BYTES) : NULL;
  MPI_Gather(mine, FACTS_BYTES, MPI_CHAR, all, FACTS_BYTES, MPI_CHAR, 0, leaders_comm);
  if (me == 0) {
    write_groups(all, leaders);
    free(all);
  }
  free(mine);
  MPI_Comm_free(&leaders_comm);
}
