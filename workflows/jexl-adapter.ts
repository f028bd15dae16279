// The only module that imports jexl (the lint fence refuses it anywhere else in workflows/).
// gobby relies on two things jexl 2.3 does not document: the parsed tree of a compiled
// expression (`_getAst()`), which the compiler walks to check every name at load time, and
// the lazy operands a manual-eval binary operator receives, which make `and` short-circuit.
// Both are confined here and turned into gobby's own types, and
// tests/unit/engine-jexl-adapter.test.ts fails, naming the installed jexl version, when an
// upgrade changes either.
import jexlModule, { type JexlAst } from 'jexl';

/**
 * The parts of an expression's tree the compiler checks, in gobby's terms: names, the
 * properties read from them by name (`effects.writes`, `effects['writes']`), and calls.
 * Everything else (literals, operators, indexes, filters over a list) is `other`, with the
 * sub-trees that may hold names or calls.
 */
export type ExpressionTree =
  | { readonly kind: 'name'; readonly name: string }
  | { readonly kind: 'property'; readonly of: ExpressionTree; readonly name: string }
  | { readonly kind: 'call'; readonly pool: 'function' | 'filter'; readonly name: string; readonly args: readonly ExpressionTree[] }
  | { readonly kind: 'other'; readonly children: readonly ExpressionTree[] };

export interface ParsedExpression {
  readonly tree: ExpressionTree;
  /** Evaluates synchronously against `context`; throws what the expression throws. */
  evaluate(context: object): unknown;
}

interface ExpressionLanguage {
  /** Throws on a syntax error, with jexl's message. */
  parse(source: string): ParsedExpression;
}

interface ExpressionLanguageSpec {
  readonly functions: Readonly<Record<string, (...args: never[]) => unknown>>;
  readonly filters: Readonly<Record<string, (value: never, ...args: never[]) => unknown>>;
  /** Operators that evaluate both sides; an existing operator of the same name is replaced. */
  readonly operators: readonly { readonly operator: string; readonly precedence: number; readonly apply: (left: never, right: never) => unknown }[];
  /**
   * Operators that evaluate the right side only when the left one does not decide:
   * `keepsLeft(left)` true returns `left` untouched, false returns the right side's value.
   */
  readonly shortCircuitOperators: readonly { readonly operator: string; readonly precedence: number; readonly keepsLeft: (left: unknown) => boolean }[];
}

// With manual evaluation jexl hands each operand over as a thunk whose eval() returns a
// promise; in evalSync it is jexl's synchronous promise, so chaining with then() stays sync.
interface LazyOperand {
  eval(): { then(onValue: (value: unknown) => unknown): unknown };
}

export function createExpressionLanguage(spec: ExpressionLanguageSpec): ExpressionLanguage {
  const jexl = new jexlModule.Jexl();
  for (const { operator, precedence, apply } of spec.operators) jexl.addBinaryOp(operator, precedence, apply);
  for (const { operator, precedence, keepsLeft } of spec.shortCircuitOperators) {
    jexl.addBinaryOp(
      operator,
      precedence,
      (left: LazyOperand, right: LazyOperand) => left.eval().then((value) => (keepsLeft(value) ? value : right.eval())),
      true,
    );
  }
  for (const [name, fn] of Object.entries(spec.functions)) jexl.addFunction(name, fn);
  for (const [name, fn] of Object.entries(spec.filters)) jexl.addTransform(name, fn);
  return {
    parse(source) {
      const compiled = jexl.compile(source);
      const ast = compiled._getAst();
      if (ast) foldLiteralArrays(ast);
      return { tree: toExpressionTree(ast), evaluate: (context) => compiled.evalSync(context) };
    },
  };
}

/**
 * Turns an array literal of literals (`['Edit', 'Write']`) into one literal holding the
 * frozen array. jexl evaluates every element of an array literal on every evaluation, each
 * through its synchronous promise; a rule like `tool in ['Edit', 'Write']` is evaluated on
 * every tool call, so this is the cheapest part of a decision to make cheaper. Nothing
 * gobby evaluates writes to an array, and the value is frozen so nothing can.
 */
function foldLiteralArrays(node: JexlAst): void {
  switch (node.type) {
    case 'ArrayLiteral': {
      const items = node.value as JexlAst[];
      items.forEach(foldLiteralArrays);
      if (items.every((item) => item.type === 'Literal')) {
        node.type = 'Literal';
        node.value = Object.freeze(items.map((item) => item.value));
      }
      return;
    }
    case 'ObjectLiteral':
      Object.values(node.value as Record<string, JexlAst>).forEach(foldLiteralArrays);
      return;
    case 'FunctionCall':
      ((node.args as JexlAst[] | undefined) ?? []).forEach(foldLiteralArrays);
      return;
    case 'Identifier':
      if (node.from) foldLiteralArrays(node.from as JexlAst);
      return;
    default:
      for (const key of CHILD_KEYS[node.type] ?? []) if (node[key]) foldLiteralArrays(node[key] as JexlAst);
  }
}

/** The node types jexl 2.3 produces, each with the keys that hold sub-trees. */
const CHILD_KEYS: Readonly<Record<string, readonly string[]>> = {
  Literal: [],
  UnaryExpression: ['right'],
  BinaryExpression: ['left', 'right'],
  ConditionalExpression: ['test', 'consequent', 'alternate'],
  FilterExpression: ['subject', 'expr'],
};

function toExpressionTree(node: JexlAst | undefined): ExpressionTree {
  // An empty expression has no tree.
  if (node === undefined) return { kind: 'other', children: [] };
  switch (node.type) {
    case 'Identifier':
      if (node.from) return { kind: 'property', of: toExpressionTree(node.from as JexlAst), name: String(node.value) };
      // A relative name (`list[.name == 'b']`) belongs to the filtered items, not the scope.
      if (node.relative) return { kind: 'other', children: [] };
      return { kind: 'name', name: String(node.value) };
    case 'FunctionCall':
      return {
        kind: 'call',
        pool: node.pool === 'transforms' ? 'filter' : 'function',
        name: String(node.name),
        args: ((node.args as JexlAst[] | undefined) ?? []).map(toExpressionTree),
      };
    case 'ArrayLiteral':
      return { kind: 'other', children: (node.value as JexlAst[]).map(toExpressionTree) };
    case 'ObjectLiteral':
      return { kind: 'other', children: Object.values(node.value as Record<string, JexlAst>).map(toExpressionTree) };
    case 'FilterExpression': {
      // `a['b']` reads property `b` as `a.b` does; any other filter is an index or a search.
      const expr = node.expr as JexlAst;
      if (!node.relative && expr.type === 'Literal' && typeof expr.value === 'string') {
        return { kind: 'property', of: toExpressionTree(node.subject as JexlAst), name: expr.value };
      }
      return { kind: 'other', children: [toExpressionTree(node.subject as JexlAst), toExpressionTree(expr)] };
    }
    default: {
      const keys = CHILD_KEYS[node.type];
      // A node this adapter does not know could hide a name from the load-time check;
      // refuse the expression rather than let a typo through as `false` at run time.
      if (!keys) throw new Error(`jexl produced a \`${node.type}\` node, which gobby's jexl adapter does not know`);
      return { kind: 'other', children: keys.flatMap((key) => (node[key] ? [toExpressionTree(node[key] as JexlAst)] : [])) };
    }
  }
}
