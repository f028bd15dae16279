// Conditions in workflow files are jexl expressions, extended so that the expressions
// written in the seed documents mean what their authors meant (design §3.5):
//   `and` / `or` / `not` / `not in`, `user_says('done')`, `command_contains('rm -rf')`,
//   `x | length`, `a.includes('b')`.
// Expressions are compiled once, when a definition loads; every name they use is checked
// then, so a typo fails loudly at load time instead of silently evaluating to false.
import { createExpressionLanguage, type ExpressionTree, type ParsedExpression } from './jexl-adapter.js';
import { didYouMean } from './nearest-name.js';

/**
 * The name under which the evaluation context carries the facts of the current event that
 * the built-in functions read. `user_says(…)` and `command_contains(…)` are rewritten at
 * compile time to take it as their first argument, so they read their inputs from the
 * scope like everything else, and the module holds no state between evaluations.
 * Authors cannot write it: the compiler reports it as an unknown name anywhere else, and
 * refuses a variable of that name.
 */
export const EVENT_FACTS_NAME = '$event';

/** Facts about the current event that the built-in functions read. */
export interface EventFacts {
  readonly prompt?: string | undefined;
  readonly command?: string | undefined;
}

/** What an expression can see while it is evaluated. */
export interface ExpressionScope {
  /**
   * Top-level names (phase, variables, tool, …), and the event's facts under
   * EVENT_FACTS_NAME. A missing property reads as undefined.
   */
  readonly values: Readonly<Record<string, unknown>>;
}

export interface CompiledExpressionHandle {
  readonly source: string;
  evaluate(scope: ExpressionScope): unknown;
}

/**
 * What the compiler knows of a value's properties: `open` values (strings, lists, a tool's
 * input, a variable's value) may be read any way; a record gobby builds (`effects`,
 * `tool_result`, `variables`) has a fixed set of fields, so `effects.wrtes` is a load error
 * instead of a condition that is silently never met.
 */
export type NameShape = 'open' | { readonly fields: ReadonlyMap<string, NameShape> };

/** The top-level names an expression may read, each with its shape. */
export type KnownNames = ReadonlyMap<string, NameShape>;

/** Names whose values may be read any way. */
export function openNames(names: Iterable<string>): KnownNames {
  return new Map([...names].map((name) => [name, 'open' as const]));
}

/** A record shape whose listed fields are `open` unless given a shape of their own. */
export function recordShape(fields: Iterable<string>, nested: Readonly<Record<string, NameShape>> = {}): NameShape {
  return { fields: new Map([...fields].map((field) => [field, nested[field] ?? 'open'])) };
}

type CompileExpressionResult =
  | { ok: true; expression: CompiledExpressionHandle }
  | { ok: false; message: string };

const NOT_IN_OPERATOR = '∉';

function isMember(item: unknown, collection: unknown): boolean {
  if (typeof collection === 'string') return typeof item === 'string' && collection.includes(item);
  if (Array.isArray(collection)) return collection.includes(item);
  if (collection && typeof collection === 'object') return typeof item === 'string' && Object.hasOwn(collection, item);
  return false;
}

function factsOf(value: unknown): EventFacts {
  return value && typeof value === 'object' ? (value as EventFacts) : {};
}

const FUNCTIONS: Record<string, (facts: unknown, ...args: unknown[]) => unknown> = {
  /** True when the user's prompt contains any of the words (whole words, any case). */
  user_says: (facts, ...words) => {
    const prompt = factsOf(facts).prompt;
    if (!prompt) return false;
    return words.some((word) => typeof word === 'string' && containsWord(prompt, word));
  },
  /** True when the Bash command being run contains the text. */
  command_contains: (facts, ...fragments) => {
    const command = factsOf(facts).command;
    if (!command) return false;
    return fragments.some((fragment) => typeof fragment === 'string' && command.includes(fragment));
  },
};

const TRANSFORMS: Record<string, (value: unknown, ...args: unknown[]) => unknown> = {
  length: (value) => {
    if (typeof value === 'string' || Array.isArray(value)) return value.length;
    if (value && typeof value === 'object') return Object.keys(value).length;
    return 0;
  },
  includes: (value, item) => isMember(item, value),
  startsWith: (value, prefix) => typeof value === 'string' && typeof prefix === 'string' && value.startsWith(prefix),
  endsWith: (value, suffix) => typeof value === 'string' && typeof suffix === 'string' && value.endsWith(suffix),
  lower: (value) => (typeof value === 'string' ? value.toLowerCase() : value),
  upper: (value) => (typeof value === 'string' ? value.toUpperCase() : value),
  trim: (value) => (typeof value === 'string' ? value.trim() : value),
  join: (value, separator) => (Array.isArray(value) ? value.join(typeof separator === 'string' ? separator : ', ') : value),
};

const language = createExpressionLanguage({
  functions: FUNCTIONS,
  filters: TRANSFORMS,
  operators: [
    // jexl's own `in` ignores object keys; `in` and `not in` must agree on every collection.
    { operator: 'in', precedence: 20, apply: (left: unknown, right: unknown) => isMember(left, right) },
    { operator: NOT_IN_OPERATOR, precedence: 20, apply: (left: unknown, right: unknown) => !isMember(left, right) },
  ],
  // Python reads `a or b and c` as `a or (b and c)`; jexl gives && and || equal
  // precedence. Raise && so that the seed's expressions group the way they read, and keep
  // it lazy: a false left side decides on its own.
  shortCircuitOperators: [{ operator: '&&', precedence: 12, keepsLeft: (left) => !left }],
});

/** Method-call spellings (`a.includes('b')`) that are rewritten to the transform of that name. */
const METHOD_TRANSFORMS = new Set(['includes', 'startsWith', 'endsWith', 'lower', 'upper', 'trim', 'join']);

export function containsWord(text: string, word: string): boolean {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\p{L}\\p{N}_])${escaped}($|[^\\p{L}\\p{N}_])`, 'iu').test(text);
}

/**
 * Compiles a condition or template expression. `knownNames` are the top-level names the
 * expression may read; anything else is reported as unknown.
 */
export function compileExpression(source: string, knownNames: KnownNames): CompileExpressionResult {
  let parsed: ParsedExpression;
  const unbalanced = findUnbalancedBracket(source);
  if (unbalanced) return { ok: false, message: `syntax error in expression \`${source}\`: ${unbalanced}` };
  try {
    parsed = language.parse(rewriteSeedSyntax(source));
  } catch (error) {
    return { ok: false, message: `syntax error in expression \`${source}\`: ${(error as Error).message}` };
  }
  const problems = findUnknownNames(parsed.tree, knownNames);
  if (problems.length > 0) {
    return { ok: false, message: `${problems.join('; ')} in expression \`${source}\`` };
  }
  return {
    ok: true,
    expression: {
      source,
      evaluate(scope) {
        try {
          return parsed.evaluate(scope.values);
        } catch {
          // A runtime type error (a property of a number, say) reads as "no value":
          // a condition that cannot be evaluated is not met, and a template shows nothing.
          return undefined;
        }
      },
    },
  };
}

/**
 * Rewrites the Python-flavoured words of the seed documents into jexl operators,
 * leaving string literals and property names (`a.not`) alone. `not` applies, as in
 * Python, to the whole comparison that follows it (`not phase == 'plan'` is
 * `!(phase == 'plan')`), up to the next `and`/`or` or closing bracket. A call of a
 * function that reads the event gets the event's facts as its first argument
 * (`user_says('done')` is `user_says($event, 'done')`).
 */
export function rewriteSeedSyntax(source: string): string {
  const tokens = source.match(/'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"|[A-Za-z_$][\w$]*|\s+|./gsu) ?? [];
  const out: string[] = [];
  let depth = 0;
  const openNots: number[] = []; // bracket depth at which each `!(` was opened
  const closeNotsAt = (level: number): void => {
    while (openNots.length > 0 && openNots[openNots.length - 1] === level) {
      openNots.pop();
      out.push(')');
    }
  };
  const previousSignificant = (): string | undefined => {
    for (let i = out.length - 1; i >= 0; i--) if (!/^\s+$/.test(out[i]!)) return out[i];
    return undefined;
  };
  const nextSignificantIndex = (from: number): number => {
    let i = from;
    while (i < tokens.length && /^\s+$/.test(tokens[i]!)) i++;
    return i;
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const previous = previousSignificant();
    if (previous === '.') {
      const next = tokens[nextSignificantIndex(i + 1)];
      if (METHOD_TRANSFORMS.has(token) && next === '(') replaceLastSignificant(out, '|');
      out.push(token);
      continue;
    }
    const open = nextSignificantIndex(i + 1);
    if (Object.hasOwn(FUNCTIONS, token) && previous !== '|' && tokens[open] === '(') {
      depth++;
      out.push(token, '(', tokens[nextSignificantIndex(open + 1)] === ')' ? EVENT_FACTS_NAME : `${EVENT_FACTS_NAME}, `);
      i = open;
      continue;
    }
    if (token === '(' || token === '[' || token === '{') {
      depth++;
      out.push(token);
    } else if (token === ')' || token === ']' || token === '}') {
      closeNotsAt(depth);
      depth--;
      out.push(token);
    } else if (token === 'and' || token === 'or' || token === '?' || token === ':' || token === ',') {
      closeNotsAt(depth);
      out.push(token === 'and' ? '&&' : token === 'or' ? '||' : token);
    } else if (token === 'not') {
      const nextIndex = nextSignificantIndex(i + 1);
      if (tokens[nextIndex] === 'in') {
        out.push(NOT_IN_OPERATOR);
        i = nextIndex;
      } else {
        out.push('!(');
        openNots.push(depth);
      }
    } else out.push(token);
  }
  while (openNots.length > 0) {
    openNots.pop();
    out.push(')');
  }
  return out.join('');
}

/** jexl accepts `(a or b` silently; an author's missing bracket must be an error. */
function findUnbalancedBracket(source: string): string | null {
  const pairs: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
  const stack: string[] = [];
  const withoutStrings = source.replace(/'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"/g, '""');
  for (const char of withoutStrings) {
    if (char === '(' || char === '[' || char === '{') stack.push(char);
    else if (char in pairs) {
      if (stack.pop() !== pairs[char]) return `unexpected \`${char}\``;
    }
  }
  return stack.length > 0 ? `\`${stack[stack.length - 1]}\` is never closed` : null;
}

function replaceLastSignificant(out: string[], replacement: string): void {
  for (let i = out.length - 1; i >= 0; i--) {
    if (!/^\s+$/.test(out[i]!)) {
      out[i] = replacement;
      return;
    }
  }
}

function findUnknownNames(tree: ExpressionTree, knownNames: KnownNames): string[] {
  const problems = new Set<string>();
  // The shape of the value a name or property path reads, and the path as written; an
  // unknown step is reported once, and what lies past it is not checked again.
  const shapeOf = (node: ExpressionTree): { shape: NameShape; path: string } => {
    switch (node.kind) {
      case 'name': {
        const shape = knownNames.get(node.name);
        if (shape === undefined) {
          // A one- or two-letter name (a loop's `f`) is too short for a suggestion to mean anything.
          const hint = node.name.length > 2 ? didYouMean(node.name, [...knownNames.keys()]) : '';
          problems.add(`unknown name \`${node.name}\`${hint}`);
          return { shape: 'open', path: node.name };
        }
        return { shape, path: node.name };
      }
      case 'property': {
        const parent = shapeOf(node.of);
        const path = `${parent.path}.${node.name}`;
        if (parent.shape === 'open') return { shape: 'open', path };
        const shape = parent.shape.fields.get(node.name);
        if (shape !== undefined) return { shape, path };
        const fields = [...parent.shape.fields.keys()];
        const known = fields.length > 0 ? `; it has ${fields.map((field) => `\`${field}\``).join(', ')}` : '; it has none';
        problems.add(`unknown property \`${node.name}\` of \`${parent.path}\`${didYouMean(node.name, fields)}${known}`);
        return { shape: 'open', path };
      }
      default:
        visit(node);
        return { shape: 'open', path: '(value)' };
    }
  };
  const visit = (node: ExpressionTree): void => {
    switch (node.kind) {
      case 'name':
      case 'property':
        shapeOf(node);
        return;
      case 'call': {
        const pool = node.pool === 'filter' ? TRANSFORMS : FUNCTIONS;
        if (!Object.hasOwn(pool, node.name)) problems.add(`unknown ${node.pool} \`${node.name}\``);
        // The event facts rewriteSeedSyntax passed in are gobby's, not a name the author wrote.
        const first = node.args[0];
        const passedFacts = node.pool === 'function' && first?.kind === 'name' && first.name === EVENT_FACTS_NAME;
        for (const arg of passedFacts ? node.args.slice(1) : node.args) visit(arg);
        return;
      }
      case 'other':
        for (const child of node.children) visit(child);
    }
  };
  visit(tree);
  return [...problems];
}
