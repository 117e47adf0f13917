import { QueryParameter } from '@duneanalytics/client-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS } from '../service/accounts-fixture.ts';
import { PARAMETER_QUERY, SLOW_QUERY } from '../service/service-harness.ts';
import { POLL, startClientHarness, type ClientHarness } from './client-harness.ts';

let h: ClientHarness;
beforeAll(async () => {
  h = await startClientHarness();
});
afterAll(() => h.stop());

const chain = (name: string) => QueryParameter.enum('chain', name);

describe('official client: latest results by query id', () => {
  it('gives the latest execution for the given parameters, defaults filled in by the service', async () => {
    const alice = h.client(KEYS.alice);
    // min_usd left out: the query's default (1000) applies
    const ethereum = await alice.runQuery({ queryId: PARAMETER_QUERY, query_parameters: [chain('ethereum')], opts: POLL });
    const base = await alice.runQuery({ queryId: PARAMETER_QUERY, query_parameters: [chain('base')], opts: POLL });

    const latestEthereum = await alice.getLatestResult({
      queryId: PARAMETER_QUERY,
      query_parameters: [chain('ethereum'), QueryParameter.number('min_usd', 1000)],
    });
    expect(latestEthereum.execution_id).toBe(ethereum.execution_id);
    expect(latestEthereum.result!.rows).toEqual(await h.rowsOf(ethereum.execution_id, KEYS.alice));

    const latestBase = await alice.getLatestResult({ queryId: PARAMETER_QUERY, query_parameters: [chain('base')] });
    expect(latestBase.execution_id).toBe(base.execution_id);
    expect(latestBase.result!.rows).toEqual(await h.rowsOf(base.execution_id, KEYS.alice));
    expect(latestBase.result!.rows).not.toEqual(latestEthereum.result!.rows);
    // Another context never gets alice's runs as its latest result (only its own or the owner's).
    await expect(h.client(KEYS.bob).getLatestResult({ queryId: PARAMETER_QUERY, query_parameters: [chain('base')] })).rejects.toThrow(
      /No execution found/,
    );

    const latestAny = await alice.getLatestResult({ queryId: PARAMETER_QUERY });
    expect(latestAny.execution_id).toBe(base.execution_id);
  });

  it('runs the query again when the latest result is older than maxAgeHours', async () => {
    const alice = h.client(KEYS.alice);
    const before = await alice.getLatestResult({ queryId: PARAMETER_QUERY, query_parameters: [chain('base')] });
    const fresh = await alice.getLatestResult({
      queryId: PARAMETER_QUERY,
      query_parameters: [chain('base')],
      opts: { ...POLL, maxAgeHours: 0 },
    });
    expect(fresh.execution_id).not.toBe(before.execution_id);
    expect(fresh.result!.rows).toEqual(before.result!.rows);
  });

  it('answers 404 for parameters never run, and 400 for a parameter the query does not have', async () => {
    const alice = h.client(KEYS.alice);
    await expect(alice.getLatestResult({ queryId: PARAMETER_QUERY, query_parameters: [chain('optimism')] })).rejects.toThrow(
      /Status: 404, Message: \{"error":"not found: No execution found for the latest version of the given query"\}/,
    );
    await expect(
      alice.runQuery({ queryId: PARAMETER_QUERY, query_parameters: [QueryParameter.text('nope', 'x')], opts: POLL }),
    ).rejects.toThrow(/Status: 400, Message: \{"error":"unknown parameters \(nope\)"\}/);
  });
});

describe('official client: cancel', () => {
  it('cancels the slow demo query; its status and results then say QUERY_STATE_CANCELLED', async () => {
    const alice = h.client(KEYS.alice);
    const { execution_id, state } = await alice.exec.executeQuery(SLOW_QUERY);
    expect(state).toBe('QUERY_STATE_PENDING');
    // only the context that started it may cancel it
    await expect(h.client(KEYS.acme).exec.cancelExecution(execution_id)).rejects.toThrow(/Status: 403/);
    expect(await alice.exec.cancelExecution(execution_id)).toBe(true);

    const status = await alice.exec.getExecutionStatus(execution_id);
    expect(status.state).toBe('QUERY_STATE_CANCELLED');
    expect(status.cancelled_at).toEqual(expect.any(String));
    const results = await alice.exec.getExecutionResults(execution_id);
    expect(results.state).toBe('QUERY_STATE_CANCELLED');
    expect(results.is_execution_finished).toBe(true);
    expect(results.result).toBeUndefined();
  });
});
