// Reads a V8 .cpuprofile (node --cpu-prof) and says where the busy time went, grouped the
// way the question is usually asked: fastify? SQLite? JSON? logging? gobby's own code?
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface ProfileShare {
  readonly name: string;
  readonly ms: number;
  /** Share of the busy (non-idle) time. */
  readonly percent: number;
}

export interface ProfileSummary {
  readonly file: string;
  readonly busyMs: number;
  /** Self time grouped by package (node_modules), gobby file or node internal module. */
  readonly byModule: readonly ProfileShare[];
  /** Inclusive time of the frames that answer "is it X?" (a frame's callees count towards it). */
  readonly byConcern: readonly ProfileShare[];
  readonly topFunctions: readonly ProfileShare[];
}

/** Frames whose inclusive time answers one question each; matched on function name and module. */
const CONCERNS: readonly { readonly name: string; readonly matches: (fn: string, module: string) => boolean }[] = [
  { name: 'hook service (one transaction: SQLite + engine)', matches: (fn, m) => fn === 'handle' && m === 'gobby:daemon/hook-service.js' },
  { name: 'SQLite (better-sqlite3 statements and commit)', matches: (_fn, m) => m === 'better-sqlite3' || m.startsWith('gobby:daemon/store/') },
  { name: 'engine (evaluateEvent)', matches: (fn) => fn === 'evaluateEvent' },
  { name: 'payload validation (zod)', matches: (fn) => fn === 'parseHookPayload' },
  { name: 'logging (pino + file writes)', matches: (_fn, m) => m === 'pino' || m === 'sonic-boom' },
  { name: 'JSON body parse (secure-json-parse)', matches: (_fn, m) => m === 'secure-json-parse' },
  { name: 'JSON answer serialize (fast-json-stringify)', matches: (_fn, m) => m === 'fast-json-stringify' || m === '@fastify/fast-json-stringify-compiler' },
  { name: 'request guard (Host/Origin/token)', matches: (fn) => fn === 'guardRequest' },
  { name: 'socket writes (writev/writeUtf8String)', matches: (fn, m) => m === '(native)' && /^(writev|writeUtf8String|writeLatin1String|writeBuffer)$/.test(fn) },
  { name: 'garbage collector', matches: (fn) => fn === '(garbage collector)' },
];

export function summarizeCpuProfile(directory: string): ProfileSummary | undefined {
  const file = readdirSync(directory)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => join(directory, name))[0];
  if (!file) return undefined;
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, index) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));

  const moduleOf = (node: ProfileNode): string => moduleName(node.callFrame.url);
  const label = (node: ProfileNode): string => `${node.callFrame.functionName || '(anonymous)'} ${moduleOf(node)}:${node.callFrame.lineNumber + 1}`;

  const idleUs = [...selfUs].filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)').reduce((sum, [, us]) => sum + us, 0);
  const totalUs = [...selfUs.values()].reduce((sum, us) => sum + us, 0);
  const busyUs = totalUs - idleUs;

  const byModule = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') continue;
    byModule.set(moduleOf(node), (byModule.get(moduleOf(node)) ?? 0) + us);
    byFunction.set(label(node), (byFunction.get(label(node)) ?? 0) + us);
  }

  // Inclusive time per concern, counting each sample once per concern even when matching
  // frames nest (a statement inside the transaction, pino inside pino).
  const concernUs = new Map<string, number>(CONCERNS.map((concern) => [concern.name, 0]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  for (const [id, us] of selfUs) {
    const matched = new Set<string>();
    for (let current: number | undefined = id; current !== undefined; current = parentOf.get(current)) {
      const node = byId.get(current)!;
      for (const concern of CONCERNS) if (concern.matches(node.callFrame.functionName, moduleOf(node))) matched.add(concern.name);
    }
    for (const name of matched) concernUs.set(name, concernUs.get(name)! + us);
  }

  const shares = (map: Map<string, number>, limit: number): ProfileShare[] =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([name, us]) => ({ name, ms: us / 1000, percent: busyUs > 0 ? (100 * us) / busyUs : 0 }));
  return {
    file,
    busyMs: busyUs / 1000,
    byModule: shares(byModule, 12),
    byConcern: shares(concernUs, CONCERNS.length).filter((share) => share.ms > 0),
    topFunctions: shares(byFunction, 12),
  };
}

function moduleName(url: string): string {
  if (!url) return '(native)';
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dependency) return dependency[1]!;
  const built = url.split('/dist/')[1];
  if (built) return `gobby:${built}`;
  if (url.startsWith('node:')) return url;
  return url;
}

export function formatShares(shares: readonly ProfileShare[]): string {
  return shares.map((share) => `${share.name} ${share.percent.toFixed(1)}%`).join(', ');
}
