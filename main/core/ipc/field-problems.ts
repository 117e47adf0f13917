import type { z } from 'zod';
import { clause } from '../words.ts';

// A payload that failed its schema, said field by field as sentences: the schema library's own
// messages ("Invalid input: expected number, received undefined") are for programs, not people.

export interface FieldProblem {
  /** The field's path, dotted; "(payload)" for the request as a whole. */
  field: string;
  message: string;
}

const KINDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'a set of fields',
  array: 'a list',
};

/** `payload` is what was refused: a field absent from it is missing, not of the wrong kind. */
export function fieldProblems(issues: readonly z.core.$ZodIssue[], payload: unknown): FieldProblem[] {
  return issues.map((issue) => {
    const field = issue.path.map(String).join('.') || '(payload)';
    return { field, message: sentence(issue, field, valueAt(payload, issue.path) === undefined) };
  });
}

function valueAt(payload: unknown, path: readonly PropertyKey[]): unknown {
  let value = payload;
  for (const step of path) value = typeof value === 'object' && value !== null ? (value as Record<PropertyKey, unknown>)[step] : undefined;
  return value;
}

function sentence(issue: z.core.$ZodIssue, field: string, absent: boolean): string {
  const name = field === '(payload)' ? 'The request' : `“${field}”`;
  switch (issue.code) {
    case 'invalid_type':
      return absent ? `${name} is missing.` : `${name} must be ${KINDS[issue.expected] ?? issue.expected}.`;
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return `${name} must not be empty.`;
      return `${name} must be ${issue.inclusive === false ? 'more than' : 'at least'} ${bound(issue.minimum, issue.origin)}.`;
    case 'too_big':
      return `${name} must be ${issue.inclusive === false ? 'less than' : 'at most'} ${bound(issue.maximum, issue.origin)}.`;
    case 'invalid_format':
      // a pattern of the contract's says in its message what the field must look like
      if (issue.format === 'regex') return ownWords(issue.message, field, issue.path.at(-1));
      return `${name} is not a valid ${issue.format === 'url' ? 'address' : issue.format}.`;
    case 'invalid_value':
      return `${name} must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}.`;
    case 'unrecognized_keys':
      return `${name} has ${issue.keys.length === 1 ? 'a field' : 'fields'} the app does not know: ${issue.keys.map((key) => `“${key}”`).join(', ')}.`;
    case 'custom':
      return ownWords(issue.message, field, issue.path.at(-1));
    default:
      return `${name} is not in a form the app reads (${clause(issue.message).toLowerCase()}).`;
  }
}

function bound(limit: number | bigint, origin: string): string {
  if (origin === 'string') return `${limit} characters long`;
  if (origin === 'array' || origin === 'set') return `${limit} items long`;
  return String(limit);
}

/** The contract's own refinements, most naming their field first ("endRow must be above startRow"): the field is always named. */
function ownWords(message: string, field: string, last: PropertyKey | undefined): string {
  // a rule that says its own sentence, in the words of the screen its fields are on
  if (/^\p{Lu}.*\.$/u.test(message)) return message;
  const said = clause(message);
  for (const name of [field, last === undefined ? '' : String(last)]) {
    if (name !== '' && said.startsWith(`${name} `)) return `“${field}”${said.slice(name.length)}.`;
  }
  if (field === '(payload)') return `${said.charAt(0).toUpperCase()}${said.slice(1)}.`;
  return `“${field}” is not valid: ${said.charAt(0).toLowerCase()}${said.slice(1)}.`;
}
