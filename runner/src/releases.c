/* The INI option table of every IO500 release (generated: do not edit).
   python3 runner/tools/release_tables.py <IO500/io500 clone>; main was 02091cf254d8.
   Data read from each tag: src/phase-definitions.h, the option tables of its C files, io500.sh. */
#include "releases.h"

#include <stddef.h>

static const rel_option_t opts_0[] = {
    {"datadir", OPT_STRING, "./datafiles", true},
    {"timestamp-datadir", OPT_BOOL, "TRUE", false},
    {"resultdir", OPT_STRING, "./results", false},
    {"timestamp-resultdir", OPT_BOOL, "TRUE", false},
    {"api", OPT_STRING, "POSIX", false},
    {"drop-caches", OPT_BOOL, "FALSE", false},
    {"drop-caches-cmd", OPT_STRING, "sudo -n bash -c \"echo 3 > /proc/sys/vm/drop_caches\"", false},
    {"io-buffers-on-gpu", OPT_BOOL, "FALSE", false},
    {"verbosity", OPT_UINT, "1", false},
    {"scc", OPT_BOOL, "FALSE", false},
    {"dataPacketType", OPT_STRING, "timestamp", false},
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_1[] = {
    {"stonewall-time", OPT_INT, "300", false},
    {"pause-dir", OPT_STRING, NULL, false},
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_2[] = {
    {"API", OPT_STRING, NULL, false},
    {"transferSize", OPT_STRING, "2m", false},
    {"blockSize", OPT_STRING, "9920000m", false},
    {"filePerProc", OPT_BOOL, "TRUE", false},
    {"uniqueDir", OPT_BOOL, "FALSE", false},
    {"run", OPT_BOOL, "TRUE", false},
    {"verbosity", OPT_INT, NULL, false},
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_3[] = {
    {"API", OPT_STRING, NULL, false},
    {"run", OPT_BOOL, "TRUE", false},
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_4[] = {
    {"API", OPT_STRING, NULL, false},
    {"n", OPT_UINT64, "1000000", false},
    {"run", OPT_BOOL, "TRUE", false},
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_5[] = {
    {"API", OPT_STRING, NULL, false},
    {"waitingTime", OPT_FLOAT, "0.0", false},
    {"precreatePerSet", OPT_UINT64, NULL, false},
    {"filesPerProc", OPT_UINT64, NULL, false},
    {"run", OPT_BOOL, "TRUE", false},
    {"verbosity", OPT_INT, NULL, false},
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_6[] = {
    {"run", OPT_BOOL, "TRUE", false},
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_7[] = {
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_8[] = {
    {"external-script", OPT_STRING, NULL, false},
    {"external-mpi-args", OPT_STRING, "", false},
    {"external-extra-args", OPT_STRING, "", false},
    {"nproc", OPT_UINT, NULL, false},
    {"run", OPT_BOOL, "TRUE", false},
    {"pfind-queue-length", OPT_INT, "10000", false},
    {"pfind-steal-next", OPT_BOOL, "FALSE", false},
    {"pfind-parallelize-single-dir-access-using-hashing", OPT_BOOL, "FALSE", false},
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_9[] = {
    {"API", OPT_STRING, NULL, false},
    {"segmentCount", OPT_INT, "10000000", false},
    {"collective", OPT_BOOL, NULL, false},
    {"run", OPT_BOOL, "TRUE", false},
    {"verbosity", OPT_INT, NULL, false},
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_10[] = {
    {"API", OPT_STRING, NULL, false},
    {"collective", OPT_BOOL, NULL, false},
    {"run", OPT_BOOL, "TRUE", false},
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_11[] = {
    {"API", OPT_STRING, NULL, false},
    {"n", OPT_UINT64, "1000000", false},
    {"files-per-dir", OPT_UINT64, NULL, false},
    {"run", OPT_BOOL, "TRUE", false},
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_12[] = {
    {"API", OPT_STRING, NULL, false},
    {"blockSize", OPT_UINT64, "1073741824", false},
    {"run", OPT_BOOL, "TRUE", false},
    {"verbosity", OPT_INT, NULL, false},
    {"randomPrefill", OPT_INT, "0", false},
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_13[] = {
    {"stonewall-time", OPT_INT, "300", false},
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_14[] = {
    {"datadir", OPT_STRING, "./datafiles", true},
    {"timestamp-datadir", OPT_BOOL, "TRUE", false},
    {"resultdir", OPT_STRING, "./results", false},
    {"timestamp-resultdir", OPT_BOOL, "TRUE", false},
    {"api", OPT_STRING, "POSIX", false},
    {"drop-caches", OPT_BOOL, "FALSE", false},
    {"drop-caches-cmd", OPT_STRING, "sudo -n bash -c \"echo 3 > /proc/sys/vm/drop_caches\"", false},
    {"io-buffers-on-gpu", OPT_BOOL, "FALSE", false},
    {"verbosity", OPT_UINT, "1", false},
    {"scc", OPT_BOOL, "FALSE", false},
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_15[] = {
    {"API", OPT_STRING, NULL, false},
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_16[] = {
    {"API", OPT_STRING, NULL, false},
    {"collective", OPT_BOOL, NULL, false},
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_17[] = {
    {"datadir", OPT_STRING, "./datafiles", true},
    {"timestamp-datadir", OPT_BOOL, "TRUE", false},
    {"resultdir", OPT_STRING, "./results", false},
    {"timestamp-resultdir", OPT_BOOL, "TRUE", false},
    {"api", OPT_STRING, "POSIX", false},
    {"drop-caches", OPT_BOOL, "FALSE", false},
    {"drop-caches-cmd", OPT_STRING, "sudo -n bash -c \"echo 3 > /proc/sys/vm/drop_caches\"", false},
    {"verbosity", OPT_UINT, "1", false},
    {"scc", OPT_BOOL, "FALSE", false},
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_18[] = {
    {"API", OPT_STRING, NULL, false},
    {"posix.odirect", OPT_BOOL, NULL, false},
    {"transferSize", OPT_STRING, "2m", false},
    {"blockSize", OPT_STRING, "9920000m", false},
    {"hintsFileName", OPT_STRING, NULL, false},
    {"filePerProc", OPT_BOOL, "TRUE", false},
    {"uniqueDir", OPT_BOOL, "FALSE", false},
    {"noRun", OPT_BOOL, NULL, false},
    {"verbosity", OPT_INT, NULL, false},
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_19[] = {
    {"API", OPT_STRING, NULL, false},
    {"posix.odirect", OPT_BOOL, NULL, false},
    {"hintsFileName", OPT_STRING, NULL, false},
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_20[] = {
    {"API", OPT_STRING, NULL, false},
    {"posix.odirect", OPT_BOOL, NULL, false},
    {"n", OPT_UINT64, "1000000", false},
    {"noRun", OPT_BOOL, NULL, false},
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_21[] = {
    {"API", OPT_STRING, NULL, false},
    {"posix.odirect", OPT_BOOL, NULL, false},
    {"noRun", OPT_BOOL, NULL, false},
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_22[] = {
    {"API", OPT_STRING, NULL, false},
    {"posix.odirect", OPT_BOOL, NULL, false},
    {"hintsFileName", OPT_STRING, NULL, false},
    {"segmentCount", OPT_INT, "10000000", false},
    {"noRun", OPT_BOOL, NULL, false},
    {"verbosity", OPT_INT, NULL, false},
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_23[] = {
    {"API", OPT_STRING, NULL, false},
    {"hintsFileName", OPT_STRING, NULL, false},
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_24[] = {
    {"external-script", OPT_STRING, NULL, false},
    {"external-mpi-args", OPT_STRING, "", false},
    {"external-extra-args", OPT_STRING, "", false},
    {"nproc", OPT_UINT, NULL, false},
    {"noRun", OPT_BOOL, NULL, false},
    {"pfind-queue-length", OPT_INT, "10000", false},
    {"pfind-steal-next", OPT_BOOL, "FALSE", false},
    {"pfind-parallelize-single-dir-access-using-hashing", OPT_BOOL, "FALSE", false},
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_25[] = {
    {"datadir", OPT_STRING, NULL, true},
    {"timestamp-datadir", OPT_BOOL, "TRUE", false},
    {"resultdir", OPT_STRING, "./results", false},
    {"timestamp-resultdir", OPT_BOOL, "TRUE", false},
    {"api", OPT_STRING, "POSIX", false},
    {"drop-caches", OPT_BOOL, "FALSE", false},
    {"drop-caches-cmd", OPT_STRING, "sudo -n bash -c \"echo 3 > /proc/sys/vm/drop_caches\"", false},
    {"verbosity", OPT_UINT, "1", false},
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_26[] = {
    {"stonewall-time", OPT_UINT, "300", false},
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_27[] = {
    {"external-script", OPT_STRING, NULL, false},
    {"external-mpi-args", OPT_STRING, "", false},
    {"external-extra-args", OPT_STRING, "", false},
    {"nproc", OPT_UINT, NULL, false},
    {"pfind-queue-length", OPT_INT, "10000", false},
    {"pfind-steal-next", OPT_BOOL, "FALSE", false},
    {"pfind-parallelize-single-dir-access-using-hashing", OPT_BOOL, "FALSE", false},
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_28[] = {
    {"external-script", OPT_STRING, NULL, false},
    {"external-extra-args", OPT_STRING, "", false},
    {"nproc", OPT_UINT, NULL, false},
    {"pfind-queue-length", OPT_INT, "10000", false},
    {"pfind-steal-next", OPT_BOOL, "FALSE", false},
    {"pfind-parallelize-single-dir-access-using-hashing", OPT_BOOL, "FALSE", false},
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_29[] = {
    {"external-script", OPT_STRING, NULL, false},
    {"external-extra-args", OPT_STRING, "", false},
    {"external-mpi-args", OPT_STRING, "", false},
    {"nproc", OPT_UINT, NULL, false},
    {"pfind-queue-length", OPT_INT, "10000", false},
    {"pfind-steal-next", OPT_BOOL, "FALSE", false},
    {"pfind-parallelize-single-dir-access-using-hashing", OPT_BOOL, "FALSE", false},
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_30[] = {
    {"API", OPT_STRING, "POSIX", false},
    {"posix.odirect", OPT_BOOL, NULL, false},
    {"transferSize", OPT_STRING, "2m", false},
    {"blockSize", OPT_STRING, "9920000m", false},
    {"hintsFileName", OPT_STRING, NULL, false},
    {"filePerProc", OPT_BOOL, "TRUE", false},
    {"uniqueDir", OPT_BOOL, "FALSE", false},
    {"noRun", OPT_BOOL, NULL, false},
    {"verbosity", OPT_INT, NULL, false},
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_31[] = {
    {"API", OPT_STRING, "POSIX", false},
    {"posix.odirect", OPT_BOOL, NULL, false},
    {"n", OPT_UINT64, "1000000", false},
    {"noRun", OPT_BOOL, NULL, false},
    {NULL, OPT_STRING, NULL, false}};
static const rel_option_t opts_32[] = {
    {"API", OPT_STRING, "POSIX", false},
    {"posix.odirect", OPT_BOOL, NULL, false},
    {"hintsFileName", OPT_STRING, NULL, false},
    {"segmentCount", OPT_INT, "10000000", false},
    {"noRun", OPT_BOOL, NULL, false},
    {"verbosity", OPT_INT, NULL, false},
    {NULL, OPT_STRING, NULL, false}};

static const rel_section_t sections_0[] = {
    {"global", opts_0, false},
    {"debug", opts_1, false},
    {"ior-easy", opts_2, false},
    {"ior-easy-write", opts_3, false},
    {"mdtest-easy", opts_4, false},
    {"mdtest-easy-write", opts_3, false},
    {"mdworkbench", opts_5, true},
    {"mdworkbench-create", opts_6, true},
    {"timestamp", opts_7, false},
    {"find-easy", opts_8, true},
    {"ior-hard", opts_9, false},
    {"ior-hard-write", opts_10, false},
    {"mdtest-hard", opts_11, false},
    {"mdtest-hard-write", opts_3, false},
    {"find", opts_8, false},
    {"find-hard", opts_8, true},
    {"mdworkbench-bench", opts_6, true},
    {"ior-easy-read", opts_3, false},
    {"mdtest-easy-stat", opts_3, false},
    {"ior-hard-read", opts_10, false},
    {"mdtest-hard-stat", opts_3, false},
    {"mdworkbench-delete", opts_6, true},
    {"mdtest-easy-delete", opts_3, false},
    {"mdtest-hard-read", opts_3, false},
    {"mdtest-hard-delete", opts_3, false},
    {"ior-rnd4K-easy-read", opts_3, false},
    {NULL, NULL, false}};
static const rel_key_t script_keys_0[] = {{NULL, NULL}};
static const rel_section_t sections_1[] = {
    {"global", opts_0, false},
    {"debug", opts_1, false},
    {"ior-easy", opts_2, false},
    {"ior-easy-write", opts_3, false},
    {"ior-rnd4K", opts_12, false},
    {"ior-rnd4K-write", opts_3, true},
    {"mdtest-easy", opts_4, false},
    {"mdtest-easy-write", opts_3, false},
    {"ior-rnd1MB", opts_12, false},
    {"ior-rnd1MB-write", opts_3, true},
    {"mdworkbench", opts_5, false},
    {"mdworkbench-create", opts_6, true},
    {"timestamp", opts_7, false},
    {"find-easy", opts_8, true},
    {"ior-hard", opts_9, false},
    {"ior-hard-write", opts_10, false},
    {"mdtest-hard", opts_11, false},
    {"mdtest-hard-write", opts_3, false},
    {"find", opts_8, false},
    {"ior-rnd4K-read", opts_3, true},
    {"ior-rnd1MB-read", opts_3, true},
    {"find-hard", opts_8, true},
    {"mdworkbench-bench", opts_6, true},
    {"ior-easy-read", opts_3, false},
    {"mdtest-easy-stat", opts_3, false},
    {"ior-hard-read", opts_10, false},
    {"mdtest-hard-stat", opts_3, false},
    {"mdworkbench-delete", opts_6, true},
    {"mdtest-easy-delete", opts_3, false},
    {"mdtest-hard-read", opts_3, false},
    {"mdtest-hard-delete", opts_3, false},
    {"ior-rnd4K-easy-read", opts_3, false},
    {NULL, NULL, false}};
static const rel_key_t script_keys_1[] = {{NULL, NULL}};
static const rel_section_t sections_2[] = {
    {"global", opts_0, false},
    {"debug", opts_1, false},
    {"ior-easy", opts_2, false},
    {"ior-easy-write", opts_3, false},
    {"ior-rnd4K", opts_12, false},
    {"ior-rnd4K-write", opts_3, true},
    {"mdtest-easy", opts_4, false},
    {"mdtest-easy-write", opts_3, false},
    {"ior-rnd1MB", opts_12, false},
    {"ior-rnd1MB-write", opts_3, true},
    {"mdworkbench", opts_5, false},
    {"mdworkbench-create", opts_6, true},
    {"timestamp", opts_7, false},
    {"find-easy", opts_8, true},
    {"ior-hard", opts_9, false},
    {"ior-hard-write", opts_10, false},
    {"mdtest-hard", opts_11, false},
    {"mdtest-hard-write", opts_3, false},
    {"find", opts_8, false},
    {"ior-rnd4K-read", opts_3, true},
    {"ior-rnd1MB-read", opts_3, true},
    {"find-hard", opts_8, true},
    {"mdworkbench-bench", opts_6, true},
    {"ior-easy-read", opts_3, false},
    {"mdtest-easy-stat", opts_3, false},
    {"ior-hard-read", opts_10, false},
    {"mdtest-hard-stat", opts_3, false},
    {"mdworkbench-delete", opts_6, true},
    {"mdtest-easy-delete", opts_3, false},
    {"mdtest-hard-read", opts_3, false},
    {"mdtest-hard-delete", opts_3, false},
    {NULL, NULL, false}};
static const rel_key_t script_keys_2[] = {{NULL, NULL}};
static const rel_section_t sections_3[] = {
    {"global", opts_0, false},
    {"debug", opts_13, false},
    {"ior-easy", opts_2, false},
    {"ior-easy-write", opts_3, false},
    {"ior-rnd4K", opts_12, false},
    {"ior-rnd4K-write", opts_3, true},
    {"mdtest-easy", opts_4, false},
    {"mdtest-easy-write", opts_3, false},
    {"ior-rnd1MB", opts_12, false},
    {"ior-rnd1MB-write", opts_3, true},
    {"mdworkbench", opts_5, false},
    {"mdworkbench-create", opts_6, true},
    {"timestamp", opts_7, false},
    {"find-easy", opts_8, true},
    {"ior-hard", opts_9, false},
    {"ior-hard-write", opts_10, false},
    {"mdtest-hard", opts_11, false},
    {"mdtest-hard-write", opts_3, false},
    {"find", opts_8, false},
    {"ior-rnd4K-read", opts_3, true},
    {"ior-rnd1MB-read", opts_3, true},
    {"find-hard", opts_8, true},
    {"mdworkbench-bench", opts_6, true},
    {"ior-easy-read", opts_3, false},
    {"mdtest-easy-stat", opts_3, false},
    {"ior-hard-read", opts_10, false},
    {"mdtest-hard-stat", opts_3, false},
    {"mdworkbench-delete", opts_6, true},
    {"mdtest-easy-delete", opts_3, false},
    {"mdtest-hard-read", opts_3, false},
    {"mdtest-hard-delete", opts_3, false},
    {NULL, NULL, false}};
static const rel_key_t script_keys_3[] = {{NULL, NULL}};
static const rel_section_t sections_4[] = {
    {"global", opts_14, false},
    {"debug", opts_13, false},
    {"ior-easy", opts_2, false},
    {"ior-easy-write", opts_15, false},
    {"ior-rnd", opts_12, false},
    {"ior-rnd-write", opts_15, true},
    {"mdtest-easy", opts_4, false},
    {"mdtest-easy-write", opts_3, false},
    {"mdworkbench", opts_5, false},
    {"mdworkbench-create", opts_6, true},
    {"timestamp", opts_7, false},
    {"find-easy", opts_8, true},
    {"ior-hard", opts_9, false},
    {"ior-hard-write", opts_16, false},
    {"mdtest-hard", opts_11, false},
    {"mdtest-hard-write", opts_3, false},
    {"find", opts_8, false},
    {"ior-rnd-read", opts_15, true},
    {"find-hard", opts_8, true},
    {"mdworkbench-bench", opts_6, true},
    {"ior-easy-read", opts_15, false},
    {"mdtest-easy-stat", opts_3, false},
    {"ior-hard-read", opts_16, false},
    {"mdtest-hard-stat", opts_3, false},
    {"mdworkbench-delete", opts_6, true},
    {"mdtest-easy-delete", opts_3, false},
    {"mdtest-hard-read", opts_3, false},
    {"mdtest-hard-delete", opts_3, false},
    {NULL, NULL, false}};
static const rel_key_t script_keys_4[] = {{NULL, NULL}};
static const rel_section_t sections_5[] = {
    {"global", opts_17, false},
    {"debug", opts_13, false},
    {"ior-easy", opts_18, false},
    {"ior-easy-write", opts_19, false},
    {"mdtest-easy", opts_20, false},
    {"mdtest-easy-write", opts_21, false},
    {"timestamp", opts_7, false},
    {"ior-hard", opts_22, false},
    {"ior-hard-write", opts_23, false},
    {"mdtest-hard", opts_20, false},
    {"mdtest-hard-write", opts_21, false},
    {"find", opts_24, false},
    {"ior-easy-read", opts_19, false},
    {"mdtest-easy-stat", opts_21, false},
    {"ior-hard-read", opts_19, false},
    {"mdtest-hard-stat", opts_21, false},
    {"mdtest-easy-delete", opts_21, false},
    {"mdtest-hard-read", opts_21, false},
    {"mdtest-hard-delete", opts_21, false},
    {NULL, NULL, false}};
static const rel_key_t script_keys_5[] = {{NULL, NULL}};
static const rel_section_t sections_6[] = {
    {"global", opts_25, false},
    {"debug", opts_26, false},
    {"ior-easy", opts_18, false},
    {"ior-easy-write", opts_19, false},
    {"mdtest-easy", opts_20, false},
    {"mdtest-easy-write", opts_21, false},
    {"timestamp", opts_7, false},
    {"ior-hard", opts_22, false},
    {"ior-hard-write", opts_23, false},
    {"mdtest-hard", opts_20, false},
    {"mdtest-hard-write", opts_21, false},
    {"find", opts_24, false},
    {"ior-easy-read", opts_19, false},
    {"mdtest-easy-stat", opts_21, false},
    {"ior-hard-read", opts_19, false},
    {"mdtest-hard-stat", opts_21, false},
    {"mdtest-easy-delete", opts_21, false},
    {"mdtest-hard-read", opts_21, false},
    {"mdtest-hard-delete", opts_21, false},
    {NULL, NULL, false}};
static const rel_key_t script_keys_6[] = {{NULL, NULL}};
static const rel_section_t sections_7[] = {
    {"global", opts_25, false},
    {"debug", opts_26, false},
    {"ior-easy", opts_18, false},
    {"ior-easy-write", opts_19, false},
    {"mdtest-easy", opts_20, false},
    {"mdtest-easy-write", opts_21, false},
    {"timestamp", opts_7, false},
    {"ior-hard", opts_22, false},
    {"ior-hard-write", opts_19, false},
    {"mdtest-hard", opts_20, false},
    {"mdtest-hard-write", opts_21, false},
    {"find", opts_27, false},
    {"ior-easy-read", opts_19, false},
    {"mdtest-easy-stat", opts_21, false},
    {"ior-hard-read", opts_19, false},
    {"mdtest-hard-stat", opts_21, false},
    {"mdtest-easy-delete", opts_21, false},
    {"mdtest-hard-read", opts_21, false},
    {"mdtest-hard-delete", opts_21, false},
    {NULL, NULL, false}};
static const rel_key_t script_keys_7[] = {{NULL, NULL}};
static const rel_section_t sections_8[] = {
    {"global", opts_25, false},
    {"debug", opts_26, false},
    {"ior-easy", opts_18, false},
    {"ior-easy-write", opts_19, false},
    {"mdtest-easy", opts_20, false},
    {"mdtest-easy-write", opts_21, false},
    {"timestamp", opts_7, false},
    {"ior-hard", opts_22, false},
    {"ior-hard-write", opts_19, false},
    {"mdtest-hard", opts_20, false},
    {"mdtest-hard-write", opts_21, false},
    {"find", opts_28, false},
    {"ior-easy-read", opts_19, false},
    {"mdtest-easy-stat", opts_21, false},
    {"ior-hard-read", opts_19, false},
    {"mdtest-hard-stat", opts_21, false},
    {"mdtest-easy-delete", opts_21, false},
    {"mdtest-hard-read", opts_21, false},
    {"mdtest-hard-delete", opts_21, false},
    {NULL, NULL, false}};
static const rel_key_t script_keys_8[] = {{NULL, NULL}};
static const rel_section_t sections_9[] = {
    {"global", opts_25, false},
    {"debug", opts_26, false},
    {"ior-easy", opts_18, false},
    {"ior-easy-write", opts_19, false},
    {"mdtest-easy", opts_20, false},
    {"mdtest-easy-write", opts_21, false},
    {"timestamp", opts_7, false},
    {"ior-hard", opts_22, false},
    {"ior-hard-write", opts_19, false},
    {"mdtest-hard", opts_20, false},
    {"mdtest-hard-write", opts_21, false},
    {"find", opts_29, false},
    {"ior-easy-read", opts_19, false},
    {"mdtest-easy-stat", opts_21, false},
    {"ior-hard-read", opts_19, false},
    {"mdtest-hard-stat", opts_21, false},
    {"mdtest-easy-delete", opts_21, false},
    {"mdtest-hard-read", opts_21, false},
    {"mdtest-hard-delete", opts_21, false},
    {NULL, NULL, false}};
static const rel_key_t script_keys_9[] = {{"find", "external-args"}, {NULL, NULL}};
static const rel_section_t sections_10[] = {
    {"global", opts_25, false},
    {"debug", opts_26, false},
    {"ior-easy", opts_30, false},
    {"ior-easy-write", opts_19, false},
    {"mdtest-easy", opts_31, false},
    {"mdtest-easy-write", opts_21, false},
    {"timestamp", opts_7, false},
    {"ior-hard", opts_32, false},
    {"ior-hard-write", opts_19, false},
    {"mdtest-hard", opts_31, false},
    {"mdtest-hard-write", opts_21, false},
    {"find", opts_29, false},
    {"ior-easy-read", opts_19, false},
    {"mdtest-easy-stat", opts_21, false},
    {"ior-hard-read", opts_19, false},
    {"mdtest-hard-stat", opts_21, false},
    {"mdtest-easy-delete", opts_21, false},
    {"mdtest-hard-read", opts_21, false},
    {"mdtest-hard-delete", opts_21, false},
    {NULL, NULL, false}};
static const rel_key_t script_keys_10[] = {{"find", "external-args"}, {NULL, NULL}};

const release_t releases[] = {
    {"main, io500-sc26", sections_0, script_keys_0},
    {"io500-isc25_v1, io500-isc25, io500-isc25_v2, io500-sc25, io500-sc25_v1, io500-isc26_v1, io500-isc26, io500-isc26_v2", sections_1, script_keys_1},
    {"io500-sc22, io500-sc22_v2, io500-isc23, io500-isc24_v1, io500-sc23, io500-sc23_v1, io500-isc24_v2, io500-isc24, io500-isc24_v3, io500-sc24, io500-sc24_v1", sections_2, script_keys_2},
    {"io500-sc21, io500-sc21-scc, io500-sc21-scc_v1, io500-scc21, io500-isc22, io500-isc22_v1", sections_3, script_keys_3},
    {"io500-isc21_v1, io500-isc21, io500-isc21_v2", sections_4, script_keys_4},
    {"io500-sc20, io500-sc20_v3", sections_5, script_keys_5},
    {"io500-sc20_v1, io500-sc20_v2", sections_6, script_keys_6},
    {"io500-isc20, io500-isc20_v4", sections_7, script_keys_7},
    {"io500-isc20_v3", sections_8, script_keys_8},
    {"io500-isc20_v2", sections_9, script_keys_9},
    {"io500-isc20_v1", sections_10, script_keys_10},
};
const size_t release_count = sizeof(releases) / sizeof(releases[0]);
