// The parts of Claude Code's settings.json whose wrong type makes Claude Code
// ignore the whole file, hooks included, without a word (claude-code-hooks.md
// §1 fact 6). The installer validates before and after editing so gobby never
// writes a file that silently switches enforcement off. Field types mirror the
// zod schemas bundled in the claude binary v2.1.330 (§3). Unknown keys pass
// through: Claude Code ignores them and other tools may own them.
import { z } from 'zod';

const failurePolicySchema = z.enum(['continue', 'block']);

// Fields every handler type accepts.
const handlerCommonShape = {
  if: z.string().optional(),
  timeout: z.number().positive().optional(),
  statusMessage: z.string().optional(),
  once: z.boolean().optional(),
};

const commandHandlerSchema = z.looseObject({
  ...handlerCommonShape,
  type: z.literal('command'),
  command: z.string(),
  args: z.array(z.string()).optional(),
  shell: z.string().optional(),
  onFailure: failurePolicySchema.optional(),
  async: z.boolean().optional(),
  asyncRewake: z.boolean().optional(),
});

const httpHandlerSchema = z.looseObject({
  ...handlerCommonShape,
  type: z.literal('http'),
  url: z.url(),
  onFailure: failurePolicySchema.optional(),
  headers: z.record(z.string(), z.string()).optional(),
  allowedEnvVars: z.array(z.string()).optional(),
});

const promptHandlerSchema = z.looseObject({
  ...handlerCommonShape,
  type: z.literal('prompt'),
  prompt: z.string(),
  model: z.string().optional(),
  continueOnBlock: z.boolean().optional(),
});

const agentHandlerSchema = z.looseObject({
  ...handlerCommonShape,
  type: z.literal('agent'),
  prompt: z.string(),
  model: z.string().optional(),
});

const mcpToolHandlerSchema = z.looseObject({
  ...handlerCommonShape,
  type: z.literal('mcp_tool'),
  server: z.string(),
  tool: z.string(),
  input: z.record(z.string(), z.unknown()).optional(),
  onFailure: failurePolicySchema.optional(),
});

const hookHandlerSchema = z.discriminatedUnion('type', [
  commandHandlerSchema,
  httpHandlerSchema,
  promptHandlerSchema,
  agentHandlerSchema,
  mcpToolHandlerSchema,
]);

const matcherGroupSchema = z.looseObject({
  matcher: z.string().optional(),
  hooks: z.array(hookHandlerSchema),
});

// Keyed by any string: Claude Code drops an unknown event name and keeps the rest.
const hooksSchema = z.record(z.string(), z.array(matcherGroupSchema));

const permissionsSchema = z.looseObject({
  allow: z.array(z.string()).optional(),
  deny: z.array(z.string()).optional(),
  ask: z.array(z.string()).optional(),
  defaultMode: z.string().optional(),
  additionalDirectories: z.array(z.string()).optional(),
});

const settingsSchema = z.looseObject({
  hooks: hooksSchema.optional(),
  permissions: permissionsSchema.optional(),
  env: z.record(z.string(), z.string()).optional(),
  model: z.string().optional(),
});

export type CommandHandler = z.infer<typeof commandHandlerSchema>;
export type HttpHandler = z.infer<typeof httpHandlerSchema>;
export type HookHandler = z.infer<typeof hookHandlerSchema>;
export type MatcherGroup = z.infer<typeof matcherGroupSchema>;
export type HooksConfig = z.infer<typeof hooksSchema>;
export type Settings = z.infer<typeof settingsSchema>;

export type SettingsValidation = { ok: true } | { ok: false; problems: string[] };

/** Checks a parsed settings.json; problems read like `hooks.PreToolUse[0].hooks[1].url: Invalid URL`. */
export function validateSettings(value: unknown): SettingsValidation {
  const result = settingsSchema.safeParse(value);
  if (result.success) return { ok: true };
  return { ok: false, problems: result.error.issues.map(formatIssue) };
}

function formatIssue(issue: z.core.$ZodIssue): string {
  return `${formatPath(issue.path)}: ${issue.message}`;
}

/** `['hooks', 'PreToolUse', 0, 'url']` → `hooks.PreToolUse[0].url`. */
function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(settings root)';
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += out ? `.${key}` : key;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}
