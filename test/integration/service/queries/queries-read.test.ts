import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARAMETER_QUERY, startHarness, type Harness, type Json } from '../service-harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

describe('GET /queries', () => {
  it("lists the context's queries with the real field names and the total", async () => {
    const { status, body } = await h.get('/api/v1/queries');
    expect(status).toBe(200);
    expect(body.total).toBe(8);
    expect(body.queries.map((q: Json) => q.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (const query of body.queries) {
      expect(Object.keys(query).sort()).toEqual(['created_at', 'description', 'id', 'name', 'owner', 'tags', 'updated_at']);
      expect(query.owner).toBe('demo');
      expect(query.name.length).toBeGreaterThan(0);
      expect(query.description.length).toBeGreaterThan(0);
    }
  });

  it('pages with limit and offset', async () => {
    const { body } = await h.get('/api/v1/queries?limit=2&offset=1');
    expect(body.queries.map((q: Json) => q.id)).toEqual([2, 3]);
    expect(body.total).toBe(8);
  });
});

describe('GET /query/{id}', () => {
  it('answers the query record with every field of the real one', async () => {
    const { status, body } = await h.get(`/api/v1/query/${PARAMETER_QUERY}`);
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual([
      'description',
      'is_archived',
      'is_private',
      'is_unsaved',
      'name',
      'owner',
      'parameters',
      'query_engine',
      'query_id',
      'query_sql',
      'tags',
      'version',
    ]);
    expect(body).toMatchObject({ query_id: PARAMETER_QUERY, version: 1, is_private: false, is_archived: false, owner: 'demo' });
    expect(body.query_sql).toContain('{{chain}}');
    expect(body.parameters).toEqual([
      {
        key: 'chain',
        type: 'enum',
        value: 'ethereum',
        enumOptions: ['ethereum', 'arbitrum', 'optimism', 'base', 'polygon'],
        isMultiselect: false,
      },
      { key: 'min_usd', type: 'number', value: '1000' },
    ]);
  });

  it('answers an unknown query with 404', async () => {
    for (const id of ['999', '0', 'abc', '99999999999999']) {
      const { status, body } = await h.get(`/api/v1/query/${id}`);
      expect(status).toBe(404);
      expect(body).toEqual({ error: 'Query not found' });
    }
  });
});
