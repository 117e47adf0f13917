import { describe, expect, it } from 'vitest';
import { turnOrder } from '../../../../main/service/executions/turn-order.ts';

const job = (accountId: number, id: string) => ({ accountId, id });
const ids = (jobs: { id: string }[]) => jobs.map((j) => j.id);

describe('turnOrder', () => {
  it('keeps the order they came for a context alone, whatever it runs', () => {
    const waiting = [job(1, 'a'), job(1, 'b'), job(1, 'c')];
    expect(ids(turnOrder(waiting, new Map([[1, 2]])))).toEqual(['a', 'b', 'c']);
  });

  it('puts a context running nothing before a backlog that came earlier', () => {
    const waiting = [job(1, 'a1'), job(1, 'a2'), job(2, 'b1')];
    expect(ids(turnOrder(waiting, new Map([[1, 2]])))).toEqual(['b1', 'a1', 'a2']);
  });

  it('takes contexts in turns by how many each runs and waits ahead, and equals in the order they came', () => {
    const waiting = [job(1, 'a1'), job(1, 'a2'), job(1, 'a3'), job(2, 'b1'), job(2, 'b2'), job(3, 'c1')];
    // rounds: a 1,2,3 (one running); b 0,1; c 2 (two running)
    const running = new Map([
      [1, 1],
      [3, 2],
    ]);
    expect(ids(turnOrder(waiting, running))).toEqual(['b1', 'a1', 'b2', 'a2', 'c1', 'a3']);
  });

  it('keeps the order of the rest as the first starts', () => {
    const waiting = [job(1, 'a1'), job(2, 'b1'), job(1, 'a2'), job(2, 'b2')];
    const order = turnOrder(waiting, new Map([[1, 1]]));
    expect(ids(order)).toEqual(['b1', 'a1', 'b2', 'a2']);
    // b1 starts: b runs one and has one fewer waiting ahead of b2
    expect(
      ids(
        turnOrder(
          waiting.filter((j) => j.id !== 'b1'),
          new Map([
            [1, 1],
            [2, 1],
          ]),
        ),
      ),
    ).toEqual(['a1', 'b2', 'a2']);
  });
});
