// Message templates: `{{ expression }}`, `{% if expr %}…{% else %}…{% endif %}` and
// `{% for item in expr %}…{% endfor %}`. Every expression is a jexl expression compiled
// by expressions.ts, so a template can read values and call the registered filters but
// can never run code in the daemon (design §3.6).
import { compileExpression, recordShape, type CompiledExpressionHandle, type ExpressionScope, type KnownNames } from './expressions.js';

type TemplateNode =
  | { kind: 'text'; text: string }
  | { kind: 'value'; expression: CompiledExpressionHandle }
  | { kind: 'if'; test: CompiledExpressionHandle; then: TemplateNode[]; otherwise: TemplateNode[] }
  | { kind: 'for'; item: string; list: CompiledExpressionHandle; body: TemplateNode[] };

export interface CompiledTemplate {
  readonly source: string;
  render(scope: ExpressionScope): string;
}

type CompileTemplateResult = { ok: true; template: CompiledTemplate } | { ok: false; message: string };

/** What `loop` holds inside `{% for %}` (see renderNodes). */
const LOOP_SHAPE = recordShape(['index', 'index0']);

const TAG = /\{\{([\s\S]*?)\}\}|\{%([\s\S]*?)%\}/g;

export function compileTemplate(source: string, knownNames: KnownNames): CompileTemplateResult {
  try {
    const nodes = parseTemplate(source, knownNames);
    return {
      ok: true,
      template: { source, render: (scope) => renderWithinBudget(nodes, scope) },
    };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}

interface OpenBlock {
  node: Extract<TemplateNode, { kind: 'if' | 'for' }>;
  inElse: boolean;
  names: KnownNames;
}

function parseTemplate(source: string, knownNames: KnownNames): TemplateNode[] {
  const root: TemplateNode[] = [];
  const stack: OpenBlock[] = [];
  const target = (): TemplateNode[] => {
    const top = stack[stack.length - 1];
    if (!top) return root;
    if (top.node.kind === 'if') return top.inElse ? top.node.otherwise : top.node.then;
    return top.node.body;
  };
  const names = (): KnownNames => stack[stack.length - 1]?.names ?? knownNames;
  const compile = (expression: string): CompiledExpressionHandle => {
    const result = compileExpression(expression.trim(), names());
    if (!result.ok) throw new Error(result.message);
    return result.expression;
  };

  let last = 0;
  for (const match of source.matchAll(TAG)) {
    if (match.index > last) target().push({ kind: 'text', text: source.slice(last, match.index) });
    last = match.index + match[0].length;
    if (match[1] !== undefined) {
      target().push({ kind: 'value', expression: compile(match[1]) });
      continue;
    }
    const statement = (match[2] ?? '').trim();
    const forMatch = /^for\s+([A-Za-z_]\w*)\s+in\s+([\s\S]+)$/.exec(statement);
    const ifMatch = /^if\s+([\s\S]+)$/.exec(statement);
    if (forMatch) {
      const node: TemplateNode = { kind: 'for', item: forMatch[1]!, list: compile(forMatch[2]!), body: [] };
      target().push(node);
      stack.push({ node, inElse: false, names: new Map([...names(), [forMatch[1]!, 'open'], ['loop', LOOP_SHAPE]]) });
    } else if (ifMatch) {
      const node: TemplateNode = { kind: 'if', test: compile(ifMatch[1]!), then: [], otherwise: [] };
      target().push(node);
      stack.push({ node, inElse: false, names: names() });
    } else if (statement === 'else') {
      const top = stack[stack.length - 1];
      if (!top || top.node.kind !== 'if' || top.inElse) throw new Error('`{% else %}` without an open `{% if %}`');
      top.inElse = true;
    } else if (statement === 'endif' || statement === 'endfor') {
      const top = stack.pop();
      const expected = statement === 'endif' ? 'if' : 'for';
      if (!top || top.node.kind !== expected) throw new Error(`\`{% ${statement} %}\` without an open \`{% ${expected} %}\``);
    } else {
      throw new Error(`unknown template statement \`{% ${statement} %}\` (known: if, else, endif, for, endfor)`);
    }
  }
  const unclosed = stack[stack.length - 1];
  if (unclosed) throw new Error(`\`{% ${unclosed.node.kind} %}\` is never closed with \`{% end${unclosed.node.kind} %}\``);
  if (last < source.length) target().push({ kind: 'text', text: source.slice(last) });
  return root;
}

/**
 * What one rendering may cost: templates render inside a hook request, on the daemon's only
 * thread, so nested loops over a long list (200 × 200 × 200 items) must not stall every session
 * nor fill the audit log. Far above what a message a model reads needs.
 */
const MAX_TEMPLATE_STEPS = 20_000;
const MAX_TEMPLATE_OUTPUT = 32 * 1024;

class TemplateBudgetExceeded extends Error {}

interface RenderBudget {
  steps: number;
  output: number;
}

function renderWithinBudget(nodes: readonly TemplateNode[], scope: ExpressionScope): string {
  try {
    return renderNodes(nodes, scope, { steps: 0, output: 0 }).trimEnd();
  } catch (error) {
    if (!(error instanceof TemplateBudgetExceeded)) throw error;
    return `(gobby: this text was not rendered: its template takes more than ${MAX_TEMPLATE_STEPS} steps or ${MAX_TEMPLATE_OUTPUT / 1024} KB of text, likely loops over long lists. The workflow's author should shorten it.)`;
  }
}

function spend(budget: RenderBudget, characters: number): void {
  budget.steps++;
  budget.output += characters;
  if (budget.steps > MAX_TEMPLATE_STEPS || budget.output > MAX_TEMPLATE_OUTPUT) throw new TemplateBudgetExceeded();
}

function renderNodes(nodes: readonly TemplateNode[], scope: ExpressionScope, budget: RenderBudget): string {
  let out = '';
  for (const node of nodes) {
    switch (node.kind) {
      case 'text':
        spend(budget, node.text.length);
        out += node.text;
        break;
      case 'value': {
        const text = formatValue(node.expression.evaluate(scope));
        spend(budget, text.length);
        out += text;
        break;
      }
      case 'if':
        spend(budget, 0);
        out += renderNodes(node.test.evaluate(scope) ? node.then : node.otherwise, scope, budget);
        break;
      case 'for': {
        const list = node.list.evaluate(scope);
        if (!Array.isArray(list)) break;
        for (const [index, item] of list.entries()) {
          spend(budget, 0);
          const values = { ...scope.values, [node.item]: item, loop: { index: index + 1, index0: index } };
          // A block tag on a line of its own leaves that line's newline behind; drop the
          // first one so a `{% for %}` list does not open with a blank line.
          out += renderNodes(node.body, { ...scope, values }, budget).replace(/^\n/, '');
        }
        break;
      }
    }
  }
  return out;
}

function formatValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
