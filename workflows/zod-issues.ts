// One wording for zod's validation issues, for every boundary that validates with zod
// (workflow files, hook payloads, control-API bodies). Pure, so the engine may use it too.
import type { z } from 'zod';

/**
 * `where: what`, where `where` is the dotted path of the bad field, or `whole` (e.g.
 * "(body)", "the file") when the issue is about the value itself. Unknown keys are named.
 */
export function describeZodIssue(issue: z.core.$ZodIssue, whole: string): string {
  const where = issue.path.length > 0 ? issue.path.map(String).join('.') : whole;
  if (issue.code === 'unrecognized_keys') {
    return `${where}: unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `\`${key}\``).join(', ')}`;
  }
  return `${where}: ${issue.message}`;
}

/** The first `limit` issues, described and joined by "; ". */
export function describeZodIssues(issues: readonly z.core.$ZodIssue[], whole: string, limit = issues.length): string {
  return issues
    .slice(0, limit)
    .map((issue) => describeZodIssue(issue, whole))
    .join('; ');
}
