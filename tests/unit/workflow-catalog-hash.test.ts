// A definition's content hash is computed where the catalog reads the file (the engine does
// no hashing). Sessions already pinned in users' databases store the hash, and the catalog
// finds their compiled definition by it, so its value must not change. The catalog reads only
// plain files of reasonable size: what sits in the workflow folders is not to be trusted.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkflowCatalog, hashDefinitionText } from '../../daemon/workflow-catalog.js';

const TEXT = 'name: h\nphases:\n  - name: a\n';
// sha256(TEXT) in hex, first 16 digits: what gobby has always stored for this text.
const STORED_HASH = '5164bf6c5c4bd816';

const temporary: string[] = [];
afterEach(() => {
  for (const directory of temporary.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function catalogWith(text: string) {
  const home = mkdtempSync(join(tmpdir(), 'gobby-catalog-hash-'));
  temporary.push(home);
  const userDirectory = join(home, 'workflows');
  mkdirSync(userDirectory);
  writeFileSync(join(userDirectory, 'h.yaml'), text);
  const builtinDirectory = join(home, 'builtin');
  mkdirSync(builtinDirectory);
  return { catalog: createWorkflowCatalog({ builtinDirectory, userDirectory, watch: false }), file: join(userDirectory, 'h.yaml') };
}

describe('the definition hash', () => {
  it('is the first 16 hex digits of the SHA-256 of the text, as it always was', () => {
    expect(hashDefinitionText(TEXT)).toBe(STORED_HASH);
    expect(hashDefinitionText(`${TEXT}\n`)).not.toBe(STORED_HASH);
  });

  it('is what the catalog gives a definition it loads from disk', async () => {
    const { catalog, file } = catalogWith(TEXT);
    const workflow = catalog.resolve('h', null);
    expect(workflow?.hash).toBe(STORED_HASH);
    expect(workflow?.source).toEqual({ text: TEXT, file, tier: 'user' });
    await catalog.close();
  });

  it('finds a session pinned before the hash moved out of the engine, by the stored hash', async () => {
    const { catalog, file } = catalogWith(TEXT);
    const stored = { text: TEXT, file, tier: 'user' as const };
    const pinned = catalog.pinned(stored, STORED_HASH);
    expect(pinned.hash).toBe(STORED_HASH);
    expect(pinned.phases.map((phase) => phase.name)).toEqual(['a']);
    expect(catalog.pinned(stored, STORED_HASH)).toBe(pinned); // compiled once per distinct source
    await catalog.close();
  });
});

describe('files in a workflow folder that are not definitions', () => {
  it('reports a FIFO and a huge file instead of blocking on them, and loads the rest', async () => {
    const { catalog, file } = catalogWith(TEXT);
    const directory = join(file, '..');
    // Reading a FIFO would wait for a writer for ever, stalling every session of the daemon.
    execFileSync('mkfifo', [join(directory, 'stuck.yaml')]);
    writeFileSync(join(directory, 'huge.yaml'), `name: huge\n#${'x'.repeat(2 * 1024 * 1024)}\n`);
    expect(catalog.resolve('h', null)?.hash).toBe(STORED_HASH);
    const { errors } = catalog.list(null);
    expect(errors.find((error) => error.file.endsWith('stuck.yaml'))?.message).toContain('not a regular file');
    expect(errors.find((error) => error.file.endsWith('huge.yaml'))?.message).toContain('above the 65536-byte (64 KB) limit');
    expect(catalog.lookup('stuck', null).problem?.errors[0]?.message).toContain('not a regular file');
    await catalog.close();
  });
});
