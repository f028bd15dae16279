// One wording for zod's validation issues, for every boundary that validates with zod
// (workflow files, hook payloads, control-API bodies). Pure, so the engine may use it too.
import type { z } from 'zod';

/**
 * `where: what`, where `where` is the dotted path of the bad field, or `whole` (e.g.
 * "(body)", "the file") when the issue is about the value itself. Unknown keys are named.
 */
export function describeZodIssue(issue: z.core.$ZodIssue, whole: string): string {
  const where = issue.path.length > 0 ? issue.path.map(String).join('.') : whole;
  if (issue.code === 'unrecognized_keys') {
    return `${where}: unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `\`${key}\``).join(', ')}`;
  }
  return `${where}: ${issue.message}`;
}

/** The first `limit` issues, described and joined by "; ". */
export function describeZodIssues(issues: readonly z.core.$ZodIssue[], whole: string, limit = issues.length): string {
  return issues
    .slice(0, limit)
    .map((issue) => describeZodIssue(issue, whole))
    .join('; ');
}

/** The parts of zod's schema definitions the key walk below reads. */
interface SchemaDef {
  readonly type: string;
  readonly shape?: Record<string, SchemaNode>;
  readonly element?: SchemaNode;
  readonly innerType?: SchemaNode;
  readonly valueType?: SchemaNode;
  readonly options?: readonly SchemaNode[];
  readonly discriminator?: string;
}
interface SchemaNode {
  readonly _zod: { readonly def: SchemaDef };
}

/**
 * The keys the object at `path` may have, found by walking `schema` along the value that was
 * validated (so a discriminated union picks the option the value chose). Empty when the
 * path leads to no object schema. What "did you mean" picks from for an unknown key.
 */
export function objectKeysAt(schema: z.ZodType, value: unknown, path: readonly PropertyKey[]): string[] {
  let node = unwrap(schema as unknown as SchemaNode, value);
  let current: unknown = value;
  for (const key of path) {
    const def = node._zod.def;
    current = (current as Record<PropertyKey, unknown> | null | undefined)?.[key];
    let next: SchemaNode | undefined;
    if (def.type === 'object') next = def.shape?.[String(key)];
    else if (def.type === 'array') next = def.element;
    else if (def.type === 'record') next = def.valueType;
    if (!next) return [];
    node = unwrap(next, current);
  }
  return node._zod.def.type === 'object' ? Object.keys(node._zod.def.shape ?? {}) : [];
}

/** Through defaults, optionals and unions, to the schema that `value` was checked against. */
function unwrap(node: SchemaNode, value: unknown): SchemaNode {
  let def = node._zod.def;
  while (def.innerType && ['default', 'optional', 'nullable', 'prefault', 'readonly'].includes(def.type)) {
    node = def.innerType;
    def = node._zod.def;
  }
  if (def.type !== 'union' || !def.options) return node;
  const options = def.options.map((option) => unwrap(option, value));
  const discriminator = def.discriminator;
  const chosen = discriminator
    ? options.find((option) => {
        const literal = option._zod.def.shape?.[discriminator]?._zod.def as { values?: readonly unknown[] } | undefined;
        return literal?.values?.includes((value as Record<string, unknown> | null | undefined)?.[discriminator]);
      })
    : options.find((option) => option._zod.def.type === 'object');
  return chosen ?? node;
}
