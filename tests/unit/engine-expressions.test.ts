// Conditions: the seed's Python-flavoured expressions (`and`, `or`, `not`, `not in`,
// `user_says()`, `x | length`, `a.includes('b')`) compiled onto jexl. Tables of
// "expression + scope in → value out".
import { describe, expect, it } from 'vitest';
import { compileExpression, containsWord, EVENT_FACTS_NAME, openNames, recordShape, rewriteSeedSyntax, type EventFacts } from '../../workflows/expressions.js';

const NAMES = openNames(['a', 'b', 'c', 'phase', 'tool', 'list', 'text', 'items', 'obj', 'n', 'android', 'notes', 'order', 'tool_result', 'variables']);

/** `event` is what buildScope (evaluate.ts) passes to the built-in functions. */
function evaluate(source: string, values: Record<string, unknown> = {}, event: EventFacts = {}): unknown {
  const result = compileExpression(source, NAMES);
  if (!result.ok) throw new Error(result.message);
  return result.expression.evaluate({ values: { ...values, [EVENT_FACTS_NAME]: event } });
}

function compileError(source: string): string {
  const result = compileExpression(source, NAMES);
  if (result.ok) throw new Error(`expected \`${source}\` not to compile`);
  return result.message;
}

const bools = [true, false] as const;
const triples = bools.flatMap((a) => bools.flatMap((b) => bools.map((c) => [a, b, c] as const)));

describe('and / or / not', () => {
  it.each(bools.flatMap((a) => bools.map((b) => [a, b] as const)))('%s and %s', (a, b) => {
    expect(Boolean(evaluate('a and b', { a, b }))).toBe(a && b);
  });

  it.each(bools.flatMap((a) => bools.map((b) => [a, b] as const)))('%s or %s', (a, b) => {
    expect(Boolean(evaluate('a or b', { a, b }))).toBe(a || b);
  });

  // `a or b and c` reads as `a or (b and c)`, as in Python.
  it.each(triples)('a or b and c with a=%s b=%s c=%s', (a, b, c) => {
    expect(Boolean(evaluate('a or b and c', { a, b, c }))).toBe(a || (b && c));
  });

  it.each(triples)('a and b or c with a=%s b=%s c=%s', (a, b, c) => {
    expect(Boolean(evaluate('a and b or c', { a, b, c }))).toBe((a && b) || c);
  });

  // `and` is gobby's own operator (jexl's `&&` is replaced to raise its precedence); a false
  // left side must decide on its own, or `tool == 'Edit' and file.endsWith('.lock')` would
  // fire for any tool touching a .lock file.
  it.each([
    ['false and true', {}],
    ['a and b', { a: false, b: true }],
    ['a and b', { a: 0, b: 'x' }],
    ["tool == 'Edit' and text.endsWith('.lock')", { tool: 'Write', text: 'yarn.lock' }],
  ])('a false left side decides: %s with %j is false', (source, values) => {
    expect(evaluate(source, values)).toBeFalsy();
  });

  it("`and` returns the first falsy value, or else the last, as in Python", () => {
    expect(evaluate('a and b', { a: 0, b: 'x' })).toBe(0);
    expect(evaluate('a and b', { a: '', b: 'x' })).toBe('');
    expect(evaluate('a and b', { a: 1, b: 'x' })).toBe('x');
    expect(evaluate("tool == 'Edit' and text.endsWith('.lock')", { tool: 'Edit', text: 'yarn.lock' })).toBe(true);
  });

  it('`or` returns the first truthy value, as in Python', () => {
    expect(evaluate('a or b', { a: 0, b: 'fallback' })).toBe('fallback');
    expect(evaluate('a or b', { a: 'first', b: 'fallback' })).toBe('first');
  });

  it('`or` does not evaluate its right side when the left holds', () => {
    expect(evaluate("a or user_says('x')", { a: true })).toBe(true);
  });

  it.each([
    ['not a', { a: true }, false],
    ['not a', { a: false }, true],
    ['not a', {}, true],
    ['not not a', { a: 'x' }, true],
    ['not (a or b)', { a: false, b: true }, false],
    ['(not a) or b', { a: true, b: false }, false],
    ['not a or b', { a: true, b: true }, true],
    ['not a or b', { a: true, b: false }, false], // `not` stops at `or`
    ['not list', { list: [] }, false], // an empty list is truthy, as in JavaScript (not Python)
    ["not ''", {}, true],
  ] as const)('%s with %j → %s', (source, values, expected) => {
    expect(evaluate(source, values)).toBe(expected);
  });

  // As in Python (and the seed), `not` applies to the whole comparison after it:
  // `not x == y` is `not (x == y)`, up to the next and/or, closing bracket, `?`, `:` or `,`.
  it.each([
    ["not phase == 'execute'", { phase: 'plan' }, true],
    ["not phase == 'execute'", { phase: 'execute' }, false],
    ["not tool in ['Read', 'Grep']", { tool: 'Write' }, true],
    ["not tool in ['Read', 'Grep']", { tool: 'Read' }, false],
    ['not n > 3', { n: 1 }, true],
    ['not n > 3', { n: 5 }, false],
    ["not phase == 'plan' and tool == 'Edit'", { phase: 'execute', tool: 'Edit' }, true],
    ["not phase == 'plan' and tool == 'Edit'", { phase: 'execute', tool: 'Read' }, false],
    ["tool == 'Edit' and not phase == 'plan'", { phase: 'plan', tool: 'Edit' }, false],
    ["not phase == 'plan' or n > 3", { phase: 'plan', n: 5 }, true],
    ["(not phase == 'plan') == b", { phase: 'plan', b: false }, true],
    ['a ? not n > 3 : c', { a: true, n: 1, c: 'no' }, true],
    ['a ? c : not n > 3', { a: false, n: 5, c: 'no' }, false],
    ["user_says(not a, 'x') or c", { a: false, c: false }, false],
  ] as const)('Python precedence: %s with %j → %s', (source, values, expected) => {
    expect(evaluate(source, values)).toBe(expected);
  });
});

describe('in / not in', () => {
  it.each([
    ["'b' in list", { list: ['a', 'b'] }, true],
    ["'z' in list", { list: ['a', 'b'] }, false],
    ["'b' not in list", { list: ['a', 'b'] }, false],
    ["'z' not in list", { list: ['a', 'b'] }, true],
    ["'z' not in list", {}, true],
    ["'ell' in text", { text: 'hello' }, true],
    ["'xyz' not in text", { text: 'hello' }, true],
    ["'other' not in obj", { obj: { key: 1 } }, true],
    ["'key' in obj", { obj: { key: 1 } }, true], // an object's keys, as in Python
    ["'key' not in obj", { obj: { key: 1 } }, false],
    ["'other' in obj", { obj: { key: 1 } }, false],
    ["'key' in obj", {}, false],
    ["tool not in ['Read', 'Grep']", { tool: 'Write' }, true],
    ["tool not in ['Read', 'Grep'] or a", { tool: 'Read', a: false }, false],
    ['n in list', { n: 2, list: [1, 2] }, true],
  ] as const)('%s with %j → %s', (source, values, expected) => {
    expect(evaluate(source, values)).toBe(expected);
  });

  it.each([
    ['a', ['a', 'b']],
    ['z', ['a', 'b']],
    ['ell', 'hello'],
    ['xyz', 'hello'],
    ['key', { key: 1 }],
    ['other', { key: 1 }],
    [1, [1, 2]],
    [1, 'a1'], // only a string is looked for in a string
    ['a', undefined],
    ['a', 5],
  ] as const)('`in` and `not in` agree: %j in %j', (item, collection) => {
    const values = { a: item, obj: collection };
    const isIn = evaluate('a in obj', values);
    expect(typeof isIn).toBe('boolean');
    expect(evaluate('a not in obj', values)).toBe(!isIn);
  });

  it('`not in` binds like `in`, so it can be combined', () => {
    expect(evaluate("'a' not in list or b", { list: ['a'], b: true })).toBe(true);
    expect(evaluate("'a' not in list == b", { list: ['a'], b: false })).toBe(true);
  });
});

describe('filters and method calls', () => {
  it.each([
    ['list | length', { list: [1, 2, 3] }, 3],
    ['text | length', { text: 'abcd' }, 4],
    ['obj | length', { obj: { x: 1, y: 2 } }, 2],
    ['list | length', {}, 0],
    ['n | length', { n: 5 }, 0],
    ['list | length > 2', { list: [1, 2, 3] }, true],
    ['variables.todo | length == 0', { variables: {} }, true],
    ["text.includes('ell')", { text: 'hello' }, true],
    ["text.includes('xyz')", { text: 'hello' }, false],
    ["list.includes('b')", { list: ['a', 'b'] }, true],
    ["list.includes('c')", { list: ['a', 'b'] }, false],
    ["list.includes('c')", {}, false],
    ["text.startsWith('he')", { text: 'hello' }, true],
    ["text.endsWith('.lock')", { text: 'yarn.lock' }, true],
    ["text.endsWith('.lock')", {}, false],
    ["text.lower() == 'hello'", { text: 'HeLLo' }, true],
    ['text.upper()', { text: 'abc' }, 'ABC'],
    ['text.trim()', { text: '  x  ' }, 'x'],
    ["list.join('-')", { list: ['a', 'b'] }, 'a-b'],
    ['list | join', { list: ['a', 'b'] }, 'a, b'],
    ["text | lower | startsWith('he')", { text: 'HELLO' }, true],
    ['text.length', { text: 'abc' }, 3], // a property, not a method
    ["obj.list.includes('x')", { obj: { list: ['x'] } }, true],
    ["variables.files.includes('a.ts')", { variables: { files: ['a.ts'] } }, true],
  ] as const)('%s with %j → %j', (source, values, expected) => {
    expect(evaluate(source, values)).toEqual(expected);
  });
});

describe('the rewrite leaves words alone where they are not operators', () => {
  it.each([
    ["text == 'this and that'", { text: 'this and that' }, true],
    ['text == "not in or and"', { text: 'not in or and' }, true],
    ["text == 'it\\'s not here'", { text: "it's not here" }, true],
    ['android', { android: 'robot' }, 'robot'],
    ['notes or order', { notes: '', order: 'first' }, 'first'],
    ['obj.not', { obj: { not: 'prop' } }, 'prop'],
    ['obj.and', { obj: { and: 1 } }, 1],
    ['obj . or', { obj: { or: 2 } }, 2],
  ] as const)('%s with %j → %j', (source, values, expected) => {
    expect(evaluate(source, values)).toEqual(expected);
  });

  it.each([
    ['a and b or c', 'a && b || c'],
    ['not a', '!( a)'],
    ['not not a', '!( !( a))'],
    ["not phase == 'plan' and b", "!( phase == 'plan' )&& b"],
    ["not tool in ['Read'] or a", "!( tool in ['Read'] )|| a"],
    ['not (a or b)', '!( (a || b))'],
    ['a ? not b : c', 'a ? !( b ): c'],
    ['[not a, b]', '[!( a), b]'],
    ["not text.includes('a')", "!( text|includes('a'))"],
    ['not x not in y', '!( x ∉ y)'],
    ["x not in ['a']", "x ∉ ['a']"],
    ['x not  in y', 'x ∉ y'],
    ["'and' == a", "'and' == a"],
    ['android and notes or order', 'android && notes || order'],
    ["text.includes('a')", "text|includes('a')"],
    ["text.includes ('a')", "text|includes ('a')"],
    ['text.length', 'text.length'],
    ['obj.not', 'obj.not'],
    // The functions that read the event get its facts as an explicit first argument.
    ["user_says('done')", "user_says($event, 'done')"],
    ["not user_says ('a', 'b')", "!( user_says($event, 'a', 'b'))"],
    ["user_says(not a, 'x') or c", "user_says($event, !( a), 'x') || c"],
    ['command_contains()', 'command_contains($event)'],
    ["obj.user_says('a')", "obj.user_says('a')"],
    ["text | user_says('a')", "text | user_says('a')"],
    ["'user_says(1)'", "'user_says(1)'"],
  ])('%s → %s', (source, rewritten) => {
    expect(rewriteSeedSyntax(source)).toBe(rewritten);
  });
});

describe('user_says: whole words, any case, in the prompt only', () => {
  it.each([
    ['done', true],
    ['Done!', true],
    ['I AM DONE.', true],
    ["we're done-ish", true],
    ['(done)', true],
    ['undone', false],
    ['donezo', false],
    ['done_deal', false],
    ['d o n e', false],
    ['', false],
  ])("user_says('done') on %j → %s", (prompt, expected) => {
    expect(evaluate("user_says('done')", {}, { prompt })).toBe(expected);
  });

  it('is false when there is no prompt (tool events)', () => {
    expect(evaluate("user_says('done')", {}, {})).toBe(false);
  });

  it.each([
    ["user_says('continue', 'proceed')", 'ok, Proceed', true],
    ["user_says('continue', 'proceed')", 'hmm', false],
    ["user_says('ship it')", 'please SHIP IT now', true],
    ["user_says('ship it')", 'ship, it', false],
    ["user_says('c++')", 'rewrite in C++', true],
    ["user_says('a.b')", 'axb', false],
    ["user_says('été')", 'un été chaud', true],
    ["user_says('done') or user_says('complete')", 'task complete', true],
    ["not user_says('wait')", 'go', true],
  ])('%s on %j → %s', (source, prompt, expected) => {
    expect(evaluate(source, {}, { prompt })).toBe(expected);
  });

  it('non-string arguments never match', () => {
    expect(evaluate('user_says(1, list)', { list: ['x'] }, { prompt: '1 x' })).toBe(false);
  });

  it('the prompt of one evaluation does not leak into the next', () => {
    expect(evaluate("user_says('yes')", {}, { prompt: 'yes' })).toBe(true);
    expect(evaluate("user_says('yes')", {}, {})).toBe(false);
  });

  it('containsWord is the same test', () => {
    expect(containsWord('Approve it', 'approve')).toBe(true);
    expect(containsWord('disapprove', 'approve')).toBe(false);
  });
});

describe('command_contains: a substring of the Bash command', () => {
  it.each([
    ["command_contains('rm -rf')", 'rm -rf build', true],
    ["command_contains('rm -rf')", 'sudo rm -rf /', true],
    ["command_contains('rm -rf')", 'rm -r build', false],
    ["command_contains('rm -rf')", 'RM -RF build', false], // case-sensitive, unlike user_says
    ["command_contains('git push --force', 'git reset --hard')", 'git reset --hard HEAD~1', true],
    ["command_contains('test')", 'npm run pretest', true], // substring, not whole word
  ])('%s on %j → %s', (source, command, expected) => {
    expect(evaluate(source, {}, { command })).toBe(expected);
  });

  it('is false when there is no command', () => {
    expect(evaluate("command_contains('rm')", {}, {})).toBe(false);
  });
});

describe('missing values read as empty / false, never as an error', () => {
  it.each([
    ['tool_result.is_error', {}, undefined],
    ['tool_result.is_error', { tool_result: { is_error: true } }, true],
    ['variables.plan.file.name', { variables: {} }, undefined],
    ['variables.missing', { variables: {} }, undefined],
    ['a', {}, undefined],
    ['obj.x == 1', {}, false],
    ['obj.x != 1', {}, true],
    ['n > 3', {}, false],
    ['variables.count >= 2', { variables: {} }, false],
  ] as const)('%s with %j → %j', (source, values, expected) => {
    expect(evaluate(source, values)).toEqual(expected);
  });

  it.each([
    ['list[0]', {}],
    ['list[0].name', { list: null }],
    ["obj['x']['y']", {}],
  ])('a runtime type error (%s with %j) reads as undefined', (source, values) => {
    expect(() => evaluate(source, values)).not.toThrow();
    expect(evaluate(source, values)).toBeUndefined();
  });

  it('a failing condition does not break the next evaluation', () => {
    expect(evaluate('list[0]', {})).toBeUndefined();
    expect(evaluate("user_says('go')", {}, { prompt: 'go' })).toBe(true);
  });
});

describe('literals', () => {
  it.each([
    ['true', true],
    ['false', false],
    ['3 >= 2.5', true],
    ["'a' + 'b'", 'ab'],
    ['[1, 2] | length', 2],
    ['{x: 1}.x', 1],
    ['a ? 1 : 2', 2],
  ] as const)('%s → %j', (source, expected) => {
    expect(evaluate(source)).toEqual(expected);
  });

  // jexl 2.3 has no `null` literal: to the expression compiler `null` is a name like any
  // other. The workflow compiler declares it as a built-in whose value is null (see
  // engine-compile and the variable_set exit condition in engine-evaluate).
  it('`null` is a name, declared by whoever compiles the expression', () => {
    expect(compileError('a != null')).toBe('unknown name `null` in expression `a != null`');
    const result = compileExpression('a != null', new Map([...NAMES, ['null', 'open']]));
    if (!result.ok) throw new Error(result.message);
    const check = (values: Record<string, unknown>): unknown => result.expression.evaluate({ values: { null: null, ...values } });
    expect(check({ a: 1 })).toBe(true);
    expect(check({ a: 0 })).toBe(true);
    expect(check({ a: null })).toBe(false);
    expect(check({})).toBe(false); // a missing value counts as unset
  });
});

describe('compile errors', () => {
  it.each([
    ['typo == 1', 'unknown name `typo` in expression `typo == 1`'],
    ['phase == 1 and typo_a or typo_b', 'unknown name `typo_a`; unknown name `typo_b` in expression `phase == 1 and typo_a or typo_b`'],
    ["user_sayz('x')", "unknown function `user_sayz` in expression `user_sayz('x')`"],
    ["command_in(['a'])", "unknown function `command_in` in expression `command_in(['a'])`"],
    ['list | lenght', 'unknown filter `lenght` in expression `list | lenght`'],
    ["text.split(',')", "unknown function `split` in expression `text.split(',')`"],
    ['[typo]', 'unknown name `typo` in expression `[typo]`'],
    ['{k: typo}', 'unknown name `typo` in expression `{k: typo}`'],
    ["user_says(typo)", 'unknown name `typo` in expression `user_says(typo)`'],
    ['a ? typo : 1', 'unknown name `typo` in expression `a ? typo : 1`'],
    // The name that carries the event's facts is gobby's, not the author's.
    ["$event.prompt == 'x'", "unknown name `$event` in expression `$event.prompt == 'x'`"],
    ['user_says($event)', 'unknown name `$event` in expression `user_says($event)`'],
    ["text | user_says('a')", "unknown filter `user_says` in expression `text | user_says('a')`"],
  ])('%s → %s', (source, message) => {
    expect(compileError(source)).toBe(message);
  });

  it.each(['a ==', "phase = 'plan'", 'a and', 'a or b)', '[1, 2', "user_says('x'", "'unclosed", 'a b', 'and'])('a syntax error in %j names the expression', (source) => {
    expect(compileError(source)).toMatch(new RegExp(`^syntax error in expression \`${source.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\`: `));
  });

  // jexl itself accepts an unclosed parenthesis; gobby checks the brackets first.
  it.each([
    ['(a or b', '`(` is never closed'],
    ['((a)', '`(` is never closed'],
    ['[1, 2', '`[` is never closed'],
    ["user_says('x'", '`(` is never closed'],
    ['{k: 1', '`{` is never closed'],
    ['a or b)', 'unexpected `)`'],
    ['a]', 'unexpected `]`'],
    ['(a or b]', 'unexpected `]`'],
    ['a)(', 'unexpected `)`'],
  ])('unbalanced brackets: %j → %s', (source, detail) => {
    expect(compileError(source)).toBe(`syntax error in expression \`${source}\`: ${detail}`);
  });

  it('brackets inside string literals do not count', () => {
    expect(evaluate("text == '(' or text == \"[\"", { text: '[' })).toBe(true);
    expect(evaluate("user_says('(', 'done')", {}, { prompt: 'done' })).toBe(true);
  });

  it('a syntax error quotes the expression as written, but jexl\'s detail shows the rewritten form', () => {
    expect(compileError('a and')).toBe('syntax error in expression `a and`: Unexpected end of expression: a &&');
    expect(compileError('not a and')).toBe('syntax error in expression `not a and`: Unexpected end of expression: !( a )&&');
  });

  it('properties of an open name are not checked (they are data)', () => {
    expect(compileExpression('variables.anything.at.all', NAMES).ok).toBe(true);
  });

  describe('properties of a record gobby builds are checked', () => {
    const RECORDS = new Map([
      ...NAMES,
      ['effects', recordShape(['writes', 'test_run'])],
      ['state', recordShape(['phase', 'variables'], { variables: recordShape(['approved']) })],
    ]);
    const problem = (source: string): string | undefined => {
      const result = compileExpression(source, RECORDS);
      return result.ok ? undefined : result.message;
    };

    it.each([
      ['effects.writes | length == 0'],
      ["effects['test_run']"],
      ['effects.writes[0].length > 2'],
      ["'src/a.ts' in effects.writes"],
      ['state.variables.approved'],
      ['state.variables.approved.anything'],
      ["effects.writes.includes('x')"],
    ])('`%s` compiles', (source) => {
      expect(problem(source)).toBeUndefined();
    });

    it.each([
      ['effects.wrtes | length == 0', 'unknown property `wrtes` of `effects` (did you mean `writes`?); it has `writes`, `test_run` in expression `effects.wrtes | length == 0`'],
      ["effects['testrun']", 'unknown property `testrun` of `effects` (did you mean `test_run`?); it has `writes`, `test_run`'],
      ['state.variables.aproved == true', 'unknown property `aproved` of `state.variables` (did you mean `approved`?); it has `approved`'],
      ["tool == 'Bash' and effects.unknown", 'unknown property `unknown` of `effects`; it has `writes`, `test_run`'],
      ['not effects.writes and effects.oops.deeper', 'unknown property `oops` of `effects`; it has `writes`, `test_run`'],
    ])('`%s` is a load error', (source, message) => {
      expect(problem(source)).toContain(message);
    });

    it('an unknown top-level name suggests the nearest known one', () => {
      expect(problem('efects.writes')).toBe('unknown name `efects` (did you mean `effects`?) in expression `efects.writes`');
    });
  });

  it('names inside a relative filter belong to the items, not the scope', () => {
    expect(evaluate("list[.name == 'b'].size", { list: [{ name: 'a', size: 1 }, { name: 'b', size: 2 }] })).toBe(2);
  });

  it('keeps the source as written', () => {
    const result = compileExpression('a or b', NAMES);
    expect(result.ok && result.expression.source).toBe('a or b');
  });
});
