/* --pack: the submission tarball io500-<host>-<timestamp>.tgz that the registry accepts. */
#ifndef RUNNER_PACK_H
#define RUNNER_PACK_H

/* Runs without MPI. Returns the process exit status (0 ok, 2 error). */
int pack_main(int argc, char **argv);

#endif
