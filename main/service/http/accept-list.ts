/**
 * The weights of an Accept-style header's entries (`name;q=0.5, other`), names in lower case: 1
 * unless a q-value says otherwise. A q-value that is not a number counts as 0 (refused), the safer reading.
 */
export function acceptedWeights(header: string | undefined): Map<string, number> {
  const weights = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    if (!name.trim()) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2) || 'NaN');
    weights.set(name.trim(), Number.isFinite(weight) ? weight : 0);
  }
  return weights;
}
