import type { z } from 'zod';
import { badRequest } from './http-error.ts';

/** The body checked against its schema; a refusal names every field that is wrong. */
export function validateBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.map(String).join('.') || 'body'}: ${issue.message}`);
  throw badRequest(`Invalid request body payload: ${problems.join('; ')}`);
}
