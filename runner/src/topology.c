#include <mpi.h>
#include <string.h>
#include <unistd.h>

#include "runner.h"
#include "topology.h"

void detect_topology(void) {
  MPI_Comm node_comm;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, run.rank, MPI_INFO_NULL, &node_comm);
  int node_rank = 0;
  int node_size = 0;
  MPI_Comm_rank(node_comm, &node_rank);
  MPI_Comm_size(node_comm, &node_size);
  int is_leader = node_rank == 0;
  MPI_Allreduce(&is_leader, &run.nodes, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  run.tasks_on_node0 = node_size;
  MPI_Bcast(&run.tasks_on_node0, 1, MPI_INT, 0, MPI_COMM_WORLD);

  /* IOR's QueryNodeMapping: block placement when rank 1 shares rank 0's node. */
  int leader_world = run.rank;
  MPI_Bcast(&leader_world, 1, MPI_INT, 0, node_comm);
  int same_as_0 = leader_world == 0;
  int rank1_with_0 = 0;
  if (run.size > 1) {
    if (run.rank == 1) {
      MPI_Send(&same_as_0, 1, MPI_INT, 0, 17, MPI_COMM_WORLD);
    } else if (run.rank == 0) {
      MPI_Recv(&rank1_with_0, 1, MPI_INT, 1, 17, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  MPI_Bcast(&rank1_with_0, 1, MPI_INT, 0, MPI_COMM_WORLD);
  run.block_mapping = rank1_with_0 != 0;
  MPI_Comm_free(&node_comm);

  if (gethostname(run.hostname, sizeof(run.hostname) - 1) != 0) {
    strcpy(run.hostname, "unknown");
  }
}

int ior_rank_offset(int node_steps) {
  /* IOR -C -Q k: shift by k "nodes"; a node is tasks_on_node0 ranks under block placement, else one rank.
     On a single node with block placement this is 0: every rank reads its own file, as IOR does. */
  int shift = run.block_mapping ? run.tasks_on_node0 : 1;
  return (node_steps * shift) % run.size;
}

int mdtest_stride(int node_steps) {
  /* mdtest -N k: k ranks, multiplied by the tasks per node only when there is more than one node. */
  int stride = node_steps;
  if (run.nodes > 1 && run.block_mapping) {
    stride *= run.tasks_on_node0;
  }
  return stride;
}
