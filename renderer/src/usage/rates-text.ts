import type { UsageRates } from '$contract/index.ts';

/** The rates as typed: text, empty for none. */
export interface RatesText {
  perDatapoint: string;
  perExecution: string;
  unit: string;
}

export function ratesText(rates: UsageRates): RatesText {
  return {
    perDatapoint: rates.perDatapoint === null ? '' : String(rates.perDatapoint),
    perExecution: rates.perExecution === null ? '' : String(rates.perExecution),
    unit: rates.unit,
  };
}

/** The rates typed, or what is wrong with them, in the fields' words. */
export function ratesOf(text: RatesText): UsageRates | string {
  const read = (value: string, field: string): number | null | string => {
    const trimmed = value.trim();
    if (trimmed === '') return null;
    const number = Number(trimmed.replace(',', '.'));
    return Number.isFinite(number) && number >= 0 ? number : `“${field}” must be a number of 0 or more, or empty (“${trimmed}” is not).`;
  };
  const perDatapoint = read(text.perDatapoint, 'Per datapoint');
  if (typeof perDatapoint === 'string') return perDatapoint;
  const perExecution = read(text.perExecution, 'Per execution');
  if (typeof perExecution === 'string') return perExecution;
  const unit = text.unit.trim();
  if (unit.length > 20) return '“Unit” must be 20 characters at most.';
  return { perDatapoint, perExecution, unit };
}
