/* What each client node says about itself (CPU, memory, NICs, kernel, the data directory's mount),
   written by rank 0 as client-facts.json in the result directory, identical nodes grouped. */
#ifndef RUNNER_FACTS_H
#define RUNNER_FACTS_H

#define FACTS_FILE "client-facts.json"

/* Collective: one rank per node reads its node's facts, rank 0 groups and writes them. */
void write_client_facts(void);

#endif
