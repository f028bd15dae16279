// gobby's own ground for Claude Code's file tools, through the daemon: a path is judged as the
// tool will open it, after `.`/`..` and relative paths are resolved, and through the symbolic
// links on disk that the agent could have made earlier with code gobby cannot see into.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { TestDaemon, writeProjectWorkflow } from './test-daemon.js';

let t: TestDaemon;
let session: string;

beforeEach(async () => {
  t = TestDaemon.create();
  writeProjectWorkflow(t.project, 'free.yaml', 'name: free\nphases:\n  - name: work\n    allowed_tools: all\n');
  await t.setWorkflow('free');
  mkdirSync(join(t.project, '.claude'), { recursive: true });
  writeFileSync(join(t.project, 'README.md'), 'hi\n');
  symlinkSync(t.home, join(t.project, 'gh'));
  symlinkSync(join(t.project, '.claude'), join(t.project, 'cl'));
  session = t.newSessionId();
  await t.sessionStart(session);
});
afterEach(async () => t?.dispose());

async function denied(tool: string, input: Record<string, unknown>): Promise<string | undefined> {
  const output = (await t.preToolUse(session, tool, input)).body.hookSpecificOutput;
  return output?.permissionDecision === 'deny' ? (output.permissionDecisionReason as string) : undefined;
}

it('follows symbolic links to the token and to the hook settings', async () => {
  expect(await denied('Read', { file_path: join(t.project, 'gh', 'token') })).toContain("gobby's control token");
  expect(await denied('Grep', { pattern: '.', path: join(t.project, 'gh') })).toContain("gobby's control token");
  expect(await denied('Write', { file_path: join(t.project, 'cl', 'settings.local.json'), content: '{}' })).toContain("gobby's own ground");
  // A file that does not exist yet, below a link: its folder's real path counts.
  expect(await denied('Write', { file_path: join(t.project, 'gh', 'workflows', 'new.yaml'), content: 'x' })).toContain("gobby's own ground");
  expect(t.auditRows(session).filter((row) => row.event === 'tamper:secret')).toHaveLength(2);
});

it('finds the paths an MCP tool names anywhere in its input, through links too', async () => {
  expect(await denied('mcp__filesystem__read_multiple_files', { paths: ['README.md', 'gh/token'] })).toContain("gobby's control token");
  expect(await denied('mcp__filesystem__move_file', { source: 'cl/settings.local.json', destination: '/tmp/x.json' })).toContain("gobby's own ground");
  expect(await denied('mcp__filesystem__move_file', { source: 'README.md', destination: 'docs/README.md' })).toBeUndefined();
});

it('resolves . and .. and relative paths before judging', async () => {
  expect(await denied('Write', { file_path: join(t.project, 'src', '..', '.claude', 'settings.json'), content: '{}' })).toBeDefined();
  expect(await denied('Edit', { file_path: '.claude/settings.local.json', old_string: 'a', new_string: 'b' })).toBeDefined();
});

it('lets ordinary file work through, links included', async () => {
  symlinkSync(join(t.project, 'README.md'), join(t.project, 'readme-link.md'));
  expect(await denied('Read', { file_path: join(t.project, 'readme-link.md') })).toBeUndefined();
  expect(await denied('Write', { file_path: join(t.project, 'cl', 'commands', 'review.md'), content: 'x' })).toBeUndefined();
  expect(await denied('Grep', { pattern: 'hi' })).toBeUndefined();
});

it('follows the same links for a Bash command, and lets a link itself be removed', async () => {
  const bash = (command: string) => denied('Bash', { command });
  expect(await bash('cat gh/token')).toContain("gobby's control token");
  expect(await bash('grep -r secret gh')).toContain("gobby's control token");
  expect(await bash("echo '{}' > cl/settings.local.json")).toContain("gobby's own ground");
  expect(await bash('rm cl/settings.local.json')).toContain("gobby's own ground");
  expect(await bash('mv cl/settings.local.json /tmp/x')).toContain("gobby's own ground");
  // Through a glob or a trailing slash, the link's folder is followed too.
  expect(await bash('sed -i s/a/b/ cl/*.json')).toContain("gobby's own ground");
  expect(await bash('rm -rf gh/')).toContain("gobby's own ground");
  expect(await bash('cat gh/tok*')).toContain("gobby's control token");
  // A glob that names the link itself is matched on disk: `g[h]` is gh, `c?` is cl.
  expect(await bash('cat g[h]/token')).toContain("gobby's control token");
  expect(await bash("echo '{}' > c?/settings.local.json")).toContain("gobby's own ground");
  // Removing or renaming the link acts on the link, not on what it points to.
  expect(await bash('rm cl && mv gh gobby-home-link && rm -f c?')).toBeUndefined();
  symlinkSync(join(t.project, 'README.md'), join(t.project, 'readme-link.md'));
  expect(await bash('cat readme-link.md && grep -rn hi . && echo x > notes.txt')).toBeUndefined();
  expect(t.auditRows(session).filter((row) => row.event === 'tamper:secret')).toHaveLength(4);
});

it("reads the agent's own process through /proc/self, not the daemon's, and still keeps the daemon's out of reach", async () => {
  const bash = (command: string) => denied('Bash', { command });
  // The daemon resolves /proc/self to itself; the agent's command reads its own process there.
  expect(await bash('cat /proc/self/status && ls /proc/self/fd && cat /proc/mounts /etc/mtab')).toBeUndefined();
  expect(await denied('Read', { file_path: '/proc/self/status' })).toBeUndefined();
  expect(await denied('Read', { file_path: '/proc/mounts' })).toBeUndefined();
  // The daemon's process by its pid, or through a link to it, stays out of reach.
  expect(await bash(`cat /proc/${process.pid}/environ`)).toContain("gobby's daemon process");
  symlinkSync(`/proc/${process.pid}`, join(t.project, 'dp'));
  expect(await bash('cat dp/environ')).toContain("gobby's daemon process");
  expect(await denied('Read', { file_path: join(t.project, 'dp', 'environ') })).toContain("gobby's daemon process");
  // What the kernel says of it without its memory, files or environment is readable.
  expect(await denied('Read', { file_path: join(t.project, 'dp', 'status') })).toBeUndefined();
});
