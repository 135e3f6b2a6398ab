/* Where the ranks run: node count and placement, for the read-after-write rank shift. */
#ifndef RUNNER_TOPOLOGY_H
#define RUNNER_TOPOLOGY_H

/* Collective: fills run.nodes, run.tasks_on_node0, run.block_mapping and run.hostname. */
void detect_topology(void);

/* The rank offset of IOR's -C -Q node_steps (read the data of a rank node_steps nodes away). */
int ior_rank_offset(int node_steps);

/* The neighbour stride of mdtest's -N node_steps. */
int mdtest_stride(int node_steps);

#endif
