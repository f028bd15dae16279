// What a process search sees of the daemon, read from /proc where there is one.
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ownProcess } from '../../daemon/own-process.js';

describe('ownProcess', () => {
  it('gives the command line `pkill -f` matches and the name `pkill` matches', () => {
    const own = ownProcess();
    expect(own.commandLine).toContain(process.argv[1]);
    expect(own.commandLine).not.toContain('\0');
    expect(own.names).toContain(basename(process.execPath));
  });

  it('builds them from the process itself where there is no /proc', () => {
    const own = ownProcess('/nonexistent-proc');
    expect(own.commandLine.startsWith(`${process.execPath} `)).toBe(true);
    expect(own.commandLine).toContain(process.argv[1]);
    expect(own.names).toContain(basename(process.execPath));
  });
});
