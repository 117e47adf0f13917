// A cell's JSON (a nested value, a json column) as a tree the viewer folds and searches. Numbers
// keep the digits they were written with: a uint256 inside a row is not rounded through a double.

export interface JsonNode {
  /** The member's name, or the element's position; null at the top. */
  key: string | null;
  type: 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';
  /** A scalar as JSON writes it (strings quoted); empty for objects and arrays. */
  text: string;
  children: JsonNode[];
}

type Reviver = (this: unknown, key: string, value: unknown, context?: { source?: string }) => unknown;

function isNode(value: unknown): value is JsonNode {
  return typeof value === 'object' && value !== null && NODE in value;
}

// Marks the nodes the reviver made, apart from the objects JSON.parse hands it.
const NODE = Symbol('json node');

// JSON.parse revives the leaves first: an object or array reaches the reviver with its members
// already made into nodes.
const toNode: Reviver = (_key, value, context) => {
  if (Array.isArray(value))
    return node(
      'array',
      '',
      value.map((child: JsonNode, i) => ({ ...child, key: String(i) })),
    );
  if (typeof value === 'object' && value !== null && !isNode(value)) {
    return node(
      'object',
      '',
      Object.entries(value as Record<string, JsonNode>).map(([key, child]) => ({ ...child, key })),
    );
  }
  if (typeof value === 'number') return node('number', context?.source ?? String(value), []);
  if (typeof value === 'string') return node('string', JSON.stringify(value), []);
  return node(value === null ? 'null' : 'boolean', String(value), []);
};

function node(type: JsonNode['type'], text: string, children: JsonNode[]): JsonNode {
  return { key: null, type, text, children, [NODE]: true } as JsonNode;
}

/** The tree of JSON text whose top is an object or an array; null for anything else. */
export function readJsonTree(text: string): JsonNode | null {
  if (!/^\s*[[{]/.test(text)) return null;
  try {
    const tree = JSON.parse(text, toNode as Parameters<typeof JSON.parse>[1]) as JsonNode;
    return { ...tree, key: null };
  } catch {
    return null;
  }
}

/** The tree written out again, indented by two spaces, every number as it was written. */
export function writeJson(tree: JsonNode, indent = ''): string {
  if (tree.type !== 'object' && tree.type !== 'array') return tree.text;
  const [open, close] = tree.type === 'object' ? ['{', '}'] : ['[', ']'];
  if (tree.children.length === 0) return `${open}${close}`;
  const inner = `${indent}  `;
  const members = tree.children.map(
    (child) => `${inner}${tree.type === 'object' ? `${JSON.stringify(child.key)}: ` : ''}${writeJson(child, inner)}`,
  );
  return `${open}\n${members.join(',\n')}\n${indent}${close}`;
}

export interface Segment {
  text: string;
  match: boolean;
}

/** The text cut where `query` occurs (case-insensitively), for marking the matches. */
export function segments(text: string, query: string): Segment[] {
  if (query === '') return [{ text, match: false }];
  const lower = text.toLowerCase();
  const needle = query.toLowerCase();
  const parts: Segment[] = [];
  let from = 0;
  for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + needle.length)) {
    if (at > from) parts.push({ text: text.slice(from, at), match: false });
    parts.push({ text: text.slice(at, at + needle.length), match: true });
    from = at + needle.length;
  }
  if (from < text.length) parts.push({ text: text.slice(from), match: false });
  return parts;
}

/** How many times `query` occurs in the text. */
export function countIn(text: string, query: string): number {
  return segments(text, query).filter((s) => s.match).length;
}

/** Matches in a node's name and value and in everything under it. */
export function countMatches(tree: JsonNode, query: string): number {
  if (query === '') return 0;
  const own = (tree.key === null ? 0 : countIn(tree.key, query)) + countIn(tree.text, query);
  return tree.children.reduce((sum, child) => sum + countMatches(child, query), own);
}
