/** What the order reads of a waiting execution: whose it is. */
export interface Turn {
  accountId: number;
}

/**
 * The waiting executions in the order they take free slots: the fewest running first, so a context
 * that runs nothing goes before one that already runs something, however early the latter's
 * backlog came; among equals, the order they came. A context that filled every slot while alone
 * thus gives the next one that frees to a context that waits, and never holds them all while
 * another waits once one has freed.
 *
 * An execution's round is what its context runs plus its context's executions waiting ahead of
 * it. Starting one leaves every round as it was (one more running, one fewer ahead), so the order
 * holds while slots are filled and changes only when an execution ends or a new one comes.
 */
export function turnOrder<T extends Turn>(waiting: readonly T[], running: ReadonlyMap<number, number>): T[] {
  const ahead = new Map<number, number>();
  const rounds = waiting.map((job, index) => {
    const round = ahead.get(job.accountId) ?? running.get(job.accountId) ?? 0;
    ahead.set(job.accountId, round + 1);
    return { job, round, index };
  });
  return rounds.sort((a, b) => a.round - b.round || a.index - b.index).map((r) => r.job);
}
