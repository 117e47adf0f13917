// Tolerant readers for the service's JSON: a missing or mistyped field reads as null instead of
// throwing, because new states and absent metadata keys are what broke the official clients.

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readString(source: JsonObject, key: string): string | null {
  const value = source[key];
  return typeof value === 'string' ? value : null;
}

export function readNumber(source: JsonObject, key: string): number | null {
  const value = source[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function readInt(source: JsonObject, key: string): number | null {
  const value = readNumber(source, key);
  return value !== null && Number.isSafeInteger(value) ? value : null;
}

export function readBoolean(source: JsonObject, key: string): boolean | null {
  const value = source[key];
  return typeof value === 'boolean' ? value : null;
}

export function readObject(source: JsonObject, key: string): JsonObject | null {
  const value = source[key];
  return isObject(value) ? value : null;
}

export function readStringArray(source: JsonObject, key: string): string[] | null {
  const value = source[key];
  if (!Array.isArray(value)) return null;
  return value.every((item) => typeof item === 'string') ? value : null;
}
