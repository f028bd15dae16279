// Conditions in workflow files are jexl expressions, extended so that the expressions
// written in the seed documents mean what their authors meant (design §3.5):
//   `and` / `or` / `not` / `not in`, `user_says('done')`, `command_contains('rm -rf')`,
//   `x | length`, `a.includes('b')`.
// Expressions are compiled once, when a definition loads; every name they use is checked
// then, so a typo fails loudly at load time instead of silently evaluating to false.
import jexlModule, { type CompiledExpression, type JexlAst } from 'jexl';

/** What an expression can see while it is evaluated. */
export interface ExpressionScope {
  /** Top-level names (phase, variables, tool, …). A missing property reads as undefined. */
  readonly values: Readonly<Record<string, unknown>>;
  /** Facts about the current event that the built-in functions read. */
  readonly event: {
    readonly prompt?: string | undefined;
    readonly command?: string | undefined;
  };
}

export interface CompiledExpressionHandle {
  readonly source: string;
  evaluate(scope: ExpressionScope): unknown;
}

export type CompileExpressionResult =
  | { ok: true; expression: CompiledExpressionHandle }
  | { ok: false; message: string };

const NOT_IN_OPERATOR = '∉';

// jexl functions receive only their arguments, so the functions that read the current
// event find it here. Evaluation is synchronous and single-threaded, so the slot is set
// and cleared around each evaluation and never seen by another one.
let currentEvent: ExpressionScope['event'] = {};

const jexl = new jexlModule.Jexl();

// Python reads `a or b and c` as `a or (b and c)`; jexl gives && and || equal
// precedence. Raise && so that the seed's expressions group the way they read.
// With manual evaluation jexl hands over thunks whose eval() returns its (sync) promise.
interface LazyOperand {
  eval(): { then(onValue: (value: unknown) => unknown): unknown };
}
jexl.addBinaryOp(
  '&&',
  12,
  (left: LazyOperand, right: LazyOperand) => left.eval().then((value) => (value ? right.eval() : value)),
  true,
);
// jexl's own `in` ignores object keys; `in` and `not in` must agree on every collection.
jexl.addBinaryOp('in', 20, (left: unknown, right: unknown) => isMember(left, right));
jexl.addBinaryOp(NOT_IN_OPERATOR, 20, (left: unknown, right: unknown) => !isMember(left, right));

function isMember(item: unknown, collection: unknown): boolean {
  if (typeof collection === 'string') return typeof item === 'string' && collection.includes(item);
  if (Array.isArray(collection)) return collection.includes(item);
  if (collection && typeof collection === 'object') return typeof item === 'string' && Object.hasOwn(collection, item);
  return false;
}

const FUNCTIONS: Record<string, (...args: unknown[]) => unknown> = {
  /** True when the user's prompt contains any of the words (whole words, any case). */
  user_says: (...words: unknown[]) => {
    const prompt = currentEvent.prompt;
    if (!prompt) return false;
    return words.some((word) => typeof word === 'string' && containsWord(prompt, word));
  },
  /** True when the Bash command being run contains the text. */
  command_contains: (...fragments: unknown[]) => {
    const command = currentEvent.command;
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

for (const [name, fn] of Object.entries(FUNCTIONS)) jexl.addFunction(name, fn);
for (const [name, fn] of Object.entries(TRANSFORMS)) jexl.addTransform(name, fn);

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
export function compileExpression(source: string, knownNames: ReadonlySet<string>): CompileExpressionResult {
  let compiled: CompiledExpression;
  const unbalanced = findUnbalancedBracket(source);
  if (unbalanced) return { ok: false, message: `syntax error in expression \`${source}\`: ${unbalanced}` };
  try {
    compiled = jexl.compile(rewriteSeedSyntax(source));
  } catch (error) {
    return { ok: false, message: `syntax error in expression \`${source}\`: ${(error as Error).message}` };
  }
  const problems = findUnknownNames(compiled._getAst(), knownNames);
  if (problems.length > 0) {
    return { ok: false, message: `${problems.join('; ')} in expression \`${source}\`` };
  }
  return {
    ok: true,
    expression: {
      source,
      evaluate(scope) {
        currentEvent = scope.event;
        try {
          return compiled.evalSync(scope.values);
        } catch {
          // A runtime type error (a property of a number, say) reads as "no value":
          // a condition that cannot be evaluated is not met, and a template shows nothing.
          return undefined;
        } finally {
          currentEvent = {};
        }
      },
    },
  };
}

/**
 * Rewrites the Python-flavoured words of the seed documents into jexl operators,
 * leaving string literals and property names (`a.not`) alone. `not` applies, as in
 * Python, to the whole comparison that follows it (`not phase == 'plan'` is
 * `!(phase == 'plan')`), up to the next `and`/`or` or closing bracket.
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
    if (previousSignificant() === '.') {
      const next = tokens[nextSignificantIndex(i + 1)];
      if (METHOD_TRANSFORMS.has(token) && next === '(') replaceLastSignificant(out, '|');
      out.push(token);
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

function findUnknownNames(ast: JexlAst | undefined, knownNames: ReadonlySet<string>): string[] {
  const problems = new Set<string>();
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const n = node as JexlAst;
    switch (n.type) {
      case 'Identifier':
        if (n.from) visit(n.from);
        else if (!n.relative && !knownNames.has(String(n.value))) problems.add(`unknown name \`${String(n.value)}\``);
        return;
      case 'FunctionCall': {
        const pool = n.pool === 'transforms' ? TRANSFORMS : FUNCTIONS;
        const name = String(n.name);
        if (!Object.hasOwn(pool, name)) {
          problems.add(`unknown ${n.pool === 'transforms' ? 'filter' : 'function'} \`${name}\``);
        }
        for (const arg of (n.args as unknown[] | undefined) ?? []) visit(arg);
        return;
      }
      case 'FilterExpression':
        visit(n.subject);
        visit(n.expr);
        return;
      case 'ArrayLiteral':
        for (const item of n.value as unknown[]) visit(item);
        return;
      case 'ObjectLiteral':
        for (const value of Object.values(n.value as Record<string, unknown>)) visit(value);
        return;
      default:
        for (const key of ['left', 'right', 'test', 'consequent', 'alternate']) visit(n[key]);
    }
  };
  visit(ast);
  return [...problems];
}

export const EXPRESSION_FUNCTIONS: readonly string[] = Object.keys(FUNCTIONS);
export const EXPRESSION_FILTERS: readonly string[] = Object.keys(TRANSFORMS);
