import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { projectSources } from './project-sources.ts';

// Each small rule of control flow is written once, in main/common. A copy shows by its tell-tale;
// one found outside the rule's own module fails here, so the copies cannot drift apart again.
// FLOW_ONCE_ROOT points the check at another checkout (to see it fail on one with the copies).

const root = process.env.FLOW_ONCE_ROOT ?? resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

interface Rule {
  name: string;
  home: string;
  tellTales: RegExp[];
}

const RULES: Rule[] = [
  {
    name: 'a one-at-a-time promise queue',
    home: 'main/common/serial-queue.ts',
    // the queue's tail: the last call's promise, its failure swallowed, kept for the next call
    tellTales: [/(#?\w+|\.#?\w+)\s*=\s*[\w.#]+\.catch\(\(\) => (undefined|\{\})\)/],
  },
  {
    name: 'a doubling wait with jitter',
    home: 'main/common/backoff.ts',
    // a wait doubled per failure (`base * 2 ** n`), or spread by a random share of itself
    tellTales: [/\*\s*2\s*\*\*\s*[\w(]/, /[*/+]\s*(Math\.)?random\(\)|(Math\.)?random\(\)\s*[*/+]/],
  },
  {
    name: "Dune's terminal and with-result states, and its partial-result refusal",
    home: 'main/common/dune-states.ts',
    tellTales: [
      // a set of states holding FAILED: the terminal ones
      /new Set[^(]*\(\[[^\]]*('QUERY_STATE_FAILED'|STATE\.failed)/,
      // COMPLETED and COMPLETED_PARTIAL together: the states with a result
      /new Set[^(]*\(\[\s*('QUERY_STATE_COMPLETED'|STATE\.completed),\s*('QUERY_STATE_COMPLETED_PARTIAL'|STATE\.completedPartial)\s*\]/,
      /===\s*('QUERY_STATE_COMPLETED'|STATE\.completed)\s*\|\|[^;]*===\s*('QUERY_STATE_COMPLETED_PARTIAL'|STATE\.completedPartial)/,
      /partial result\/i|Partial Result, please/,
    ],
  },
  {
    name: "the reading of DuckDB's error messages",
    home: 'main/common/duckdb-errors.ts',
    tellTales: [
      // a regular expression on a message that starts with DuckDB's exception type
      /\/\^\(?[A-Z][\w |]*\)? Error: /,
      /has been invalidated because of|Cannot CHECKPOINT: there are/,
    ],
  },
];

const files = projectSources(root);

describe('each rule of control flow is defined once', () => {
  it.each(RULES)('$name lives in $home only', (rule) => {
    const copies = files
      .filter((file) => file.path !== rule.home && rule.tellTales.some((tellTale) => tellTale.test(file.text)))
      .map((file) => file.path);
    expect(copies).toEqual([]);
    // and the tell-tales still find the rule in its home, so they would find a copy of it
    const home = files.find((file) => file.path === rule.home);
    expect(home !== undefined && rule.tellTales.some((tellTale) => tellTale.test(home.text))).toBe(true);
  });
});
