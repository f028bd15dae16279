// The knowledge tables, merged into one lookup. Later tables win on a shared name, so a
// specific entry (programs-code's `env` prefix) overrides a generic one.
import type { ProgramEntry } from './program-kit.js';
import { CODE_PROGRAMS } from './programs-code.js';
import { DEV_PROGRAMS } from './programs-dev.js';
import { FILE_PROGRAMS } from './programs-files.js';
import { NET_PROGRAMS } from './programs-net.js';
import { SYSTEM_PROGRAMS } from './programs-system.js';

export const PROGRAMS: ReadonlyMap<string, ProgramEntry> = new Map([...FILE_PROGRAMS, ...NET_PROGRAMS, ...SYSTEM_PROGRAMS, ...DEV_PROGRAMS, ...CODE_PROGRAMS]);
