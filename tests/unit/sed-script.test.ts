// sed scripts read command by command: what writes, reads or runs, wherever it hides.
import { describe, expect, it } from 'vitest';
import { inspectSedScript } from '../../workflows/shell/sed-script.js';

describe('inspectSedScript', () => {
  it.each<[string, readonly string[], readonly string[], boolean]>([
    // [script, writes, reads, runs or unreadable]
    ['s/a/b/g', [], [], false],
    ['s/a/b/w out.txt', ['out.txt'], [], false],
    ['s/a/b/gpw out.txt', ['out.txt'], [], false],
    ['s|a\\|b|c|w out.txt', ['out.txt'], [], false],
    ['s/a;w x/b/', [], [], false],
    ['s/a/w x;y/', [], [], false],
    ['1~2w out.txt', ['out.txt'], [], false],
    ['/x/,+2w out.txt', ['out.txt'], [], false],
    ['/a/I,/b/Mw out.txt', ['out.txt'], [], false],
    ['\\%x%w out.txt', ['out.txt'], [], false],
    ['0,/re/s//x/', [], [], false],
    [':a;w out.txt', ['out.txt'], [], false],
    [':a;N;$!ba;s/\\n/,/g', [], [], false],
    ['/x/{w out.txt\n}', ['out.txt'], [], false],
    ['2{p;q}', [], [], false],
    ['$!N;s/\\n/ /', [], [], false],
    ['y/abc/xyz/', [], [], false],
    ['1i\\\nhello w world', [], [], false],
    ['a text w x', [], [], false],
    ['# comment w x\np', [], [], false],
    ['r in.txt', [], ['in.txt'], false],
    ['W out.txt', ['out.txt'], [], false],
    ['e rm -rf src', [], [], true],
    ['s/x/y/e', [], [], true],
    ['s/unclosed', [], [], true],
    ['foo', [], [], true],
  ])('%j', (script, writes, reads, opaque) => {
    const effects = inspectSedScript(script);
    expect(effects.writes).toEqual(writes);
    expect(effects.reads).toEqual(reads);
    expect(effects.opaque !== undefined).toBe(opaque);
  });
});
