import { describe, expect, it } from 'vitest';
import type { QueryDetail, QueryParameter } from '../../../../main/contract/index.ts';
import { ParameterForms } from '../../../../renderer/src/queries/parameter-forms.svelte.ts';

// A query's parameter form as its parameters are saved: what the user typed stays, a field left
// at its default shows the default saved.

const query = (parameters: QueryParameter[]) => ({ id: 7, sql: 'SELECT {{n}}, {{chain}}', parameters }) as unknown as QueryDetail;
const n = (value: string): QueryParameter => ({ key: 'n', type: 'number', value });
const chain = (value: string): QueryParameter => ({ key: 'chain', type: 'text', value });

describe('a parameter form across a save of its parameters', () => {
  it('shows a new default in a field left at the old one, and keeps a value typed', () => {
    const forms = new ParameterForms();
    const before = forms.formFor('local', query([n('5'), chain('base')]));
    before.values.chain = 'zora';
    const after = forms.formFor('local', query([n('10'), chain('optimism')]));
    expect(after).not.toBe(before);
    expect(after.values).toEqual({ n: '10', chain: 'zora' });
    expect(after.take()).toEqual({ n: '10', chain: 'zora' });
  });

  it('is the same form while the parameters stay as they were', () => {
    const forms = new ParameterForms();
    const form = forms.formFor('local', query([n('5')]));
    form.values.n = '6';
    expect(forms.formFor('local', query([n('5')]))).toBe(form);
    expect(form.isDefault).toBe(false);
  });
});
