// The recipe lines `make TARGET` would run, read from a Makefile's text so the command can be
// judged by what they do (`lint: ; eslint src` only reads). Deliberately narrow: plain rules,
// plain variables and the automatic ones. Anything whose result depends on more than the text
// (includes, conditionals, functions, pattern rules, `SHELL`, target-specific variables, a
// `!=` that runs a command) gives no answer, and the target stays a program gobby does not know.

/** Recipe lines followed for one target, its prerequisites' included. */
const MAX_RECIPE_LINES = 64;
/** Nesting of variable references (`A = $(B)`, `B = $(A)` would never end). */
const MAX_EXPANSION_DEPTH = 16;

/** Directives and special targets that make the text alone say too little. */
const UNREAD_DIRECTIVE = /^\s*(?:-?include|sinclude|ifn?eq|ifn?def|else|endif|define|endef|export|unexport|override|vpath|private|undefine|load)\b/;
const UNREAD_SPECIAL_TARGET = /^\s*\.(?:ONESHELL|SHELLFLAGS|POSIX|SECONDEXPANSION|DEFAULT|SUFFIXES|EXPORT_ALL_VARIABLES)\s*:/;
const ASSIGNMENT = /^([A-Za-z0-9_.-]+)\s*(::?=|:::=|\?=|\+=|!=|=)\s*(.*)$/;
const RULE = /^([^:#=\t][^:#=]*?)\s*(::?)(?!=)\s*(.*)$/;

/** make's own variables, as GNU make sets them when the environment does not. */
const BUILT_IN: Readonly<Record<string, string>> = { MAKE: 'make', RM: 'rm -f', CC: 'cc', CXX: 'g++', CPP: '$(CC) -E', AR: 'ar', AS: 'as', LD: 'ld', SHELL: '/bin/sh' };

interface Rule {
  readonly prerequisites: readonly string[];
  readonly recipe: readonly string[];
}

interface Makefile {
  readonly rules: ReadonlyMap<string, Rule>;
  readonly variables: ReadonlyMap<string, string>;
  readonly firstTarget: string | undefined;
  readonly hasPatternRules: boolean;
}

/**
 * The shell lines `make target` runs (`''`: the default goal), prerequisites first, each as the
 * shell gets it (variables expanded, `@`/`-`/`+` taken off, `$$` as `$`); undefined when the text
 * does not settle them. `folder` is where make runs, for `$(CURDIR)`.
 */
export function makeRecipeLines(text: string, target: string, folder: string): string[] | undefined {
  const makefile = parseMakefile(text);
  if (makefile === undefined) return undefined;
  const goal = target === '' ? makefile.firstTarget : target;
  if (goal === undefined || !makefile.rules.has(goal)) return undefined;
  const lines: string[] = [];
  const done = new Set<string>();
  const visit = (name: string): boolean => {
    if (done.has(name)) return true;
    done.add(name);
    const rule = makefile.rules.get(name);
    // Not a rule here: a file that must exist, unless a pattern rule could make it.
    if (rule === undefined) return !makefile.hasPatternRules;
    for (const prerequisite of rule.prerequisites) if (!visit(prerequisite)) return false;
    for (const raw of rule.recipe) {
      const line = expand(raw, makefile.variables, { target: name, prerequisites: rule.prerequisites, folder }, 0);
      if (line === undefined || lines.length >= MAX_RECIPE_LINES) return false;
      const command = line.replace(/^[\s@+-]+/, '');
      if (command !== '') lines.push(command);
    }
    return true;
  };
  return visit(goal) ? lines : undefined;
}

function parseMakefile(text: string): Makefile | undefined {
  const rules = new Map<string, Rule>();
  const variables = new Map<string, string>();
  let firstTarget: string | undefined;
  let hasPatternRules = false;
  let current: { names: readonly string[]; prerequisites: readonly string[]; recipe: string[] } | undefined;
  const finish = (): boolean => {
    if (current === undefined) return true;
    for (const name of current.names) {
      const known = rules.get(name);
      // A second recipe for the same target: make warns and takes the last; too subtle to follow.
      if (known !== undefined && known.recipe.length > 0 && current.recipe.length > 0) return false;
      rules.set(name, { prerequisites: [...(known?.prerequisites ?? []), ...current.prerequisites], recipe: current.recipe.length > 0 ? current.recipe : (known?.recipe ?? []) });
    }
    current = undefined;
    return true;
  };
  for (const line of logicalLines(text)) {
    if (line.startsWith('\t')) {
      // A recipe line, passed to the shell as it is (comments included).
      if (current === undefined) return undefined;
      current.recipe.push(line.slice(1));
      continue;
    }
    const plain = line.replace(/(^|[^\\])#.*$/, '$1').trimEnd();
    if (plain.trim() === '') continue;
    if (UNREAD_DIRECTIVE.test(plain) || UNREAD_SPECIAL_TARGET.test(plain)) return undefined;
    const assignment = ASSIGNMENT.exec(plain);
    if (assignment !== null) {
      if (!finish()) return undefined;
      const [, name, operator, value] = assignment as unknown as [string, string, string, string];
      // `!=` runs a command; SHELL changes what runs the recipes.
      if (operator === '!=' || name === 'SHELL' || name === 'MAKEFLAGS' || name === '.RECIPEPREFIX') return undefined;
      if (operator === '+=') variables.set(name, `${variables.get(name) ?? ''} ${value}`.trim());
      else if (operator !== '?=' || !variables.has(name)) variables.set(name, value);
      continue;
    }
    const rule = RULE.exec(plain);
    if (rule === null || rule[2] === '::') return undefined;
    if (!finish()) return undefined;
    const names = rule[1]!.trim().split(/\s+/);
    const [prerequisiteText, inlineRecipe] = splitInlineRecipe(rule[3]!);
    // `target: VAR = value` sets a variable for that target only.
    if (/^[A-Za-z0-9_.-]+\s*(?:::?=|\?=|\+=|!=|=)/.test(prerequisiteText)) return undefined;
    if (names.some((name) => name.includes('%')) || prerequisiteText.includes('%')) hasPatternRules = true;
    if (names.some((name) => name.includes('$'))) return undefined;
    const prerequisites = prerequisiteText.split(/\s+/).filter((word) => word !== '' && word !== '|');
    if (prerequisites.some((word) => word.includes('$'))) return undefined;
    current = { names, prerequisites, recipe: inlineRecipe === undefined ? [] : [inlineRecipe] };
    firstTarget ??= names.find((name) => !name.startsWith('.') && !name.includes('%'));
  }
  if (!finish()) return undefined;
  return { rules, variables, firstTarget, hasPatternRules };
}

/** Lines with their backslash-newline continuations joined: a recipe keeps them for the shell, which joins them too. */
function logicalLines(text: string): string[] {
  const lines: string[] = [];
  for (const raw of text.replace(/\r\n/g, '\n').split('\n')) {
    const previous = lines[lines.length - 1];
    if (previous !== undefined && /(^|[^\\])(\\\\)*\\$/.test(previous)) lines[lines.length - 1] = `${previous.slice(0, -1)}${raw.replace(/^\t/, '')}`;
    else lines.push(raw);
  }
  return lines;
}

/** `deps ; recipe` on the rule's own line. */
function splitInlineRecipe(text: string): [string, string | undefined] {
  const semicolon = text.indexOf(';');
  return semicolon === -1 ? [text, undefined] : [text.slice(0, semicolon), text.slice(semicolon + 1)];
}

interface Automatic {
  readonly target: string;
  readonly prerequisites: readonly string[];
  readonly folder: string;
}

/** make's expansion of a line: `$$`, `$(NAME)`/`${NAME}`/`$X`, and `$@ $< $^ $+ $?`; undefined at anything else. */
function expand(text: string, variables: ReadonlyMap<string, string>, automatic: Automatic, depth: number): string | undefined {
  if (depth > MAX_EXPANSION_DEPTH) return undefined;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char !== '$') {
      out += char;
      continue;
    }
    const next = text[i + 1];
    if (next === undefined) return undefined;
    i++;
    if (next === '$') out += '$';
    else if (next === '@') out += automatic.target;
    else if (next === '<') out += automatic.prerequisites[0] ?? '';
    else if (next === '^' || next === '+' || next === '?') out += automatic.prerequisites.join(' ');
    else if (next === '(' || next === '{') {
      const close = text.indexOf(next === '(' ? ')' : '}', i + 1);
      if (close === -1) return undefined;
      const name = text.slice(i + 1, close);
      i = close;
      const value = variableValue(name, variables, automatic, depth);
      if (value === undefined) return undefined;
      out += value;
    } else {
      // `$X`: a one-letter variable; `$*`, `$%` and the rest need a pattern or an archive.
      if (!/[A-Za-z0-9_]/.test(next)) return undefined;
      const value = variableValue(next, variables, automatic, depth);
      if (value === undefined) return undefined;
      out += value;
    }
  }
  return out;
}

/** A variable's expanded value; undefined for a function (`$(shell …)`, `$(wildcard …)`), a nested reference or a name only the environment could set. */
function variableValue(name: string, variables: ReadonlyMap<string, string>, automatic: Automatic, depth: number): string | undefined {
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) return undefined;
  if (name === 'CURDIR') return automatic.folder;
  const value = variables.get(name) ?? BUILT_IN[name];
  return value === undefined ? undefined : expand(value, variables, automatic, depth + 1);
}
