// Message templates: `{{ expr }}`, `{% if %}…{% else %}…{% endif %}`, `{% for x in xs %}…{% endfor %}`.
// Tables of "template + values in → text out", then the errors an author sees at load time,
// then templates as they reach the model through inject_message and instructions.
import { describe, expect, it } from 'vitest';
import { openNames } from '../../workflows/expressions.js';
import { compileTemplate } from '../../workflows/templates.js';
import { compile, contextOf, post, say, Session, sessionStart } from './engine-test-helpers.js';

const NAMES = openNames(['phase', 'name', 'files', 'obj', 'n', 'flag', 'variables', 'items', 'tool_result', 'user']);

function render(source: string, values: Record<string, unknown> = {}): string {
  const result = compileTemplate(source, NAMES);
  if (!result.ok) throw new Error(result.message);
  return result.template.render({ values });
}

function templateError(source: string): string {
  const result = compileTemplate(source, NAMES);
  if (result.ok) throw new Error(`expected ${JSON.stringify(source)} not to compile`);
  return result.message;
}

describe('values', () => {
  it.each([
    ['plain text, no tags', {}, 'plain text, no tags'],
    ['In {{ phase }}.', { phase: 'plan' }, 'In plan.'],
    ['{{phase}}', { phase: 'plan' }, 'plan'],
    ['Hi {{ user.name }}!', { user: { name: 'Ada' } }, 'Hi Ada!'],
    ['Plan: {{ variables.plan_file }}', { variables: { plan_file: 'plan.md' } }, 'Plan: plan.md'],
    ['Plan: [{{ variables.plan_file }}]', { variables: {} }, 'Plan: []'],
    ['[{{ name }}]', {}, '[]'],
    ['[{{ user.address.city }}]', { user: {} }, '[]'],
    ['[{{ tool_result.error }}]', {}, '[]'],
    ['[{{ n }}]', { n: null }, '[]'],
    ['{{ n }} actions', { n: 0 }, '0 actions'],
    ['{{ n }}', { n: 2.5 }, '2.5'],
    ['{{ flag }}', { flag: false }, 'false'],
    ['{{ obj }}', { obj: { a: 1 } }, '{"a":1}'],
    ['{{ items }}', { items: [1, 'x'] }, '[1,"x"]'],
    ['{{ n + 1 }} of {{ items | length }}', { n: 1, items: [1, 2, 3] }, '2 of 3'],
    ["{{ flag ? 'on' : 'off' }}", { flag: true }, 'on'],
    ['a {{ b', {}, 'a {{ b'], // an unclosed tag is text
    ['{ single } braces', {}, '{ single } braces'],
  ] as const)('%j with %j → %j', (source, values, expected) => {
    expect(render(source, values)).toBe(expected);
  });

  it('trailing whitespace is trimmed (YAML block scalars end with a newline), leading is kept', () => {
    expect(render('  indented\nline\n\n')).toBe('  indented\nline');
  });
});

describe('filters', () => {
  it.each([
    ['{{ name | upper }}', { name: 'ada' }, 'ADA'],
    ['{{ name | lower }}', { name: 'ADA' }, 'ada'],
    ['[{{ name | trim }}]', { name: '  ada ' }, '[ada]'],
    ["{{ items | join(', ') }}", { items: ['a', 'b', 'c'] }, 'a, b, c'],
    ['{{ items | join }}', { items: ['a', 'b'] }, 'a, b'],
    ["{{ items.join(' / ') }}", { items: ['a', 'b'] }, 'a / b'],
    ['{{ items | length }}', { items: ['a', 'b'] }, '2'],
    ['{{ items | length }}', {}, '0'],
    ['{{ name.upper() }}', { name: 'ada' }, 'ADA'],
    ['{{ name | upper | length }}', { name: 'ada' }, '3'],
    ["{{ items.includes('b') }}", { items: ['a', 'b'] }, 'true'],
    ['[{{ n | upper }}]', { n: 5 }, '[5]'], // filters leave other types alone
  ] as const)('%j with %j → %j', (source, values, expected) => {
    expect(render(source, values)).toBe(expected);
  });
});

describe('{% if %}', () => {
  it.each([
    ['{% if flag %}yes{% endif %}', { flag: true }, 'yes'],
    ['{% if flag %}yes{% endif %}', { flag: false }, ''],
    ['{% if flag %}yes{% endif %}', {}, ''],
    ['{% if flag %}yes{% else %}no{% endif %}', {}, 'no'],
    ['{% if variables.plan_file %}plan at {{ variables.plan_file }}{% else %}no plan yet{% endif %}', { variables: {} }, 'no plan yet'],
    ["{% if phase == 'plan' %}P{% else %}X{% endif %}", { phase: 'plan' }, 'P'],
    ['{% if n > 2 %}many{% else %}few{% endif %}', { n: 3 }, 'many'],
    ['{% if flag or n %}A{% else %}B{% endif %}', { flag: false, n: 1 }, 'A'],
    ['{% if not flag %}off{% endif %}', { flag: false }, 'off'],
    ["{% if 'a.ts' in files %}touched{% endif %}", { files: ['a.ts'] }, 'touched'],
    ["{% if 'a.ts' not in files %}untouched{% endif %}", { files: [] }, 'untouched'],
    ['{% if items | length %}some{% else %}none{% endif %}', { items: [] }, 'none'],
    ['{% if flag %}a{% if n %}b{% else %}c{% endif %}{% endif %}', { flag: true, n: 0 }, 'ac'],
    ['{%if flag%}tight{%endif%}', { flag: 1 }, 'tight'],
    ['{% if tool_result.is_error %}failed{% else %}ok{% endif %}', {}, 'ok'],
  ] as const)('%j with %j → %j', (source, values, expected) => {
    expect(render(source, values)).toBe(expected);
  });
});

describe('{% for %}', () => {
  it.each([
    ['{% for f in files %}[{{ f }}]{% endfor %}', { files: ['a', 'b'] }, '[a][b]'],
    ['{% for f in files %}{{ loop.index }}.{{ f }} {% endfor %}', { files: ['a', 'b'] }, '1.a 2.b'],
    ['{% for f in files %}{{ loop.index0 }}{% endfor %}', { files: ['a', 'b', 'c'] }, '012'],
    ['{% for f in files %}{{ f.name }}={{ f.size }};{% endfor %}', { files: [{ name: 'a', size: 1 }, { name: 'b' }] }, 'a=1;b=;'],
    ['{% for row in items %}{% for cell in row %}{{ cell }}{% endfor %}|{% endfor %}', { items: [['a', 'b'], ['c']] }, 'ab|c|'],
    ['{% for f in files %}{% if loop.index > 1 %}, {% endif %}{{ f }}{% endfor %}', { files: ['a', 'b', 'c'] }, 'a, b, c'],
    ['{% for f in files %}x{% endfor %}', {}, ''],
    ['{% for f in files %}x{% endfor %}', { files: [] }, ''],
    ['{% for f in files %}x{% endfor %}', { files: 'abc' }, ''], // only lists are iterated
    ['{% for f in files %}x{% endfor %}', { files: { a: 1 } }, ''],
    ['{% for f in variables.todo %}- {{ f }}{% endfor %}', { variables: { todo: ['write tests'] } }, '- write tests'],
    ['{% for phase in files %}{{ phase }}{% endfor %}/{{ phase }}', { files: ['inner'], phase: 'outer' }, 'inner/outer'],
  ] as const)('%j with %j → %j', (source, values, expected) => {
    expect(render(source, values)).toBe(expected);
  });

  it('a loop on lines of its own renders one line per item', () => {
    expect(render('Files:\n{% for f in files %}\n- {{ f }}\n{% endfor %}', { files: ['a', 'b'] })).toBe('Files:\n- a\n- b');
  });

  // Confusing: the newline after `{% endfor %}` and both newlines around an `{% if %}` block
  // are kept, so block tags on lines of their own leave blank lines behind.
  it.each([
    ['Files:\n{% for f in files %}\n- {{ f }}\n{% endfor %}\nend', { files: ['a'] }, 'Files:\n- a\n\nend'],
    ['Start\n{% if flag %}\nyes\n{% endif %}\nend', { flag: true }, 'Start\n\nyes\n\nend'],
    ['Start\n{% if flag %}\nyes\n{% endif %}\nend', { flag: false }, 'Start\n\nend'],
  ] as const)('whitespace around block tags: %j → %j', (source, values, expected) => {
    expect(render(source, values)).toBe(expected);
  });
});

describe('template errors (reported when the definition loads)', () => {
  it.each([
    ['{% for f in files %}- {{ f }}', '`{% for %}` is never closed with `{% endfor %}`'],
    ['{% if flag %}yes', '`{% if %}` is never closed with `{% endif %}`'],
    ['{% for f in files %}{% if flag %}{% endfor %}', '`{% endfor %}` without an open `{% for %}`'],
    ['{% if flag %}{% endfor %}', '`{% endfor %}` without an open `{% for %}`'],
    ['{% for f in files %}{% endif %}', '`{% endif %}` without an open `{% if %}`'],
    ['text {% endif %}', '`{% endif %}` without an open `{% if %}`'],
    ['{% else %}', '`{% else %}` without an open `{% if %}`'],
    ['{% if flag %}a{% else %}b{% else %}c{% endif %}', '`{% else %}` without an open `{% if %}`'],
    ['{% for f in files %}{% else %}{% endfor %}', '`{% else %}` without an open `{% if %}`'],
    ['{% if flag %}a{% elif n %}b{% endif %}', 'unknown template statement `{% elif n %}` (known: if, else, endif, for, endfor)'],
    ['{% set x = 1 %}', 'unknown template statement `{% set x = 1 %}` (known: if, else, endif, for, endfor)'],
    ['{% for f of files %}{% endfor %}', 'unknown template statement `{% for f of files %}` (known: if, else, endif, for, endfor)'],
    ['{{ typo }}', 'unknown name `typo` in expression `typo`'],
    ['{{ artifacts.current_plan }}', 'unknown name `artifacts` in expression `artifacts.current_plan`'],
    ['{% if has_handoff %}x{% endif %}', 'unknown name `has_handoff` in expression `has_handoff`'],
    ['{% for f in session.files %}{% endfor %}', 'unknown name `session` in expression `session.files`'],
    ['{% for f in files %}{% endfor %}{{ f }}', 'unknown name `f` in expression `f`'], // the loop name ends with the loop
    ['{{ loop.index }}', 'unknown name `loop` in expression `loop.index`'],
    ['{{ name | lenght }}', 'unknown filter `lenght` in expression `name | lenght`'],
    ['{{ name.title() }}', 'unknown function `title` in expression `name.title()`'],
  ])('%j → %s', (source, message) => {
    expect(templateError(source)).toBe(message);
  });

  it('a syntax error inside a tag names the expression', () => {
    expect(templateError('{{ n + }}')).toMatch(/^syntax error in expression `n \+`/);
    expect(templateError('{% if n == %}x{% endif %}')).toMatch(/^syntax error in expression `n ==`/);
  });
});

describe('templates as the model sees them', () => {
  const WORKFLOW = `
name: templated
variables:
  goal: "ship the release"
  checklist: ["changelog", "version bump", "tag"]
  blocker:
phases:
  - name: prepare
    description: Get the release ready.
    instructions: |
      Goal: {{ goal | upper }}.
      Checklist:
      {% for item in checklist %}
      {{ loop.index }}. {{ item }}
      {% endfor %}
      {% if variables.blocker %}Blocked by: {{ variables.blocker }}{% else %}Nothing blocks you.{% endif %}
    on_enter:
      - action: inject_message
        content: "Entering {{ phase }} ({{ checklist | length }} items, {{ total_action_count }} actions so far){{ missing_note }}"
      - action: inject_message
        content: "{% if blocked_count > 0 %}You were refused {{ blocked_count }} times.{% endif %}"
    transitions:
      - to: release
        when: "user_says('release')"
        on_transition:
          - action: set_variable
            name: missing_note
            value: " [from prepare]"
  - name: release
    on_enter:
      - action: inject_message
        content: "Releasing after {{ total_action_count }} actions{{ missing_note }}. Items: {{ checklist.join(', ') }}."
`;

  it('instructions render variables, loops and conditions; missing values read as empty', () => {
    const session = new Session(compile(WORKFLOW));
    const context = contextOf(session.send(sessionStart()))!;
    expect(context).toContain('Entering prepare (3 items, 0 actions so far)\n');
    expect(context).toContain('Goal: SHIP THE RELEASE.\nChecklist:\n1. changelog\n2. version bump\n3. tag\n\nNothing blocks you.');
  });

  it('an inject_message that renders to nothing queues nothing', () => {
    const session = new Session(compile(WORKFLOW));
    expect(session.state.pendingMessages).toEqual(['Entering prepare (3 items, 0 actions so far)']);
  });

  it('messages render against the state at the moment they are queued', () => {
    const session = new Session(compile(WORKFLOW));
    session.send(post('Read'));
    session.send(post('Read'));
    const context = contextOf(session.send(say('ok, release it')))!;
    expect(context).toContain('Releasing after 2 actions [from prepare]. Items: changelog, version bump, tag.');
    expect(session.state.phase).toBe('release');
  });
});

describe('a rendering budget: templates render inside a hook request', () => {
  it('stops nested loops over long lists quickly, with a message that names the cause instead of the text', () => {
    const items = Array.from({ length: 200 }, (_, i) => i);
    // 8 million iterations, unbounded, took 21 s (longer than the test's own timeout); the budget stops at 20 000 steps.
    const text = render('{% for x in items %}{% for y in items %}{% for z in items %}{{ x }}-{{ y }}-{{ z }} {% endfor %}{% endfor %}{% endfor %}', { items });
    expect(text).toMatch(/^\(gobby: this text was not rendered: its template takes more than 20000 steps or 32 KB of text/);
  });

  it('stops one value that renders more than 32 KB', () => {
    expect(render('{{ name }}', { name: 'x'.repeat(40 * 1024) })).toMatch(/^\(gobby: this text was not rendered/);
  });

  it('renders a long but reasonable list whole', () => {
    const items = Array.from({ length: 500 }, (_, i) => `file-${i}.ts`);
    const text = render('{% for f in items %}- {{ f }}\n{% endfor %}', { items });
    expect(text.split('\n')).toHaveLength(500);
    expect(text).toContain('- file-499.ts');
  });
});
