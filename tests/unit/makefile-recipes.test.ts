// The recipe lines `make TARGET` runs, read from a makefile's text: what make would hand the
// shell, prerequisites first, and no answer wherever the text alone does not settle it.
import { describe, expect, it } from 'vitest';
import { makeRecipeLines } from '../../daemon/makefile-recipes.js';

const MAKEFILE = [
  'SRC := src',
  'LINT = eslint $(SRC)',
  'FLAGS = --max-warnings 0',
  'FLAGS += --cache',
  '.PHONY: all lint types fmt',
  '',
  'all: lint # the default goal',
  '',
  'lint: types',
  '\t@echo "linting $$USER"',
  '\t$(LINT) ${FLAGS}',
  '',
  'types:',
  '\t-tsc --noEmit \\',
  '\t  -p .',
  '',
  'report.txt: types ; $(MAKE) -s lint > $@ 2>&1 && wc -l $< $^',
  'where: ; echo $(CURDIR)',
].join('\n');

describe('makeRecipeLines', () => {
  it('expands variables and automatic variables, takes off the prefixes, and runs prerequisites first', () => {
    expect(makeRecipeLines(MAKEFILE, 'lint', '/repo')).toEqual(['tsc --noEmit   -p .', 'echo "linting $USER"', 'eslint src --max-warnings 0 --cache']);
    expect(makeRecipeLines(MAKEFILE, 'report.txt', '/repo')).toEqual(['tsc --noEmit   -p .', 'make -s lint > report.txt 2>&1 && wc -l types types']);
    expect(makeRecipeLines(MAKEFILE, 'where', '/repo/sub')).toEqual(['echo /repo/sub']);
  });

  it('runs the first target without a dot for the default goal, each prerequisite once', () => {
    expect(makeRecipeLines(MAKEFILE, '', '/repo')).toEqual(makeRecipeLines(MAKEFILE, 'lint', '/repo'));
    expect(makeRecipeLines('a: b c\n\techo a\nb: c\n\techo b\nc:\n\techo c\n', 'a', '/repo')).toEqual(['echo c', 'echo b', 'echo a']);
    // A cycle ends where it started, as make drops the circular dependency.
    expect(makeRecipeLines('a: b\n\techo a\nb: a\n\techo b\n', 'a', '/repo')).toEqual(['echo b', 'echo a']);
  });

  it('gives no answer for a target it does not have, or a prerequisite a pattern rule could make', () => {
    expect(makeRecipeLines(MAKEFILE, 'missing', '/repo')).toBeUndefined();
    expect(makeRecipeLines('%.o: %.c\n\tcc -c $<\nall: main.o\n\techo done\n', 'all', '/repo')).toBeUndefined();
    // Without pattern rules, a prerequisite that is no rule is a file: nothing runs for it.
    expect(makeRecipeLines('all: main.c\n\tcc main.c\n', 'all', '/repo')).toEqual(['cc main.c']);
  });

  it.each([
    ['an include', 'include other.mk\nlint:\n\teslint .\n'],
    ['a conditional', 'ifeq ($(CI),1)\nX = 1\nendif\nlint:\n\teslint .\n'],
    ['a function', 'lint:\n\t$(shell rm -rf src)\n'],
    ['a function in a variable', 'FILES = $(wildcard src/*.ts)\nlint:\n\teslint $(FILES)\n'],
    ['a variable only the environment could set', 'lint:\n\t$(LINTER) src\n'],
    ['a command run by an assignment', 'X != rm -rf src\nlint:\n\teslint .\n'],
    ['another shell', 'SHELL = /tmp/evil\nlint:\n\teslint .\n'],
    ['one shell for the whole recipe', '.ONESHELL:\nlint:\n\tcd src\n\teslint .\n'],
    ['a target-specific variable', 'lint: LINT = rm -rf src\nlint:\n\t$(LINT)\n'],
    ['a double-colon rule', 'lint::\n\teslint .\n'],
    ['two recipes for one target', 'lint:\n\teslint .\nlint:\n\trm -rf src\n'],
    ['a pattern stem', 'lint:\n\techo $*\n'],
    ['a recipe line before any rule', '\trm -rf src\nlint:\n\teslint .\n'],
    ['an exported variable', 'export PATH := /tmp/bin:$(PATH)\nlint:\n\teslint .\n'],
    ['a define', 'define RUN\nrm -rf src\nendef\nlint:\n\t$(RUN)\n'],
    ['a variable that refers to itself', 'A = $(B)\nB = $(A)\nlint:\n\techo $(A)\n'],
  ])('gives no answer for %s', (_what, text) => {
    expect(makeRecipeLines(text, 'lint', '/repo')).toBeUndefined();
  });

  it('stops at a limit of recipe lines', () => {
    expect(makeRecipeLines(`all:\n${'\techo x\n'.repeat(65)}`, 'all', '/repo')).toBeUndefined();
    expect(makeRecipeLines(`all:\n${'\techo x\n'.repeat(64)}`, 'all', '/repo')).toHaveLength(64);
  });
});
