import { z } from 'zod';
import { valueProblem } from './parameter-check.ts';
import { PARAMETER_TYPES, type ParameterDefinition } from './query-store.ts';

// Request bodies of query creation and update (notes §7.2, §7.3). Parameter values arrive as
// strings from the SDKs; numbers are accepted and kept as their text, as the service stores text.

const TYPE_ALIASES: Record<string, (typeof PARAMETER_TYPES)[number]> = { date: 'datetime', list: 'enum' };

const parameterType = z
  .string()
  .transform((t) => TYPE_ALIASES[t] ?? t)
  .pipe(z.enum(PARAMETER_TYPES, { message: `type must be one of ${PARAMETER_TYPES.join(', ')}` }));

// zod leaves out the optional keys not given, so a record reads back as it was sent
const parameter = z
  .object({
    key: z.string().min(1),
    type: parameterType,
    value: z.union([z.string(), z.number()]).transform(String),
    description: z.string().optional(),
    enumOptions: z.array(z.string()).optional(),
    isMultiselect: z.boolean().optional(),
    isFreeformAllowed: z.boolean().optional(),
    enumFromResults: z.object({ queryId: z.number().int().positive(), columnName: z.string().min(1) }).optional(),
    values: z.array(z.string()).optional(),
  })
  .superRefine((definition, context) => {
    const problem = valueProblem(definition, definition.value);
    if (problem) context.addIssue({ code: 'custom', path: ['value'], message: `the default of parameter ${definition.key} ${problem}` });
  }) satisfies z.ZodType<ParameterDefinition>;

const parameters = z.array(parameter).refine((list) => new Set(list.map((p) => p.key)).size === list.length, {
  message: 'parameter keys must be unique',
});

const tags = z.array(z.string());

export const CreateQueryBody = z.object({
  name: z.string().trim().min(1, 'name must not be empty').max(500),
  query_sql: z.string(),
  description: z.string().default(''),
  parameters: parameters.default([]),
  tags: tags.default([]),
  is_private: z.boolean().default(false),
});

export const UpdateQueryBody = z.object({
  name: z.string().trim().min(1, 'name must not be empty').max(500).optional(),
  query_sql: z.string().optional(),
  description: z.string().optional(),
  parameters: parameters.optional(),
  tags: tags.optional(),
  is_private: z.boolean().optional(),
  is_archived: z.boolean().optional(),
});
